"""The rulebook's own numbers, as positions (fourth audit).

The rulebook (seed 002) prints no worked example, sample turn or illustration:
what it gives are its tables, its formulas and its counts.  So:

* `RULEBOOK` below is each table typed in from the rulebook, and the ruleset's
  data must hold the same numbers;
* every total a roll can come to, the lowest and highest dice and modifiers
  pushing it off either end, must read the row the rulebook (and the reference's
  clamping, X-06.2) gives;
* sample turns through all 16 phases, with loaded dice, must end with the men,
  tokens and space worked out by hand from the tables;
* setup counts, the Time Track and the score at 1 to 6 players.
"""

from __future__ import annotations

import pytest

CW = 119                 # Council of War (Draw 3 Cards): opens a window on each own roll
THRACIAN_TROOPS = 17     # BR +1
GREEK_CAVALRY = 19       # BR +1
CALL_FOR_ACTION = 21     # BR +1
ESCORT = 81              # TR +2

# ----- the rulebook's tables, typed in --------------------------------------------------
# Route (2D6): terrain, FR, TR, BR ("-" printed as 0)
ROUTE = [(2, 3, "High Mountains", -1, -2, 1), (4, 5, "Mountains", -1, -1, 1),
         (6, 6, "River", 0, -2, 1), (7, 7, "Desert", -1, 0, 0), (8, 8, "Hills", 0, 0, -1),
         (9, 10, "Flat Plains", 1, 1, 1), (11, 12, "Settled Area", 2, 2, -1)]
# Weather (1D6, -1 on the first 30 spaces): severity, FR, TR
WEATHER = [(1, 3, "Mild", 0, 0), (4, 5, "Cold", -1, -1), (6, 6, "Harsh", -2, -2)]
# Satrap (1D6, +1 in a Settled Area): 1-5 nobody, 6+ a satrap
SATRAP = [(1, 5, False), (6, 6, True)]
# Negotiation (1D6): AT gained, FT gained, all AT removed first
NEGOTIATION = [(1, 3, 0, False), (2, 2, 0, False), (3, 1, 0, False), (4, 0, 0, False),
               (5, 0, 2, False), (6, 0, 2, True)]
# Battle (1D6): men lost; row 1 is (1D6 + 4) x 100, 7+ none
BATTLE = [(1, "1D6+4"), (2, 500), (3, 400), (4, 300), (5, 200), (6, 100), (7, 0)]
# Forage (1D6, kept within 1-6): FT gained, AT gained
FORAGE = [(1, 0, 0), (2, 1, 0), (3, 2, 1), (4, 3, 1), (5, 4, 2), (6, 5, 2)]
# Morale 1-5 nothing, 6+ one MT; Rally 1-4 nothing, 5-6 one MT removed; Desertion 1-5
# nothing, 6+ (1D6) x 100 men
MORALE = [(1, 5, 0), (6, 6, 1)]
RALLY = [(1, 4, 0), (5, 6, 1)]
DESERTION = [(1, 5, False), (6, 6, True)]


def rows(engine, table):
    return engine.rules.data["tables"][table]["rows"]


