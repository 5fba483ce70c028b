"""Phases 1-5 with loaded dice: draw, revenue and sieges, upkeep, recruit, diplomacy."""

from __future__ import annotations


def set_city(s, space: str, owner: int, income: int, hostile: bool = False, razed: int = 0):
    i = s.t.index[space]
    s.owner[i], s.income[i], s.hostile[i], s.razed[i] = owner, income, hostile, razed


# -- draw -------------------------------------------------------------------------------------

def test_draw_two_then_discard_down_to_the_hand_limit(board, play):
    s = board.empty(hands={0: ["spy", "truce", "treasure", "storms", "coup", "plague"]})
    s.phase_draw()
    assert len(s.hands[0]) == 8 and s.step == "discard"
    assert len(s.pending()[0].legal) == 8
    play(s, "discard spy")
    assert len(s.hands[0]) == 7 and s.step != "discard"
    assert s.discard[-1] == s.t.card_by_id["spy"]


def test_statecraft_raises_the_hand_limit(board):
    s = board.empty(hands={0: ["spy", "truce", "treasure", "storms", "coup", "plague"]})
    board.add_leader(s, 0, "athens", "Pericles", ["statecraft"])
    s.phase_draw()
    assert len(s.hands[0]) == 8 and s.step != "discard"


def test_other_seats_see_only_how_many_cards_were_drawn(board):
    s = board.empty()
    s.phase_draw()
    mine = [e for e in s.events if e.type == "draw" and e.visible_to("p1")]
    theirs = [e for e in s.events if e.type == "draw" and e.visible_to("p2")]
    assert len(mine) == 1 and mine[0].text.startswith("You draw ")
    assert len(theirs) == 1 and theirs[0].text == "p1 draws 2 cards" and "cards" not in \
        theirs[0].data


# -- revenue and sieges ---------------------------------------------------------------------

def test_revenue_home_minor_hostile_razed(board, texts):
    s = board.empty(gold=0)
    set_city(s, "megara", 0, 5, hostile=True)
    set_city(s, "argos", 0, 4, razed=2)
    set_city(s, "delphi", 0, 3)
    s.traits[0] = ["trade", "wine"]
    s.phase_revenue()
    # Athens 7 + 2 traits; Megara half of 5 rounded up; Argos razed; Delphi 3
    assert s.gold[0] == 9 + 3 + 0 + 3
    assert "Megara 3 (hostile)" in texts(s.events) and "Argos 0 (razed)" in texts(s.events)
    assert s.razed[s.t.index["argos"]] == 1   # one razed marker fades


def test_an_enemy_army_next_to_a_city_stops_its_revenue(board, texts):
    s = board.empty(gold=0, units={"marathon": (1, {"army": 1})})
    set_city(s, "delphi", 0, 3)
    s.phase_revenue()
    assert s.gold[0] == 3 and "Athens 0 (besieged)" in texts(s.events)


def test_a_manned_fleet_besieges_an_unmanned_one_does_not(board):
    s = board.empty(units={"saronic-gulf": (1, {"fleet": 1})})
    athens = s.t.index["athens"]
    assert not s.besieged(athens)
    board.place(s, "saronic-gulf", 1, rowers=1)
    assert s.besieged(athens)


def test_a_besieged_city_gives_no_upkeep_and_recruits_nothing(board):
    s = board.empty(gold=30, units={"athens": (0, {"army": 2, "baggage": 1}),
                                    "marathon": (1, {"army": 1})})
    s.rigged = [3, 1]   # the unfed army's upkeep roll, then the experience roll
    s.phase_upkeep()
    athens = s.t.index["athens"]
    assert s.gold[0] == 30                      # nobody paid in a besieged city
    assert s.bag[athens] == 0 and s.arm[athens] == 2 and s.starve[athens] == 1
    assert s.step != "recruit"                  # Athens may not recruit


# -- upkeep -----------------------------------------------------------------------------------

