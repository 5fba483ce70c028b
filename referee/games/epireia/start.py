"""The starting position of a game: every player's pieces, the piles, the act cards."""

from __future__ import annotations

from typing import Any

from ...rng import Streams
from .tables import Tables

# Named random streams: token decks, act draws, players' dice, the solo enemy's moves (the d12
# table), the solo enemy's dice in a fight, the Augur deck.  The enemy's moves have a stream of
# their own so that they stay the same on the same seed whatever fights the player's choices bring.
STREAMS = ("tokens", "scenarios", "dice", "automaton", "automaton-fights", "augur")


def new_counters() -> dict[str, Any]:
    """What a league has done since the current scenario card was drawn."""
    return {"buildings": 0, "brigands": 0, "empires": 0, "tokens": 0,
            "tokens_by_type": {}, "maritime_taken": []}


def initial(tables: Tables, seats: list[str], seed: int, options: dict[str, Any],
            solo_scenario: str | None) -> tuple[dict[str, Any], Streams]:
    """The position before the first choice, and the game's random streams."""
    rngs = Streams.named(seed, STREAMS)
    leagues = tables.seating.get(str(len(seats)), [None]) if not solo_scenario else [None]
    start = tables.start
    players = {}
    for seat, league in zip(seats, leagues, strict=True):
        players[seat] = {
            "league": league, "city": None, "admin": None,
            "res": {r: start["resources"].get(r, 0) for r in tables.resources},
            "prestige": start["prestige"], "reached": list(range(start["prestige"] + 1)),
            "buildings": [], "figures": [], "pos": {}, "admin_spent": 0,
            "posts": start["trade_posts"], "actions": 0, "reroll_used": False,
        }
    decks = {}
    for deck in tables.tokens:
        pile = tables.deck_contents(deck)
        rngs["tokens"].shuffle(pile)
        decks[deck] = pile
    draws = []
    if not solo_scenario:
        for act in (1, 2, 3):
            draws.append(rngs["scenarios"].choice(tables.act_cards[act]))
    g: dict[str, Any] = {
        "seats": list(seats), "seed": seed, "options": dict(options),
        "players": players,
        "leagues": {lg: {"treasury": {r: 0 for r in tables.resources}, "reserve": [],
                         "counters": new_counters()} for lg in tables.leagues},
        "decks": decks,
        "territories": {t: {"owner": None, "brigand": False} for t in tables.territory_order},
        "integrated": {},
        "scenario": None, "scenario_draws": draws, "battle_after_turn": False,
        "turn": 0, "step": "pick-city", "order": list(seats), "idx": 0,
        "queue": [], "secret": {}, "augur": None, "selected": None, "moved": [],
        "tasks": [], "task": 0, "task_dice": [], "task_answers": [], "battle": None, "result": None,
        "solo": None, "enemy": None,
    }
    if solo_scenario:
        spec = tables.solo_scenarios[solo_scenario]
        augurs = sorted(tables.augurs)
        rngs["augur"].shuffle(augurs)
        g["solo"] = {"scenario": solo_scenario, "turns": spec["turns"],
                     "augurs": augurs[:spec["turns"]], "empire_successes": 0,
                     "objectives": None}
    return g, rngs