def test_ruleset_tables_hold_the_rulebook_numbers(engine):
    route = [(r["min"], r["max"], r["result"], r["columns"]["forage"], r["columns"]["travel"],
              r["columns"]["battle"]) for r in rows(engine, "route")]
    assert route == ROUTE
    weather = [(r["min"], r["max"], r["result"], r["columns"]["forage"],
                r["columns"]["travel"]) for r in rows(engine, "weather")]
    assert weather == WEATHER
    assert [(r["min"], r["max"], "satrap" in r.get("flags", ())) for r in rows(engine, "satrap")
            ] == SATRAP
    assert [(r["min"], r.get("gain", {}).get("anger", 0), r.get("gain", {}).get("food", 0),
             "anger" in r.get("discard_all", ())) for r in rows(engine, "negotiation")
            ] == NEGOTIATION
    assert all(r["min"] == r["max"] for r in rows(engine, "negotiation"))
    battle = [(r["min"], r.get("lose_men", 0)) for r in rows(engine, "battle")]
    assert battle[0] == (1, {"dice": 1, "add": 4, "times": 100}) and battle[1:] == BATTLE[1:]
    assert [(r["min"], r.get("gain", {}).get("food", 0), r.get("gain", {}).get("anger", 0))
            for r in rows(engine, "forage")] == FORAGE
    assert [(r["min"], r["max"], r.get("gain", {}).get("mutiny", 0))
            for r in rows(engine, "morale")] == MORALE
    assert [(r["min"], r["max"], r.get("lose", {}).get("mutiny", 0))
            for r in rows(engine, "rally")] == RALLY
    assert [(r["min"], r["max"], bool(r.get("lose_men"))) for r in rows(engine, "desertion")
            ] == DESERTION
    assert rows(engine, "desertion")[1]["lose_men"] == {"dice": 1, "add": 0, "times": 100}


def standing(engine, table):
    return {m["label"]: m.get("value") for m in engine.rules.data["tables"][table]
            .get("modifiers", ()) if m["when"] != "column"}


def test_ruleset_modifiers_and_counts_are_the_rulebooks(engine):
    """Each printed "add 1 if ...", "subtract 2 if ...", and the game's counts."""
    assert standing(engine, "weather") == {"early march": -1}
    assert engine.rules.data["tables"]["weather"]["modifiers"][0]["space"] == 30
    assert standing(engine, "satrap") == {"settled area": 1}
    assert standing(engine, "exposure") == {"base": -1, "attacked": 1, "harsh last turn": 1}
    assert standing(engine, "starvation") == {"base": -4, "starvation tokens": 1}
    assert standing(engine, "morale") == {"attacked": 1, "harsh weather": 1, "starving": 1}
    assert standing(engine, "desertion") == {"mutiny tokens": 1}
    assert standing(engine, "travel") == {"foraged": -2, "starving": -1, "negotiated": -2,
                                          "attacked": -2}
    data = engine.rules.data
    assert data["start"] == {"men": 10000, "food": 1, "cards": 3, "space": 1}
    assert data["tracks"]["distance"]["spaces"] == data["tracks"]["time"]["spaces"] == 60
    assert data["hand"] == {"draw_per_turn": 3, "limit": 7}
    assert [p["name"] for p in data["phases"]] == [
        "Draw Phase", "Route Phase", "Weather Phase", "Satrap Phase", "Negotiations Phase",
        "Attack Phase", "Battle Phase", "Exposure Phase", "Forage Phase", "Consumption Phase",
        "Starvation Phase", "Morale Phase", "Rally Phase", "Desertion Phase", "Travel Phase",
        "End Phase"]
    assert data["tables"]["exposure"]["men_per_point"] == 100
    assert data["tables"]["starvation"]["men_per_point"] == 100


# ----- every total, read by the engine ---------------------------------------------------
def row_for(table_rows, total):
    """The rulebook's row for a total: off the table, its end rows (X-06.2)."""
    if total <= table_rows[0][0]:
        return table_rows[0]
    for row in table_rows:
        if row[0] <= total <= row[1]:
            return row
    return table_rows[-1]


def settle_at(position, tt, table, total, extra=(), **kw):
    """Open `table`'s window, make its total `total` exactly, let it count."""
    dice = 2 if table == "route" else 1
    state = position(hands={"p1": [CW]}, dice=[1] * dice + list(extra), **kw)
    tt.pass_until(state, table)
    state.window.dice = [1] * dice
    state.window.mods = [["pushed", total - dice]]
    before = {"men": state.armies["p1"].men, **state.armies["p1"].tokens}
    events = state.apply("p1", "pass")
    return state, before, events


