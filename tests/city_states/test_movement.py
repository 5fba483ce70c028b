"""Movement (rule 9.6): terrain costs, stacking, carrying, ships, capture on entering."""

from __future__ import annotations

import copy

import pytest

from agon.referee.games.city_states import CityStatesEngine
from agon.referee.ruleset import validate_value

THEBAN = ("thebes", "sparta", "troy")


def moving(board, space="thebes", how="move", **kw):
    """A first move phase of p1 with a group formed in `space`."""
    s = board.empty(**kw)
    s.begin_moves("first_move", "after_first_move")
    s.apply("p1", f"{how} {space}")
    return s


def destinations(s) -> set[str]:
    return {a.split()[1] for a in s.pending()[0].legal if a.startswith("to ")}


def test_an_army_pays_the_terrain_cost_of_each_space(board):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1})})
    # Boeotia 1, Cithaeron (hills) 2, Marathon 1; Thermopylae (pass) 1+2; Magnesia 1+2+1 = 4;
    # Laurion (rocky coast) 1+2; Larissa would be 1+2+2 = 5, and it is a neutral city anyway
    assert destinations(s) == {"boeotia", "cithaeron", "marathon", "thermopylae", "magnesia",
                               "laurion"}


def test_neutral_and_enemy_cities_cannot_be_entered_but_own_ones_can(board):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1})},
               owners={"delphi": 0, "megara": 1})
    found = destinations(s)
    assert "delphi" in found            # Boeotia 1 + city 2 = 3
    assert "megara" not in found        # p2's city
    assert "athens" not in found        # neutral


def test_athletic_gives_armies_one_more_move_point(board):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1})}, owners={"larissa": 0})
    assert "larissa" not in destinations(s)
    s = board.empty(homes=THEBAN, units={"thebes": (0, {"army": 1})}, owners={"larissa": 0})
    s.traits[0] = ["athletic"]
    s.begin_moves("first_move", "after_first_move")
    s.apply("p1", "move thebes")
    assert "larissa" in destinations(s)   # 1 + 2 + 2 = 5 move points


def test_a_leader_alone_moves_six(board):
    s = board.empty(homes=THEBAN, owners={"larissa": 0})
    board.add_leader(s, 0, "thebes", "Pericles", ["oratory"])
    s.begin_moves("first_move", "after_first_move")
    s.apply("p1", "move thebes")
    assert {"larissa", "delphi"} - {"delphi"} <= destinations(s)
    assert "pieria" not in destinations(s)


def test_stacking_limits_where_a_move_ends_not_where_it_passes(board):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1}),
                                           "thermopylae": (0, {"army": 1})})
    found = destinations(s)
    assert "thermopylae" not in found      # a mountain pass holds one army
    assert "magnesia" in found             # but the army may pass through it
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1, "rowers": 3}),
                                           "thermopylae": (0, {"army": 1})})
    s.apply("p1", "leave army")
    assert "thermopylae" in destinations(s)   # rowers do not count for stacking


def test_enemy_units_block_and_unguarded_ones_are_captured(board, play):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1}),
                                           "boeotia": (1, {"army": 1}),
                                           "marathon": (1, {"baggage": 3, "transport": 1})})
    found = destinations(s)
    assert "boeotia" not in found and "thermopylae" not in found   # only through Boeotia
    assert "marathon" in found and "laurion" not in found          # stops to capture
    events = play(s, "to marathon")
    assert any("captures p2's 1 transport, 3 baggage in Marathon" in e.text for e in events)
    assert board.count(s, "occ", "marathon") == 0 and board.count(s, "trn", "marathon") == 1


