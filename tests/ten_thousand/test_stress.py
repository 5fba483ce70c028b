"""Random games at every player count, with the position checked after every action."""

from __future__ import annotations

import json
import random

import pytest

GAMES_PER_COUNT = 12
MAX_ACTIONS = 20000


def choose(state, decision, chooser: random.Random) -> str:
    """Half the games uniformly at random; the others forage when hungry and play cards."""
    legal = decision.legal
    if chooser.random() < 0.5:
        return chooser.choice(legal)
    if "forage" in legal:
        return "forage" if state.armies[decision.seat].tokens["food"] == 0 else "skip"
    plays = [a for a in legal if a not in ("pass", "skip")]
    return chooser.choice(plays or legal)


def check_counts(state, rules) -> None:
    cards = state.deck + state.discard + [n for a in state.armies.values() for n in a.hand]
    assert sorted(cards) == sorted(rules.cards)           # every card in one place
    for seat, army in state.armies.items():
        assert 0 <= army.men <= 10000 and army.men % 100 == 0
        assert min(army.tokens.values()) >= 0
        assert 1 <= army.space <= rules.distance["finish"]
        if army.destroyed:
            assert army.men == 0 and not army.hand
        if army.arrived is not None:
            assert army.space == rules.distance["finish"] and army.arrived <= state.round
        if state.turn is None or state.turn.seat != seat:
            assert len(army.hand) <= state.hand_limit(seat) or not army.marching


def check_penalising_cards(state, rules) -> None:
    """No penalising card outlives its first chance."""
    if state.turn is not None:
        for seat in state.card_holders():
            if seat != state.turn.seat:
                assert rules.forced_token_cards.isdisjoint(state.armies[seat].hand)
    window = state.window
    if window is not None:
        forced = rules.tables[window.table].cards.forced_cards
        for seat in window.order:
            if not (state.opponents_only and seat == window.roller):
                assert forced.isdisjoint(state.armies[seat].hand)


def check_views(state, rules) -> None:
    for seat in state.seats:
        text = json.dumps(state.view(seat))
        own = set(state.armies[seat].hand)
        for other in state.seats:
            for number in set(state.armies[other].hand) - own:
                if other != seat:
                    assert f'"{rules.cards[number].name}"' not in text


def play_checked(engine, players: int, seed: int, options: dict):
    rules = engine.rules
    state = engine.new_game(engine.seats(players), seed, options)
    chooser = random.Random(seed)
    actions, turns = [], {seat: 0 for seat in state.seats}
    while state.pending():
        decision = state.pending()[0]
        assert decision.legal and len(set(decision.legal)) == len(decision.legal)
        action = choose(state, decision, chooser)
        actions.append((decision.seat, action))
        for event in state.apply(decision.seat, action):
            if event.type == "turn":
                turns[event.data["seat"]] += 1
            if event.type == "draw" and "cards" in event.data:
                assert event.to == frozenset([event.data["seat"]])
        assert len(actions) < MAX_ACTIONS
        check_counts(state, rules)
        check_penalising_cards(state, rules)
        if len(actions) % 41 == 0:
            check_views(state, rules)
    for seat, army in state.armies.items():
        assert army.marching is False
        assert army.arrived is None or turns[seat] == army.arrived   # one turn per time space
    return state, actions


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(engine, players):
    for seed in range(GAMES_PER_COUNT):
        options = {"penalising_cards": "opponents-only" if seed % 4 == 3 else "first-chance",
                   "finished_play_penalising": seed % 3 == 2}
        state, actions = play_checked(engine, players, seed, options)
        assert state.result() is not None
        if seed == 0:   # the same seed and actions give the same game
            again = engine.new_game(engine.seats(players), seed, options)
            for seat, action in actions:
                again.apply(seat, action)
            assert again.to_json() == state.to_json()
