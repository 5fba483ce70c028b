"""The great battle: placement, columns, engage decisions, fronts and tie-breaks."""

from __future__ import annotations

from agon.referee.games.epireia import registry
from agon.referee.games.epireia.battle import start_battle


def tok(deck, power):
    return {"deck": deck, "power": power}


def fight(state, placed, figs=None):
    """Jump to the fighting with tokens {side: {slot: power}} and figures {side: {front: id}}."""
    start_battle(state)
    b = state.g["battle"]
    for side, slots in placed.items():
        b["placed"][side] = {k: tok("hoplites-1", p) for k, p in slots.items()}
        b["slot"][side] = 18
    for side in b["sides"]:
        b["figs"][side] = dict((figs or {}).get(side, {}))
        b["fig_front"][side] = 3
    b["figures_revealed"] = True
    state.g["step"] = "battle-fight"
    registry.advance(state)
    return state


def hold_all(state):
    while state.pending():
        state.apply(state.pending()[0].seat, "hold")


def test_battlefield_has_three_fronts_of_three_columns_and_two_rows(engine):
    slots = engine.tables.slots()
    assert len(slots) == 18
    assert engine.tables.slot_types("flank", 0) == ["cavalry"]
    assert engine.tables.slot_types("maritime", 1) == ["triremes", "hoplites"]


def test_placement_is_simultaneous_and_respects_slot_types(setup_game):
    state = setup_game(players=4)
    leagues = state.g["leagues"]
    leagues["delian"]["reserve"] = [tok("hoplites-1", 2), tok("cavalry-1", 3), tok("triremes-1", 2)]
    leagues["peloponnesian"]["reserve"] = [tok("cavalry-2", 4), tok("hoplites-2", 3)]
    start_battle(state)
    registry.advance(state)
    pending = state.pending()
    assert [d.seat for d in pending] == ["p1", "p2"]  # one placer per league, both at once
    assert pending[0].legal == ["place cavalry-1 3", "empty"]  # flank front row: cavalry only
    state.apply("p1", "place cavalry-1 3")
    state.apply("p2", "empty")
    pending = state.pending()
    assert [d.seat for d in pending] == ["p4", "p3"]  # partners alternate
    assert pending[0].legal == ["place hoplites-1 2", "empty"]


def test_integrated_city_tokens_join_the_army(setup_game):
    state = setup_game(players=2)
    state.g["integrated"]["elis"] = {"league": "delian", "token": tok("triremes-1", 3)}
    start_battle(state)
    assert state.g["battle"]["pool"]["delian"] == [tok("triremes-1", 3)]


def test_figures_are_placed_face_down_then_revealed(setup_game):
    state = setup_game(players=2)
    state.player("p1")["figures"] = ["pericles", "cimon"]
    start_battle(state)
    registry.advance(state)
    assert state.g["step"] == "battle-figures"
    assert [d.legal for d in state.pending()] == [["commit pericles", "commit cimon", "empty"],
                                                  ["commit leonidas", "empty"]]
    events = state.apply("p1", "commit cimon")
    assert all(e.to == frozenset({"p1"}) for e in events)
    assert state.view("p2")["battle"]["sides"]["delian"]["figures"] == {}
    state.apply("p2", "commit leonidas")
    events = state.apply("p1", "commit pericles")
    assert [e.text for e in events if e.type == "reveal"] == [
        "The delian league reveals Cimon on the flank",
        "The delian league reveals Pericles on the center",
        "The peloponnesian league reveals Leonidas on the flank"]
    assert state.view("p2")["battle"]["sides"]["delian"]["figures"] == {"flank": "cimon",
                                                                        "center": "pericles"}


def test_a_league_short_of_figures_chooses_the_fronts_they_fight_on(setup_game):
    """Rulebook, the great battle 3: one figure per front; with fewer figures than fronts
    the league picks the fronts (decision), so Themistocles can sail to the maritime one."""
    state = setup_game(players=2, figures=["themistocles", "leonidas"])
    state.player("p1")["figures"] = ["themistocles", "pericles"]
    start_battle(state)
    registry.advance(state)
    state.apply("p1", "empty")   # no figure on the flank
    state.apply("p2", "commit leonidas")
    assert state.pending()[0].legal == ["commit themistocles", "commit pericles"]  # 2 for 2
    state.apply("p1", "commit pericles")
    assert state.pending()[0].legal == ["commit themistocles"]  # the last front must be filled
    state.apply("p1", "commit themistocles")
    assert state.g["battle"]["figs"] == {"delian": {"center": "pericles",
                                                    "maritime": "themistocles"},
                                         "peloponnesian": {"flank": "leonidas"}}
    assert state.g["step"] == "battle-fight"


def test_columns_and_fronts(setup_game):
    state = setup_game(players=2)
    fight(state, {
        "delian": {"flank-1-1": 3, "flank-1-2": 1, "center-1-1": 2, "center-2-1": 4,
                   "maritime-1-1": 2},
        "peloponnesian": {"flank-1-1": 2, "flank-1-2": 2, "center-1-1": 3, "center-3-1": 1,
                          "maritime-1-1": 2},
    })
    b = state.g["battle"]
    assert b["columns"]["flank-1"] is None  # 4 against 4
    assert b["columns"]["center-1"] == "peloponnesian" and b["columns"]["center-2"] == "delian"
    assert b["columns"]["center-3"] == "peloponnesian"
    assert b["fronts"] == {"flank": None, "center": "peloponnesian", "maritime": None}


def test_one_column_won_and_two_tied_wins_the_front(setup_game):
    state = setup_game(players=2)
    fight(state, {"delian": {"center-2-2": 1}, "peloponnesian": {}})
    assert state.g["battle"]["fronts"]["center"] == "delian"
    result = state.result()
    assert result.ranks == {"p1": 1, "p2": 2} and result.teams == {"delian": ["p1"],
                                                                   "peloponnesian": ["p2"]}