def test_rowers_aboard_a_transport_capture_unguarded_ships_at_sea(board, play):
    # rule 9.6: armies, rowers or manned fleets that enter a space holding only enemy
    # transports and baggage capture them; rowers carried by a transport are rowers too
    s = moving(board, space="saronic-gulf", how="sail", homes=("athens", "sparta"),
               players=2, units={"saronic-gulf": (0, {"transport": 1, "rowers": 1}),
                                 "cyclades-sea": (1, {"transport": 1, "baggage": 2})})
    assert "cyclades-sea" in destinations(s)
    events = play(s, "to cyclades-sea")
    assert any("captures p2's 1 transport, 2 baggage in Cyclades Sea" in e.text for e in events)
    i = s.t.index["cyclades-sea"]
    assert (s.occ[i], s.trn[i], s.row[i], s.bag[i]) == (0, 2, 1, 2)
    # an empty transport captures nothing, so it may not go there
    s = moving(board, space="saronic-gulf", how="sail", homes=("athens", "sparta"),
               players=2, units={"saronic-gulf": (0, {"transport": 1}),
                                 "cyclades-sea": (1, {"transport": 1, "baggage": 2})})
    assert "cyclades-sea" not in destinations(s)


def test_an_army_carries_four_baggage_and_leaves_the_rest(board, play):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1, "baggage": 6})})
    assert "leave baggage" in s.pending()[0].legal
    play(s, "to boeotia")
    assert board.count(s, "bag", "boeotia") == 4 and board.count(s, "bag", "thebes") == 2


def test_a_fleet_without_rowers_cannot_sail(board, play):
    s = board.empty(units={"athens": (0, {"fleet": 2})})
    s.begin_moves("first_move", "after_first_move")
    assert s.step != "move" or "sail athens" not in s.pending()[0].legal
    s = board.empty(units={"athens": (0, {"fleet": 2, "rowers": 1})})
    s.begin_moves("first_move", "after_first_move")
    assert "sail athens" in s.pending()[0].legal
    play(s, "sail athens")
    assert s.g_flt == 1 and s.g_row == 1   # one crew mans one fleet
    play(s, "to saronic-gulf")
    assert board.count(s, "flt", "saronic-gulf") == 1 and board.count(s, "flt", "athens") == 1


def test_a_transport_carries_one_army(board, play):
    s = moving(board, space="athens", how="sail",
               units={"athens": (0, {"army": 2, "transport": 1, "baggage": 10})})
    assert (s.g_trn, s.g_arm, s.g_bag) == (1, 1, 0)   # full with its army: no baggage room
    legal = s.pending()[0].legal
    assert "leave army" in legal and "leave transport" not in legal
    play(s, "leave army")
    assert s.g_bag == 8   # an empty transport takes 8 baggage
    play(s, "to saronic-gulf")
    assert board.count(s, "bag", "saronic-gulf") == 8 and board.count(s, "arm", "athens") == 2


def test_fleet_carries_two_baggage_and_transports_take_rowers(board, play):
    s = moving(board, space="athens", how="sail",
               units={"athens": (0, {"fleet": 1, "rowers": 2, "transport": 1, "baggage": 20})})
    assert (s.g_flt, s.g_row, s.g_bag) == (1, 1, 10)   # 2 on the fleet, 8 on the transport
    play(s, "take rowers")
    assert (s.g_row, s.g_bag) == (2, 2)                  # the transport now carries rowers


def test_ships_stop_when_they_reach_a_landing_place(board):
    s = moving(board, space="athens", how="sail",
               units={"athens": (0, {"fleet": 1, "rowers": 1})})
    found = destinations(s)
    assert "aegina" in found and "megara" not in found   # Megara is a neutral city
    assert "marathon" in found and "laurion" not in found  # a beach, not a rocky coast
    s2 = moving(board, space="athens", how="sail",
                units={"athens": (0, {"fleet": 1, "rowers": 1})}, owners={"megara": 0})
    assert "megara" in destinations(s2)


def test_a_landing_place_takes_the_cargo_ashore(board, play):
    s = moving(board, space="athens", how="sail",
               units={"athens": (0, {"army": 1, "transport": 1})})
    play(s, "to marathon")
    assert board.count(s, "arm", "marathon") == 1 and board.count(s, "trn", "marathon") == 1
    # it has moved: no second move this phase
    assert "move marathon" not in s.pending()[0].legal


def test_forced_march_adds_two_move_points(board, play):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1})}, owners={"larissa": 0},
               hands={0: ["forced-march"]})
    assert "larissa" not in destinations(s)
    play(s, "play forced-march")
    assert "larissa" in destinations(s) and s.hands[0] == []


