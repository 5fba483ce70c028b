"""Sea and land battles with loaded dice (rules 9.7, 9.8)."""

from __future__ import annotations

import pytest

THEBES_ATHENS = ("thebes", "athens", "troy")


def land_battles(board, **kw):
    s = board.empty(**kw)
    s.begin_attacks(sea=False)
    return s


def sea_battles(board, **kw):
    s = board.empty(**kw)
    s.begin_attacks(sea=True)
    return s


def test_combined_attack_against_a_home_city_with_garrison_and_terrain(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS,
                     units={"marathon": (0, {"army": 2}), "laurion": (0, {"army": 1}),
                            "athens": (1, {"army": 1})})
    assert "attack athens" in s.pending()[0].legal
    play(s, "attack athens")
    assert s.pending()[0].legal == ["fight", "hold marathon", "hold laurion"]
    # attack 7 + 3 + 5 = 15; defence: the army 4 + 5 (city) and the garrison 2 + 8 (home): 19
    # the attackers lose: casualty rolls 1 (lost), 5, 6 (they hold their ground)
    s.rigged = [7, 3, 5, 4, 2, 1, 5, 6]
    events = play(s, "fight")
    text = texts(events)
    assert "Battle for Athens: p1 15, p2 19 - p2 wins" in text
    assert board.count(s, "arm", "marathon") == 1 and board.count(s, "arm", "laurion") == 1
    assert board.count(s, "arm", "athens") == 1 and s.owner[s.t.index["athens"]] == 1


def test_a_stack_held_back_does_not_fight(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS,
                     units={"marathon": (0, {"army": 2}), "laurion": (0, {"army": 1}),
                            "athens": (1, {"army": 1})})
    play(s, "attack athens")
    s.rigged = [7, 3, 4, 2, 5, 5]
    events = play(s, "hold laurion")   # one stack left: it fights at once
    assert "p1 10, p2 19" in texts(events)
    assert "attack laurion" not in str(s.pending()[0].legal)
    # Laurion did not attack: it still may
    assert s.step == "attack" and "attack athens" in s.pending()[0].legal


def test_ties_go_to_the_defender(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS, units={"thebes": (0, {"army": 1}),
                                                        "boeotia": (1, {"army": 1})})
    s.rigged = [5, 5, 6]   # 5 against 5 (farms +0); p1's casualty roll 6
    events = play(s, "attack boeotia")
    assert "p1 5, p2 5 - p2 wins" in texts(events)


def test_a_beaten_defender_with_nowhere_to_go_is_destroyed(board, play, texts):
    s = land_battles(board, homes=("sparta", "athens", "troy"),
                     units={"sparta": (0, {"army": 1}), "gytheion": (1, {"army": 1})})
    s.rigged = [9, 1, 5]   # 9 against 1; the casualty roll 5 would retreat, but where?
    events = play(s, "attack gytheion")
    assert "cannot retreat and is destroyed" in texts(events)
    assert board.count(s, "arm", "gytheion") == 0 and board.count(s, "occ", "gytheion") == -1


def test_a_beaten_defender_retreats_where_its_owner_chooses(board, play):
    s = land_battles(board, homes=THEBES_ATHENS,
                     units={"thebes": (0, {"army": 2}),
                            "boeotia": (1, {"army": 2, "baggage": 9, "rowers": 1})})
    board.add_leader(s, 1, "boeotia", "Brasidas", ["courage"])
    s.rigged = [9, 9, 1, 1, 1, 5, 6, 1]   # p1 18 against p2 ~8; casualties 5, 6 and 1
    play(s, "attack boeotia")
    assert s.pending()[0].seat == "p2"
    assert s.pending()[0].legal == ["retreat thermopylae", "retreat marathon"]
    play(s, "retreat marathon")   # the first army, with Brasidas
    assert s.l_space[0] == s.t.index["marathon"]
    assert s.pending()[0].legal == ["retreat thermopylae", "retreat marathon"]
    play(s, "retreat marathon")   # the second army (the rowers were lost)
    assert s.pending()[0].seat == "p1"
    assert board.count(s, "arm", "marathon") == 2 and board.count(s, "row", "marathon") == 0
    assert board.count(s, "bag", "marathon") == 8   # two armies carry eight baggage
    assert s.l_space[0] == s.t.index["marathon"]
    # the baggage left behind in Boeotia falls to the winner
    assert board.count(s, "bag", "boeotia") == 1 and board.count(s, "occ", "boeotia") == 0