def test_the_league_behind_decides_first_and_the_leader_may_answer(setup_game):
    state = setup_game(players=2, figures=["pericles", "leonidas"])
    fight(state, {"delian": {"flank-1-1": 3}, "peloponnesian": {"flank-1-1": 1}},
          {"delian": {"flank": "pericles"}, "peloponnesian": {"flank": "leonidas"}})
    decision = state.pending()[0]
    assert decision.seat == "p2" and decision.legal == ["engage", "hold"]
    state.apply("p2", "engage")  # 1 + 3 = 4 against 3
    assert state.pending()[0].seat == "p1"
    state.apply("p1", "engage")  # 3 + 3 = 6 against 4
    assert state.g["battle"]["columns"]["flank-1"] == "delian"


def test_the_answering_league_sees_the_figure_already_engaged_in_its_totals(setup_game):
    state = setup_game(players=2, figures=["pericles", "leonidas"])
    fight(state, {"delian": {"flank-1-1": 3}, "peloponnesian": {"flank-1-1": 1}},
          {"delian": {"flank": "pericles"}, "peloponnesian": {"flank": "leonidas"}})
    assert "totals delian 3, peloponnesian 1" in state.pending()[0].prompt
    state.apply("p2", "engage")  # Leonidas: 1 + 3 = 4
    assert "totals delian 3, peloponnesian 4" in state.pending()[0].prompt


def test_last_chance_after_passing(setup_game):
    state = setup_game(players=2, figures=["cleisthenes", "leonidas"])
    fight(state, {"delian": {"center-1-1": 1}, "peloponnesian": {"center-1-1": 2}},
          {"delian": {"center": "cleisthenes"}, "peloponnesian": {"center": "leonidas"}})
    assert state.pending()[0].seat == "p1"
    state.apply("p1", "hold")
    state.apply("p2", "engage")  # 5 against 1
    assert state.pending()[0].seat == "p1"  # one last chance
    state.apply("p1", "engage")  # 3 against 5: still lost
    assert state.g["battle"]["columns"]["center-1"] == "peloponnesian"


def test_engaged_figure_counts_in_one_column_only(setup_game):
    state = setup_game(players=2, figures=["pericles", "leonidas"])
    fight(state, {"delian": {}, "peloponnesian": {"flank-1-1": 1, "flank-2-1": 1}},
          {"delian": {"flank": "pericles"}})
    state.apply("p1", "engage")
    assert state.g["battle"]["columns"]["flank-1"] == "delian"
    assert state.g["battle"]["columns"]["flank-2"] == "peloponnesian"  # no second ask
    assert state.g["battle"]["fronts"]["flank"] is None


def test_tie_first_column_peloponnesian_decides_first_then_the_loser_of_the_last(setup_game):
    state = setup_game(players=2, figures=["pericles", "leonidas"])
    fight(state, {"delian": {"flank-1-1": 2}, "peloponnesian": {"flank-1-1": 2}},
          {"delian": {"flank": "pericles"}, "peloponnesian": {"flank": "leonidas"}})
    assert state.pending()[0].seat == "p2"
    state = setup_game(players=2, figures=["pericles", "leonidas"])
    fight(state, {"delian": {"flank-1-1": 3, "flank-2-1": 2}, "peloponnesian": {"flank-2-1": 2}},
          {"delian": {"flank": "pericles"}, "peloponnesian": {"flank": "leonidas"}})
    state.apply("p2", "hold")
    state.apply("p1", "hold")
    assert state.g["battle"]["columns"]["flank-1"] == "delian"
    assert state.pending()[0].seat == "p2"  # tie in column 2: the loser of column 1 first


def test_themistocles_adds_one_on_the_maritime_front(setup_game):
    state = setup_game(players=2, figures=["themistocles", "leonidas"])
    fight(state, {"delian": {}, "peloponnesian": {"maritime-1-1": 3}},
          {"delian": {"maritime": "themistocles"}})
    state.apply("p1", "engage")  # 2 + 1 = 3 against 3
    assert state.g["battle"]["columns"]["maritime-1"] is None


def test_fronts_majority_wins(setup_game):
    state = setup_game(players=4)
    fight(state, {"delian": {"flank-1-1": 2, "center-1-1": 2},
                  "peloponnesian": {"maritime-1-1": 2}})
    result = state.result()
    assert result.ranks == {"p1": 1, "p4": 1, "p2": 2, "p3": 2}
    assert result.points["p1"] == result.points["p4"] == 1.0


def test_tie_break_maritime_then_prestige_then_copper_then_draw(setup_game):
    state = setup_game(players=2)
    fight(state, {"delian": {"flank-1-1": 2}, "peloponnesian": {"maritime-1-1": 2}})
    assert state.result().ranks == {"p1": 2, "p2": 1} and "maritime" in state.result().reason
    state = setup_game(players=2)
    state.player("p1")["prestige"] = 5
    fight(state, {"delian": {}, "peloponnesian": {}})
    assert state.result().ranks == {"p1": 1, "p2": 2} and "Prestige" in state.result().reason
    state = setup_game(players=2)
    state.g["leagues"]["peloponnesian"]["treasury"]["copper"] = 1
    fight(state, {"delian": {}, "peloponnesian": {}})
    assert state.result().ranks == {"p1": 2, "p2": 1} and "copper" in state.result().reason
    state = setup_game(players=2)
    fight(state, {"delian": {}, "peloponnesian": {}})
    assert state.result().ranks == {"p1": 1, "p2": 1} and "drawn" in state.result().reason