def test_relieving_force_only_towards_a_besieged_city(board, play):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1})},
               owners={"larissa": 0}, hands={0: ["relieving-force"]})
    play(s, "play relieving-force")
    assert "larissa" not in destinations(s)   # nobody besieges it
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1}), "pindus": (1, {})},
               owners={"larissa": 0}, hands={0: ["relieving-force"]})
    board.place(s, "magnesia", 1, army=1)      # p2 next to Larissa: it is besieged
    s._pending = None
    play(s, "play relieving-force")
    assert "larissa" in destinations(s)


def test_each_unit_moves_once_per_phase_and_again_in_the_second_move(board, play):
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 2})})
    play(s, "leave army", "to boeotia")
    legal = s.pending()[0].legal
    assert "move thebes" in legal and "move boeotia" not in legal
    play(s, "move thebes", "stay")
    assert s.pending()[0].legal == ["done"] or s.step != "move"
    s.begin_moves("second_move", "after_second_move")
    assert "move boeotia" in s.pending()[0].legal


def test_a_capture_that_overfills_a_landing_place_scuttles_captured_ships(board, play, texts):
    s = moving(board, space="saronic-gulf", how="sail",
               units={"saronic-gulf": (0, {"fleet": 1, "rowers": 1, "transport": 1, "army": 1}),
                      "aegina": (1, {"fleet": 3})})
    events = play(s, "to aegina")
    i = s.t.index["aegina"]
    assert "2 captured ships beyond the stacking limit scuttled in Aegina" in texts(events)
    assert (s.flt[i], s.trn[i], s.arm[i]) == (2, 1, 1)   # the movers all stand there
    assert s.phase == "second_move"   # nothing else could move in the first move phase


def test_cargo_of_a_scuttled_ship_goes_down_with_it(board, play, texts):
    # three captured transports join two fleets at sea: one is scuttled (limit 4), and the
    # ships left hold 2 + 2 (fleets) + 8 + 8 (transports) = 20 of the 24 baggage taken
    s = moving(board, space="troy", how="sail", homes=("troy", "sparta", "athens"),
               units={"troy": (0, {"fleet": 2, "rowers": 2}),
                      "hellespont": (1, {"transport": 3, "baggage": 24})})
    events = play(s, "to hellespont")
    i = s.t.index["hellespont"]
    assert "1 captured ship beyond the stacking limit scuttled" in texts(events)
    assert (s.occ[i], s.flt[i], s.trn[i], s.bag[i]) == (0, 2, 2, 20)



def test_movement_cards_add_up(board, play):
    # Forced March and Marathon each give the army stack +2: together +4. From Thebes by
    # Megara and Corinth (own cities) Sicyon Shore costs 7: out of reach at 4 + 2
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1})},
               owners={"megara": 0, "corinth": 0}, hands={0: ["forced-march", "marathon"]})
    play(s, "play forced-march")
    assert "corinth" in destinations(s) and "sicyon-shore" not in destinations(s)
    play(s, "play marathon")
    assert "sicyon-shore" in destinations(s) and s.hands[0] == []


def test_relieving_force_keeps_only_its_own_two_points_for_relief(board, play):
    # with Forced March too the army has 8: Forced March's 2 go anywhere (Corinth costs 6),
    # Relieving Force's 2 only towards a besieged city (Sicyon Shore, 7, is next to none)
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"army": 1})},
               owners={"megara": 0, "corinth": 0},
               hands={0: ["forced-march", "relieving-force"]})
    play(s, "play forced-march", "play relieving-force")
    assert "corinth" in destinations(s) and "sicyon-shore" not in destinations(s)


def test_starvation_markers_leave_with_the_hungry_army(board, play):
    # a fresh army entering the space the starving one left (a leader stayed) is not hungry
    s = board.empty(homes=THEBAN, units={"boeotia": (0, {"army": 1}), "thebes": (0, {"army": 1})})
    board.add_leader(s, 0, "boeotia", "Nicias", ["oratory"])
    s.starve[s.t.index["boeotia"]] = 2
    s.begin_moves("first_move", "after_first_move")
    play(s, "move boeotia", "leave Nicias", "to thermopylae", "move thebes", "to boeotia")
    assert s.starve[s.t.index["thermopylae"]] == 2
    assert s.starve[s.t.index["boeotia"]] == 0


