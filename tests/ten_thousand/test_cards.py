"""Each kind of card, on one's own roll and on an opponent's, and the forced plays."""

from __future__ import annotations

import pytest

CW = 119                     # Council of War: Draw 3 Cards
THRACIAN_TROOPS = 17         # BR +1
MUDDY_ROAD = 2               # TR -1 (penalising)
HERALD = 24                  # SR +3 (either side)
CORN = 1                     # Gain 1 FT
VILLAGE_HEADMAN = 152        # Remove 1 AT
BURN_VILLAGES = 44           # Gain 1 AT (penalising)
TREACHERY = 46               # Gain 1 AT & 1 MT (penalising)
SHORT_OF_SUPPLIES = 30       # Lose 1 FT (penalising)
AMBUSH = 43                  # Reroll BR
CONSULTATION = 27            # Reroll Target Roll
INTERVENE = 13               # Get 1 extra RR
FODDER = 5                   # Gain 1 FT or TR +1
BRAVERY = 118                # BR -1 or Get 1 extra RR
VIOLENT_ATTACKS = 66         # BR -1 or AR -1 (penalising)
CAMP_FOLLOWERS = 58          # TR -1 or lose 1 FT (penalising)
TRAITOR = 10                 # MR +3 (penalising)
SNOWSTORM = 78               # WR +2 (penalising)
EAT_ONLY_MEAT = 3            # ZR -2
MAKE_CAMP = 93               # ER -2
FROSTBITE = 86               # ER +1 (penalising)


def legal(state):
    return state.pending()[0].legal


def close_window(state):
    """Everyone passes until the open window's roll is applied."""
    table = state.window.table
    while state.window and state.window.table == table:
        state.apply(state.pending()[0].seat, "pass")


# ----- modifiers ----------------------------------------------------------------------------
def test_own_modifier_card_changes_own_roll(position, tt):
    state = position(phase="battle", hands={"p1": [CW, THRACIAN_TROOPS]}, route="Desert",
                     flags=["attacked"], dice=[5])
    assert "play 17 BR+1" in legal(state)
    state.apply("p1", "play 17 BR+1")
    assert state.window.total == 6 and THRACIAN_TROOPS in state.discard
    state.apply("p1", "pass")
    assert state.armies["p1"].men == 10000 - 100


def test_own_modifier_card_is_not_offered_on_an_opponents_roll(position, tt):
    state = position(players=2, phase="battle", hands={"p1": [CW], "p2": [THRACIAN_TROOPS]},
                     route="Desert", flags=["attacked"], dice=[5])
    state.apply("p1", "pass")
    assert state.window is None or state.window.table != "battle"
    assert state.armies["p2"].hand == [THRACIAN_TROOPS]


def test_penalising_modifier_is_forced_onto_an_opponents_roll(position, tt):
    state = position(players=2, phase="travel", hands={"p1": [CW], "p2": [MUDDY_ROAD]},
                     route="Desert", weather="Mild", dice=[4], space=10)
    assert ["Muddy Road", -1] in state.window.mods
    assert state.armies["p2"].hand == [] and MUDDY_ROAD in state.discard
    state.apply("p1", "pass")
    assert state.armies["p1"].space == 13


def test_penalising_modifier_hits_its_holder_when_the_first_chance_is_their_own_roll(position, tt):
    state = position(phase="travel", hands={"p1": [CW, MUDDY_ROAD]}, route="Desert",
                     weather="Mild", dice=[4], space=10)
    assert ["Muddy Road", -1] in state.window.mods
    assert "play 2 TR-1" not in legal(state)


def test_opponents_only_option_spares_the_holder(position, tt):
    state = position(phase="travel", hands={"p1": [CW, MUDDY_ROAD]}, route="Desert",
                     weather="Mild", dice=[4], space=10,
                     options={"penalising_cards": "opponents-only"})
    assert state.window.mods == [] and MUDDY_ROAD in state.armies["p1"].hand
    state = position(players=2, phase="travel", hands={"p1": [CW], "p2": [MUDDY_ROAD]},
                     route="Desert", weather="Mild", dice=[4],
                     options={"penalising_cards": "opponents-only"})
    assert ["Muddy Road", -1] in state.window.mods


