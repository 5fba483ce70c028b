"""`State.determinize(seat, rng)` keeps its contract in every shipped ruleset.

A search bot receives ``state.determinize(seat, rng).to_json()`` and may read
all of it, so the copy must look the same to `seat`, carry none of the real
hidden information or seed, draw all future chance from `rng`, and still be a
game that can be played to the end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from agon.referee.engine import Engine, State
from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset

SEED = 913572468                 # distinctive: must never show in a determinized state
SEEDS = (SEED, 824679135, 735918264)
CHECKPOINTS = (3, 25, 90, 220)   # plies of random play before determinizing
MAX_PLIES = 20000

# (ruleset id, seat count): two seats and the maximum for multi-player games, and the solos
GAMES = [("earth-and-water", 2), ("earth-and-water-solo", 1),
         ("ten-thousand", 2), ("ten-thousand", 6), ("ten-thousand", 1),
         ("epireia", 2), ("epireia", 4), ("epireia-solo", 1),
         ("city-states", 2), ("city-states", 6)]


def make_engine(ruleset_id: str) -> Engine:
    ruleset = load_ruleset(ruleset_id)
    return engine_class(ruleset.engine)(ruleset)


def step(state: State, chooser: random.Random) -> bool:
    """One random legal action of the first seat asked; False once the game is over."""
    pending = state.pending()
    if not pending:
        return False
    decision = pending[0]
    state.apply(decision.seat, decision.legal[chooser.randrange(len(decision.legal))])
    return True


def positions(ruleset_id: str, seats: int, seed: int) -> tuple[Engine, list[State]]:
    """Copies of one random game at each checkpoint it reaches."""
    engine = make_engine(ruleset_id)
    state = engine.new_game(engine.seats(seats), seed, {})
    chooser = random.Random(seed + 1)
    out, ply = [], 0
    for target in CHECKPOINTS:
        while ply < target and step(state, chooser):
            ply += 1
        if state.is_over():
            break
        out.append(state.clone())
    assert out, "the game ended before the first checkpoint"
    return engine, out


def rng_states(data: Any) -> set[tuple[int, ...]]:
    """Every Mersenne Twister state (625 ints, as `referee.rng.rng_state` writes) in a JSON."""
    found: set[tuple[int, ...]] = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= rng_states(value)
    elif isinstance(data, list):
        if len(data) == 625 and all(isinstance(x, int) for x in data):
            found.add(tuple(data))
        else:
            for value in data:
                found |= rng_states(value)
    return found


def without_rngs(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: without_rngs(v) for k, v in data.items()}
    if isinstance(data, list):
        if len(data) == 3 and isinstance(data[1], list) and len(data[1]) == 625:
            return "rng"
        return [without_rngs(v) for v in data]
    return data


def seat_decisions(state: State, seat: str) -> list[tuple[str, list[str]]]:
    return [(d.prompt, list(d.legal)) for d in state.pending() if d.seat == seat]


def play_out(state: State, chooser: random.Random) -> int:
    plies = 0
    while step(state, chooser):
        plies += 1
        assert plies < MAX_PLIES, "the determinized game does not end"
    return plies


CASES = [(rid, n, seed) for rid, n in GAMES for seed in SEEDS]


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_determinized_state_keeps_the_contract(ruleset_id: str, seats: int, seed: int) -> None:
    engine, states = positions(ruleset_id, seats, seed)
    hidden_resampled = False
    for k, real in enumerate(states):
        real_json = real.to_json()
        real_rngs = rng_states(real_json)
        for seat in engine.seats(seats):
            d = real.determinize(seat, random.Random(1000 * k + len(seat)))
            # (1) the seat sees the same position and has the same choices
            assert d.view(seat) == real.view(seat)
            assert seat_decisions(d, seat) == seat_decisions(real, seat)
            assert [x.seat for x in d.pending()] == [x.seat for x in real.pending()]
            # (4) neither the seed nor any real random stream survives
            d_json = d.to_json()
            text = json.dumps(d_json)
            assert str(seed) not in text
            # (3) every stream is reseeded: no real generator state is left
            assert real_rngs and not rng_states(d_json) & real_rngs
            # (2) something the seat cannot see changes, at least at some checkpoint
            if without_rngs(d_json) != without_rngs(real_json):
                hidden_resampled = True
            # (5) it round-trips and plays to the end
            assert engine.load(d_json).to_json() == d_json
            play_out(d, random.Random(k))
            assert d.result() is not None
        assert real.to_json() == real_json, "determinize changed the real state"
    assert hidden_resampled


@pytest.mark.parametrize(("ruleset_id", "seats"), GAMES)
def test_two_determinizations_diverge_in_chance(ruleset_id: str, seats: int) -> None:
    """The same choices in two determinizations from different rngs meet different chance."""
    engine, states = positions(ruleset_id, seats, SEED)
    real = states[-1]
    seat = engine.seats(seats)[0]
    differ = 0
    for trial in range(4):
        a = real.determinize(seat, random.Random(2 * trial))
        b = real.determinize(seat, random.Random(2 * trial + 1))
        a_rngs, b_rngs = rng_states(a.to_json()), rng_states(b.to_json())
        assert not a_rngs & b_rngs
        choices = random.Random(trial)
        for _ in range(60):
            pa, pb = a.pending(), b.pending()
            if not pa or not pb:
                break
            pick = choices.random()
            a.apply(pa[0].seat, pa[0].legal[int(pick * len(pa[0].legal))])
            b.apply(pb[0].seat, pb[0].legal[int(pick * len(pb[0].legal))])
        if without_rngs(a.to_json()) != without_rngs(b.to_json()):
            differ += 1
    assert differ >= 1