@pytest.mark.parametrize("total", range(0, 15))
def test_route_total(position, tt, total):
    state, _, events = settle_at(position, tt, "route", total, phase="route")
    terrain = row_for([(lo, hi, name) for lo, hi, name, *_ in ROUTE], total)[2]
    assert tt.result_event(events, "route").data["result"] == terrain
    assert ("settled" in state.turn.flags) == (terrain == "Settled Area")


@pytest.mark.parametrize("total", range(-2, 10))
def test_weather_total(position, tt, total):
    state, _, events = settle_at(position, tt, "weather", total, phase="weather", space=40)
    severity = row_for(WEATHER, total)[2]
    assert tt.result_event(events, "weather").data["result"] == severity
    assert ("harsh" in state.turn.flags) == (severity == "Harsh")


@pytest.mark.parametrize("total", range(-1, 11))
def test_satrap_total(position, tt, total):
    state, _, _ = settle_at(position, tt, "satrap", total, phase="satrap")
    assert ("satrap" in state.turn.flags) == (total >= 6)


@pytest.mark.parametrize("total", range(-1, 10))
def test_negotiation_total(position, tt, total):
    _, anger, food, friendly = row_for([(lo, lo, *rest) for lo, *rest in NEGOTIATION], total)[1:]
    state, before, _ = settle_at(position, tt, "negotiation", total, phase="negotiation",
                                 flags=["satrap"], tokens={"p1": {"anger": 2, "food": 0}})
    tokens = state.armies["p1"].tokens
    assert tokens["anger"] == (0 if friendly else before["anger"] + anger)
    assert tokens["food"] == food


@pytest.mark.parametrize("anger", [1, 2, 3])
@pytest.mark.parametrize("total", range(-2, 8))
def test_attack_total_against_anger(position, tt, anger, total):
    state, _, _ = settle_at(position, tt, "attack", total, phase="attack",
                            tokens={"p1": {"anger": anger}})
    attacked = total <= anger
    assert ("attacked" in state.turn.flags) == attacked
    assert state.armies["p1"].tokens["anger"] == anger - attacked


@pytest.mark.parametrize("total", range(-2, 10))
def test_battle_total(position, tt, total):
    # the loss die of row 1 is loaded with 5: (5 + 4) x 100
    state, before, _ = settle_at(position, tt, "battle", total, extra=[5], phase="battle",
                                 route="Desert", flags=["attacked"])
    lost = row_for([(lo, lo, men) for lo, men in BATTLE], total)[2]
    assert before["men"] - state.armies["p1"].men == (900 if lost == "1D6+4" else lost)


@pytest.mark.parametrize("total", range(-3, 9))
def test_exposure_total(position, tt, total):
    state, before, _ = settle_at(position, tt, "exposure", total, phase="exposure",
                                 weather="Harsh")
    assert before["men"] - state.armies["p1"].men == 100 * max(0, total)


@pytest.mark.parametrize("total", range(-3, 10))
def test_forage_total(position, tt, total):
    state = position(phase="forage", hands={"p1": [CW]}, route="Hills", weather="Mild",
                     dice=[1], tokens={"p1": {"food": 0, "anger": 0}})
    state.apply("p1", "forage")
    state.window.mods = [["pushed", total - 1]]
    state.apply("p1", "pass")
    _, _, food, anger = row_for([(lo, lo, *rest) for lo, *rest in FORAGE], total)
    tokens = state.armies["p1"].tokens
    assert tokens["anger"] == anger
    # the Consumption phase that follows eats one of the food found, or starves
    assert (tokens["food"], tokens["starvation"]) == ((food - 1, 0) if food else (0, 1))


@pytest.mark.parametrize("total", range(-3, 9))
def test_starvation_total(position, tt, total):
    state, before, _ = settle_at(position, tt, "starvation", total, phase="starvation",
                                 tokens={"p1": {"starvation": 2}})
    assert before["men"] - state.armies["p1"].men == 100 * max(0, total)


