"""Empires, territories, brigands, Greek cities, collection (the rulebook's worked examples
are in test_rulebook.py)."""

from __future__ import annotations


def two(setup_game, cities=("athens", "sparta"), figures=("pericles", "leonidas"), **kw):
    return setup_game(cities=list(cities), figures=list(figures), **kw)


# ---------------------------------------------------------------- empires
def test_lone_figure_needs_the_one_figure_number(setup_game, h, load_dice):
    state = two(setup_game)
    load_dice(state, [5])
    h.diplomacy(state, {"p1": [("pericles", "macedonia")]})
    assert state.player("p1")["res"]["wood"] == 2 + 2 + 1


def test_embassy_adds_two_to_empire_rolls(setup_game, h, load_dice):
    state = two(setup_game)
    state.player("p1")["buildings"] = ["embassy"]
    load_dice(state, [5])
    h.diplomacy(state, {"p1": [("pericles", "persia")]})
    assert state.player("p1")["res"]["copper"] == 2 + 3 + 1


def test_sea_empires_need_a_sea_figure_and_one_figure_per_league(setup_game, h):
    state = setup_game(players=4, figures=["pericles", "brasidas", "periander", "xenoclea"])
    h.pass_development(state)
    h.move(state, "p2", "brasidas", "egypt")  # p2 has nothing left to move: p3 is next
    assert "to egypt" not in [a for a in legal_for(state, "p3", "periander")]
    state.apply("p3", "done")
    assert "to egypt" not in legal_for(state, "p1", "pericles")  # Pericles has no sea icon
    state.apply("p1", "done")
    assert "to egypt" in legal_for(state, "p4", "xenoclea")  # the other league may share it


def legal_for(state, seat, figure):
    assert state.pending()[0].seat == seat
    state.apply(seat, f"send {figure}")
    legal = list(state.pending()[0].legal)
    state.apply(seat, "back")
    return legal


def test_empire_rewards_table(setup_game, h, load_dice):
    expected = {"phoenicia": {"wood": 1, "copper": 1}, "egypt": {"wheat": 3},
                "carthage": {"copper": 2, "wheat": 1}, "macedonia": {"wood": 2}}
    for empire, reward in expected.items():
        state = two(setup_game, figures=("themistocles", "leonidas"))
        state.player("p1")["res"] = {"wheat": 0, "wood": 0, "copper": 0}
        load_dice(state, [12])
        h.diplomacy(state, {"p1": [("themistocles", empire)]})
        got = {r: n - 1 for r, n in state.player("p1")["res"].items() if n - 1}
        assert got == reward, empire
    state = two(setup_game, figures=("themistocles", "leonidas"))
    load_dice(state, [12])
    h.diplomacy(state, {"p1": [("themistocles", "syracuse")]})
    assert [t["deck"] for t in state.g["leagues"]["delian"]["reserve"]] == ["triremes-1"]


# ---------------------------------------------------------------- territories
def test_tied_conflict_sends_everyone_home(setup_game, h, load_dice):
    state = two(setup_game, figures=("cleisthenes", "brasidas"))
    load_dice(state, [6, 6])
    h.diplomacy(state, {"p2": [("brasidas", "euboea")], "p1": [("cleisthenes", "euboea")]})
    assert state.g["territories"]["euboea"]["owner"] is None
    assert state.player("p1")["pos"]["cleisthenes"] == "home"


def test_tied_conflict_on_a_held_territory_leaves_it_to_its_holder_unguarded(setup_game, h, load_dice):
    """Resolution 2 (a tie wins nobody the territory, every figure goes home): the holder's
    city token stays, its guard goes home, no tax changes hands."""
    state = two(setup_game)
    state.g["territories"]["ionia"]["owner"] = "p2"
    state.player("p2")["posts"] = 2
    state.player("p2")["pos"]["leonidas"] = "ionia"
    load_dice(state, [5, 5])  # Pericles 5 + 3 = 8 against Leonidas 5 + 3 = 8
    h.diplomacy(state, {"p1": [("pericles", "ionia")]})
    assert state.g["territories"]["ionia"]["owner"] == "p2"
    assert state.player("p2")["posts"] == 2
    assert state.player("p2")["pos"]["leonidas"] == state.player("p1")["pos"]["pericles"] == "home"
    assert state.player("p1")["res"]["copper"] == 2 + 1   # no tax, only the turn's income


