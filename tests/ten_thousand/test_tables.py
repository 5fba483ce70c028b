"""Each phase's table with loaded dice, including every modifier source.

p1 holds Council of War (a card playable in every own window), so play stops
at each of p1's rolls and the test can read the open window: dice, modifiers
and total, then "pass" to apply it.
"""

from __future__ import annotations

import pytest

CW = 119  # Council of War


def open_at(position, tt, table, **kw):
    hands = kw.pop("hands", {"p1": [CW]})
    state = position(hands=hands, **kw)
    return tt.pass_until(state, table)


def apply_pass(state, tt, table):
    events = state.apply(state.pending()[0].seat, "pass")
    return tt.result_event(events, table)


def mods(state):
    return {label: value for label, value in state.window.mods}


# ----- Route -----------------------------------------------------------------------------
@pytest.mark.parametrize("faces, terrain", [
    ([1, 1], "High Mountains"), ([1, 2], "High Mountains"), ([2, 2], "Mountains"),
    ([3, 3], "River"), ([3, 4], "Desert"), ([4, 4], "Hills"), ([4, 5], "Flat Plains"),
    ([5, 5], "Flat Plains"), ([5, 6], "Settled Area"), ([6, 6], "Settled Area")])
def test_route_roll_two_dice_pick_the_terrain(position, tt, faces, terrain):
    state = open_at(position, tt, "route", dice=faces)
    assert state.window.dice == faces and state.window.total == sum(faces)
    assert apply_pass(state, tt, "route").data["result"] == terrain


def test_route_columns_reach_forage_travel_and_battle(position, tt):
    state = position(phase="forage", hands={"p1": [CW]}, route="Settled Area", weather="Mild")
    state.apply("p1", "forage")
    assert state.window.table == "forage" and mods(state) == {"route": 2}
    state = open_at(position, tt, "travel", phase="travel", route="High Mountains",
                    weather="Mild")
    assert mods(state) == {"route": -2}
    state = open_at(position, tt, "battle", phase="battle", route="Flat Plains",
                    flags=["attacked"])
    assert mods(state) == {"route": 1}
    state = open_at(position, tt, "battle", phase="battle", route="Hills", flags=["attacked"])
    assert mods(state) == {"route": -1}


# ----- Weather ---------------------------------------------------------------------------
@pytest.mark.parametrize("space, face, total, weather", [
    (1, 6, 5, "Cold"), (30, 6, 5, "Cold"), (31, 6, 6, "Harsh"), (30, 1, 0, "Mild"),
    (31, 3, 3, "Mild"), (31, 4, 4, "Cold"), (40, 5, 5, "Cold")])
def test_weather_roll_with_early_march_modifier(position, tt, space, face, total, weather):
    state = open_at(position, tt, "weather", phase="weather", space=space, dice=[face])
    assert state.window.total == total
    assert ("early march" in mods(state)) == (space <= 30)
    assert apply_pass(state, tt, "weather").data["result"] == weather


def test_harsh_weather_sets_up_exposure_and_the_travel_penalty(position, tt):
    state = open_at(position, tt, "weather", phase="weather", space=40, dice=[6], route="Desert")
    apply_pass(state, tt, "weather")
    assert "harsh" in state.turn.flags
    tt.pass_until(state, "travel")
    assert mods(state)["weather"] == -2


# ----- Satrap and Negotiation -------------------------------------------------------------
@pytest.mark.parametrize("route, face, met", [
    ("Desert", 5, False), ("Desert", 6, True), ("Settled Area", 5, True),
    ("Settled Area", 4, False)])
def test_satrap_roll_with_settled_area_bonus(position, tt, route, face, met):
    state = open_at(position, tt, "satrap", phase="satrap", route=route, dice=[face])
    assert ("settled area" in mods(state)) == (route == "Settled Area")
    result = apply_pass(state, tt, "satrap").data["result"]
    assert (result == "Encounter a Satrap") == met
    assert ("satrap" in state.turn.flags) == met


def test_no_negotiation_without_a_satrap(position, tt):
    state = position(phase="negotiation", hands={"p1": [CW]}, dice=[1], tokens={"p1": {"anger": 0}})
    # no satrap, no anger, no attack, mild weather: straight on to the forage choice
    assert state.window is None and state.pending()[0].legal == ["forage", "skip"]
    assert state.armies["p1"].tokens["anger"] == 0


@pytest.mark.parametrize("face, before, after", [
    (1, {"anger": 1, "food": 0}, {"anger": 4, "food": 0}),
    (2, {"anger": 1, "food": 0}, {"anger": 3, "food": 0}),
    (3, {"anger": 1, "food": 0}, {"anger": 2, "food": 0}),
    (4, {"anger": 1, "food": 0}, {"anger": 1, "food": 0}),
    (5, {"anger": 1, "food": 0}, {"anger": 1, "food": 2}),
    (6, {"anger": 3, "food": 1}, {"anger": 0, "food": 3})])
def test_negotiation_table(position, tt, face, before, after):
    state = open_at(position, tt, "negotiation", phase="negotiation", flags=["satrap"],
                    dice=[face], tokens={"p1": before})
    apply_pass(state, tt, "negotiation")
    assert {k: state.armies["p1"].tokens[k] for k in after} == after