def test_penalising_card_waits_for_a_matching_roll(position, tt):
    state = position(players=2, phase="route", hands={"p1": [CW], "p2": [TRAITOR]},
                     dice=[3, 4, 2, 2])
    tt.pass_until(state, "satrap")
    assert state.armies["p2"].hand == [TRAITOR]
    tt.pass_until(state, "morale")
    assert ["Traitor", 3] in state.window.mods and state.armies["p2"].hand == []


def test_weather_and_morale_penalties_worsen_the_roll(position, tt):
    state = position(players=2, phase="weather", hands={"p1": [CW], "p2": [SNOWSTORM]},
                     dice=[4], space=40)
    assert state.window.total == 6
    events = state.apply("p1", "pass")
    assert tt.result_event(events, "weather").data["result"] == "Harsh"


def test_own_exposure_and_starvation_cards_reduce_losses(position, tt):
    state = position(phase="exposure", hands={"p1": [CW, MAKE_CAMP]}, weather="Harsh",
                     dice=[5])
    state.apply("p1", "play 93 ER-2")
    state.apply("p1", "pass")
    assert state.armies["p1"].men == 10000 - 200
    state = position(phase="starvation", hands={"p1": [CW, EAT_ONLY_MEAT]}, dice=[6],
                     tokens={"p1": {"starvation": 2}})
    state.apply("p1", "play 3 ZR-2")
    state.apply("p1", "pass")
    assert state.armies["p1"].men == 10000 - 200


def test_satrap_cards_may_be_played_by_either_side(position, tt):
    state = position(phase="satrap", hands={"p1": [CW, HERALD]}, route="Desert", dice=[3])
    assert "play 24 SR+3" in legal(state)
    state = position(players=2, phase="satrap", hands={"p1": [CW], "p2": [HERALD]},
                     route="Desert", dice=[3])
    state.apply("p1", "pass")
    assert state.pending()[0].seat == "p2" and legal(state) == ["play 24 SR+3", "pass"]
    state.apply("p2", "play 24 SR+3")
    # p2 has nothing more to play; the roller gets another say before the window shuts
    assert state.pending()[0].seat == "p1" and state.window.total == 6
    tt.pass_until(state, "negotiation")
    assert "satrap" in state.turn.flags


# ----- tokens and draws ------------------------------------------------------------------------
def test_food_card_on_self_in_own_turn(position, tt):
    state = position(phase="route", hands={"p1": [CW, CORN]}, tokens={"p1": {"food": 0}})
    assert "play 1 FT+1" in legal(state)
    state.apply("p1", "play 1 FT+1")
    assert state.armies["p1"].tokens["food"] == 1


def test_remove_anger_card_needs_anger(position, tt):
    state = position(phase="route", hands={"p1": [CW, VILLAGE_HEADMAN]},
                     tokens={"p1": {"anger": 0}})
    assert "play 152 AT-1" not in legal(state)
    state = position(phase="route", hands={"p1": [CW, VILLAGE_HEADMAN]},
                     tokens={"p1": {"anger": 2}})
    state.apply("p1", "play 152 AT-1")
    assert state.armies["p1"].tokens["anger"] == 1


def test_token_and_draw_cards_are_not_offered_in_someone_elses_turn(position, tt):
    state = position(players=2, phase="route", hands={"p1": [CW], "p2": [CORN, CW]})
    for _ in range(6):   # p1's whole turn: route, weather, satrap, forage?, morale, travel
        assert state.pending()[0].seat == "p1"
        state.apply("p1", "pass" if "pass" in legal(state) else "skip")


def test_penalising_token_cards_hit_the_next_opponent_at_the_start_of_their_turn(position, tt):
    state = position(players=2, phase="end",
                     hands={"p1": [BURN_VILLAGES, TREACHERY, SHORT_OF_SUPPLIES], "p2": [CW]},
                     tokens={"p2": {"food": 1, "anger": 0, "mutiny": 0}}, deck=[17, 59, 61])
    assert state.turn.seat == "p2" and state.window.table == "route"
    assert state.armies["p2"].tokens == {"food": 0, "starvation": 0, "mutiny": 1, "anger": 2}
    assert state.armies["p1"].hand == []