@pytest.mark.parametrize("total", range(-1, 11))
def test_morale_total(position, tt, total):
    state, _, _ = settle_at(position, tt, "morale", total, phase="morale")
    assert state.armies["p1"].tokens["mutiny"] == row_for(MORALE, total)[2]


@pytest.mark.parametrize("total", range(-1, 10))
def test_rally_total(position, tt, total):
    state, _, _ = settle_at(position, tt, "rally", total, phase="rally",
                            tokens={"p1": {"mutiny": 2}})
    assert state.armies["p1"].tokens["mutiny"] == 2 - row_for(RALLY, total)[2]


@pytest.mark.parametrize("total", range(0, 13))
def test_desertion_total(position, tt, total):
    # the deserters' die is loaded with 4: 400 men
    state, before, _ = settle_at(position, tt, "desertion", total, extra=[4], phase="desertion",
                                 tokens={"p1": {"mutiny": 1}})
    deserters = row_for(DESERTION, total)[2]
    assert before["men"] - state.armies["p1"].men == (400 if deserters else 0)


@pytest.mark.parametrize("total", range(-4, 9))
def test_travel_total(position, tt, total):
    state, _, _ = settle_at(position, tt, "travel", total, phase="travel", space=20,
                            route="Desert", weather="Mild")
    assert state.armies["p1"].space == 20 + max(0, total)


@pytest.mark.parametrize("space, total", [(53, 6), (54, 6), (55, 6), (59, 1), (59, 0)])
def test_travel_reaching_the_last_space_or_beyond_arrives(position, tt, space, total):
    state, _, _ = settle_at(position, tt, "travel", total, phase="travel", space=space,
                            route="Desert", weather="Mild", players=2)
    army = state.armies["p1"]
    assert army.space == min(60, space + total)
    assert (army.arrived is not None) == (space + total >= 60)


# ----- sample turns through all 16 phases ---------------------------------------------------
def play_turn(state, answers=()):
    """Answer p1's decisions until p2's turn begins: the forage question and card plays
    from `answers` in order, "pass" otherwise.  Returns p1's events.

    p1 holds Council of War, which it never plays: the turn stops at the Route
    window, before any roll counts, so every result is among the events returned.
    """
    assert state.window.table == "route"
    answers = list(answers)
    events = []
    while state.turn.seat == "p1":
        decision = state.pending()[0]
        if decision.legal == ["forage", "skip"] or (answers and answers[0] in decision.legal):
            action = answers.pop(0)
        else:
            action = "pass"
        events += state.apply(decision.seat, action)
    assert not answers, f"not asked for {answers}"
    return events


def results(events):
    return [(e.data["table"], e.data["result"] if "result" in e.data else e.data.get("total"))
            for e in events if e.type == "result" and e.data["seat"] == "p1"]