def test_taking_a_neutral_city_then_plundering_and_razing_it(board, play, texts):
    s = land_battles(board, units={"cithaeron": (0, {"army": 2})}, hands={0: ["treasure"]},
                     gold=0)
    # 9 + 1 against the neutral army 1 + 5 and the garrison 1
    s.rigged = [9, 1, 1, 1]
    events = play(s, "attack megara")
    megara = s.t.index["megara"]
    assert "p1 takes Megara (an army moves in from Cithaeron): it is hostile" in texts(events)
    assert s.owner[megara] == 0 and s.hostile[megara] and s.arm[megara] == 1
    assert s.pending()[0].legal == ["spare", "plunder", "raze", "play treasure"]
    s.rigged = [7]
    play(s, "play treasure")
    assert s.gold[0] == 7
    s.rigged = [6, 6, 6]
    events = play(s, "raze")
    assert s.gold[0] == 25 and s.razed[megara] == 6
    assert "plunders and destroys Megara: 18 gold, 6 razed markers in all" in texts(events)


def test_plunder_puts_three_razed_markers(board, play):
    s = land_battles(board, units={"cithaeron": (0, {"army": 1})})
    s.rigged = [10, 1, 1, 1, 1, 1]
    play(s, "attack megara", "plunder")
    assert s.razed[s.t.index["megara"]] == 3 and s.gold[0] == 23


@pytest.mark.parametrize("already, choice, total", [
    (2, "raze", 6), (2, "plunder", 3), (5, "plunder", 5), (0, "raze", 6)])
def test_razed_markers_are_a_total_not_an_addition(board, play, already, choice, total):
    # neutral Thebes still carries some razed markers when Boeotia's armies take it again
    s = land_battles(board, players=2, homes=("athens", "sparta"),
                     units={"boeotia": (0, {"army": 3})})
    s.razed[s.t.index["thebes"]] = already
    s.rigged = [10, 10, 10, 1, 1, 3, 3, 3]   # 30 against 1 + 5 and the garrison 1; gold 9
    play(s, "attack thebes", choice)
    assert board.count(s, "razed", "thebes") == total and s.gold[0] == 29


def test_a_hostile_city_is_attacked_at_plus_one(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS, units={"cithaeron": (0, {"army": 2})})
    megara = s.t.index["megara"]
    s.owner[megara], s.hostile[megara] = 1, True
    s.rigged = [3, 3, 6, 1]   # (3 + 1) * 2 = 8 against the garrison 6 (no home bonus)
    events = play(s, "attack megara")
    assert "p1 8, p2 6" in texts(events) and s.owner[megara] == 0


@pytest.mark.parametrize("holder, rigged", [(2, [9, 2]), (-1, [9, 1, 2])])
def test_a_home_city_someone_else_held_does_not_turn_hostile_when_taken(board, play, holder,
                                                                        rigged):
    # rule 9.8 and reference C-11 (D14): only a taken minor city turns hostile, and a city
    # chosen as a home is never a minor one: p2's home, which Troy took earlier (holder 2) or
    # which a revolt then left neutral (holder -1), becomes an ordinary city of its taker
    s = land_battles(board, homes=THEBES_ATHENS, units={"marathon": (0, {"army": 1})})
    athens = s.t.index["athens"]
    s.owner[athens] = holder
    s.rigged = rigged   # 9 against the garrison 2 (no home bonus), or a neutral army 1 + 5 and 2
    play(s, "attack athens")
    assert s.owner[athens] == 0 and not s.hostile[athens]


def test_the_beaten_stacks_leaders_are_captured_and_ransomed(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS, units={"thebes": (0, {"army": 1}),
                                                        "boeotia": (1, {"army": 1})})
    board.add_leader(s, 1, "boeotia", "Brasidas", ["judgment"])
    s.rigged = [9, 1, 2]   # 9 against 1; casualty roll 2: the army is lost
    events = play(s, "attack boeotia")
    assert "p1 captures p2's leader Brasidas" in texts(events)
    assert s.pending()[0].seat == "p1"
    assert s.pending()[0].legal == ["execute Brasidas", "ransom Brasidas"]
    s.rigged = [3, 4]
    play(s, "ransom Brasidas")
    assert s.pending()[0].seat == "p2" and s.pending()[0].legal == ["pay 7", "refuse"]
    events = play(s, "pay 7")
    assert s.gold == [27, 13, 20]
    assert s.l_space[0] == s.t.index["athens"] and s.l_state[0] == 0
    assert "Brasidas returns to Athens" in texts(events)