def test_solo_player_suffers_their_own_penalising_token_cards(position, tt):
    state = position(phase="end", hands={"p1": [BURN_VILLAGES, CW]}, deck=[17, 59, 61])
    assert state.round == 2 and state.armies["p1"].tokens["anger"] == 1
    state = position(phase="end", hands={"p1": [BURN_VILLAGES, CW]}, deck=[17, 59, 61],
                     options={"penalising_cards": "opponents-only"})
    assert state.armies["p1"].tokens["anger"] == 0 and BURN_VILLAGES in state.armies["p1"].hand


def test_draw_card_draws_three(position, tt):
    state = position(phase="route", hands={"p1": [CW]}, deck=[61, 59, 17, 63])
    state.apply("p1", "play 119 draw3")
    assert sorted(state.armies["p1"].hand) == [17, 59, 63]


# ----- rerolls and extra rolls -----------------------------------------------------------------
def test_battle_reroll_card_on_own_battle_roll(position, tt):
    state = position(phase="battle", hands={"p1": [CW, AMBUSH]}, route="Desert",
                     flags=["attacked"], dice=[1, 6])
    assert "play 43 reroll" in legal(state)
    state.apply("p1", "play 43 reroll")
    assert state.window.dice == [6]
    state.apply("p1", "pass")
    assert state.armies["p1"].men == 10000 - 100


def test_battle_reroll_card_not_offered_on_other_rolls(position, tt):
    state = position(phase="route", hands={"p1": [CW, AMBUSH]})
    assert "play 43 reroll" not in legal(state)


def test_any_roll_reroll_may_be_played_on_an_opponents_roll(position, tt):
    state = position(players=2, phase="travel", hands={"p1": [CW], "p2": [CONSULTATION]},
                     route="Desert", weather="Mild", dice=[6, 1], space=10)
    state.apply("p1", "pass")
    assert state.pending()[0].seat == "p2"
    state.apply("p2", "play 27 reroll")
    assert state.window.dice == [1]
    close_window(state)
    assert state.armies["p1"].space == 11


def test_extra_rally_card_gives_another_rally_roll(position, tt):
    state = position(phase="rally", hands={"p1": [CW, INTERVENE]}, dice=[1, 6],
                     tokens={"p1": {"mutiny": 2}})
    state.apply("p1", "play 13 extra-RR")
    state.apply("p1", "pass")
    assert state.window.table == "rally" and state.window.dice == [6]
    state.apply("p1", "pass")
    assert state.armies["p1"].tokens["mutiny"] == 1


# ----- choice cards -------------------------------------------------------------------------------
def test_choice_card_offers_the_options_that_fit_the_moment(position, tt):
    state = position(phase="route", hands={"p1": [CW, FODDER]})
    assert "play 5 FT+1" in legal(state) and "play 5 TR+1" not in legal(state)
    state = position(phase="travel", hands={"p1": [CW, FODDER]}, route="Desert",
                     weather="Mild", dice=[3], space=5)
    assert {"play 5 FT+1", "play 5 TR+1"} <= set(legal(state))
    state.apply("p1", "play 5 TR+1")
    state.apply("p1", "pass")
    assert state.armies["p1"].space == 9


def test_mixed_card_harms_an_opponent_or_helps_yourself(position, tt):
    state = position(players=2, phase="battle", hands={"p1": [CW], "p2": [BRAVERY]},
                     route="Desert", flags=["attacked"], dice=[6])
    state.apply("p1", "pass")
    assert legal(state) == ["play 118 BR-1", "pass"]     # optional, not forced
    state.apply("p2", "play 118 BR-1")
    close_window(state)
    assert state.armies["p1"].men == 10000 - 200
    state = position(phase="rally", hands={"p1": [CW, BRAVERY]}, tokens={"p1": {"mutiny": 1}})
    assert "play 118 extra-RR" in legal(state) and "play 118 BR-1" not in legal(state)


def test_penalising_choice_card_is_forced_on_the_first_matching_roll(position, tt):
    state = position(players=2, phase="attack", hands={"p1": [CW], "p2": [VIOLENT_ATTACKS]},
                     tokens={"p1": {"anger": 1}}, dice=[2])
    assert ["Violent Attacks", -1] in state.window.mods
    state.apply("p1", "pass")
    assert "attacked" in state.turn.flags
    state = position(phase="travel", hands={"p1": [CW, CAMP_FOLLOWERS]}, route="Desert",
                     weather="Mild", dice=[4])
    assert ["Camp Followers", -1] in state.window.mods


