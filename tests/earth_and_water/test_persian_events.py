"""Each Persian event in a concrete position (cards 1-16, Persian halves)."""

from __future__ import annotations

P, G = 0, 1


def test_1_cavalry_of_mardonius_uncaps_persian_dice(board, play):
    s = board.empty(turn=P, hands=([1], [2]), pa={"Larissa": 1}, ga={"Thebai": 1})
    play(s, "play 1 event", "origin_land Larissa")
    s.rigged_dice = [6, 5]   # uncapped 6 beats Greece's 5
    play(s, "move_land Thebai 1")
    assert board.count(s, "arm", G, "Thebai") == 0 and board.count(s, "arm", P, "Thebai") == 1


def test_tribute_of_earth_and_water_on_all_three_cards(board, play):
    for card in (2, 3, 13):
        s = board.empty(turn=P, hands=([card], [7]), pa={"Abydos": 1}, ga={"Athenai": 1},
                        gf={"Naxos": 1})
        play(s, f"play {card} event")
        legal = s.pending()[0].legal
        assert "place Naxos" in legal and "place Athenai" not in legal and "place Abydos" not in legal
        play(s, "place Naxos")
        assert board.count(s, "arm", P, "Naxos") == 1 and s.controls(P, s.t.index["Naxos"])


def test_4_carneia_festival_holds_sparta(board, play):
    s = board.empty(turn=P, hands=([4, 6], [8, 11, 15, 6, 2]), pa={"Abydos": 2},
                    ga={"Sparta": 2}, gf={"Sparta": 1})
    play(s, "play 4 event")
    legal = s.pending()[0].legal
    for card in (6, 8, 11, 15):
        assert f"play {card} event" not in legal
        assert f"play {card} move" in legal
    play(s, "play 2 move")
    assert s.pending()[0].legal == ["origin_sea Sparta"]   # no land march out of Sparta
    play(s, "origin_sea Sparta")
    assert all(a.endswith(" 0") for a in s.pending()[0].legal)   # and no armies embark


def test_5_the_immortals_restart_a_lost_battle(board, play):
    s = board.empty(turn=G, hands=([5], [6]), pa={"Abydos": 5}, ga={"Ephesos": 3})
    s.bridge = False
    play(s, "play 6 move", "origin_land Ephesos")
    # five rounds: Greece 6 against Persia 1 every time, continuing
    s.rigged_dice = [1, 1, 1, 6, 6, 6]
    play(s, "move_land Abydos 3")
    for _ in range(4):
        s.rigged_dice = [1, 1, 1, 6, 6, 6]
        play(s, "continue", "continue")
    assert board.count(s, "arm", P, "Abydos") == 0
    assert s.pending()[0].legal == ["react 5", "decline"]
    s.rigged_dice = [5, 5, 5, 1, 1, 1]   # the new battle's first round: Persia 5 at home
    events = play(s, "react 5")
    assert [e for e in events if e.type == "react"][0].data["armies"] == 3   # min(3, 5)
    assert board.count(s, "arm", P, "Abydos") == 3
    assert board.count(s, "arm", G, "Abydos") == 2
    assert s.step == "l_att_retreat" and s.b_pstart == 3


def test_6_ostracism_discards_a_random_greek_card(board, play):
    s = board.empty(turn=P, hands=([6], [2, 3, 7]), pa={"Abydos": 1}, ga={"Athenai": 1})
    play(s, "play 6 event")
    assert len(s.hands[G]) == 2 and s.discard[-1] in (2, 3, 7)


def test_7_the_great_king_scores_a_victory(board, play):
    s = board.empty(turn=P, hands=([7], [2]), pa={"Larissa": 3}, ga={"Thebai": 1})
    play(s, "play 7 event", "origin_land Larissa")
    s.rigged_dice = [4, 1, 1, 3]
    play(s, "move_land Thebai 3")
    assert s.vp == 1


def test_7_the_great_king_retreat_costs_persia(board, play):
    s = board.empty(turn=P, hands=([7], [2]), pa={"Larissa": 3}, ga={"Thebai": 3})
    play(s, "play 7 event", "origin_land Larissa")
    s.rigged_dice = [1, 1, 1, 6, 6, 6]
    play(s, "move_land Thebai 3", "retreat Larissa")
    assert s.vp == -1


