"""How fast each shipped ruleset's engine plays: what a searching bot pays per step.

Usage: python bench/engine_speed.py [--seconds S] [--games N] [--ruleset ID ...]

For every shipped ruleset (found in the shipped list, so a new game is measured
the day it ships) at a few player counts, on one core:

* random playouts from seeds 0, 1, 2 ... (the chooser seeded with the game's
  seed): decisions/s and games/s of CPU time, and the mean cost of one
  ``pending()`` + ``apply()`` in µs;
* the mean cost in µs of ``clone()`` and of ``determinize(seat, rng)`` over
  positions sampled from those games (every 7th position, the deciding seat).

By default each row plays for about S seconds (2); ``--games N`` plays exactly
N games instead, so that two runs do the same work (for timing whole runs).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tabulate import tabulate

from agon.referee.engine import Engine, State
from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset, shipped_rulesets

SAMPLE_EVERY = 7    # one position in this many is kept for the clone/determinize timings
MAX_SAMPLES = 200
CALL_SECONDS = 0.3   # CPU spent timing each of clone() and determinize() over the samples


@dataclass
class Case:
    """One row: a ruleset at one player count."""

    ruleset_id: str
    engine: Engine
    players: int

    @property
    def label(self) -> str:
        return f"{self.ruleset_id} ({self.players}p)"


def player_counts(players: dict[str, Any]) -> list[int]:
    """Every count of a small range; the ends, 2 and the middle of a wide one."""
    low, high = int(players.get("min", 1)), int(players.get("max", 1))
    if high - low <= 2:
        return list(range(low, high + 1))
    return sorted({low, low + 1, (low + high + 1) // 2, high})


def cases(only: list[str]) -> Iterator[Case]:
    for path in shipped_rulesets():
        if only and path.stem not in only:
            continue
        ruleset = load_ruleset(path.stem)
        engine = engine_class(ruleset.engine)(ruleset)
        for players in player_counts(ruleset.players):
            yield Case(ruleset.id, engine, players)


@dataclass
class Playouts:
    games: int = 0
    decisions: int = 0
    cpu: float = 0.0   # CPU seconds of the random games, chooser included
    moves: list[list[tuple[str, str]]] = field(default_factory=list)   # each game's actions
    samples: list[tuple[State, str]] = field(default_factory=list)     # (position, deciding seat)


def play(case: Case, seed: int, totals: Playouts) -> None:
    """One random game from `seed`, adding its figures to `totals`."""
    clock = time.process_time
    started = clock()
    state = case.engine.new_game(case.engine.seats(case.players), seed, {})
    choice = random.Random(seed).choice
    samples = totals.samples
    moves: list[tuple[str, str]] = []
    while pending := state.pending():
        if len(moves) % SAMPLE_EVERY == 0 and len(samples) < MAX_SAMPLES:
            before = clock()
            samples.append((state.clone(), pending[0].seat))
            started += clock() - before   # keeping a sample is not playing
        for decision in pending:
            action = choice(decision.legal)
            state.apply(decision.seat, action)
            moves.append((decision.seat, action))
    totals.cpu += clock() - started
    totals.games += 1
    totals.decisions += len(moves)
    totals.moves.append(moves)


def replay_cpu(case: Case, totals: Playouts) -> float:
    """CPU seconds spent in pending() and apply() replaying the games played (no chooser)."""
    engine, seats = case.engine, case.engine.seats(case.players)
    started = time.process_time()
    for seed, moves in enumerate(totals.moves):
        state = engine.new_game(seats, seed, {})
        for seat, action in moves:
            state.pending()
            state.apply(seat, action)
    return time.process_time() - started


def per_call_us(samples: list[tuple[State, str]], call) -> float:
    """Mean µs of `call(state, seat)` over the sampled positions."""
    if not samples:
        return float("nan")
    calls = 0
    started = time.process_time()
    while True:
        for state, seat in samples:
            call(state, seat)
        calls += len(samples)
        spent = time.process_time() - started
        if spent >= CALL_SECONDS:
            return spent / calls * 1e6


def measure(case: Case, seconds: float, games: int | None) -> dict[str, Any]:
    totals = Playouts()
    while (totals.games < games) if games else (totals.cpu < seconds or totals.games == 0):
        play(case, totals.games, totals)
    samples = totals.samples
    rng = random.Random(0)
    return {
        "ruleset": case.label,
        "games": totals.games,
        "decisions/game": round(totals.decisions / totals.games, 1),
        "decisions/s": round(totals.decisions / totals.cpu),
        "games/s": round(totals.games / totals.cpu, 1),
        "pending+apply µs": round(replay_cpu(case, totals) / totals.decisions * 1e6, 1),
        "clone µs": round(per_call_us(samples, lambda state, seat: state.clone()), 1),
        "determinize µs": round(per_call_us(
            samples, lambda state, seat: state.determinize(seat, rng)), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="CPU seconds of random playouts per row (default 2)")
    parser.add_argument("--games", type=int, help="play exactly this many games per row instead")
    parser.add_argument("--ruleset", action="append", default=[],
                        help="only this shipped ruleset id (repeatable)")
    args = parser.parse_args()
    rows = []
    for case in cases(args.ruleset):
        rows.append(measure(case, args.seconds, args.games))
        print(f"measured {case.label}", file=sys.stderr, flush=True)
    print(tabulate(rows, headers="keys", floatfmt=".1f", intfmt=","))


if __name__ == "__main__":
    main()
