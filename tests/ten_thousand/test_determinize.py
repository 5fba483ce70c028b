"""Determinizing a Ten Thousand position: what a search bot may be handed."""

from __future__ import annotations

import random
from collections import Counter

SEED = 913572468




def all_cards(state) -> Counter:
    return Counter(state.deck + state.discard
                   + [n for army in state.armies.values() for n in army.hand])


def test_every_stream_and_the_seed_are_drawn_anew(engine):
    real = engine.new_game(engine.seats(3), SEED, {})
    d = real.determinize("p1", random.Random(5))
    assert d.seed != SEED and d.to_json()["seed"] != SEED
    assert sorted(d.rngs) == sorted(real.rngs)
    for name, rng in real.rngs.items():
        assert d.rngs[name].getstate() != rng.getstate(), name
    # the other seats' dice now roll differently from the real game's
    assert [d.dice("p2").randint(1, 6) for _ in range(30)] != \
        [real.clone().dice("p2").randint(1, 6) for _ in range(30)]


def test_another_seats_roll_window_is_asked_from_its_new_hand(engine, play_until):
    real = play_until(engine, 4, lambda s: s.step == "window" and s.asking.seat != "p1"
                      and any(a.startswith("play") for a in s.asking.legal))
    asked = real.asking.seat
    for k in range(10):
        d = real.determinize("p1", random.Random(k))
        assert d.view("p1") == real.view("p1")
        assert all_cards(d) == all_cards(real)
        hand = d.armies[asked].hand
        plays = [a for a in d.pending()[0].legal if a != "pass"]
        assert d.pending()[0].seat == asked
        assert plays, "a window only asks a seat that can act"
        assert all(int(a.split()[1]) in hand for a in plays if a.startswith("play"))
        while d.pending():   # and the game goes on from there
            decision = d.pending()[0]
            d.apply(decision.seat, random.Random(k).choice(decision.legal))


def test_another_seats_hand_limit_discard_lists_its_new_hand(engine, play_until):
    real = play_until(engine, 3, lambda s: s.step == "discard" and s.asking.seat != "p1")
    asked = real.asking.seat
    differs = False
    for k in range(10):
        d = real.determinize("p1", random.Random(k))
        legal = d.pending()[0].legal
        assert legal == [f"discard {n}" for n in sorted(set(d.armies[asked].hand))]
        differs |= legal != real.pending()[0].legal
    assert differs


def test_a_hand_left_face_down_is_resampled_for_the_others(engine, play_until):
    real = play_until(engine, 3, lambda s: any(s.face_down.values()))
    owner = next(s for s, cards in real.face_down.items() if cards)
    viewer = next(s for s in real.seats if s != owner)
    changed = False
    for k in range(10):
        d = real.determinize(viewer, random.Random(k))
        assert all_cards(d) == all_cards(real)
        assert len(d.face_down[owner]) == len(real.face_down[owner])
        assert len(d.discard) == len(real.discard)
        changed |= Counter(d.face_down[owner]) != Counter(real.face_down[owner])
    assert changed
    # the owner knows what it threw away
    assert real.determinize(owner, random.Random(1)).face_down == real.face_down


def test_an_army_off_the_march_is_dealt_only_penalising_cards(engine):
    def arrived_with_cards(state):
        return any(not a.marching and a.hand and a.seat != "p1" for a in state.armies.values())

    real = None
    for seed in range(100):
        state = engine.new_game(engine.seats(4), SEED + seed, {"finished_play_penalising": True})
        chooser = random.Random(seed)
        while state.pending() and not arrived_with_cards(state):
            decision = state.pending()[0]
            state.apply(decision.seat, chooser.choice(decision.legal))
        if state.pending():
            real = state
            break
    assert real is not None, "no arrived army kept cards"
    for k in range(10):
        d = real.determinize("p1", random.Random(k))
        for army in d.armies.values():
            if not army.marching and army.seat != "p1":
                assert all(engine.rules.cards[n].penalising for n in army.hand)


def test_during_a_turn_only_the_marching_player_is_dealt_penalising_token_cards(engine):
    # the others' cards that take food or bring anger were played when this turn began
    forced = engine.rules.forced_token_cards
    state = engine.new_game(engine.seats(4), SEED, {})
    chooser = random.Random(1)
    checked = 0
    while state.pending() and checked < 40:
        decision = state.pending()[0]
        state.apply(decision.seat, chooser.choice(decision.legal))
        if state.turn is None:
            continue
        for k in range(5):
            d = state.determinize("p1", random.Random(k))
            for seat, army in d.armies.items():
                if seat not in ("p1", d.turn.seat):
                    assert forced.isdisjoint(army.hand), (seat, army.hand)
            assert all_cards(d) == all_cards(state)
        checked += 1