def test_a_refused_ransom_and_an_execution_kill_the_leader(board, play):
    for answers in (["ransom Brasidas", "refuse"], ["execute Brasidas"]):
        s = land_battles(board, homes=THEBES_ATHENS, units={"thebes": (0, {"army": 1}),
                                                            "boeotia": (1, {"army": 1})})
        board.add_leader(s, 1, "boeotia", "Brasidas", ["judgment"])
        s.rigged = [9, 1, 2, 3, 4]
        play(s, "attack boeotia", *answers)
        assert s.l_state[0] == 2 and s.gold[1] == 20


def test_a_ransom_the_owner_cannot_pay_kills_the_leader(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS, units={"thebes": (0, {"army": 1}),
                                                        "boeotia": (1, {"army": 1})}, gold=5)
    board.add_leader(s, 1, "boeotia", "Brasidas", ["judgment"])
    s.rigged = [9, 1, 2, 6, 6]
    events = play(s, "attack boeotia", "ransom Brasidas")
    assert s.l_state[0] == 2 and "cannot pay the ransom" in texts(events)


def test_leaders_caught_alone_by_a_moving_army(board, play, texts):
    s = board.empty(homes=THEBES_ATHENS, units={"thebes": (0, {"army": 1})})
    board.add_leader(s, 1, "boeotia", "Brasidas", ["judgment"])
    s.begin_moves("first_move", "after_first_move")
    events = play(s, "move thebes", "to boeotia")
    assert "p1 captures p2's leader Brasidas (caught in Boeotia)" in texts(events)
    assert s.step == "captive"


def test_beached_ships_fall_to_an_army_that_wins(board, play):
    s = land_battles(board, homes=THEBES_ATHENS, units={"thebes": (0, {"army": 1}),
                                                        "marathon": (1, {"fleet": 2})})
    s.rigged = [4]   # nothing defends but the ships, which do not roll on land
    play(s, "attack marathon")
    assert board.count(s, "occ", "marathon") == 0 and board.count(s, "flt", "marathon") == 2


def test_sea_battle_loser_sinks_and_retreats_with_its_cargo(board, play, texts):
    s = sea_battles(board, units={"saronic-gulf": (0, {"fleet": 2, "rowers": 2}),
                                  "euboean-gulf": (1, {"fleet": 1, "rowers": 1, "transport": 1,
                                                       "army": 1, "baggage": 2})})
    assert s.pending()[0].legal == ["done", "attack euboean-gulf"]
    # 8 + 8 against the fleet 2 and the armed transport 1; casualty rolls: the fleet 1 (sunk,
    # with its crew), the transport 6 (it retreats with its army)
    s.rigged = [8, 8, 2, 1, 1, 6]
    events = play(s, "attack euboean-gulf")
    assert "p1 16, p2 3" in texts(events)
    assert s.pending()[0].seat == "p2"
    assert s.pending()[0].legal == ["retreat north-aegean", "retreat cyclades-sea",
                                    "retreat marathon"]
    play(s, "retreat cyclades-sea")
    i = s.t.index["cyclades-sea"]
    assert (s.flt[i], s.trn[i], s.arm[i], s.row[i], s.bag[i]) == (0, 1, 1, 0, 0)
    assert board.count(s, "occ", "euboean-gulf") == -1


def test_a_fleet_left_without_rowers_cannot_retreat_and_is_lost(board, play, texts):
    # rule 9.6: a fleet needs rowers aboard to move, so one with no crew left cannot
    # retreat (table T6: a unit that cannot retreat is destroyed)
    s = sea_battles(board, units={"saronic-gulf": (0, {"fleet": 2, "rowers": 2}),
                                  "cyclades-sea": (1, {"fleet": 3, "rowers": 2})})
    # 10 + 10 against 1 + 1; casualty rolls 1 (a manned fleet sinks with its crew), 5, 6:
    # one manned fleet retreats with the last crew, the third fleet has none and is lost
    s.rigged = [10, 10, 1, 1, 1, 5, 6]
    events = play(s, "attack cyclades-sea")
    assert "1 ship lost" in texts(events) and "1 ships" not in texts(events)
    assert s.pending()[0].seat == "p2" and s.step == "retreat"
    events = play(s, "retreat north-aegean")
    assert "p2's 1 unmanned fleet in Cyclades Sea cannot retreat without rowers and is " \
        "destroyed" in texts(events)
    i, j = s.t.index["north-aegean"], s.t.index["cyclades-sea"]
    assert (s.flt[i], s.row[i]) == (1, 1)
    assert (s.flt[j], s.row[j], s.occ[j]) == (0, 0, -1)