def test_menon_adds_one_to_negotiation(position, tt):
    state = open_at(position, tt, "negotiation", phase="negotiation", flags=["satrap"],
                    dice=[5], leaders={"p1": "menon"}, tokens={"p1": {"anger": 2}})
    assert mods(state) == {"Menon the Thessalian": 1}
    assert apply_pass(state, tt, "negotiation").data["result"] == "Friendly"
    assert state.armies["p1"].tokens["anger"] == 0


# ----- Attack and Battle --------------------------------------------------------------------
@pytest.mark.parametrize("anger, face, attacked", [(2, 2, True), (2, 3, False), (1, 1, True),
                                                   (5, 5, True), (5, 6, False)])
def test_attack_when_roll_is_at_most_anger(position, tt, anger, face, attacked):
    state = open_at(position, tt, "attack", phase="attack", dice=[face],
                    tokens={"p1": {"anger": anger}})
    apply_pass(state, tt, "attack")
    assert ("attacked" in state.turn.flags) == attacked
    assert state.armies["p1"].tokens["anger"] == anger - (1 if attacked else 0)


def test_no_attack_roll_without_anger(position, tt):
    state = position(phase="attack", hands={"p1": [CW]}, tokens={"p1": {"anger": 0}},
                     dice=[1])
    assert state.window is None and state.pending()[0].legal == ["forage", "skip"]
    assert "attacked" not in state.turn.flags


@pytest.mark.parametrize("route, faces, lost", [
    ("Desert", [1, 3], 700), ("Desert", [1, 6], 1000), ("Desert", [2], 500),
    ("Desert", [3], 400), ("Desert", [4], 300), ("Desert", [5], 200), ("Desert", [6], 100),
    ("Flat Plains", [6], 0), ("Hills", [2, 1], 500), ("High Mountains", [5], 100)])
def test_battle_casualties(position, tt, route, faces, lost):
    state = open_at(position, tt, "battle", phase="battle", route=route, flags=["attacked"],
                    dice=faces)
    apply_pass(state, tt, "battle")
    assert state.armies["p1"].men == 10000 - lost


def test_no_battle_unless_attacked(position, tt):
    state = position(phase="battle", hands={"p1": [CW]}, route="Desert", dice=[1, 6])
    assert state.window is None and state.pending()[0].legal == ["forage", "skip"]
    assert state.armies["p1"].men == 10000


# ----- Exposure ----------------------------------------------------------------------------
@pytest.mark.parametrize("flags, face, lost", [
    ([], 4, 300), ([], 1, 0), (["attacked"], 4, 400), (["harsh_last_turn"], 6, 600),
    (["attacked", "harsh_last_turn"], 6, 700)])
def test_exposure_in_harsh_weather(position, tt, flags, face, lost):
    state = open_at(position, tt, "exposure", phase="exposure", weather="Harsh", flags=flags,
                    dice=[face])
    apply_pass(state, tt, "exposure")
    assert state.armies["p1"].men == 10000 - lost


def test_no_exposure_unless_harsh(position, tt):
    state = position(phase="exposure", hands={"p1": [CW]}, weather="Cold")
    assert state.window is None or state.window.table != "exposure"


def test_harsh_weather_is_remembered_for_next_turns_exposure(position, tt):
    state = open_at(position, tt, "travel", phase="travel", weather="Harsh", space=40)
    state.apply("p1", "pass")   # alone: p1's next turn starts at once
    assert state.turn.seat == "p1" and "harsh_last_turn" in state.turn.flags


# ----- Forage -------------------------------------------------------------------------------
@pytest.mark.parametrize("route, weather, face, food, anger", [
    ("Desert", "Mild", 1, 0, 0), ("Hills", "Mild", 2, 1, 0), ("Hills", "Mild", 3, 2, 1),
    ("Hills", "Mild", 4, 3, 1), ("Hills", "Mild", 5, 4, 2), ("Hills", "Mild", 6, 5, 2),
    ("Settled Area", "Cold", 3, 3, 1), ("Settled Area", "Mild", 6, 5, 2),
    ("High Mountains", "Harsh", 3, 0, 0)])
def test_forage_table_clamped_to_1_6(position, tt, route, weather, face, food, anger):
    state = position(phase="forage", hands={"p1": [CW]}, route=route, weather=weather,
                     dice=[face], tokens={"p1": {"food": 0}})
    assert state.pending()[0].legal == ["forage", "skip"]
    state.apply("p1", "forage")
    apply_pass(state, tt, "forage")
    assert state.armies["p1"].tokens["anger"] == anger
    # consumption has already eaten one of the food found (or marked hunger)
    assert state.armies["p1"].tokens["food"] == max(0, food - 1)


def test_choosing_not_to_forage_skips_the_roll_and_the_travel_penalty(position, tt):
    state = position(phase="forage", hands={"p1": [CW]}, route="Desert", weather="Mild")
    state.apply("p1", "skip")
    tt.pass_until(state, "travel")
    assert "foraged" not in mods(state) and "foraged" not in state.turn.flags


