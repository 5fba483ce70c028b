"""The rulebook's own worked examples: scoring (4.5) and the naval battle (7.2)."""

from __future__ import annotations

P, G = 0, 1


def scoring_event(events):
    return [e for e in events if e.type == "scoring"][0].data


def test_scoring_example_greece_ahead_by_one(board, play):
    s = board.empty(turn=P, pa={"Abydos": 1, "Ephesos": 1},
                    ga={"Athenai": 1, "Sparta": 1, "Korinthos": 1})
    events = play(s, "pass")
    assert scoring_event(events) == {"persia": 4, "greece": 5}
    assert s.vp == -1   # one space towards Greece


def test_scoring_example_persia_in_athenai(board, play):
    s = board.empty(turn=P, pa={"Abydos": 1, "Ephesos": 1, "Athenai": 1},
                    pf={"Athenai": 1}, ga={"Sparta": 1, "Korinthos": 1})
    events = play(s, "pass")
    assert scoring_event(events) == {"persia": 6, "greece": 3}
    assert s.vp == 3    # three spaces towards Persia


def test_naval_battle_example(board, play):
    # Three Greek fleets carry two armies from Thebai to Eretria, held by one
    # Persian fleet and one Persian army.
    s = board.empty(turn=G, hands=([2], [3]), pa={"Eretria": 1, "Abydos": 1},
                    pf={"Eretria": 1}, ga={"Thebai": 3, "Athenai": 1}, gf={"Thebai": 3})
    play(s, "play 3 move", "origin_sea Thebai")
    # naval round: Persia rolls 5 (counts 4), Greece 2, 3, 4: both lose a fleet;
    # the lost Greek fleet is an empty one, so both armies land.
    # land round: Persia rolls 4, Greece 2 and 3: Greece loses an army.
    s.rigged_dice = [5, 2, 3, 4, 4, 2, 3]
    events = play(s, "move_sea Eretria 3 2")
    rounds = [e for e in events if e.type == "round"]
    assert rounds[0].data["losers"] == ["Persia", "Greece"]
    assert rounds[1].data["losers"] == ["Greece"]
    assert not any(e.type == "cargo" for e in events)
    assert s.arm[G][s.t.index["Eretria"]] == 1
    # Greece retreats: its fleets sail back and the army disembarks in Thebai
    assert s.pending()[0].legal == ["retreat_sea Thebai", "continue"]
    play(s, "retreat_sea Thebai")
    assert s.arm[G][s.t.index["Thebai"]] == 2 and s.flt[G][s.t.index["Thebai"]] == 2
    assert s.arm[G][s.t.index["Eretria"]] == 0 and s.arm[P][s.t.index["Eretria"]] == 1
