"""Scenario cards: drawing an act, its constraint on reveal, and the objective check."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from . import registry
from .economy import give_token
from .position import Position
from .start import new_counters

PLAYING_STEPS = frozenset({"turn-start", "develop", "diplomacy", "resolution"})
OWNER = itemgetter("owner")


def draw_next_act(st: Position) -> None:
    current = st.g["scenario"]
    act = 1 if current is None else current["act"] + 1
    card = st.g["scenario_draws"][act - 1]
    spec = st.t.scenarios[card]
    st.g["scenario"] = {"id": card, "act": act, "done": False, "winner": None}
    for league in st.g["leagues"].values():
        league["counters"] = new_counters()
    st.emit("scenario", f"Act {act}: {spec['name']} is revealed", {"act": act, "scenario": card})
    for territory in spec.get("constraint", {}).get("brigands", []):
        place_brigand(st, territory)


def place_brigand(st: Position, territory: str) -> None:
    """A brigand token lands on a territory, removing any city token there."""
    spot = st.g["territories"][territory]
    owner = spot["owner"]
    if owner in st.g["players"]:
        st.player(owner)["posts"] += 1
    spot["owner"] = None
    spot["brigand"] = True
    st.emit("brigand", f"Brigands seize {st.t.territories[territory]['name']}",
            {"territory": territory})


def prestige_every_city(st: Position, league: str, least: int, seats: list[str]) -> bool:
    players = st.g["players"]
    for seat in seats:
        if players[seat]["prestige"] < least:
            return False
    return True


def treasury_per_city(st: Position, league: str, per_city: int, seats: list[str]) -> bool:
    return sum(st.g["leagues"][league]["treasury"].values()) >= per_city * len(seats)


def territories_held(st: Position, league: str, by_size: dict[str, int], seats: list[str]) -> bool:
    owners = list(map(OWNER, st.g["territories"].values()))
    return sum(map(owners.count, seats)) >= by_size[str(len(seats))]


def buildings_per_city(st: Position, league: str, per_city: int, seats: list[str]) -> bool:
    return st.g["leagues"][league]["counters"]["buildings"] >= per_city * len(seats)


def brigands_defeated(st: Position, league: str, least: int, seats: list[str]) -> bool:
    return st.g["leagues"][league]["counters"]["brigands"] >= least


def empire_successes_per_city(st: Position, league: str, per_city: int, seats: list[str]) -> bool:
    return st.g["leagues"][league]["counters"]["empires"] >= per_city * len(seats)


def tokens_per_city(st: Position, league: str, spec: dict[str, Any], seats: list[str]) -> bool:
    counters = st.g["leagues"][league]["counters"]
    kind = spec.get("type")
    count = counters["tokens"]
    if kind:   # tokens of that type, while any is left to draw
        decks = st.g["decks"]
        for deck in st.t.decks_by_type[kind]:
            if decks[deck]:
                count = counters["tokens_by_type"].get(kind, 0)
                break
    return count >= spec["count"] * len(seats)


def maritime_taken_and_held(st: Position, league: str, least: int, seats: list[str]) -> bool:
    # the league's maritime territories taken this act (a short list) that it still holds
    spots, kinds = st.g["territories"], st.t.territories
    taken = st.g["leagues"][league]["counters"]["maritime_taken"]
    if len(taken) < least:   # most often: too few taken to count
        return False
    return sum(1 for t in set(taken)
               if kinds[t]["maritime"] and spots[t]["owner"] in seats) >= least


# each kind of objective (the key of a scenario's `objective`) and its test: whether a
# league (its seats, in seat order) meets the target now
OBJECTIVES = {test.__name__: test for test in (
    prestige_every_city, treasury_per_city, territories_held, buildings_per_city,
    brigands_defeated, empire_successes_per_city, tokens_per_city, maritime_taken_and_held)}


def check(st: Position) -> None:
    """The first league to meet the active objective takes the reward (Peloponnesian first)."""
    g = st.g
    scenario = g["scenario"]
    if not scenario or scenario["done"] or g["step"] not in PLAYING_STEPS:
        return
    kind, target = st.t.objectives[scenario["id"]]
    met = OBJECTIVES[kind]
    contenders = st.contenders
    if contenders is None:   # read once per position: checks run after every step
        contenders = st.contenders = st.t.members_by_league(g["seats"])
    for league, seats in contenders:
        if met(st, league, target, seats):
            spec = st.t.scenarios[scenario["id"]]
            scenario["done"] = True
            scenario["winner"] = league
            st.emit("objective", f"The {league} league completes {spec['name']}",
                    {"league": league, "scenario": scenario["id"]})
            give_token(st, league, spec["reward"], None, f"reward of {spec['name']}")
            if scenario["act"] >= 3:
                g["battle_after_turn"] = True
            return


registry.CHECKS.append(check)
