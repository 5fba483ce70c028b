"""Setup (rule 3), leaders and traits, the second move's navigation roll, the end (rule 14)."""

from __future__ import annotations


def test_turn_order_roll_rerolls_ties_for_first(engine, texts):
    s = engine.new_game(["p1", "p2", "p3"], 1, {})
    s.rigged = [7, 9, 9, 4, 8]   # p2 and p3 tie on 9; the reroll gives p3 8 against p2 4
    s.events = []
    s.roll_turn_order()
    assert s.order == [2, 0, 1]   # p3 first, then on in seat order
    assert "rerolled: p2 4, p3 8" in texts(s.events)


def test_homes_are_named_cities_never_next_to_one_chosen(engine, play):
    s = engine.new_game(["p1", "p2"], 1, {})
    s.order = [0, 1]
    s.wait("home", 0)
    legal = s.pending()[0].legal
    assert len(legal) == 12 and "home megara" not in legal
    play(s, "home athens")
    assert "home athens" not in s.pending()[0].legal


def test_setup_gives_each_home_its_forces(board):
    s = board.game(players=3, homes=("thebes", "athens", "troy"))
    t = s.t
    thebes, athens = t.index["thebes"], t.index["athens"]
    assert (s.arm[thebes], s.row[thebes], s.flt[thebes]) == (4, 0, 0)          # landlocked
    assert (s.arm[athens], s.row[athens], s.flt[athens]) == (2, 2, 2)
    for p in range(3):
        assert len(s.traits[p]) == 6 and len(set(s.traits[p])) == 6
        assert "reroll" not in s.traits[p]
        assert sum(1 for o in s.l_owner if o == p) == 3
        assert s.income[s.home[p]] == 7
    assert all(1 <= len(skills) <= 3 and len(set(skills)) == len(skills) for skills in s.l_skills)
    minors = [c for c in t.cities if s.owner[c] < 0]
    assert len(minors) == 31   # 22 minor cities and 9 unchosen named states
    assert all(1 <= s.income[c] <= 6 and s.mtrait[c] in t.traits for c in minors)
    hands = [len(h) for h in s.hands]
    assert sum(hands) == 15 + 2 and sorted(hands)[:2] == [5, 5]   # the first player drew 2


def test_silver_mines_pays_once(board, texts):
    s = board.empty()
    s.rigged = [6, 3, 10, 10, 10]   # d66 63: Silver Mines; 3D10 = 30
    s.gain_trait(0)
    assert s.traits[0] == ["silver-mines"] and s.gold[0] == 50
    megara = s.t.index["megara"]
    s.mtrait[megara] = "silver-mines"
    s.rigged = [1, 1, 1]
    s.take_control(1, megara, hostile=True)
    assert s.gold[1] == 23
    s.take_control(2, megara, hostile=True)
    assert s.gold[2] == 20   # only the first controller is paid


def test_a_minor_citys_trait_works_for_its_owner(board):
    s = board.empty()
    megara = s.t.index["megara"]
    s.mtrait[megara] = "democracy"
    assert s.diplomacy_rolls(0) == 1
    s.owner[megara] = 0
    assert s.diplomacy_rolls(0) == 2


def test_a_trait_counts_once_however_many_cities_carry_it(board):
    # the home city "also gets" a minor city's trait: Trade it has already adds nothing,
    # while Wine, a different trait with the same effect, adds its +1
    s = board.empty()
    s.traits[0] = ["trade"]
    for city, trait in (("megara", "trade"), ("delphi", "trade"), ("argos", "wine")):
        s.mtrait[s.t.index[city]] = trait
        s.owner[s.t.index[city]] = 0
    assert s.home_income(0) == 7 + 1 + 1


def test_navigation_roll_sinks_ships_left_at_sea(board, texts):
    s = board.empty(units={"saronic-gulf": (0, {"fleet": 1, "rowers": 1, "transport": 1,
                                                "army": 1, "baggage": 2}),
                           "aegina": (0, {"fleet": 1, "rowers": 1})})
    board.add_leader(s, 0, "saronic-gulf", "Pericles", ["oratory"])
    s.rigged = [2, 6]   # the fleet is safe, the transport sinks with its army
    s.navigation_rolls()
    i = s.t.index["saronic-gulf"]
    assert (s.flt[i], s.trn[i], s.arm[i], s.row[i]) == (1, 0, 0, 1)
    assert "Navigation rolls for p1's ships in Saronic Gulf (still at sea): 2, 6" in \
        texts(s.events)
    assert s.flt[s.t.index["aegina"]] == 1   # in a fishing village: no roll
    s.events = []
    s.rigged = [5]
    s.navigation_rolls()
    assert s.occ[i] == -1 and s.l_state[0] == 2   # the last ship sinks: Pericles drowns


