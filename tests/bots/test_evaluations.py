"""The games' evaluations prefer what a player would, and ismcts starts from them."""

from __future__ import annotations

import copy
import math
import random

from agon.bots.greedy import evaluator_for
from agon.bots.greedy.bot import judge
from agon.bots.ismcts import IsmctsBot
from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset


def start(ruleset_id: str, seats: list[str], seed: int = 1, options: dict | None = None):
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    hello = {"game": ruleset.engine, "seats": seats, "teams": engine.teams(seats),
             "ruleset": {"id": ruleset_id}}
    return engine.new_game(seats, seed, options or {}), hello


def play_until(state, wanted, rng):
    """Random moves until `wanted(state)` holds; the state then."""
    while not wanted(state):
        decision = state.pending()[0]
        state.apply(decision.seat, rng.choice(decision.legal))
    return state


def first_purchase(seat: str):
    state, hello = start("earth-and-water", ["persia", "greece"])
    rng = random.Random(0)
    state = play_until(state, lambda s: s.pending()[0].seat == seat
                       and "buy_card" in s.pending()[0].legal, rng)
    return state, hello


def test_earth_and_water_a_side_buys_cards_before_armies_it_could_not_move():
    # Without a card a side makes no move in the operations: the first
    # purchase of a campaign goes to a card, for either side.
    for seat in ("persia", "greece"):
        state, hello = first_purchase(seat)
        evaluator = evaluator_for(hello)
        scores = judge(evaluator, state, state.pending()[0], random.Random(3), samples=2,
                       depth=2, width=4)
        assert scores["buy_card"] > scores["done"], (seat, scores)


def test_earth_and_water_cards_count_as_moves_only_while_they_can_be_played():
    state, hello = first_purchase("persia")
    evaluator = evaluator_for(hello)
    view = state.view("persia")

    def persia_with(cards: int, step: str) -> float:
        changed = copy.deepcopy(view)
        changed["hand_counts"]["persia"] = cards
        changed["step"] = step
        return evaluator.values(changed)["persia"]

    gain_in_operations = persia_with(4, "turn") - persia_with(0, "turn")
    gain_after_them = persia_with(4, "sup_cards") - persia_with(0, "sup_cards")
    assert gain_in_operations > 0.05
    assert 0 <= gain_after_them < gain_in_operations / 3
    # each card adds less to the projected margin (the chance's log-odds) than the
    # one before: a hand has only so many good moves
    def margin(cards: int) -> float:
        chance = persia_with(cards, "turn")
        return math.log(chance / (1 - chance))

    assert 0 < margin(4) - margin(3) < margin(1) - margin(0)


def solo_develop_view():
    state, hello = start("epireia-solo", ["p1"], seed=4, options={"scenario": "S1"})
    state = play_until(state, lambda s: s.view("p1")["step"] == "develop",
                       random.Random(0))
    return state.view("p1"), evaluator_for(hello)


def test_epireia_solo_tokens_to_come_need_actions_and_level_two_needs_its_building():
    view, evaluator = solo_develop_view()
    league = view["players"]["p1"]["league"]
    rich = copy.deepcopy(view)
    rich["players"]["p1"]["resources"] = {"wheat": 9, "wood": 9, "copper": 9}
    rich["decks"] = {deck: (0 if deck.endswith("-1") else count)
                     for deck, count in rich["decks"].items()}   # level I all drawn
    assert evaluator.tokens_to_come(rich, "p1", league) == []
    rich["players"]["p1"]["buildings"] = ["barracks"]
    opened = evaluator.tokens_to_come(rich, "p1", league)
    assert opened and {kind for kind, _ in opened} == {"hoplites"}
    # no actions left in the game: resources are no longer an army
    rich["solo"]["augurs_left"] = 0
    rich["players"]["p1"]["actions_left"] = 0
    assert evaluator.tokens_to_come(rich, "p1", league) == []


def test_ismcts_with_one_iteration_follows_the_evaluation_at_the_root():
    state, hello = first_purchase("persia")

    def choices(**settings) -> list[str]:
        out = []
        for seed in range(4):
            bot = IsmctsBot(seed, iterations=1, **settings)
            bot.start(hello)
            world = state.determinize("persia", random.Random(seed))
            out.append(bot.choose(state.pending()[0], state.view("persia"), world))
        return out

    assert choices() == ["buy_card"] * 4
    # without the prior, one iteration tries one action at random
    assert "done" in choices(prior=0)
