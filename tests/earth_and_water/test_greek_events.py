"""Each Greek event in a concrete position (cards 1-16, Greek halves)."""

from __future__ import annotations

P, G = 0, 1


def test_1_mines_of_laurion_extra_preparation(board, play):
    s = board.empty(turn=G, hands=([6], [1]), pa={"Abydos": 2}, ga={"Athenai": 1, "Sparta": 1},
                    gf={"Athenai": 1})
    s.res_flt[G] = 3
    play(s, "play 1 event")
    assert s.step == "buy" and s.talents == 3 and s.actor == G
    assert 1 not in s.discard   # held aside while the extra cards are drawn
    play(s, "done", "raise_fleet Athenai", "raise_fleet Athenai")
    assert "raise_fleet Athenai" in s.pending()[0].legal   # no 2-fleet cap
    play(s, "raise_fleet Sparta", "done")
    assert board.count(s, "flt", G, "Athenai") == 3 and board.count(s, "flt", G, "Sparta") == 1
    assert s.discard[-1] == 1
    assert s.step == "turn" and s.actor == P   # the Greek turn is over


def test_2_ionian_revolt_removes_a_persian_army_at_home(board, play):
    s = board.empty(turn=G, hands=([6], [2]), pa={"Abydos": 2, "Thebai": 3}, ga={"Athenai": 1})
    assert "play 2 event" in s.pending()[0].legal
    play(s, "play 2 event")
    assert s.pending()[0].legal == ["remove Abydos"]
    play(s, "remove Abydos")
    assert board.count(s, "arm", P, "Abydos") == 1 and s.res_arm[P] == 24 - 4


def test_2_ionian_revolt_needs_persians_in_asia(board):
    s = board.empty(turn=G, hands=([6], [2]), pa={"Thebai": 3}, ga={"Athenai": 1})
    assert "play 2 event" not in s.pending()[0].legal


def test_3_wrath_of_poseidon_sinks_a_persian_fleet(board, play):
    s = board.empty(turn=G, hands=([6], [3]), pa={"Abydos": 1}, pf={"Naxos": 2}, ga={"Athenai": 1})
    play(s, "play 3 event", "remove Naxos")
    assert board.count(s, "flt", P, "Naxos") == 1 and s.res_flt[P] == 5


def test_4_miltiades_three_dice_in_defence(board, play):
    s = board.empty(turn=P, hands=([6], [4]), pa={"Larissa": 3}, ga={"Thebai": 1})
    play(s, "play 6 move", "origin_land Larissa", "move_land Thebai 3")
    assert s.pending()[0].legal == ["react 4", "decline"]
    # Persia's view does not show that Greece is being asked (which would reveal the card)
    assert s.view("persia")["to_act"] is None and s.view("greece")["to_act"] == "greece"
    s.rigged_dice = [1, 1, 1, 2, 2, 6]   # Persia 3 dice, then Greece: 3 dice with one army
    events = play(s, "react 4")
    rounds = [e for e in events if e.type == "round"]
    assert len(rounds[0].data["greece"]) == 3
    assert "miltiades" in s.once_used and s.res_arm[G] == 9 - 1 - 1   # one on the portrait


def test_5_themistocles_sails_before_the_persian_battle(board, play):
    s = board.empty(turn=P, hands=([6], [5]), pa={"Ephesos": 1}, pf={"Ephesos": 2},
                    ga={"Athenai": 1}, gf={"Athenai": 2})
    play(s, "play 6 move", "origin_sea Ephesos", "move_sea Naxos 2 1")
    assert s.pending()[0].legal == ["react 5", "decline"]
    play(s, "react 5", "origin_sea Athenai")
    assert "move_sea Naxos 2 0" in s.pending()[0].legal
    assert not any(a.endswith(" 1") for a in s.pending()[0].legal)   # no armies carried
    s.rigged_dice = [1, 1, 6, 6] * 3
    play(s, "move_sea Naxos 2 0")
    # Greece won every round; no retreat was ever offered
    assert board.count(s, "flt", P, "Naxos") == 0 and board.count(s, "flt", G, "Naxos") == 2
    assert board.count(s, "arm", P, "Naxos") == 0   # the carried army went down with its fleet


def test_6_pausanias_cancels_the_cavalry(board, play):
    s = board.empty(turn=P, hands=([1], [6]), pa={"Larissa": 1}, ga={"Thebai": 2})
    play(s, "play 1 event", "origin_land Larissa", "move_land Thebai 1")
    assert s.pending()[0].legal == ["react 6", "decline"]
    s.rigged_dice = [6, 5, 5]   # Persia rolls a 6: capped at 4 again, Greece's 5 wins
    play(s, "react 6")
    assert board.count(s, "arm", P, "Thebai") == 0 and board.count(s, "arm", G, "Thebai") == 2


def test_7_oracle_of_delphi_redraws_one_more(board, play):
    s = board.empty(turn=G, hands=([6], [7, 2, 3, 9]), ga={"Athenai": 1})
    play(s, "play 7 event")
    assert sorted(s.discard) == [2, 3, 7, 9]   # three discarded plus the Oracle itself
    assert s.view("persia")["discard_top"] == 7   # the dumped cards stay hidden
    assert len(s.hands[G]) == 4 and not set(s.hands[G]) & {2, 3, 7, 9}


