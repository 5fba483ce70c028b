"""Determinizing an Earth & Water position: what a search bot may be handed."""

from __future__ import annotations

import random
from collections import Counter

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.games.earth_and_water.state import REACTION_STEPS
from agon.referee.ruleset import load_ruleset

P, G = 0, 1
SEED = 913572468




def cards(state):
    return Counter(state.deck + state.discard + state.hands[P] + state.hands[G]
                   + ([state.held_card] if state.held_card else []))


def test_solo_automaton_dice_and_seed_are_reseeded():
    engine = EarthAndWaterEngine(load_ruleset("earth-and-water-solo"))
    real = engine.new_game(["greece"], SEED, {})
    a = real.determinize("greece", random.Random(1))
    b = real.determinize("greece", random.Random(2))
    # PERS.IA's future rolls no longer follow the real game's dice
    rolls = [[int(s.auto_rng.random() * 6) + 1 for _ in range(20)] for s in (real.clone(), a, b)]
    assert rolls[0] != rolls[1] and rolls[1] != rolls[2]
    for d in (a, b):
        assert d.seed != SEED and d.to_json()["seed"] != SEED
        for name in ("deck_rng", "dice_rng", "auto_rng"):
            assert getattr(d, name).getstate() != getattr(real, name).getstate()


def test_rigged_dice_are_not_handed_on():
    engine = EarthAndWaterEngine(load_ruleset("earth-and-water"))
    real = engine.new_game(["persia", "greece"], SEED, {})
    real.rigged_dice = [6, 6, 6]
    assert real.determinize("persia", random.Random(1)).rigged_dice == []


def test_oracle_discards_are_resampled_for_persia_only(play_until):
    engine = EarthAndWaterEngine(load_ruleset("earth-and-water"))
    real = play_until(engine, ["persia", "greece"], lambda s: len(s.unseen[P]) >= 2)
    hidden = set(real.unseen[P])
    slots = [i for i, n in enumerate(real.discard[:-1]) if n in hidden]
    changed = False
    for k in range(10):
        d = real.determinize("persia", random.Random(k))
        assert d.view("persia") == real.view("persia")
        assert cards(d) == cards(real)
        assert d.hands[P] == real.hands[P]
        assert d.discard[-1] == real.discard[-1]   # the face-up top card stays
        assert d.unseen[P][:len(slots)] == [d.discard[i] for i in slots]
        changed |= any(d.discard[i] != real.discard[i] for i in slots)
    assert changed
    # Greece saw its own discards: for it the pile stays as it is
    assert real.determinize("greece", random.Random(3)).discard == real.discard


def test_an_open_reaction_window_keeps_its_card_in_the_new_hand(play_until):
    engine = EarthAndWaterEngine(load_ruleset("earth-and-water"))
    real = play_until(engine, ["persia", "greece"],

                      lambda s: s.step in REACTION_STEPS and s.actor == G)
    for k in range(20):
        d = real.determinize("persia", random.Random(k))
        legal = d.pending()[0].legal
        assert len(legal) > 1 and "decline" in legal   # Greece really holds a card to play
        assert d.view("persia") == real.view("persia")


def test_while_persia_looks_at_the_greek_hand_with_hippias_that_hand_is_kept(play_until):
    engine = EarthAndWaterEngine(load_ruleset("earth-and-water"))
    state = play_until(engine, ["persia", "greece"], lambda s: s.step == "hippias")
    decision = state.pending()[0]
    for trial in range(5):
        world = state.determinize("persia", random.Random(trial))
        assert world.hands[G] == state.hands[G]
        assert [d.legal for d in world.pending()] == [decision.legal]


def test_every_decision_of_random_games_keeps_its_legal_actions_when_determinized():
    engine = EarthAndWaterEngine(load_ruleset("earth-and-water"))
    checked = 0
    for seed in range(40):
        state = engine.new_game(["persia", "greece"], SEED + seed, {})
        chooser = random.Random(seed)
        while state.pending():
            decision = state.pending()[0]
            world = state.determinize(decision.seat, random.Random(checked))
            assert [d.legal for d in world.pending()] == [decision.legal], decision.prompt
            checked += 1
            state.apply(decision.seat, chooser.choice(decision.legal))
    assert checked > 2000