def test_each_beaten_ship_rolls_for_itself_so_a_lost_unmanned_fleet_costs_no_crew(board, play):
    # table T6 and D12: the loser rolls for each ship; the die that sinks one belongs to that
    # ship, and a ship takes down only what it carries.  Here the unmanned fleet rolls the
    # 1: it sinks alone, and both manned fleets retreat with their crews.
    s = sea_battles(board, units={"saronic-gulf": (0, {"fleet": 2, "rowers": 2}),
                                  "cyclades-sea": (1, {"fleet": 3, "rowers": 2})})
    # 10 + 10 against the two manned fleets' 1 + 1; casualty rolls: manned 5, manned 6,
    # unmanned 1
    s.rigged = [10, 10, 1, 1, 5, 6, 1]
    play(s, "attack cyclades-sea", "retreat north-aegean", "retreat north-aegean")
    i = s.t.index["north-aegean"]
    assert (s.flt[i], s.row[i]) == (2, 2)
    assert board.count(s, "occ", "cyclades-sea") == -1


def test_a_transport_lost_at_sea_takes_down_its_own_cargo_only(board, play):
    # one transport carries the army, the other the rowers: the rowers' transport rolls
    # the 1 and goes down with them; the army's transport retreats with the army
    s = sea_battles(board, units={"saronic-gulf": (0, {"fleet": 2, "rowers": 2}),
                                  "euboean-gulf": (1, {"transport": 2, "army": 1, "rowers": 1})})
    s.rigged = [10, 10, 1, 6, 1]   # 20 against the armed transport's 1; army's 6, rowers' 1
    play(s, "attack euboean-gulf", "retreat north-aegean")
    i = s.t.index["north-aegean"]
    assert (s.trn[i], s.arm[i], s.row[i]) == (1, 1, 0)


def test_each_ship_retreats_with_its_army_only_where_both_have_room(board, play, texts):
    # Marathon (limit 4) holds 2 armies of p2: the first beaten transport lands there with its
    # army (4 in all); the second finds no room for itself and its army anywhere and is lost
    s = sea_battles(board, homes=THEBES_ATHENS,
                    units={"saronic-gulf": (0, {"fleet": 2, "rowers": 2}),
                           "north-aegean": (0, {"transport": 1}),
                           "cyclades-sea": (0, {"transport": 1}),
                           "euboean-gulf": (1, {"transport": 2, "army": 2}),
                           "marathon": (1, {"army": 2})})
    s.rigged = [9, 9, 1, 1, 5, 6]   # 18 against 2; both transports roll to retreat
    events = play(s, "attack euboean-gulf")
    i = s.t.index["marathon"]
    assert (s.arm[i], s.trn[i]) == (3, 1)
    assert s.stacked(i) <= s.t.stack[i]
    assert "1 army, 1 transport in Euboean Gulf cannot retreat and are destroyed" in texts(events)
    assert board.count(s, "occ", "euboean-gulf") == -1


def test_survivors_retreat_one_by_one_into_every_space_with_room(board, play, texts):
    # the audit's case: Thermopylae (a pass, room 1) and Marathon (3 of 4 taken) are both
    # free; the two beaten armies both survive, one in each
    s = land_battles(board, homes=("thebes", "athens", "troy"),
                     units={"thebes": (0, {"army": 3}), "boeotia": (1, {"army": 2}),
                            "marathon": (1, {"army": 3})})
    s.rigged = [10, 10, 10, 1, 1, 5, 6]   # 30 against 2; casualty rolls 5 and 6
    play(s, "attack boeotia")
    assert s.pending()[0].seat == "p2"
    assert s.pending()[0].legal == ["retreat thermopylae", "retreat marathon"]
    events = play(s, "retreat marathon")
    # Marathon is full now: the second army goes to the pass unasked
    assert "An army of p2 retreats from Boeotia to Thermopylae" in texts(events)
    assert board.count(s, "arm", "marathon") == 4 and board.count(s, "arm", "thermopylae") == 1
    assert "destroyed" not in texts(events)