def test_8_leonidas_one_army_two_dice(board, play):
    s = board.empty(turn=G, hands=([6], [8]), pa={"Thebai": 3}, ga={"Athenai": 3})
    play(s, "play 8 event", "origin_land Athenai")
    assert set(s.pending()[0].legal) == {"move_land Korinthos 1", "move_land Thebai 1"}
    s.rigged_dice = [1, 1, 1, 6, 1]
    events = play(s, "move_land Thebai 1")
    rounds = [e for e in events if e.type == "round"]
    assert len(rounds[0].data["greece"]) == 2
    assert "leonidas" in s.once_used and s.res_arm[G] == 9 - 3 - 1


def test_9_artemisia_sinks_a_second_fleet_for_good(board, play):
    s = board.empty(turn=P, hands=([6], [9]), pa={"Ephesos": 3}, pf={"Ephesos": 3},
                    gf={"Naxos": 1}, ga={"Athenai": 1})
    play(s, "play 6 move", "origin_sea Ephesos")
    s.rigged_dice = [2, 2, 2, 5]
    play(s, "move_sea Naxos 3 3")
    assert board.count(s, "flt", P, "Naxos") == 2 and s.b_carried == 2
    play(s, "react 9")
    assert board.count(s, "flt", P, "Naxos") == 1 and s.b_carried == 1
    assert s.res_flt[P] + sum(s.flt[P]) == 5   # one Persian fleet is gone for good
    assert s.res_arm[P] == 24 - 3 + 2


def test_10_evangelion_scores_a_victory(board, play):
    s = board.empty(turn=G, hands=([6], [10]), pa={"Thebai": 1}, ga={"Athenai": 2})
    play(s, "play 10 event", "origin_land Athenai")
    s.rigged_dice = [1, 6]
    play(s, "move_land Thebai 2")
    assert s.vp == -1


def test_11_melas_zomos_reinforces_sparta(board, play):
    s = board.empty(turn=G, hands=([6], [11]), ga={"Athenai": 1})
    play(s, "play 11 event")
    assert board.count(s, "arm", G, "Sparta") == 1 and s.res_arm[G] == 7


def test_11_melas_zomos_not_while_persia_holds_sparta(board):
    s = board.empty(turn=G, hands=([6], [11]), pa={"Sparta": 1}, ga={"Athenai": 1})
    assert "play 11 event" not in s.pending()[0].legal


def test_12_molon_labe_refuses_a_tribute(board, play):
    s = board.empty(turn=P, hands=([2, 6], [12, 3]), pa={"Abydos": 1}, ga={"Thebai": 2})
    play(s, "play 2 event", "place Delphi")
    assert s.pending()[0].legal == ["react 12", "decline"]
    play(s, "react 12")
    assert board.count(s, "arm", P, "Delphi") == 0
    play(s, "origin_land Thebai", "move_land Delphi 2")
    assert board.count(s, "arm", G, "Delphi") == 2
    # then Greece takes its own normal turn
    assert s.step == "turn" and s.actor == G and "pass" in s.pending()[0].legal


def test_13_triremes_two_voyages_without_armies(board, play):
    s = board.empty(turn=G, hands=([6], [13]), ga={"Athenai": 2}, gf={"Athenai": 1})
    play(s, "play 13 event", "origin_sea Athenai")
    assert all(a.endswith(" 0") for a in s.pending()[0].legal)
    play(s, "move_sea Naxos 1 0")
    assert s.step == "origin" and s.pending()[0].legal == ["origin_sea Naxos"]
    play(s, "origin_sea Naxos", "move_sea Eretria 1 0")
    assert board.count(s, "flt", G, "Eretria") == 1 and s.step == "turn" and s.actor == P


def test_14_support_from_syracuse_places_every_reserve_fleet(board, play):
    s = board.empty(turn=G, hands=([6], [14]), ga={"Athenai": 1}, pf={"Sparta": 1})
    assert s.res_flt[G] == 5
    play(s, "play 14 event")
    assert "place_fleet Sparta" not in s.pending()[0].legal   # Persian fleet there
    play(s, *["place_fleet Athenai"] * 5)
    assert s.res_flt[G] == 0 and board.count(s, "flt", G, "Athenai") == 5
    assert s.step == "turn" and s.actor == P


def test_15_three_hundred_spartans(board, play):
    s = board.empty(turn=P, hands=([6], [15]), pa={"Korinthos": 3}, ga={"Sparta": 1})
    play(s, "play 6 move", "origin_land Korinthos", "move_land Sparta 3")
    assert s.pending()[0].legal == ["react 15", "decline"]
    s.rigged_dice = [4, 4, 4, 1, 1, 5]
    events = play(s, "react 15")
    assert len([e for e in events if e.type == "round"][0].data["greece"]) == 3
    assert board.count(s, "arm", P, "Sparta") == 2


def test_16_desertion_removes_any_persian_army(board, play):
    s = board.empty(turn=G, hands=([6], [16]), pa={"Larissa": 2, "Abydos": 1}, ga={"Athenai": 1})
    play(s, "play 16 event")
    assert set(s.pending()[0].legal) == {"remove Larissa", "remove Abydos"}
    play(s, "remove Larissa")
    assert board.count(s, "arm", P, "Larissa") == 1