def test_extra_rally_cards_are_not_offered_on_an_opponents_rally(position, tt):
    state = position(players=2, phase="rally", hands={"p1": [CW], "p2": [INTERVENE]},
                     tokens={"p1": {"mutiny": 1}}, dice=[1])
    state.apply("p1", "pass")
    assert state.window is None or state.window.table != "rally"
    assert state.armies["p2"].hand == [INTERVENE]


def test_arrived_armies_drop_their_hands_unless_the_option_keeps_penalising_cards(position, tt):
    for keep in (False, True):
        state = position(players=2, phase="travel", hands={"p1": [CW, MUDDY_ROAD, CORN]},
                         route="Desert", weather="Mild", dice=[6], space=57,
                         options={"finished_play_penalising": keep,
                                  "penalising_cards": "opponents-only"})
        state.apply("p1", "pass")
        assert state.armies["p1"].arrived == 1
        assert state.armies["p1"].hand == ([MUDDY_ROAD] if keep else [])


def test_a_finished_army_under_the_option_still_forces_its_penalising_card(position, tt):
    state = position(players=2, phase="travel", hands={"p1": [CW, MUDDY_ROAD], "p2": [CW]},
                     route="Desert", weather="Mild", dice=[6], space=57,
                     deck=[17, 59, 61],
                     options={"finished_play_penalising": True,
                              "penalising_cards": "opponents-only"})
    state.apply("p1", "pass")
    assert state.turn.seat == "p2"
    tt.pass_until(state, "travel")
    assert ["Muddy Road", -1] in state.window.mods and state.armies["p1"].hand == []


# every roll type with a card that helps its roller and one an opponent must play on it
ROLL_SETUPS = {
    "weather": dict(phase="weather"),
    "negotiation": dict(phase="negotiation", flags=["satrap"]),
    "attack": dict(phase="attack", tokens={"p1": {"anger": 1}}),
    "battle": dict(phase="battle", route="Desert", flags=["attacked"]),
    "exposure": dict(phase="exposure", weather="Harsh"),
    "forage": dict(phase="forage", route="Desert", weather="Mild"),
    "starvation": dict(phase="starvation", tokens={"p1": {"starvation": 1}}),
    "morale": dict(phase="morale"),
    "rally": dict(phase="rally", tokens={"p1": {"mutiny": 1}}),
    "desertion": dict(phase="desertion", tokens={"p1": {"mutiny": 1}}),
    "travel": dict(phase="travel", route="Desert", weather="Mild"),
}


def open_window(position, table, hands):
    setup = dict(ROLL_SETUPS[table])
    tokens = setup.pop("tokens", {})
    state = position(players=2, hands=hands, tokens=tokens, **setup)
    if state.pending()[0].legal == ["forage", "skip"]:
        state.apply("p1", "forage")
    assert state.window.table == table
    return state



@pytest.mark.parametrize("table, card, action, mod", [
    ("negotiation", 77, "play 77 NR+1", ["Truce", 1]),
    ("attack", 128, "play 128 AR+2", ["Mutilate the Corpses", 2]),
    ("battle", 63, "play 63 BR+1", ["Theban Cohort", 1]),
    ("exposure", 105, "play 105 ER-1", ["Firewood", -1]),
    ("forage", 57, "play 57 FR+2", ["Plunder", 2]),
    ("starvation", 3, "play 3 ZR-2", ["Eat only Meat", -2]),
    ("morale", 95, "play 95 MR-2", ["Command Silence", -2]),
    ("rally", 31, "play 31 RR+1", ["Greek Generals", 1]),
    ("travel", 81, "play 81 TR+2", ["Escort", 2])])
def test_helpful_card_on_each_own_roll(position, table, card, action, mod):
    state = open_window(position, table, {"p1": [CW, card]})
    total = state.window.total
    state.apply("p1", action)
    assert mod in state.window.mods and state.window.total == total + mod[1]


@pytest.mark.parametrize("table, card, mod", [
    ("weather", 80, ["North Wind Blowing", 1]),
    ("negotiation", 40, ["Mutual Suspicion", -1]),
    ("attack", 14, ["Tissaphernes", -3]),
    ("battle", 60, ["Slings & Arrows", -1]),
    ("exposure", 86, ["Frostbite", 1]),
    ("forage", 157, ["Fortifications", -2]),
    ("morale", 36, ["Panic", 2]),
    ("desertion", 12, ["Swayed by Persians", 1]),
    ("travel", 101, ["Flooded Plain", -2])])