def test_the_owner_may_split_his_survivors(board, play):
    s = land_battles(board, homes=THEBES_ATHENS,
                     units={"thebes": (0, {"army": 3}), "boeotia": (1, {"army": 2, "rowers": 1})})
    s.rigged = [10, 10, 10, 1, 1, 1, 5, 6, 5]   # every survivor retreats
    play(s, "attack boeotia")
    play(s, "retreat thermopylae")   # room for one army only: the next goes to Marathon
    assert board.count(s, "arm", "marathon") == 1 and board.count(s, "arm", "thermopylae") == 1
    assert s.pending()[0].legal == ["retreat thermopylae", "retreat marathon"]   # the rowers
    play(s, "retreat thermopylae")
    assert board.count(s, "row", "thermopylae") == 1 and board.count(s, "occ", "boeotia") == -1


def test_ships_retreat_one_by_one_where_their_owner_chooses(board, play):
    s = sea_battles(board, units={"saronic-gulf": (0, {"fleet": 3, "rowers": 3}),
                                  "euboean-gulf": (1, {"fleet": 2, "rowers": 2, "transport": 1,
                                                       "army": 1, "baggage": 2})})
    s.rigged = [8, 8, 8, 1, 1, 1, 5, 6, 6]   # 24 against 3; all three ships survive
    play(s, "attack euboean-gulf")
    options = ["retreat north-aegean", "retreat cyclades-sea", "retreat marathon"]
    assert s.pending()[0].legal == options
    play(s, "retreat north-aegean", "retreat cyclades-sea", "retreat cyclades-sea")
    north, cyclades = s.t.index["north-aegean"], s.t.index["cyclades-sea"]
    assert (s.flt[north], s.row[north], s.bag[north]) == (1, 1, 2)
    assert (s.flt[cyclades], s.row[cyclades], s.trn[cyclades], s.arm[cyclades]) == (1, 1, 1, 1)


def test_beached_ships_that_lose_stay_on_the_beach(board, play):
    s = sea_battles(board, homes=THEBES_ATHENS,
                    units={"euboean-gulf": (0, {"fleet": 1, "rowers": 1}),
                           "marathon": (1, {"fleet": 2, "rowers": 1, "army": 3})})
    s.rigged = [10, 2, 1, 6]   # 10 against one manned fleet's 2 (no terrain for ships)
    play(s, "attack marathon")
    i = s.t.index["marathon"]
    # one fleet sank, one stays on the beach; its crew and the armies are ashore and live
    assert (s.flt[i], s.row[i], s.arm[i]) == (1, 1, 3)


def test_a_sea_battle_in_a_port_sinks_ships_only_and_armies_ashore_do_not_roll(board, play,
                                                                               texts):
    s = sea_battles(board, players=2, homes=("corinth", "athens"),
                    units={"saronic-gulf": (0, {"fleet": 2, "rowers": 2}),
                           "athens": (1, {"army": 2, "transport": 2})})
    s.rigged = [10, 10, 1, 1]   # the fleets 20; nothing in Athens rolls; casualty rolls 1, 1
    events = play(s, "attack athens")
    assert "p1 20, p2 0" in texts(events)   # the armies are not aboard: no transport rolls
    athens = s.t.index["athens"]
    assert (s.trn[athens], s.arm[athens], s.occ[athens]) == (0, 2, 1)   # the ships alone sank


def test_storms_and_sea_battles_spare_the_same_units_in_port(board, play):
    units = {"saronic-gulf": (0, {"fleet": 1, "rowers": 1}),
             "athens": (1, {"army": 1, "rowers": 1, "fleet": 1, "transport": 1})}
    s = sea_battles(board, players=2, homes=("corinth", "athens"), units=units)
    s.rigged = [10, 1, 1, 1]   # 10 against the manned fleet's 1; both ships roll 1: lost
    play(s, "attack athens")
    storm = board.empty(players=2, homes=("corinth", "athens"), units=units,
                        hands={0: ["storms"]})
    storm.wait("cards", 0)
    storm.rigged = [6, 6]   # both ships sink in the storm
    play(storm, "play storms", "target athens")
    athens = s.t.index["athens"]
    for state in (s, storm):
        assert (state.flt[athens], state.trn[athens]) == (0, 0)
        assert (state.arm[athens], state.row[athens]) == (1, 1)


