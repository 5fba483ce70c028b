"""The games' evaluations prefer what a player would, and ismcts starts from them."""

from __future__ import annotations

import copy
import math
import random

import pytest

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


def ten_thousand_view(phase: str):
    """p1's view in its own turn, at `phase`, with the seat's flags cleared."""
    state, hello = start("ten-thousand", ["p1", "p2"], seed=2)
    state = play_until(state, lambda s: s.view("p1")["current"] == "p1"
                       and s.view("p1")["phase"] == phase, random.Random(1))
    view = copy.deepcopy(state.view("p1"))
    view["flags"], view["window"] = [], None
    return view, evaluator_for(hello)


def test_ten_thousand_foraging_costs_distance_while_the_travel_roll_is_to_come():
    view, evaluator = ten_thousand_view("forage")
    foraged = copy.deepcopy(view)
    foraged["flags"] = ["foraged"]
    fed = copy.deepcopy(foraged)
    fed["armies"]["p1"]["tokens"]["food"] += 1
    # foraging (-2 on the Travel roll) for one food is a loss; with no roll to come, no cost
    assert evaluator.values(foraged)["p1"] < evaluator.values(fed)["p1"] \
        < evaluator.values(view)["p1"]
    met_satrap = copy.deepcopy(view)
    met_satrap["flags"] = ["satrap", "attacked"]
    assert evaluator.values(met_satrap)["p1"] < evaluator.values(foraged)["p1"]
    end_view = copy.deepcopy(view)
    end_view["phase"] = "end"
    end_foraged = copy.deepcopy(end_view)
    end_foraged["flags"] = ["foraged"]
    assert evaluator.values(end_foraged)["p1"] == evaluator.values(end_view)["p1"]


def test_ten_thousand_a_lead_far_from_the_sea_is_less_sure_than_near_it():
    view, evaluator = ten_thousand_view("forage")

    def lead_at(space: int) -> float:
        changed = copy.deepcopy(view)
        for seat in ("p1", "p2"):
            changed["armies"][seat]["space"] = space
        changed["armies"]["p1"]["men"] = changed["armies"]["p2"]["men"] + 1000
        return evaluator.values(changed)["p1"]

    assert 0.5 < lead_at(5) < lead_at(55)


def test_earth_and_water_persian_armies_count_once_a_fleet_or_the_bridge_can_carry_them():
    state, hello = first_purchase("persia")
    evaluator = evaluator_for(hello)
    view = copy.deepcopy(state.view("persia"))
    for city in view["cities"]:
        city["persia_fleets"] = 0

    def persia(change) -> float:
        changed = copy.deepcopy(view)
        change(changed)
        return evaluator.values(changed)["persia"]

    def add(key: str, count: int):
        def change(v):
            next(c for c in v["cities"] if c["name"] == "Abydos")[key] += count
        return change

    stranded_army = persia(add("persia_armies", 1)) - persia(lambda v: None)
    fleet = persia(add("persia_fleets", 1)) - persia(lambda v: None)
    # the first fleet carries an army that could not leave Asia: worth more than one more army
    assert 0 < stranded_army < fleet

    def bridged(v):
        v["bridge"] = True
        add("persia_armies", 1)(v)

    assert persia(bridged) - persia(lambda v: v.update(bridge=True)) > 2 * stranded_army


def epireia_battle(step: str):
    """A two-player Epireia game played at random to its great battle's `step`."""
    state, hello = start("epireia", ["p1", "p2"], seed=4)
    state = play_until(state, lambda s: s.view("p1")["step"] == step, random.Random(0))
    return state, evaluator_for(hello)


def test_epireia_in_the_great_battle_a_token_placed_beats_a_slot_left_empty():
    state, evaluator = epireia_battle("battle-tokens")
    decision = next(d for d in state.pending() if d.seat == "p1")
    placing = [a for a in decision.legal if a != "empty"]
    assert placing and "empty" in decision.legal
    scores = judge(evaluator, state, decision, random.Random(2), samples=1, depth=0, width=1)
    assert max(scores[a] for a in placing) > scores["empty"]
    # the whole army still to place: the position reads as it did before the battle began
    assert 0.05 < scores["empty"] < 0.95


def test_epireia_a_front_won_in_the_great_battle_raises_the_league_s_chance():
    state, evaluator = epireia_battle("battle-fight")
    view = state.view("p1")
    league = next(name for name, league in view["leagues"].items() if "p1" in league["seats"])
    other = next(name for name in view["leagues"] if name != league)
    front = evaluator.fronts[-1][0]   # fought last: still undecided now

    def with_front(winner):
        changed = copy.deepcopy(view)
        changed["battle"]["fronts"][front] = winner
        return evaluator.values(changed)["p1"]

    assert with_front(league) > evaluator.values(view)["p1"] > with_front(other)


def city_states_recruiting(step: str):
    """p1 at its own `step` of the recruit phase (`recruit`: pick a city; `recruit_in`: buy
    there, an army among the choices), with gold for it."""
    state, hello = start("city-states", ["p1", "p2"], seed=2)

    def there(s) -> bool:
        pending = s.pending()
        return bool(pending) and pending[0].seat == "p1" and s.view("p1")["step"] == step \
            and (step != "recruit_in" or "army" in pending[0].legal)

    return play_until(state, there, random.Random(1)), evaluator_for(hello)


def test_city_states_the_free_diplomacy_roll_counts_until_it_is_made():
    state, evaluator = city_states_recruiting("recruit")
    view = state.view("p1")
    assert view["active"] == "p1"

    def p1_at(phase: str) -> float:
        changed = copy.deepcopy(view)
        changed["phase"] = phase
        return evaluator.values(changed)["p1"]

    # ending the recruit phase gives up nothing: the roll to come is already counted,
    # and once the diplomacy phase has begun the roll's own outcome counts
    assert p1_at("upkeep") == p1_at("recruit") > p1_at("diplomacy") == p1_at("first_move")


def test_city_states_a_city_recruiting_counts_the_army_it_may_still_buy():
    state, evaluator = city_states_recruiting("recruit_in")
    before = evaluator.values_in(state, "p1")["p1"]
    assert before > evaluator.values(state.view("p1"))["p1"]
    state.apply("p1", "army")
    # buying it changes nothing; leaving the city without it would lose it
    assert evaluator.values_in(state, "p1")["p1"] == pytest.approx(before)


def test_city_states_a_fleet_counts_as_a_warship_only_when_manned():
    state, evaluator = city_states_recruiting("recruit")
    view = state.view("p1")
    stack = next(stack for stack in view["spaces"] if stack["player"] == "p1")

    def p1_with(fleets: int, rowers: int) -> float:
        changed = copy.deepcopy(view)
        mine = next(s for s in changed["spaces"] if s["id"] == stack["id"])
        mine["fleets"], mine["rowers"] = fleets, rowers
        return evaluator.values(changed)["p1"]

    manned_gain = p1_with(1, 1) - p1_with(0, 1)
    hull_gain = p1_with(1, 0) - p1_with(0, 0)
    assert manned_gain > 3 * hull_gain > 0
