"""Whole games: random games finish, records replay, positions round-trip, views hide hands."""

from __future__ import annotations

import json
import random

import pytest

from agon.referee.engine import IllegalAction


def test_a_thousand_random_games_finish_with_valid_results(engine, tt):
    counts = {}
    for seed in range(1000):
        players = 1 + seed % 6
        options = {"penalising_cards": "opponents-only" if seed % 7 == 3 else "first-chance",
                   "finished_play_penalising": seed % 5 == 2}
        state, actions = tt.play_random(engine, players, seed, options)
        result = state.result()
        assert result is not None and not state.pending()
        for seat, army in state.armies.items():
            assert army.men >= 0
            assert army.arrived is not None or army.destroyed
            expected = 0 if army.destroyed else round(army.men / army.arrived, 3)
            assert result.scores[seat] == expected
        for a in result.scores:          # a better score always ranks ahead
            for b in result.scores:
                if result.scores[a] > result.scores[b]:
                    assert result.ranks[a] < result.ranks[b]
        if players == 1:
            assert result.points["p1"] == (1.0 if result.scores["p1"] >= 200 else 0.0)
        counts[players] = counts.get(players, 0) + 1
    assert set(counts) == {1, 2, 3, 4, 5, 6}


def test_a_seeded_four_player_game_replays_from_its_record(engine, tt):
    state, actions = tt.play_random(engine, 4, seed=2024)
    replay = engine.new_game(engine.seats(4), 2024, {})
    for seat, action in actions:
        replay.apply(seat, action)
    assert replay.result().to_json() == state.result().to_json()
    assert replay.to_json() == state.to_json()
    assert len(actions) > 100


def test_to_json_and_load_round_trip_mid_game(engine):
    state = engine.new_game(engine.seats(3), 11, {})
    chooser = random.Random(5)
    for _ in range(150):
        decision = state.pending()[0]
        state.apply(decision.seat, chooser.choice(decision.legal))
    saved = json.loads(json.dumps(state.to_json()))
    loaded = engine.load(saved)
    assert loaded.to_json() == state.to_json()
    assert loaded.pending()[0].legal == state.pending()[0].legal
    # both copies play on identically, dice and deck included
    for _ in range(300):
        if not state.pending():
            break
        decision = state.pending()[0]
        action = chooser.choice(decision.legal)
        assert [e.text for e in state.apply(decision.seat, action)] == \
               [e.text for e in loaded.apply(decision.seat, action)]
    assert loaded.to_json() == state.to_json()


def test_clone_is_independent(engine):
    state = engine.new_game(engine.seats(2), 3, {})
    copy = state.clone()
    decision = state.pending()[0]
    state.apply(decision.seat, decision.legal[0])
    assert copy.to_json() != state.to_json()
    assert copy.pending()[0].legal == decision.legal


def test_views_and_events_hide_other_hands(engine):
    state = engine.new_game(engine.seats(3), 8, {})
    view = state.view("p2")
    assert [c["number"] for c in view["hand"]] == state.armies["p2"].hand
    assert view["armies"]["p1"]["hand"] == len(state.armies["p1"].hand)
    text = json.dumps(view)
    for number in state.armies["p1"].hand + state.armies["p3"].hand:
        name = engine.rules.cards[number].name
        if number not in state.armies["p2"].hand:
            assert name not in text
    assert view["deck"] == len(state.deck) and "cards" not in view
    # draw events name the cards only to the drawer
    chooser = random.Random(1)
    for _ in range(40):
        decision = state.pending()[0]
        for event in state.apply(decision.seat, chooser.choice(decision.legal)):
            if event.type == "draw" and "cards" in event.data:
                assert event.to == frozenset([event.data["seat"]])


def test_determinize_keeps_own_hand_and_card_counts(engine):
    state = engine.new_game(engine.seats(4), 9, {})
    other = state.determinize("p1", random.Random(3))
    assert other.armies["p1"].hand == state.armies["p1"].hand
    for seat in ("p2", "p3", "p4"):
        assert len(other.armies[seat].hand) == len(state.armies[seat].hand)
    everything = sorted(other.deck + sum((a.hand for a in other.armies.values()), []))
    assert everything == sorted(state.deck + sum((a.hand for a in state.armies.values()), []))


def test_illegal_actions_and_bad_seat_counts_are_refused(engine):
    state = engine.new_game(engine.seats(2), 1, {})
    decision = state.pending()[0]
    other = "p2" if decision.seat == "p1" else "p1"
    with pytest.raises(IllegalAction):
        state.apply(other, decision.legal[0])
    with pytest.raises(IllegalAction):
        state.apply(decision.seat, "march to Athens")
    with pytest.raises(ValueError):
        engine.seats(7)
    with pytest.raises(ValueError):
        engine.new_game([], 1, {})