def test_brigand_thresholds(engine):
    assert [engine.tables.brigand_target(a) for a in (1, 2, 3, 4, 5, 8)] == [7, 7, 5, 5, 3, 3]


def test_unprotected_enemy_territory_is_taken_without_a_roll(setup_game, h, load_dice):
    state = two(setup_game)
    state.g["territories"]["ionia"]["owner"] = "p2"
    state.player("p2")["posts"] = 2
    load_dice(state, [])
    h.diplomacy(state, {"p1": [("pericles", "ionia")]})
    assert state.g["territories"]["ionia"]["owner"] == "p1"
    assert state.player("p2")["posts"] == 3
    assert state.player("p1")["res"]["copper"] == 2 + 2 + 1  # the tax is collected again


def test_protector_defends_its_territory(setup_game, h, load_dice):
    state = two(setup_game)
    state.g["territories"]["ionia"]["owner"] = "p2"
    state.player("p2")["pos"]["leonidas"] = "ionia"
    load_dice(state, [2, 9])  # Pericles 2+3 = 5 against Leonidas 9+3 = 12
    h.diplomacy(state, {"p1": [("pericles", "ionia")]})
    assert state.g["territories"]["ionia"]["owner"] == "p2"
    assert state.player("p2")["pos"]["leonidas"] == "ionia"


def test_no_trade_post_left_the_player_gives_up_a_territory(setup_game, h, load_dice):
    state = two(setup_game)
    for t in ("epirus", "illyria", "euboea"):
        state.g["territories"][t]["owner"] = "p1"
    state.player("p1")["posts"] = 0
    load_dice(state, [])
    h.diplomacy(state, {"p1": [("pericles", "aeolis")]})
    decision = state.pending()[0]
    assert decision.seat == "p1"
    assert decision.legal == ["release epirus", "release illyria", "release euboea"]
    state.apply("p1", "release illyria")
    assert state.g["territories"]["illyria"]["owner"] is None
    assert state.g["territories"]["epirus"]["owner"] == "p1"
    assert state.g["territories"]["aeolis"]["owner"] == "p1" and state.player("p1")["posts"] == 0
    assert state.player("p1")["res"]["wheat"] == 2 + 2 + 1  # Aeolis's tax, once


def test_a_territory_given_up_is_left_by_its_guard_and_not_retaken_for_free(setup_game, h, load_dice):
    state = two(setup_game)
    h.give_figures(state, "p1", ["pericles", "cleisthenes"])
    for t in ("epirus", "illyria", "euboea"):
        state.g["territories"][t]["owner"] = "p1"
    state.player("p1")["posts"] = 0
    state.player("p1")["pos"]["cleisthenes"] = "epirus"   # guarding Epirus
    load_dice(state, [])
    h.diplomacy(state, {"p1": [("pericles", "aeolis")]})
    assert state.notes(state.pending()[0])["release epirus"].endswith("Cleisthenes goes home")
    state.apply("p1", "release epirus")
    assert state.g["territories"]["epirus"]["owner"] is None
    assert state.player("p1")["pos"]["cleisthenes"] == "home"   # withdrawn with the token
    wood = state.player("p1")["res"]["wood"]
    h.diplomacy(state, {})   # a turn without moving
    assert state.g["territories"]["epirus"]["owner"] is None
    assert state.player("p1")["res"]["wood"] == wood + 1   # income only, no Epirus tax again


def test_partner_territory_cannot_be_entered(setup_game, h):
    state = setup_game(players=3)
    state.g["territories"]["epirus"]["owner"] = "p3"
    h.pass_development(state)
    state.apply("p2", "done")
    assert "to epirus" not in legal_for(state, "p1", "pericles")


def test_sea_territories_need_the_sea_icon(setup_game, h):
    state = two(setup_game, figures=("themistocles", "leonidas"))
    h.pass_development(state)
    state.apply("p2", "send leonidas")
    assert "to aigaio-pelagos" not in state.pending()[0].legal
    state.apply("p2", "back")
    state.apply("p2", "done")
    assert "to aigaio-pelagos" in legal_for(state, "p1", "themistocles")


# ---------------------------------------------------------------- Greek cities
def test_integration_success_brings_copper_and_the_city_token(setup_game, h, load_dice):
    state = two(setup_game)
    load_dice(state, [7])
    h.diplomacy(state, {"p1": [("pericles", "delphi")]})
    held = state.g["integrated"]["delphi"]
    assert held["league"] == "delian" and held["token"]["deck"] == "cavalry-2"
    assert state.player("p1")["res"]["copper"] == 2 + 1 + 1
    assert state.player("p1")["pos"]["pericles"] == "home"