def test_upkeep_is_paid_in_or_next_to_a_friendly_city(board, texts):
    s = board.empty(gold=10, units={"athens": (0, {"army": 2}), "laurion": (0, {"rowers": 1}),
                                    "saronic-gulf": (0, {"fleet": 1, "rowers": 1}),
                                    "boeotia": (0, {"army": 1})})
    s.starve[s.t.index["laurion"]] = 2
    s.rigged = [4, 1]   # Boeotia's army is unfed: upkeep roll 4 (-1 on farms); experience roll
    s.phase_upkeep()
    assert s.gold[0] == 10 - 4          # Athens 2, Laurion 1, the fleet's crew 1
    assert s.starve[s.t.index["laurion"]] == 0          # paid: starvation markers go
    assert s.starve[s.t.index["boeotia"]] == 1
    assert "unfed in Boeotia: upkeep rolls 3 (-1)" in texts(s.events)


def test_baggage_feeds_what_gold_cannot(board, texts):
    s = board.empty(gold=1, units={"athens": (0, {"army": 3, "baggage": 1})})
    s.rigged = [6, 1]   # the third army rolls 6: it disbands
    s.phase_upkeep()
    athens = s.t.index["athens"]
    assert s.gold[0] == 0 and s.bag[athens] == 0 and s.arm[athens] == 2
    assert "1 army disbands" in texts(s.events)


def test_upkeep_roll_modifiers(board, texts):
    # farmland -1 and two starvation markers +2: a 5 becomes 6 and the army disbands
    s = board.empty(units={"boeotia": (0, {"army": 1})})
    s.starve[s.t.index["boeotia"]] = 2
    s.rigged = [5, 1]
    s.phase_upkeep()
    assert s.arm[s.t.index["boeotia"]] == 0 and "upkeep rolls 6 (+1)" in texts(s.events)
    # Stoicism and a Logistics leader: 6 - 2 = 4, the army survives with a marker
    s = board.empty(units={"cithaeron": (0, {"army": 1})})
    s.traits[0] = ["stoicism"]
    board.add_leader(s, 0, "cithaeron", "Xenophon", ["logistics"])
    s.rigged = [6, 1]
    s.phase_upkeep()
    i = s.t.index["cithaeron"]
    assert s.arm[i] == 1 and s.starve[i] == 1 and "upkeep rolls 4 (-2)" in texts(s.events)


# -- recruit ----------------------------------------------------------------------------------

def test_recruiting_one_unit_and_six_baggage_per_city(board, play):
    s = board.empty(gold=40)
    set_city(s, "megara", 0, 3)
    s.rigged = [1]   # experience roll
    s.phase_recruit()
    assert s.pending()[0].legal == ["done", "recruit athens", "recruit megara"]
    play(s, "recruit athens")
    legal = s.pending()[0].legal
    assert {"army", "rowers", "fleet", "transport", "baggage 6"} <= set(legal)
    assert "baggage 7" not in legal
    play(s, "fleet")
    assert "army" not in s.pending()[0].legal   # one unit per city
    play(s, "baggage 6")
    assert s.pending()[0].legal == ["done", "recruit megara"]
    athens = s.t.index["athens"]
    assert (s.flt[athens], s.bag[athens], s.gold[0]) == (1, 6, 40 - 4 - 6)


def test_landlocked_cities_build_no_ships_and_stacking_limits_recruits(board, play):
    s = board.empty(homes=("thebes", "sparta", "troy"), gold=40,
                    units={"thebes": (0, {"army": 4})})
    s.rigged = [1]
    s.phase_recruit()
    play(s, "recruit thebes")
    legal = s.pending()[0].legal
    assert "rowers" in legal and not {"army", "fleet", "transport"} & set(legal)


def test_hostile_and_razed_cities_do_not_recruit(board):
    s = board.empty(gold=40)
    set_city(s, "megara", 0, 3, hostile=True)
    set_city(s, "argos", 0, 3, razed=1)
    s.rigged = [1]
    s.phase_recruit()
    assert s.pending()[0].legal == ["done", "recruit athens"]


