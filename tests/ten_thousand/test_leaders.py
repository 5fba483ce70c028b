"""Choosing leaders and each leader's power."""

from __future__ import annotations

CW = 119


def legal(state):
    return state.pending()[0].legal


def test_players_pick_different_leaders_in_turn_order(engine):
    state = engine.new_game(engine.seats(4), 5, {})
    first = state.pending()[0]
    assert first.seat == state.order[0]
    assert first.legal == ["leader xenophon", "leader chirisophus", "leader clearatus",
                           "leader menon"]
    state.apply(first.seat, "leader menon")
    second = state.pending()[0]
    assert second.seat == state.order[1] and "leader menon" not in second.legal
    while state.step == "leader":
        decision = state.pending()[0]
        state.apply(decision.seat, decision.legal[0])
    leaders = [state.armies[s].leader for s in state.order]
    assert leaders[0] == "menon" and sorted(leaders) == ["chirisophus", "clearatus", "menon",
                                                          "xenophon"]


def test_beyond_four_players_the_rest_lead_without_a_power(engine):
    state = engine.new_game(engine.seats(6), 5, {})
    while state.step == "leader":
        decision = state.pending()[0]
        state.apply(decision.seat, decision.legal[0])
    leaders = [state.armies[s].leader for s in state.order]
    assert leaders[4:] == ["none", "none"] and len(set(leaders[:4])) == 4


def test_xenophon_rerolls_one_own_roll_per_turn(position):
    state = position(phase="route", hands={"p1": [CW]}, leaders={"p1": "xenophon"},
                     dice=[1, 1, 6, 6])
    assert "leader reroll" in legal(state)
    state.apply("p1", "leader reroll")
    assert state.window.dice == [6, 6]
    assert "leader reroll" not in legal(state)
    state.apply("p1", "pass")
    assert "leader reroll" not in legal(state)          # the weather window: used up


def test_xenophon_power_is_only_for_his_own_rolls(position):
    state = position(players=2, phase="travel", hands={"p1": [CW], "p2": [27]},
                     leaders={"p2": "xenophon"}, route="Desert", weather="Mild")
    state.apply("p1", "pass")
    # p2 is asked for the card that may reroll anyone's roll, not for the leader's reroll
    assert state.pending()[0].seat == "p2" and legal(state) == ["play 27 reroll", "pass"]


def test_clearatus_adds_or_takes_one_once_per_turn(position):
    state = position(phase="travel", hands={"p1": [CW]}, leaders={"p1": "clearatus"},
                     route="Desert", weather="Mild", dice=[4], space=10)
    assert {"leader +1", "leader -1"} <= set(legal(state))
    state.apply("p1", "leader +1")
    assert state.window.total == 5
    assert "leader +1" not in legal(state)
    state.apply("p1", "pass")
    assert state.armies["p1"].space == 15


def test_menon_bonus_only_on_negotiation(position):
    state = position(phase="satrap", hands={"p1": [CW]}, leaders={"p1": "menon"},
                     route="Desert", dice=[6, 3])
    assert state.window.mods == []
    state.apply("p1", "pass")
    assert state.window.table == "negotiation" and state.window.total == 4


def test_hand_limit_is_seven_and_eight_with_chirisophus(position):
    nine = [17, 19, 21, 59, 61, 63, 65, 67, 68]
    state = position(phase="end", hands={"p1": list(nine)}, deck=[108, 109, 115])
    discards = 0
    while state.pending() and state.pending()[0].legal[0].startswith("discard"):
        assert all(f"discard {n}" in legal(state) for n in state.armies["p1"].hand)
        state.apply("p1", legal(state)[0])
        discards += 1
    assert discards == 2
    state = position(phase="end", hands={"p1": list(nine)}, leaders={"p1": "chirisophus"},
                     deck=[108, 109, 115])
    assert legal(state)[0].startswith("discard")
    state.apply("p1", legal(state)[0])
    assert state.turn.seat == "p1" and state.round == 2    # next turn began: 8 kept, 3 drawn
    assert len(state.armies["p1"].hand) == 11