# ----- Consumption and Starvation ---------------------------------------------------------------
def test_consumption_with_food_clears_starvation(position, tt):
    state = position(phase="consumption", hands={"p1": [CW]},
                     tokens={"p1": {"food": 2, "starvation": 3}})
    tt.pass_until(state, "morale")
    assert state.armies["p1"].tokens["food"] == 1
    assert state.armies["p1"].tokens["starvation"] == 0


def test_consumption_without_food_adds_starvation(position, tt):
    state = position(phase="consumption", hands={"p1": [CW]},
                     tokens={"p1": {"food": 0, "starvation": 1}})
    tt.pass_until(state, "starvation")
    assert state.armies["p1"].tokens["starvation"] == 2


@pytest.mark.parametrize("tokens, face, lost", [(1, 6, 300), (2, 5, 300), (1, 2, 0),
                                                (4, 6, 600), (3, 1, 0)])
def test_starvation_losses(position, tt, tokens, face, lost):
    state = open_at(position, tt, "starvation", phase="starvation", dice=[face],
                    tokens={"p1": {"starvation": tokens}})
    apply_pass(state, tt, "starvation")
    assert state.armies["p1"].men == 10000 - lost


# ----- Morale, Rally, Desertion ---------------------------------------------------------------
@pytest.mark.parametrize("flags, starving, face, mutiny", [
    ([], 0, 5, 0), ([], 0, 6, 1), (["attacked"], 0, 5, 1), (["harsh"], 0, 5, 1),
    ([], 1, 5, 1), (["attacked", "harsh"], 1, 3, 1), (["attacked", "harsh"], 1, 2, 0)])
def test_morale_roll(position, tt, flags, starving, face, mutiny):
    state = open_at(position, tt, "morale", phase="morale", flags=flags, dice=[face],
                    tokens={"p1": {"starvation": starving}})
    apply_pass(state, tt, "morale")
    assert state.armies["p1"].tokens["mutiny"] == mutiny


@pytest.mark.parametrize("face, left", [(4, 2), (5, 1), (6, 1), (1, 2)])
def test_rally_roll(position, tt, face, left):
    state = open_at(position, tt, "rally", phase="rally", dice=[face],
                    tokens={"p1": {"mutiny": 2}})
    apply_pass(state, tt, "rally")
    assert state.armies["p1"].tokens["mutiny"] == left


def test_no_rally_or_desertion_without_mutiny(position, tt):
    state = position(phase="rally", hands={"p1": [CW]}, tokens={"p1": {"mutiny": 0}})
    assert state.window.table == "travel"


@pytest.mark.parametrize("mutiny, faces, lost", [(1, [5, 4], 400), (1, [4], 0), (3, [3, 6], 600),
                                                 (2, [3], 0)])
def test_desertion_roll_adds_mutiny_tokens(position, tt, mutiny, faces, lost):
    state = open_at(position, tt, "desertion", phase="desertion", dice=faces,
                    tokens={"p1": {"mutiny": mutiny}})
    assert mods(state) == {"mutiny tokens": mutiny}
    apply_pass(state, tt, "desertion")
    assert state.armies["p1"].men == 10000 - lost


# ----- Travel -------------------------------------------------------------------------------
def test_travel_with_every_penalty(position, tt):
    state = open_at(position, tt, "travel", phase="travel", route="Flat Plains", weather="Cold",
                    flags=["foraged", "satrap", "attacked"], tokens={"p1": {"starvation": 1}},
                    dice=[6], space=10)
    assert mods(state) == {"route": 1, "weather": -1, "foraged": -2, "starving": -1,
                           "negotiated": -2, "attacked": -2}
    assert state.window.total == -1
    state.apply("p1", "pass")
    assert state.armies["p1"].space == 10   # never backwards


def test_travel_moves_the_pawn(position, tt):
    state = open_at(position, tt, "travel", phase="travel", route="Settled Area",
                    weather="Mild", dice=[4], space=10)
    state.apply("p1", "pass")
    assert state.armies["p1"].space == 16


def test_reaching_trapezus_ends_the_march_on_the_time_track(position, tt):
    state = open_at(position, tt, "travel", phase="travel", route="Desert", weather="Mild",
                    dice=[6], space=57, players=2, men=6000)
    state.round = 30
    events = state.apply("p1", "pass")
    army = state.armies["p1"]
    assert army.space == 60 and army.arrived == 30 and army.hand == []
    assert any(e.type == "arrive" for e in events)
    assert "p1" not in state.marching()


def test_no_attack_once_the_last_anger_token_is_gone(position, tt):
    """A roll forced below zero is no attack when the Anger token left in the window."""
    state = position(phase="attack", hands={"p1": [14, 152]}, tokens={"p1": {"anger": 1}},
                     dice=[2])   # Tissaphernes (AR -3) is forced: 2 - 3 = -1
    assert state.window.total == -1
    state.apply("p1", "play 152 AT-1")   # Village Headman takes the last Anger token
    assert "attacked" not in state.turn.flags
    assert state.armies["p1"].men == 10000 and state.armies["p1"].tokens["anger"] == 0