def test_sample_turn_with_satrap_attack_battle_exposure_forage_and_desertion(position):
    """One turn in which every conditional phase but Starvation happens.

    Space 35 (no early-march -1), 1 FT, Harsh weather last turn.  Dice, phase by phase:
    Route 3+3 = 6 River (FR 0, TR -2, BR +1); Weather 6 Harsh (FR -2, TR -2); Satrap 6:
    a satrap; Negotiation 2 Hostile: +2 AT; Attack 2 <= 2 AT: attacked, 1 AT left;
    Battle 2 +1 River +1 Thracian Troops = 4: 300 men; Exposure 5 -1 +1 attacked
    +1 Harsh last turn = 6: 600 men; Forage 4 +0 -2 = 2: 1 FT; Consumption eats 1 of 2 FT;
    Morale 4 +1 attacked +1 Harsh = 6: 1 MT; Rally 3: no effect; Desertion 5 +1 MT = 6:
    (2) x 100 men; Travel 6 -2 River -2 Harsh -2 foraged -2 satrap -2 attacked = -4:
    no move.  10,000 - 300 - 600 - 200 = 8,900 men.
    """
    state = position(players=2, phase="draw", hands={"p1": [CW]}, space=35, flags=["harsh_last_turn"],
                     deck=[THRACIAN_TROOPS, GREEK_CAVALRY, CALL_FOR_ACTION],
                     dice=[3, 3, 6, 6, 2, 2, 2, 5, 4, 4, 3, 5, 2, 6])
    events = play_turn(state, [f"play {THRACIAN_TROOPS} BR+1", "forage"])
    assert results(events) == [
        ("route", "River"), ("weather", "Harsh"), ("satrap", "Encounter a Satrap"),
        ("negotiation", "Hostile"), ("attack", "Attacked by Barbarians"),
        ("battle", "Fight"), ("exposure", 6), ("forage", "Scraps"), ("morale", "Unrest"),
        ("rally", "No effect"), ("desertion", "Deserters")]
    army = state.armies["p1"]
    assert army.men == 8900 and army.space == 35
    assert army.tokens == {"food": 1, "starvation": 0, "mutiny": 1, "anger": 1}
    assert sorted(army.hand) == [GREEK_CAVALRY, CALL_FOR_ACTION, CW]
    assert army.next_turn_flags == ["harsh_last_turn"]   # Harsh again: next Exposure +1
    moved = [e for e in events if e.type == "move" and e.data["seat"] == "p1"][0]
    assert moved.data["space"] == 35 and "-4" in moved.text


def test_sample_turn_hungry_army_starves_then_deserts(position):
    """No food and 2 ST at the start, on space 10, no cards to draw.

    Route 3+4 = 7 Desert; Weather 1 -1 (early march) = 0: Mild; Satrap 1: nobody;
    no Anger, no attack; no forage; Consumption: no food, a 3rd ST; Starvation
    4 - 4 + 3 ST = 3: 300 men; Morale 5 +1 starving = 6: 1 MT; Rally 1: no effect;
    Desertion 5 +1 MT = 6: (6) x 100 men; Travel 4 +0 +0 -1 starving = 3: space 13.
    """
    state = position(players=2, phase="draw", hands={"p1": [CW]}, space=10, deck=[],
                     tokens={"p1": {"food": 0, "starvation": 2}},
                     dice=[3, 4, 1, 1, 4, 5, 1, 5, 6, 4])
    events = play_turn(state, ["skip"])
    assert results(events) == [
        ("route", "Desert"), ("weather", "Mild"), ("satrap", "Nobody"), ("starvation", 3),
        ("morale", "Unrest"), ("rally", "No effect"), ("desertion", "Deserters")]
    army = state.armies["p1"]
    assert army.men == 10000 - 300 - 600 and army.space == 13
    assert army.tokens == {"food": 0, "starvation": 3, "mutiny": 1, "anger": 0}


def test_sample_turn_food_clears_starvation_before_the_starvation_roll(position):
    """Consumption comes before Starvation: food found this turn ends the hunger.

    No food and 1 ST, 1 AT, space 10.  Route 2+2 = 4 Mountains (FR -1, TR -1, BR +1);
    Weather 5 -1 = 4: Cold (FR -1, TR -1); Satrap 3: nobody; Attack 1 <= 1: attacked,
    0 AT; Battle 1 +1 Mountains = 2: 500 men; no Exposure (not Harsh); Forage 6 -1 -1 = 4:
    3 FT, 1 AT; Consumption: ST discarded, 2 FT left; no Starvation roll; Morale 5
    +1 attacked = 6: 1 MT; Rally 6: MT removed; no Desertion; Travel 5 -1 -1 -2 foraged
    -2 attacked = -1: no move.
    """
    state = position(players=2, phase="draw", hands={"p1": [CW]}, space=10, deck=[],
                     tokens={"p1": {"food": 0, "starvation": 1, "anger": 1}},
                     dice=[2, 2, 5, 3, 1, 1, 6, 5, 6, 5])
    events = play_turn(state, ["forage"])
    assert results(events) == [
        ("route", "Mountains"), ("weather", "Cold"), ("satrap", "Nobody"),
        ("attack", "Attacked by Barbarians"), ("battle", "Heavy losses"),
        ("forage", "Good haul"), ("morale", "Unrest"), ("rally", "Rallied")]
    army = state.armies["p1"]
    assert army.men == 9500 and army.space == 10
    assert army.tokens == {"food": 2, "starvation": 0, "mutiny": 0, "anger": 1}