def test_relieving_force_serves_any_stack_forced_march_only_armies(board, play):
    # Relieving Force: "Stack gets +2"; Forced March and Marathon: "Army Stack gets +2".
    # A transport (8 move points) in the Pontus reaches the Gulf of Corinth at most; with
    # Relieving Force it reaches Delphi (9), which p2's army in Boeotia besieges
    hands = {0: ["relieving-force", "forced-march", "marathon"]}
    s = moving(board, space="pontus-euxinus", how="sail", owners={"delphi": 0}, hands=hands,
               units={"pontus-euxinus": (0, {"transport": 1}), "boeotia": (1, {"army": 1})})
    cards = [a for a in s.pending()[0].legal if a.startswith("play ")]
    assert cards == ["play relieving-force"]
    assert "gulf-of-corinth" in destinations(s) and "delphi" not in destinations(s)
    play(s, "play relieving-force")
    assert "delphi" in destinations(s)
    # rowers marching alone may use it too (Thebes to Larissa costs 5), but no Forced March
    s = moving(board, homes=THEBAN, units={"thebes": (0, {"rowers": 1}),
                                           "magnesia": (1, {"army": 1})},
               owners={"larissa": 0}, hands=hands)
    assert [a for a in s.pending()[0].legal if a.startswith("play ")] == \
        ["play relieving-force"]
    play(s, "play relieving-force")
    assert "larissa" in destinations(s)


def test_a_full_allowance_enters_one_space_however_dear(board):
    """C-07: a unit with all its move points may always step into one adjacent passable
    space, even one whose terrain costs more than it has (a house rule's costly hills)."""
    raw = copy.deepcopy(board.engine.ruleset.raw)
    raw["data"]["terrain"]["hills"]["move"] = 9   # an army has 4
    ruleset, issues = validate_value(raw, "costly-hills.yaml")
    assert not issues
    s = moving(type(board)(CityStatesEngine(ruleset)), homes=THEBAN,
               units={"thebes": (0, {"army": 1})})
    found = destinations(s)
    assert "cithaeron" in found   # the hills next door: the one dear step
    assert "megara" not in found  # beyond them: nothing left to pay with


def test_rowers_left_in_a_port_cannot_be_taken_back_aboard(board, play):
    """D23: else a player could leave and take the same rowers for ever."""
    s = moving(board, space="athens", how="sail",
               units={"athens": (0, {"fleet": 1, "rowers": 3, "transport": 1})})
    play(s, "take rowers")
    assert s.g_row == 2 and "leave rowers" in s.pending()[0].legal
    play(s, "leave rowers")
    assert s.g_row == 1 and "take rowers" not in s.pending()[0].legal
    # a new group in the next move phase may take them again
    s = moving(board, space="athens", how="sail",
               units={"athens": (0, {"fleet": 1, "rowers": 3, "transport": 1})})
    assert "take rowers" in s.pending()[0].legal


def test_baggage_afloat_that_must_go_along_cannot_be_left(board, play):
    """D23: with no ship staying behind to hold it, leaving baggage at sea changed nothing
    and was offered again and again."""
    s = moving(board, space="saronic-gulf", how="sail",
               units={"saronic-gulf": (0, {"transport": 3, "baggage": 24})})
    legal = s.pending()[0].legal
    assert s.g_bag == 24
    assert "leave baggage" not in legal and "leave all baggage" not in legal
    play(s, "leave transport")   # the transport staying behind holds 8 of it
    assert s.g_bag == 16 and "leave baggage" not in s.pending()[0].legal


@pytest.mark.parametrize("players, seed, pick", [(2, 1, -1), (3, 2, "middle")])
def test_a_bot_that_always_picks_the_same_place_in_the_list_ends_the_game(engine, players,
                                                                          seed, pick):
    """Such a bot once went round for ever: "leave rowers" then "take rowers" (the last
    two choices), or "leave baggage" afloat, which changed nothing (the middle one)."""
    state = engine.new_game(engine.seats(players), seed, {})
    for _ in range(200_000):
        if not state.pending():
            break
        legal = state.pending()[0].legal
        state.apply(state.pending()[0].seat, legal[len(legal) // 2 if pick == "middle" else pick])
    assert state.over and state.turn <= 36