def test_penalising_card_on_each_opponents_roll(position, table, card, mod):
    state = open_window(position, table, {"p1": [CW], "p2": [card]})
    assert mod in state.window.mods and state.armies["p2"].hand == []


def test_the_last_army_on_the_march_suffers_its_own_penalising_token_cards(position, tt):
    state = position(players=2, phase="travel", hands={"p1": [CW], "p2": [BURN_VILLAGES]},
                     route="Desert", weather="Mild", dice=[6], space=57, deck=[17, 59, 61])
    state.apply("p1", "pass")   # p1 reaches Trapezus: p2 marches on alone
    assert state.armies["p1"].arrived == 1 and state.turn.seat == "p2"
    assert state.armies["p2"].tokens["anger"] == 1 and BURN_VILLAGES in state.discard


def test_alone_on_the_march_a_drawn_penalising_token_card_hits_at_once(position, tt):
    # solo: Burn Villages drawn in the Draw phase brings Anger before this turn's Attack roll
    state = position(phase="draw", hands={"p1": []}, deck=[17, 59, BURN_VILLAGES],
                     dice=[3, 3, 3, 3, 1])
    assert BURN_VILLAGES in state.discard and BURN_VILLAGES not in state.armies["p1"].hand
    assert "attacked" in state.turn.flags and state.window.table == "battle"
    # the last army still marching: Short of Supplies drawn with Council of War eats the food
    # it was about to consume, so it starves this turn
    state = position(players=2, phase="route", hands={"p1": [CW]},
                     deck=[17, 59, SHORT_OF_SUPPLIES], tokens={"p1": {"food": 1}})
    state.armies["p2"].arrived = 1
    state.apply("p1", "play 119 draw3")
    assert state.armies["p1"].tokens["food"] == 0 and SHORT_OF_SUPPLIES in state.discard
    # with another army on the march the card waits for that army's turn
    state = position(players=2, phase="route", hands={"p1": [CW]},
                     deck=[17, 59, SHORT_OF_SUPPLIES], tokens={"p1": {"food": 1}})
    state.apply("p1", "play 119 draw3")
    assert state.armies["p1"].tokens["food"] == 1 and SHORT_OF_SUPPLIES in state.armies["p1"].hand


# ----- readings recorded in the ruleset's decisions ------------------------------------------
def test_a_penalising_card_drawn_while_its_roll_is_open_is_played_on_that_roll(position, tt):
    # decisions: p1 draws Muddy Road with Council of War in its own Travel window: the
    # window is still open, so that roll is the card's first chance and it hits p1
    state = position(players=2, phase="travel", hands={"p1": [CW]}, route="Desert",
                     weather="Mild", deck=[108, 109, 115, THRACIAN_TROOPS, 19, MUDDY_ROAD], dice=[4],
                     space=10)
    state.apply("p1", "play 119 draw3")
    assert MUDDY_ROAD in state.discard and MUDDY_ROAD not in state.armies["p1"].hand
    assert state.armies["p1"].space == 13   # 4 - 1


def test_a_penalising_food_card_is_spent_on_an_opponent_with_no_food(position, tt):
    # decisions: Short of Supplies and Camp Followers are played as the next opponent's turn
    # starts even if that army has no food left to lose
    state = position(players=2, phase="end", hands={"p1": [SHORT_OF_SUPPLIES, CAMP_FOLLOWERS],
                                                    "p2": [CW]},
                     tokens={"p2": {"food": 0}}, deck=[17, 59, 61])
    assert state.turn.seat == "p2" and state.armies["p2"].tokens["food"] == 0
    assert {SHORT_OF_SUPPLIES, CAMP_FOLLOWERS} <= set(state.discard)
    assert state.armies["p1"].hand == []


def test_a_penalising_card_may_be_discarded_to_the_hand_limit(position, tt):
    # decisions: the End phase discard is the player's choice, penalising cards included
    hand = [FROSTBITE, 17, 19, 21, 59, 61, 63, 65]
    state = position(phase="end", hands={"p1": hand}, deck=[108, 109, 115])
    assert f"discard {FROSTBITE}" in legal(state)
    state.apply("p1", f"discard {FROSTBITE}")
    assert FROSTBITE in state.discard and FROSTBITE not in state.armies["p1"].hand