def test_a_storm_sinking_an_unmanned_fleet_drowns_no_crew(board, texts):
    # D12: each ship rolls for itself, the manned fleets first; the unmanned fleet's 6
    # sinks it alone and the manned fleet keeps its crew
    s = board.empty(units={"saronic-gulf": (0, {"fleet": 2, "rowers": 1})})
    s.rigged = [2, 6]
    s.navigation_rolls()
    i = s.t.index["saronic-gulf"]
    assert (s.flt[i], s.row[i]) == (1, 1)
    assert "2, 6: 1 ship sunk" in texts(s.events)


def test_sea_worthy_helps_the_navigation_roll(board):
    s = board.empty(units={"saronic-gulf": (0, {"fleet": 1, "rowers": 1})})
    s.traits[0] = ["sea-worthy"]
    s.rigged = [5]
    s.navigation_rolls()
    assert s.flt[s.t.index["saronic-gulf"]] == 1


def test_sea_worthy_helps_fleets_but_not_transports(board, texts):
    # the trait reads "Fleets get -1 to Navigation Rolls": a transport rolls unaided
    s = board.empty(units={"saronic-gulf": (0, {"fleet": 1, "rowers": 1, "transport": 1})})
    s.traits[0] = ["sea-worthy"]
    s.rigged = [5, 5]   # the fleet's 5 - 1 = 4 is safe; the transport's 5 sinks it
    s.navigation_rolls()
    i = s.t.index["saronic-gulf"]
    assert (s.flt[i], s.trn[i]) == (1, 0)
    assert "4, 5 (fleets -1): 1 ship sunk" in texts(s.events)


def test_the_game_ends_after_36_turns_and_historians_count(board):
    s = board.empty(gold=5)
    t = s.t
    for space, p in (("megara", 0), ("argos", 1), ("delphi", 1)):
        s.owner[t.index[space]] = p
        s.income[t.index[space]] = 3
    board.add_leader(s, 0, "athens", "Thucydides", ["historian"])
    board.add_leader(s, 2, "troy", "Herodotus", ["historian", "oratory"])
    s.l_state[1] = 1   # an exiled Historian does not count
    s.turn, s.cur = 36, 2
    s.active = 2
    s.end_player_turn()
    assert s.over and s.pending() == []
    result = s.result()
    # p1: Athens, Megara + Historian = 3; p2: Sparta, Argos, Delphi = 3; p3: Troy = 1
    assert result.scores == {"p1": 3.0, "p2": 3.0, "p3": 1.0}
    # the tie is broken by base incomes: p1 7 + 3 = 10 against p2 7 + 3 + 3 = 13
    assert result.ranks == {"p2": 1, "p1": 2, "p3": 3}
    assert "36 game turns are over" in result.reason
    assert "p2 wins the tie on cities (3 each) on base incomes (13 to 10)" in result.reason


def test_gold_breaks_a_tie_of_incomes_and_a_full_tie_is_shared(board):
    s = board.empty(players=2, gold=5)
    s.gold = [6, 5]
    s.finish("test")
    assert s.result().ranks == {"p1": 1, "p2": 2}
    assert "p1 wins the tie on cities (1 each) on gold (6 to 5)" in s.result().reason
    s.gold = [5, 5]
    assert s.result().ranks == {"p1": 1, "p2": 1}
    assert "share the victory" in s.result().reason


def test_a_player_with_nothing_left_is_out_and_the_last_one_wins(board, texts):
    s = board.empty(players=2)
    s.owner[s.home[1]] = 0   # p2 lost his home and has no unit
    s.end_player_turn()
    assert s.out[1] and s.over
    assert "p2 has no city, unit or leader left and is out of the game" in texts(s.events)
    assert s.result().ranks == {"p1": 1, "p2": 2}


def test_a_player_out_of_the_game_never_outranks_the_last_one_left(board):
    # D22: p2 and p3 have lost everything; p1 holds no city either, only an army, and has
    # less gold than p3. The game ends with one player left, and that player wins it.
    s = board.empty(homes=("athens", "sparta", "troy"), units={"boeotia": (0, {"army": 1})})
    for p in range(3):
        s.owner[s.home[p]] = -1
    s.gold = [2, 0, 9]
    s.end_player_turn()
    assert s.over and s.out == [False, True, True]
    result = s.result()
    assert result.ranks == {"p1": 1, "p2": 3, "p3": 2}
    assert "p1 wins the tie on cities (0 each) by being still in the game" in result.reason


def test_a_finished_game_shows_its_last_turn_36_not_turn_37(board):
    s = board.empty(players=2)
    s.turn, s.cur, s.active = 36, 1, 1
    s.end_player_turn()
    assert s.over
    view = s.view("p1")
    assert (view["turn"], view["turns"]) == (36, 36)
    assert s.describe("p1").startswith("City States: the game is over after turn 36;")


def test_when_the_last_two_players_fall_together_the_end_says_no_player_is_left(board):
    s = board.empty(players=2)
    for p in range(2):
        s.owner[s.home[p]] = -1   # both lost their homes and have no unit or leader
    s.end_player_turn()
    assert s.over and s.out == [True, True]
    result = s.result()
    assert result.reason.startswith("no player is left;")
    assert "only one player" not in result.reason
    assert result.ranks == {"p1": 1, "p2": 1}   # nothing left to tell them apart