def test_sample_turn_settled_area_satrap_and_friendly_terms(position):
    """Space 10, 3 AT, 2 MT, 2 ST, no food.  Route 6+5 = 11 Settled Area (FR +2, TR +2,
    BR -1); Weather 4 -1 = 3: Mild; Satrap 5 +1 Settled = 6: a satrap; Negotiation 6
    Friendly: every AT gone, +2 FT, so no attack; no forage; Consumption: ST discarded,
    1 FT left; Morale 6: 3 MT; Rally 5: 2 MT; Desertion 3 +2 MT = 5: nobody; Travel
    3 +2 Settled -2 satrap = 3: space 13.
    """
    state = position(players=2, phase="draw", hands={"p1": [CW]}, space=10, deck=[],
                     tokens={"p1": {"food": 0, "starvation": 2, "anger": 3, "mutiny": 2}},
                     dice=[6, 5, 4, 5, 6, 6, 5, 3, 3])
    events = play_turn(state, ["skip"])
    assert results(events) == [
        ("route", "Settled Area"), ("weather", "Mild"), ("satrap", "Encounter a Satrap"),
        ("negotiation", "Friendly"), ("morale", "Unrest"), ("rally", "Rallied"),
        ("desertion", "No deserters")]
    army = state.armies["p1"]
    assert army.men == 10000 and army.space == 13
    assert army.tokens == {"food": 1, "starvation": 0, "mutiny": 2, "anger": 0}


# ----- setup, Time Track and score at 1 to 6 players --------------------------------------
@pytest.mark.parametrize("players", range(1, 7))
def test_setup_at_each_player_count(engine, players):
    """10,000 men, 1 FT, 3 cards, pawns on space 1 and the time pawn on 1; the first
    player's first Draw phase makes 6 cards."""
    state = engine.new_game(engine.seats(players), 40 + players, {})
    for army in state.armies.values():
        assert (army.men, army.space, len(army.hand)) == (10000, 1, 3)
        assert army.tokens == {"food": 1, "starvation": 0, "mutiny": 0, "anger": 0}
    assert state.round == 1 and sorted(state.order) == sorted(state.seats)
    events = []
    while state.step == "leader":
        decision = state.pending()[0]
        events += state.apply(decision.seat, decision.legal[0])
    first = state.order[0]
    assert state.turn.seat == first
    draws = [e for e in events if e.type == "draw" and e.data["seat"] == first]
    assert len(draws[0].data["cards"]) == 3    # three more in the first Draw phase


def test_two_armies_arriving_in_the_same_round_tie_on_score_and_men(position, tt):
    """X-09: arriving during round r scores men / r.  Both reach Trapezus in round 30
    with 6,000 men (score 200 each); the one that got there first in turn order ranks
    first: the "earlier arrival" tie-break."""
    state = position(players=2, phase="travel", space=57, men=6000, route="Desert",
                     weather="Mild", hands={"p1": [ESCORT]},
                     dice={"p1": [6], "p2": [4, 4, 1, 1, 1, 6]})
    state.round = 30
    p2 = state.armies["p2"]
    p2.men, p2.space, p2.hand = 6000, 57, []
    state.deck, state.discard = [], []
    state.apply("p1", "pass")                   # p1: 6 spaces, 57 -> 60
    assert state.pending()[0].legal == ["forage", "skip"]
    # p2: Hills, Mild, nobody; no forage; Travel 6 (Escort, p1's discarded card it drew
    # from the reshuffled pile, left unplayed)
    state.apply("p2", "skip")
    while state.pending():
        state.apply("p2", "pass")
    result = state.result()
    assert (state.armies["p1"].arrived, p2.arrived) == (30, 30)
    assert result.scores == {"p1": 200.0, "p2": 200.0}
    assert result.ranks == {"p1": 1, "p2": 2} and result.points == {"p1": 1.0, "p2": 0.0}