def test_organization_adds_a_recruit_to_the_nearest_friendly_city(board, play):
    s = board.empty(gold=40)
    set_city(s, "megara", 0, 3)
    board.add_leader(s, 0, "cithaeron", "Cleon", ["organization"])
    s.rigged = [1]
    s.phase_recruit()
    play(s, "recruit megara", "army")
    assert "army" in s.pending()[0].legal   # Megara is one space from Cithaeron


def test_experience_roll_gives_a_leader_or_a_trait(board):
    s = board.empty(gold=0)
    s.rigged = [10, 2, 1, 50]   # 10: a gain; 2: a leader; leader roll 1: one skill; d100 50
    s.phase_recruit()
    assert s.l_name and s.l_skills[-1] == ["honorable"]
    assert s.l_space[-1] == s.t.index["athens"]
    s = board.empty(gold=0)
    s.rigged = [10, 5, 6, 4, 1, 1]   # 10: a gain; 5: a trait; d66 64 is rolled again; then 11
    s.phase_recruit()
    assert s.traits[0] == ["stoicism"]


# -- diplomacy --------------------------------------------------------------------------------

def test_diplomacy_roll_takes_a_neutral_city(board, play, texts):
    s = board.empty()
    s.phase_diplomacy()
    assert "roll megara" in s.pending()[0].legal and "roll athens" not in s.pending()[0].legal
    s.rigged = [6]
    events = play(s, "roll megara")
    megara = s.t.index["megara"]
    assert s.owner[megara] == 0 and not s.hostile[megara]
    assert "Megara joins p1" in texts(events)


def test_a_hostile_city_is_easier(board, play, texts):
    s = board.empty()
    set_city(s, "megara", 0, 3, hostile=True)
    s.phase_diplomacy()
    s.rigged = [5]
    events = play(s, "roll megara")
    assert not s.hostile[s.t.index["megara"]] and "Megara: 5 +1 (hostile)" in texts(events)


def test_extra_rolls_from_traits_and_skills(board):
    s = board.empty()
    s.traits[0] = ["democracy"]
    board.add_leader(s, 0, "athens", "Pericles", ["oratory", "diplomacy"])
    s.phase_diplomacy()
    assert s.dip_left == 4


def test_a_revolt_with_no_garrison_turns_the_city_neutral(board, play, texts):
    s = board.empty()
    set_city(s, "megara", 1, 3)
    s.phase_diplomacy()
    s.rigged = [6, 3]   # success; 2 rebels
    events = play(s, "roll megara")
    assert s.owner[s.t.index["megara"]] == -1
    assert "2 rebels rise in Megara, which no army holds" in texts(events)


def test_rebels_fight_the_garrison(board, play, texts):
    s = board.empty(units={"megara": (1, {"army": 1, "baggage": 2})})
    set_city(s, "megara", 1, 3)
    board.add_leader(s, 1, "megara", "Brasidas", ["heroism"])
    s.phase_diplomacy()
    # success; rebels roll 5 on the rebel table: 3 rebels; they roll 9, 9, 9; the army rolls
    # 2 (+5 in a city), Brasidas's Heroism 1; casualty roll 2: lost
    s.rigged = [6, 5, 9, 9, 9, 2, 1, 2]
    events = play(s, "roll megara")
    text = texts(events)
    assert "Revolt in Megara: rebels 27" in text and "p2 8" in text
    megara = s.t.index["megara"]
    assert s.owner[megara] == -1 and s.arm[megara] == 0 and s.bag[megara] == 0
    assert s.l_state[0] == 2   # Brasidas dies with the city (rebels take no prisoners)


def test_the_garrison_can_beat_the_rebels(board, play, texts):
    s = board.empty(units={"megara": (1, {"army": 2})})
    set_city(s, "megara", 1, 3)
    s.phase_diplomacy()
    s.rigged = [6, 1, 3, 4, 4]   # success; 1 rebel rolls 3; armies 4+5, 4+5
    events = play(s, "roll megara")
    assert s.owner[s.t.index["megara"]] == 1 and "p2 holds" in texts(events)


def test_home_cities_never_revolt(board):
    s = board.empty()
    s.phase_diplomacy()
    legal = s.pending()[0].legal
    assert "roll sparta" not in legal and "roll troy" not in legal
