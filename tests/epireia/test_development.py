"""Development actions, buildings, administrators and Prestige bonuses."""

from __future__ import annotations

import pytest


def rich(state, seat="p1", amount=10):
    state.player(seat)["res"] = {"wheat": amount, "wood": amount, "copper": amount}


def no_bonuses(state, seat="p1"):
    state.player(seat)["reached"] = list(range(13))


# ---------------------------------------------------------------- donate
def test_donate_moves_resources_to_the_league_and_gives_prestige(setup_game):
    state = setup_game()
    rich(state, amount=8)
    legal = state.pending()[0].legal
    assert "donate wheat 2" in legal and "donate wheat 8" in legal and "donate wheat 9" not in legal
    state.apply("p1", "donate wood 5")
    assert state.player("p1")["res"]["wood"] == 4  # 8 - 5, +1 from the Prestige 2 bonus
    assert state.g["leagues"]["delian"]["treasury"]["wood"] == 5
    assert state.player("p1")["prestige"] == 2
    assert state.player("p1")["actions"] == 1


def test_donation_needs_two_of_one_resource(setup_game):
    state = setup_game()
    state.player("p1")["res"] = {"wheat": 1, "wood": 1, "copper": 1}
    assert not [a for a in state.pending()[0].legal if a.startswith("donate")]


def test_league_treasury_is_capped_at_twenty(setup_game):
    state = setup_game()
    rich(state)
    state.g["leagues"]["delian"]["treasury"]["copper"] = 18
    state.apply("p1", "donate copper 5")
    assert state.g["leagues"]["delian"]["treasury"]["copper"] == 20


def test_same_action_twice_then_turn_passes(setup_game):
    state = setup_game()
    rich(state)
    state.apply("p1", "donate wheat 2")
    state.apply("p1", "donate wheat 2")
    assert state.pending()[0].seat == "p2"


# ---------------------------------------------------------------- buildings
BUILD_COSTS = {
    "barracks": {"wood": 2, "copper": 2}, "shipyard": {"wood": 3, "copper": 1},
    "stables": {"wheat": 2, "wood": 2}, "altar": {"wheat": 2, "wood": 1},
    "temple": {"wood": 2, "copper": 2}, "sanctuary": {"wheat": 2, "wood": 2, "copper": 2},
    "granary": {"wood": 2}, "lumber-camp": {"wheat": 2}, "mine": {"wheat": 2, "wood": 1},
    "agora": {"wheat": 2, "copper": 2}, "embassy": {"wheat": 1, "copper": 2},
    "proxenia": {"wheat": 2, "copper": 1}, "stoa": {"wheat": 1, "wood": 1, "copper": 1},
    "archeion": {"wood": 2, "copper": 1}, "strategeion": {"wheat": 2, "copper": 2},
}


@pytest.mark.parametrize("building", sorted(BUILD_COSTS))
def test_each_building_costs_what_the_table_says_and_is_built_once(setup_game, building):
    state = setup_game()
    rich(state)
    no_bonuses(state)
    state.apply("p1", f"build {building}")
    spent = {r: 10 - n for r, n in state.player("p1")["res"].items()}
    if building == "agora":
        state.apply("p1", "recruit cimon")
    assert {r: n for r, n in spent.items() if n} == BUILD_COSTS[building]
    assert building in state.player("p1")["buildings"]
    assert f"build {building}" not in state.pending()[0].legal


@pytest.mark.parametrize("building,prestige", [("altar", 3), ("temple", 4), ("sanctuary", 2)])
def test_religious_buildings_give_prestige_at_once(setup_game, building, prestige):
    state = setup_game()
    rich(state)
    state.player("p1")["reached"] = list(range(13))  # no bonuses in the way
    state.apply("p1", f"build {building}")
    assert state.player("p1")["prestige"] == prestige


def collect_once(state, h):
    h.pass_development(state)
    h.end_diplomacy(state)


def test_sanctuary_adds_prestige_at_each_collection(setup_game, h):
    state = setup_game()
    rich(state)
    state.player("p1")["reached"] = list(range(13))
    state.apply("p1", "build sanctuary")
    assert state.player("p1")["prestige"] == 2
    collect_once(state, h)
    assert state.player("p1")["prestige"] == 3


@pytest.mark.parametrize("building,resource", [("granary", "wheat"), ("lumber-camp", "wood"),
                                               ("mine", "copper")])
def test_civil_buildings_add_one_resource_per_collection(setup_game, h, building, resource):
    state = setup_game()
    state.player("p1")["res"] = {"wheat": 2, "wood": 3, "copper": 0}
    state.apply("p1", f"build {building}")
    before = dict(state.player("p1")["res"])
    collect_once(state, h)
    gained = {r: state.player("p1")["res"][r] - before[r] for r in before}
    assert gained == {r: 2 if r == resource else 1 for r in before}


@pytest.mark.parametrize("building,deck", [("barracks", "hoplites-2"), ("shipyard", "triremes-2"),
                                           ("stables", "cavalry-2")])