def test_8_the_royal_road_places_armies(board, play):
    s = board.empty(turn=P, hands=([8], [2]), pa={"Abydos": 1}, ga={"Athenai": 1})
    play(s, "play 8 event")
    assert "target Ephesos 3" in s.pending()[0].legal
    play(s, "target Ephesos 3")
    assert board.count(s, "arm", P, "Ephesos") == 3


def test_9_hippias_shows_the_hand_and_picks_a_discard(board, play):
    s = board.empty(turn=P, hands=([9], [4, 12]), pa={"Abydos": 1}, ga={"Athenai": 1})
    events = play(s, "play 9 event")
    shown = [e for e in events if e.type == "reveal"]
    assert shown and shown[0].to == frozenset({"persia"}) and shown[0].data["cards"] == [4, 12]
    assert s.pending()[0] .legal == ["discard 4", "discard 12"]
    play(s, "discard 12")
    assert s.hands[G] == [4] and s.discard[-1] == 12


def test_10_separate_peace_persia_higher(board, play):
    s = board.empty(turn=P, hands=([10], [6, 8, 2]), pa={"Abydos": 1}, ga={"Athenai": 1})
    s.rigged_dice = [3, 5]   # Greece 3, Persia 5
    events = play(s, "play 10 event")
    assert s.hands[G] == [2] and {6, 8} <= set(s.discard)
    # Persia, purging the Sparta cards, sees the hand they were in
    shown = [e for e in events if e.type == "reveal"]
    assert [(e.text, e.data, e.to) for e in shown] == [
        ("Separate Peace shows the Greek hand: [2, 6, 8]", {"cards": [2, 6, 8]},
         frozenset({"persia"}))]


def test_10_separate_peace_tie_keeps_sparta_loyal(board, play):
    s = board.empty(turn=P, hands=([10], [6, 8, 2]), pa={"Abydos": 1}, ga={"Athenai": 1})
    s.rigged_dice = [4, 4]
    events = play(s, "play 10 event")
    assert sorted(s.hands[G]) == [2, 6, 8]
    # nothing happens, and Persia learns nothing of the Greek hand (it did before the
    # third audit: the hand was shown whatever the dice)
    assert not [e for e in events if e.type == "reveal"]
    assert [e.text for e in events if e.type == "separate_peace"] == [
        "Separate Peace: Greece rolls 4, Persia 4; Sparta stays loyal"]


def test_11_sudden_death_is_never_played_as_an_event(board):
    s = board.empty(turn=P, hands=([11], [2]), pa={"Abydos": 1}, ga={"Athenai": 1})
    legal = s.pending()[0].legal
    assert "play 11 event" not in legal and "play 11 move" in legal


def test_12_defection_of_thebes_sends_greeks_away(board, play):
    s = board.empty(turn=P, hands=([12], [2]), pa={"Abydos": 1}, ga={"Thebai": 2, "Naxos": 1})
    play(s, "play 12 event")
    assert s.actor == G and "relocate Naxos" in s.pending()[0].legal
    play(s, "relocate Naxos")
    assert board.count(s, "arm", G, "Naxos") == 3 and board.count(s, "arm", P, "Thebai") == 1


def test_12_defection_of_thebes_into_an_empty_thebai(board, play):
    s = board.empty(turn=P, hands=([12], [2]), pa={"Abydos": 1, "Thebai": 1}, ga={"Athenai": 1})
    play(s, "play 12 event")
    assert board.count(s, "arm", P, "Thebai") == 2


def test_14_alliance_with_carthage_is_movement_only(board):
    s = board.empty(turn=P, hands=([14], [2]), pa={"Abydos": 1}, ga={"Athenai": 1})
    assert s.pending()[0].legal == ["pass", "play 14 move"]


def test_15_acropolis_on_fire(board, play):
    s = board.empty(turn=P, hands=([15], [2]), pa={"Athenai": 1, "Abydos": 1}, ga={"Sparta": 1})
    play(s, "play 15 event")
    assert s.acropolis


def test_16_pacification_discards_and_redraws(board, play):
    s = board.empty(turn=P, hands=([16, 2, 3], [7]), pa={"Abydos": 1}, ga={"Athenai": 1})
    s.darius_dead = s.xerxes_dead = True   # keep card 11 inert for this test
    play(s, "play 16 event", "discard 2", "discard 3", "done")
    assert len(s.hands[P]) == 3