def test_battle_cards_both_sides_attacker_first(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS,
                     units={"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 2})},
                     hands={0: ["savage-fighting", "plague"], 1: ["strong-position", "spy"]})
    play(s, "attack boeotia")
    assert s.pending()[0].seat == "p1"
    assert s.pending()[0].legal == ["pass", "play savage-fighting"]
    play(s, "play savage-fighting")
    assert s.pending()[0].seat == "p2"
    assert s.pending()[0].legal == ["pass", "play strong-position"]
    # then neither holds a battle card: the dice roll at once
    # attack 9 + Savage Fighting 4 = 13; defence (2 + 3) + (1 + 3) = 9
    s.rigged = [9, 2, 1, 4, 1, 6]
    events = play(s, "play strong-position")
    assert "p1 13, p2 9" in texts(events) and "Savage Fighting +4" in texts(events)


def test_casualty_cards_and_cavalry(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS,
                     units={"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 2})},
                     hands={0: ["block-escape"], 1: ["withdrawal"]})
    s.traits[0] = ["cavalry"]
    play(s, "attack boeotia", "play block-escape")
    # p2 loses: each casualty roll -1 (Block Escape) -1 (Cavalry) +1 (Withdrawal): 5 -> 4 lost
    s.rigged = [9, 1, 1, 5, 6]
    events = play(s, "play withdrawal")
    assert "casualty rolls 4, 5 (-1): 1 unit lost" in texts(events)


def test_always_ask_opens_windows_on_any_hand(board, play):
    s = board.empty(homes=THEBES_ATHENS, options={"reaction_prompts": "always"},
                    units={"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 1})},
                    hands={1: ["spy"]})
    s.begin_attacks(sea=False)
    play(s, "attack boeotia")
    assert s.pending()[0].seat == "p2" and s.pending()[0].legal == ["pass"]
    # and the other seats are not told whose decision it is
    assert s.view("p1")["to_act"] == "" and s.view("p2")["to_act"] == "p2"


def test_the_heroism_die_and_leader_bonuses(board, play, texts):
    s = land_battles(board, homes=THEBES_ATHENS,
                     units={"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 1})})
    board.add_leader(s, 0, "thebes", "Pericles", ["heroism", "general"])
    s.rigged = [3, 4, 9, 6]   # army 3 + General 2, Heroism 4; defence 9; p1 casualty 6
    events = play(s, "attack boeotia")
    assert "p1 9, p2 9" in texts(events)


# -- attacking from the sea (decision D19) -----------------------------------------------------

def test_armies_aboard_take_an_island_city_from_the_sea(board, play, texts):
    s = land_battles(board, players=2, homes=("athens", "sparta"),
                     units={"cyclades-sea": (0, {"army": 1, "transport": 1, "fleet": 2,
                                                 "rowers": 2})})
    # Naxos has no land neighbour; Eretria borders only Chalcis
    assert s.pending()[0].legal == ["done", "attack eretria", "attack naxos"]
    s.rigged = [10, 1, 1]   # the army 10 against the neutral army 1 + 5 and the garrison 1
    events = play(s, "attack naxos")
    assert "p1 takes Naxos (an army moves in from Cyclades Sea)" in texts(events)
    naxos, sea = s.t.index["naxos"], s.t.index["cyclades-sea"]
    assert (s.owner[naxos], s.arm[naxos]) == (0, 1)
    # the ships and their crews stay afloat; the crews did not fight
    assert (s.arm[sea], s.trn[sea], s.flt[sea], s.row[sea]) == (0, 1, 2, 2)


def test_beaten_armies_aboard_stay_aboard_with_their_leader(board, play):
    s = land_battles(board, players=2, homes=("athens", "sparta"),
                     units={"chian-strait": (0, {"army": 1, "transport": 1})})
    board.add_leader(s, 0, "chian-strait", "Kimon", [])
    s.rigged = [1, 5, 1, 2]   # the army 1 against 5 + 5 + 1; its casualty roll 2: lost
    play(s, "attack chios")
    sea = s.t.index["chian-strait"]
    assert (s.arm[sea], s.trn[sea], s.owner[s.t.index["chios"]]) == (0, 1, -1)
    assert s.l_state[0] == 0 and s.l_space[0] == sea   # Kimon is still free, aboard


def test_only_landing_places_are_attacked_from_the_sea_and_only_by_armies(board, play):
    s = land_battles(board, players=2, homes=("corinth", "sparta"),
                     units={"saronic-gulf": (0, {"army": 1, "transport": 1}),
                            "laurion": (1, {"army": 1})})
    legal = s.pending()[0].legal
    assert "attack athens" in legal and "attack megara" in legal
    assert "attack laurion" not in legal   # a rocky coast: no ship may land there
    s = land_battles(board, players=2, homes=("athens", "sparta"),
                     units={"cyclades-sea": (0, {"fleet": 2, "rowers": 2})})
    assert s.step != "attack"   # crews stay with their fleets: nothing to attack with