def test_military_buildings_unlock_level_two(setup_game, building, deck):
    state = setup_game()
    rich(state)
    assert f"produce {deck}" not in state.pending()[0].legal
    state.apply("p1", f"build {building}")
    assert f"produce {deck}" in state.pending()[0].legal


def test_agora_recruits_a_second_figure_who_can_move_this_turn(setup_game, h):
    state = setup_game()
    rich(state)
    state.apply("p1", "build agora")
    assert state.pending()[0].legal == ["recruit themistocles", "recruit cleisthenes",
                                        "recruit cimon", "recruit aspasia"]
    state.apply("p1", "recruit themistocles")
    assert state.player("p1")["figures"] == ["pericles", "themistocles"]
    h.pass_development(state)
    state.apply("p2", "done")
    assert "send themistocles" in state.pending()[0].legal


def test_agora_with_three_figures_gives_nothing(setup_game):
    state = setup_game()
    rich(state)
    state.player("p1")["figures"] = ["pericles", "cimon", "aspasia"]
    state.apply("p1", "build agora")
    assert state.pending()[0].seat == "p1" and not state.g["queue"]


# ---------------------------------------------------------------- production
def test_production_costs_and_league_payment(setup_game):
    state = setup_game()
    state.player("p1")["res"] = {"wheat": 2, "wood": 0, "copper": 1}
    state.g["leagues"]["delian"]["treasury"]["copper"] = 2
    legal = state.pending()[0].legal
    assert "produce cavalry-1" in legal and "produce hoplites-1" not in legal
    assert "produce hoplites-1 league" in legal
    state.apply("p1", "produce hoplites-1 league")
    assert state.g["leagues"]["delian"]["treasury"]["copper"] == 0
    assert state.player("p1")["res"]["copper"] == 1
    assert [t["deck"] for t in state.g["leagues"]["delian"]["reserve"]] == ["hoplites-1"]


def test_level_two_costs_three(setup_game):
    state = setup_game()
    state.player("p1")["res"] = {"wheat": 3, "wood": 0, "copper": 0}
    state.player("p1")["buildings"] = ["stables"]
    state.apply("p1", "produce cavalry-2")
    assert state.player("p1")["res"]["wheat"] == 0


def test_empty_deck_cannot_be_produced(setup_game):
    state = setup_game()
    rich(state)
    state.g["decks"]["triremes-1"] = []
    assert "produce triremes-1" not in state.pending()[0].legal


def test_token_decks_hold_the_table_counts(setup_game):
    state = setup_game()
    decks = state.g["decks"]
    assert {d: len(p) for d, p in decks.items()} == {
        "hoplites-1": 14, "hoplites-2": 14, "triremes-1": 6, "triremes-2": 6,
        "cavalry-1": 6, "cavalry-2": 6}
    assert sorted(decks["cavalry-1"]) == [1, 1, 1, 3, 3, 3]
    assert sum(decks["hoplites-2"]) / 14 == 3.0


# ---------------------------------------------------------------- administrators
def with_admin(setup_game, admin):
    state = setup_game(admins=[admin, "archon" if admin != "archon" else "merchant"])
    state.player("p1")["buildings"] = ["stoa"]
    return state


def test_admin_uses_come_from_admin_buildings(setup_game):
    state = setup_game()
    rich(state)
    assert not [a for a in state.pending()[0].legal if a.startswith("admin")]
    state.apply("p1", "build stoa")
    assert "admin token hoplites-1" in state.pending()[0].legal
    state.apply("p1", "admin token cavalry-1")
    assert not [a for a in state.pending()[0].legal if a.startswith("admin")]


def test_polemarch_takes_a_free_level_one_token(setup_game):
    state = with_admin(setup_game, "polemarch")
    state.apply("p1", "admin token triremes-1")
    assert state.g["leagues"]["delian"]["reserve"][0]["deck"] == "triremes-1"
    assert state.player("p1")["actions"] == 2


def test_archon_gives_a_third_action(setup_game):
    state = with_admin(setup_game, "archon")
    rich(state)
    state.apply("p1", "admin action")
    for _ in range(3):
        state.apply("p1", "donate wheat 2")
    assert state.pending()[0].seat == "p2"


def test_priestess_gives_two_prestige(setup_game):
    state = with_admin(setup_game, "priestess")
    state.apply("p1", "admin prestige")
    assert state.player("p1")["prestige"] == 3


def test_trapezites_exchanges_up_to_four(setup_game):
    state = with_admin(setup_game, "trapezites")
    state.player("p1")["res"] = {"wheat": 5, "wood": 0, "copper": 0}
    state.apply("p1", "admin exchange")
    for _ in range(4):
        state.apply("p1", "trade wheat copper")
    assert state.player("p1")["res"] == {"wheat": 1, "wood": 0, "copper": 4}
    assert "donate copper 2" in state.pending()[0].legal  # back in the development step


