"""Leaders (rule 10, 15), more diplomacy and revolt cases (rule 9.5) and the count at
the end (rule 14), in positions with loaded dice."""

from __future__ import annotations


def set_city(s, space: str, owner: int, hostile: bool = False) -> int:
    i = s.t.index[space]
    s.owner[i], s.income[i], s.hostile[i] = owner, 3, hostile
    return i


# -- the leader roll and the skills table ------------------------------------------------------

def test_leader_roll_gives_one_two_or_three_skills_from_the_d100_table(board):
    s = board.empty()
    athens = s.t.index["athens"]
    for roll, skills in ((3, 1), (4, 2), (5, 2), (6, 3), (1, 1)):
        s.rigged = [roll, 1, 5, 9][: 1 + skills]
        i = s.new_leader(0, athens)
        assert len(s.l_skills[i]) == skills
    # D100 bands of four: 4 Heroism, 5 Strategist, 57 Logistics, 100 Historian; a skill he
    # already has (the second 100) is rolled again
    s.rigged = [6, 4, 100, 100, 57]
    i = s.new_leader(0, athens)
    assert s.l_skills[i] == ["heroism", "historian", "logistics"]
    assert s.l_space[i] == athens and s.l_state[i] == 0


def test_realm_skills_of_a_captive_or_exiled_leader_do_not_count(board):
    s = board.empty()
    a = board.add_leader(s, 0, "athens", "Pericles", ["oratory", "historian"])
    assert s.diplomacy_rolls(0) == 2 and s.victory_points(0) == 2
    s.l_state[a] = 3   # captive
    assert s.diplomacy_rolls(0) == 1 and s.victory_points(0) == 1
    s.l_state[a] = 1   # exiled
    assert s.diplomacy_rolls(0) == 1 and s.victory_points(0) == 1


def test_a_leader_beaten_by_a_neutral_city_dies(board, play, texts):
    s = board.empty(units={"marathon": (0, {"army": 1})}, homes=("athens", "sparta", "troy"))
    board.add_leader(s, 0, "marathon", "Nicias", ["oratory"])
    s.owner[s.t.index["thebes"]] = -1
    s.begin_attacks(sea=False)
    s.rigged = [1, 9, 6, 1]   # army 1 against the neutral army 9 + 5 and garrison 6; lost
    events = play(s, "attack thebes")
    assert s.arm[s.t.index["marathon"]] == 0
    assert s.l_state[0] == 2 and "Nicias dies" in texts(events)


# -- diplomacy ---------------------------------------------------------------------------------

def test_a_five_fails_at_a_neutral_city_but_raises_an_enemys_hostile_city(board, play, texts):
    s = board.empty()
    set_city(s, "megara", 1, hostile=True)
    s.traits[0] = ["democracy"]   # a second roll
    s.phase_diplomacy()
    s.rigged = [5]
    play(s, "roll delphi")
    assert s.owner[s.t.index["delphi"]] == -1
    s.rigged = [5, 1]   # 5 +1 (hostile): the city revolts; 1 rebel, no army there
    events = play(s, "roll megara")
    assert "5 +1 (hostile)" in texts(events)
    assert s.owner[s.t.index["megara"]] == -1   # neutral again


def test_no_roll_at_ones_own_friendly_city(board):
    s = board.empty()
    set_city(s, "megara", 0)
    set_city(s, "delphi", 0, hostile=True)
    s.phase_diplomacy()
    legal = s.pending()[0].legal
    assert "roll megara" not in legal and "roll delphi" in legal


def test_beaten_survivors_retreat_and_the_city_turns_neutral(board, play, texts):
    s = board.empty(units={"megara": (1, {"army": 1})})
    set_city(s, "megara", 1)
    s.phase_diplomacy()
    # success; 1 rebel rolls 10 against the army's 1 + 5; casualty roll 6: it retreats
    s.rigged = [6, 1, 10, 1, 6]
    events = play(s, "roll megara")
    megara, cithaeron = s.t.index["megara"], s.t.index["cithaeron"]
    assert s.owner[megara] == -1 and s.arm[megara] == 0
    # Cithaeron is the only next space free of enemies (Athens is p1's, Corinth neutral)
    assert (s.occ[cithaeron], s.arm[cithaeron]) == (1, 1)
    assert "throws off p2" in texts(events)


def test_rebels_that_lose_are_discarded_and_the_city_stays(board, play):
    s = board.empty(units={"megara": (1, {"army": 1})})
    set_city(s, "megara", 1)
    s.phase_diplomacy()
    s.rigged = [6, 1, 2, 5]   # 1 rebel rolls 2 against 5 + 5
    play(s, "roll megara")
    megara = s.t.index["megara"]
    assert s.owner[megara] == 1 and s.arm[megara] == 1 and s.occ[megara] == 1


# -- the end -----------------------------------------------------------------------------------

def test_a_captive_historian_does_not_count_at_the_end(board):
    s = board.empty(players=2, gold=5)
    set_city(s, "megara", 1)
    board.add_leader(s, 0, "athens", "Thucydides", ["historian"])
    s.finish("test")
    assert s.result().scores == {"p1": 2.0, "p2": 2.0}   # Athens + Historian; Sparta, Megara
    s.l_state[0] = 3   # captured by p2
    assert s.result().scores == {"p1": 1.0, "p2": 2.0}
    assert s.result().ranks == {"p2": 1, "p1": 2}


def test_the_game_runs_36_game_turns_not_more(board):
    s = board.empty(players=2)
    s.turn, s.cur, s.active = 35, 1, 1
    s.end_player_turn()   # turn 36 begins
    assert not s.over and s.turn == 36
    s.turn, s.cur, s.active = 36, 1, 1
    s.stack = []
    s.end_player_turn()
    assert s.over and "36 game turns are over" in s.result().reason
