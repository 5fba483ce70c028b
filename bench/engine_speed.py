"""How fast each shipped ruleset's engine plays: what a searching bot pays per step.

Usage: python bench/engine_speed.py [--seconds S] [--games N] [--ruleset ID ...]
                                   [--option KEY=VALUE ...]

For every shipped ruleset (found in the shipped list, so a new game is measured
the day it ships) at a few player counts, on one core:

* random playouts from seeds 0, 1, 2 ... (the chooser seeded with the game's
  seed): decisions/s and games/s of CPU time, and the mean cost of one
  ``pending()`` + ``apply()`` in µs;
* the same games played silenced (``State.silence()``: no events built), as a
  search bot's sampled worlds are: "silent decisions/s";
* the mean cost in µs of ``clone()`` and of ``determinize(seat, rng)`` over
  positions sampled from those games (every 7th position, the deciding seat).

By default each row plays for about S seconds (1.5), then plays the same games
again to record them (untimed) and replays them (timed); ``--games N`` plays
exactly N games instead, so that two runs do the same work (for timing whole
runs).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
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
    """One row: a ruleset at one player count (with the options asked for)."""

    ruleset_id: str
    engine: Engine
    seats: list[str]
    options: dict[str, str]

    @property
    def label(self) -> str:
        return f"{self.ruleset_id} ({len(self.seats)}p)"


def player_counts(players: dict[str, Any]) -> list[int]:
    """Every count of a small range; the ends, 2 and the middle of a wide one."""
    low, high = int(players.get("min", 1)), int(players.get("max", 1))
    if high - low <= 2:
        return list(range(low, high + 1))
    return sorted({low, low + 1, (low + high + 1) // 2, high})


def cases(only: list[str], options: dict[str, str]) -> Iterator[Case]:
    for path in shipped_rulesets():
        if only and path.stem not in only:
            continue
        ruleset = load_ruleset(path.stem)
        engine = engine_class(ruleset.engine)(ruleset)
        for players in player_counts(ruleset.players):
            yield Case(ruleset.id, engine, engine.seats(players), options)


def play(case: Case, seed: int, silent: bool = False) -> int:
    """One random game from `seed` (the chooser seeded with it too); its decisions."""
    state = case.engine.new_game(case.seats, seed, case.options)
    if silent:
        state.silence()
    choice = random.Random(seed).choice
    decisions = 0
    while pending := state.pending():
        for decision in pending:
            state.apply(decision.seat, choice(decision.legal))
        decisions += len(pending)
    return decisions


def record(case: Case, seed: int, samples: list[tuple[State, str]]) -> list[tuple[str, str]]:
    """The same game again, keeping its actions and some positions (with who decides)."""
    state = case.engine.new_game(case.seats, seed, case.options)
    choice = random.Random(seed).choice
    moves: list[tuple[str, str]] = []
    while pending := state.pending():
        if len(moves) % SAMPLE_EVERY == 0 and len(samples) < MAX_SAMPLES:
            samples.append((state.clone(), pending[0].seat))
        for decision in pending:
            action = choice(decision.legal)
            state.apply(decision.seat, action)
            moves.append((decision.seat, action))
    return moves


def replay_cpu(case: Case, games: list[list[tuple[str, str]]]) -> float:
    """CPU seconds of pending() and apply() replaying recorded games (no chooser)."""
    started = time.process_time()
    for seed, moves in enumerate(games):
        state = case.engine.new_game(case.seats, seed, case.options)
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
    played = decisions = 0
    started = time.process_time()
    while (played < games) if games else (time.process_time() - started < seconds or not played):
        decisions += play(case, played)
        played += 1
    cpu = time.process_time() - started
    started = time.process_time()
    for seed in range(played):
        play(case, seed, silent=True)
    silent_cpu = time.process_time() - started
    samples: list[tuple[State, str]] = []
    recorded = [record(case, seed, samples) for seed in range(played)]
    rng = random.Random(0)
    return {
        "ruleset": case.label,
        "games": played,
        "decisions/game": round(decisions / played, 1),
        "decisions/s": round(decisions / cpu),
        "silent decisions/s": round(decisions / silent_cpu),
        "games/s": round(played / cpu, 1),
        "pending+apply µs": round(replay_cpu(case, recorded) / decisions * 1e6, 1),
        "clone µs": round(per_call_us(samples, lambda state, seat: state.clone()), 1),
        "determinize µs": round(per_call_us(
            samples, lambda state, seat: state.determinize(seat, rng)), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5,
                        help="CPU seconds of random playouts per row (default 1.5)")
    parser.add_argument("--games", type=int, help="play exactly this many games per row instead")
    parser.add_argument("--ruleset", action="append", default=[],
                        help="only this shipped ruleset id (repeatable)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a ruleset option for every game (repeatable), e.g. scenario=S3")
    args = parser.parse_args()
    options = dict(option.partition("=")[::2] for option in args.option)
    rows = []
    for case in cases(args.ruleset, options):
        rows.append(measure(case, args.seconds, args.games))
        print(f"measured {case.label}", file=sys.stderr, flush=True)
    print(tabulate(rows, headers="keys", floatfmt=".1f", intfmt=","))


if __name__ == "__main__":
    main()