def test_merchant_gains_one_of_each(setup_game):
    state = with_admin(setup_game, "merchant")
    state.apply("p1", "admin gain")
    assert state.player("p1")["res"] == {"wheat": 3, "wood": 3, "copper": 3}


def test_architect_builds_two_cheaper_without_an_action(setup_game):
    state = with_admin(setup_game, "architect")
    state.player("p1")["res"] = {"wheat": 1, "wood": 1, "copper": 1}
    assert "admin build sanctuary" not in state.pending()[0].legal
    state.player("p1")["res"] = {"wheat": 4, "wood": 2, "copper": 0}
    no_bonuses(state)
    assert "admin build sanctuary" in state.pending()[0].legal
    state.apply("p1", "admin build sanctuary")  # the copper shortfall forces both discounts
    assert "sanctuary" in state.player("p1")["buildings"]
    assert state.player("p1")["res"] == {"wheat": 2, "wood": 0, "copper": 0}
    assert state.player("p1")["actions"] == 2


def test_architect_discount_choice(setup_game):
    state = with_admin(setup_game, "architect")
    rich(state)
    no_bonuses(state)
    state.apply("p1", "admin build temple")
    assert state.pending()[0].legal == ["discount wood", "discount copper"]
    state.apply("p1", "discount wood")
    state.apply("p1", "discount copper")
    assert state.player("p1")["res"] == {"wheat": 10, "wood": 9, "copper": 9}


# ---------------------------------------------------------------- Prestige bonuses
def raise_to(state, level, seat="p1"):
    from agon.referee.games.epireia.economy import add_prestige
    add_prestige(state, seat, level - state.player(seat)["prestige"], "test")
    from agon.referee.games.epireia import registry
    registry.advance(state)


def test_prestige_two_and_four_give_resources(setup_game):
    state = setup_game()
    state.player("p1")["res"] = {"wheat": 0, "wood": 0, "copper": 0}
    raise_to(state, 4)
    assert state.player("p1")["res"] == {"wheat": 1, "wood": 1, "copper": 1}
    raise_to(state, 1)
    raise_to(state, 4)  # each bonus only once
    assert state.player("p1")["res"] == {"wheat": 1, "wood": 1, "copper": 1}


def test_prestige_five_recruits_for_two_copper_or_is_lost(setup_game):
    state = setup_game()
    state.player("p1")["reached"] = [0, 1, 2, 3, 4]
    state.player("p1")["prestige"] = 4
    state.player("p1")["res"]["copper"] = 2
    raise_to(state, 5)
    assert "decline" in state.pending()[0].legal
    state.apply("p1", "recruit aspasia")
    assert state.player("p1")["res"]["copper"] == 0 and "aspasia" in state.player("p1")["figures"]
    other = setup_game()
    other.player("p1")["reached"] = [0, 1, 2, 3, 4]
    other.player("p1")["res"]["copper"] = 1
    raise_to(other, 5)
    assert not other.g["queue"] and other.player("p1")["figures"] == ["pericles"]


def test_prestige_six_bonus_building_one_cheaper(setup_game):
    state = setup_game()
    state.player("p1")["reached"] = [0, 1, 2, 3, 4, 5]
    state.player("p1")["prestige"] = 5
    state.player("p1")["res"] = {"wheat": 0, "wood": 1, "copper": 2}
    raise_to(state, 6)
    assert state.pending()[0].legal == ["build barracks", "build temple", "build granary",
                                        "build embassy", "build stoa", "build archeion", "forfeit"]
    state.apply("p1", "build granary")
    assert "granary" in state.player("p1")["buildings"] and state.player("p1")["actions"] == 2


def test_prestige_eight_free_token_and_ten_cheaper_level_two(setup_game):
    state = setup_game()
    state.player("p1")["reached"] = list(range(8))
    state.player("p1")["prestige"] = 7
    state.player("p1")["buildings"] = ["barracks"]
    state.player("p1")["res"] = {"wheat": 0, "wood": 0, "copper": 2}
    raise_to(state, 8)
    state.apply("p1", "take cavalry-1")
    raise_to(state, 10)
    assert state.pending()[0].legal == ["produce hoplites-2", "forfeit"]
    state.apply("p1", "produce hoplites-2")
    decks = [t["deck"] for t in state.g["leagues"]["delian"]["reserve"]]
    assert decks == ["cavalry-1", "hoplites-2"] and state.player("p1")["res"]["copper"] == 0


def test_prestige_twelve_two_resources_and_the_cap(setup_game):
    state = setup_game()
    state.player("p1")["reached"] = list(range(12))
    state.player("p1")["prestige"] = 11
    raise_to(state, 15)
    assert state.player("p1")["prestige"] == 12
    state.apply("p1", "gain wood")
    state.apply("p1", "gain wood")
    assert state.player("p1")["res"]["wood"] == 4


def test_player_resources_are_capped_at_ten(setup_game):
    state = with_admin(setup_game, "merchant")
    rich(state, amount=10)
    state.apply("p1", "admin gain")
    assert state.player("p1")["res"] == {"wheat": 10, "wood": 10, "copper": 10}