def test_integration_failure_and_proxenia(setup_game, h, load_dice):
    state = two(setup_game)
    load_dice(state, [6])
    h.diplomacy(state, {"p1": [("pericles", "corinth")]})
    assert "corinth" not in state.g["integrated"]
    state = two(setup_game)
    state.player("p1")["buildings"] = ["proxenia"]
    load_dice(state, [5])
    h.diplomacy(state, {"p1": [("pericles", "corinth")]})
    assert state.g["integrated"]["corinth"]["token"]["deck"] == "triremes-1"


def test_reclaiming_a_city_moves_its_token_to_the_other_league(setup_game, h, load_dice):
    state = two(setup_game)
    load_dice(state, [7, 8])
    h.diplomacy(state, {"p1": [("pericles", "elis")]})
    token = state.g["integrated"]["elis"]["token"]
    h.diplomacy(state, {"p2": [("leonidas", "elis")]})
    assert state.g["integrated"]["elis"] == {"league": "peloponnesian", "token": token}


def test_own_league_city_cannot_be_visited_again_and_played_cities_never(setup_game, h, load_dice):
    state = two(setup_game)
    state.g["integrated"]["elis"] = {"league": "delian", "token": None}
    h.pass_development(state)
    state.apply("p2", "done")
    legal = legal_for(state, "p1", "pericles")
    assert "to elis" not in legal and "to sparta" not in legal and "to athens" not in legal
    assert "to corinth" in legal


def test_rival_leagues_at_one_city_fight_first(setup_game, h, load_dice):
    state = two(setup_game)
    load_dice(state, [9, 1, 7])  # Pericles 9+3 beats Leonidas 1+3, then rolls 7 to integrate
    h.diplomacy(state, {"p2": [("leonidas", "larissa")], "p1": [("pericles", "larissa")]})
    assert state.g["integrated"]["larissa"]["league"] == "delian"


# ---------------------------------------------------------------- collection
def test_collection_gives_one_of_each(setup_game, h):
    state = two(setup_game)
    h.diplomacy(state, {})
    assert state.player("p1")["res"] == {"wheat": 3, "wood": 3, "copper": 3}
    assert state.g["turn"] == 2 and state.g["step"] == "develop"


def test_phase_orders_with_three_players(setup_game, h):
    state = setup_game(players=3)
    order = []
    while state.g["step"] == "develop":
        seat = state.pending()[0].seat
        order.append(seat)
        state.apply(seat, "pass")
    assert order == ["p1", "p3", "p2"]  # the Delian players, then the Peloponnesian
    order = []
    while state.g["step"] == "diplomacy":
        seat = state.pending()[0].seat
        order.append(seat)
        state.apply(seat, "done")
    assert order == ["p2", "p1", "p3"]


def test_protector_can_be_called_home(setup_game, h):
    state = two(setup_game)
    state.g["territories"]["epirus"]["owner"] = "p1"
    state.player("p1")["pos"]["pericles"] = "epirus"
    h.pass_development(state)
    state.apply("p2", "done")
    h.move(state, "p1", "pericles", "home")
    assert state.player("p1")["pos"]["pericles"] == "home"
    assert state.g["territories"]["epirus"]["owner"] == "p1"  # still held, now unprotected


def test_one_figure_per_player_per_city(setup_game, h):
    state = two(setup_game)
    h.give_figures(state, "p1", ["pericles", "aspasia"])
    h.pass_development(state)
    state.apply("p2", "done")
    h.move(state, "p1", "pericles", "corinth")
    assert "to corinth" not in legal_for(state, "p1", "aspasia")


def test_integration_with_an_empty_deck_still_pays_copper(setup_game, h, load_dice):
    state = two(setup_game)
    state.g["decks"]["triremes-1"] = []
    load_dice(state, [9])
    h.diplomacy(state, {"p1": [("pericles", "corinth")]})
    assert state.g["integrated"]["corinth"] == {"league": "delian", "token": None}
    assert state.player("p1")["res"]["copper"] == 2 + 1 + 1


def test_syracuse_needs_seven_alone(setup_game, h, load_dice):
    state = two(setup_game, figures=("themistocles", "leonidas"))
    load_dice(state, [6])
    h.diplomacy(state, {"p1": [("themistocles", "syracuse")]})
    assert state.g["leagues"]["delian"]["reserve"] == []