def finished(engine, armies):
    state = engine.new_game(engine.seats(len(armies)), 1, {})
    state.asking, state.step = None, "over"
    for seat, (men, turns, seq) in zip(state.seats, armies, strict=True):
        army = state.armies[seat]
        army.men, army.arrived, army.arrival_seq = men, turns, seq
        army.destroyed = turns is None
    return state.result()


@pytest.mark.parametrize("armies, ranks", [
    # 2: same score, more men first
    ([(6000, 30, 1), (4000, 20, 0)], [1, 2]),
    # 3: one destroyed, two arrived in the same round with the same men: earlier first
    ([(0, None, None), (5000, 25, 1), (5000, 25, 0)], [3, 2, 1]),
    # 4: a better score beats more men; two destroyed share the last place
    ([(3000, 10, 0), (9000, 40, 1), (0, None, None), (0, None, None)], [1, 2, 3, 3]),
    # 5: four at 200, ordered by men
    ([(4200, 21, 0), (4000, 20, 1), (6000, 30, 2), (2000, 10, 3), (0, None, None)],
     [2, 3, 1, 4, 5]),
    # 6: every tie-break at once
    ([(6000, 30, 4), (6000, 30, 3), (4000, 20, 0), (5800, 29, 1), (100, 50, 5),
      (0, None, None)], [2, 1, 4, 3, 5, 6]),
])
def test_ranks_at_each_player_count(engine, armies, ranks):
    result = finished(engine, armies)
    seats = engine.seats(len(armies))
    assert [result.ranks[s] for s in seats] == ranks
    for seat, (men, turns, _) in zip(seats, armies, strict=True):
        assert result.scores[seat] == (round(men / turns, 3) if turns else 0)
    best = [s for s in seats if result.ranks[s] == 1]
    assert len(best) == 1 and result.points[best[0]] == 1.0


@pytest.mark.parametrize("men, turns, verdict", [
    (6000, 30, "victory"), (5700, 29, "defeat"), (5800, 29, "victory"),
    (8400, 30, "great victory"), (8300, 30, "victory"), (5600, 20, "great victory"),
    (100, 1, "defeat")])
def test_solo_verdict_on_the_benchmark_scale(engine, men, turns, verdict):
    """X-13: 200 or more a victory (6,000 men in 30 turns), 280 or more a great one."""
    result = finished(engine, [(men, turns, 0)])
    assert result.reason.startswith(verdict + ":")
    assert result.points == {"p1": 0.0 if verdict == "defeat" else 1.0}


def test_the_time_track_counts_on_past_its_60_spaces(position, tt):
    """The track has 60 spaces; a march that takes longer keeps counting (X-09): an army
    arriving in round 61 scores men / 61."""
    state = position(phase="travel", space=50, route="Desert", weather="Mild",
                     hands={"p1": [CW]}, dice=[1], men=6100)
    state.round = 60
    events = state.apply("p1", "pass")          # space 51; the time pawn moves on
    assert [e.data["round"] for e in events if e.type == "time"] == [61]
    assert state.view("p1")["round"] == 61
    army = state.armies["p1"]
    while state.pending():   # round 61: River, Mild, nobody; Travel 3 - 2 River = 1
        decision = state.pending()[0]
        if decision.legal == ["forage", "skip"]:
            army.space = 59   # as if the march had gone on
            state.apply("p1", "skip")
        else:
            state.apply("p1", "pass")
    assert army.arrived == 61 and army.men == 6100
    assert state.result().scores == {"p1": 100.0}
