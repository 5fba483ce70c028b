"""Random City States games: games per second and decisions per game, for 2, 4 and 6 players.

Usage: python bench/city_states_games.py [GAMES] [--players N ...] [--option k=v ...]
Plays whole 36-turn games in one process (pending -> uniform choice from a
seeded random.Random -> apply) and prints, per player count, games/s and
decisions/s of CPU, decisions per game and the mean winning city count.
Target: a 4-player game in under 0.5 s on one core.  A second part times
clone() and determinize() on mid-game positions, which search bots pay for at
every playout.
"""

from __future__ import annotations

import random
import sys
import time

from agon.referee.games.city_states import CityStatesEngine
from agon.referee.ruleset import load_ruleset


def play(engine: CityStatesEngine, players: int, seed: int, options: dict) -> tuple[int, float]:
    """One game; returns (decisions, the winner's score)."""
    state = engine.new_game(engine.seats(players), seed, options)
    choice = random.Random(seed).choice
    decisions = 0
    while True:
        pending = state.pending()
        if not pending:
            break
        decision = pending[0]
        state.apply(decision.seat, choice(decision.legal))
        decisions += 1
    return decisions, max(state.result().scores.values())


def run(engine: CityStatesEngine, players: int, games: int, options: dict) -> None:
    total = 0
    best = 0.0
    cpu_start = time.process_time()
    for seed in range(games):
        decisions, top = play(engine, players, seed, options)
        total += decisions
        best += top
    cpu = time.process_time() - cpu_start
    print(f"  {players} players: {games} games in {cpu:.2f} s CPU = {games / cpu:.2f} games/s, "
          f"{cpu / games * 1000:.0f} ms a game, {total / cpu:.0f} decisions/s; "
          f"{total / games:.0f} decisions a game; the winner holds {best / games:.1f} cities")


def copies(engine: CityStatesEngine, players: int, samples: int) -> None:
    """Microseconds per clone() and per determinize() on positions of random games."""
    states = []
    for seed in range(samples):
        state = engine.new_game(engine.seats(players), seed, {})
        rng = random.Random(seed)
        for _ in range(300 + 50 * seed):
            decision = state.pending()[0]
            state.apply(decision.seat, rng.choice(decision.legal))
        states.append(state)
    rng = random.Random(1)
    start = time.process_time()
    for _ in range(200):
        for state in states:
            state.clone()
    clone_us = (time.process_time() - start) / (200 * len(states)) * 1e6
    start = time.process_time()
    for _ in range(200):
        for state in states:
            state.determinize(state.seats[0], rng)
    det_us = (time.process_time() - start) / (200 * len(states)) * 1e6
    print(f"  {players} players: clone {clone_us:.0f} us, determinize {det_us:.0f} us")


def main(argv: list[str]) -> None:
    games = 20
    counts: list[int] = []
    options: dict[str, str] = {}
    args = iter(argv)
    for arg in args:
        if arg == "--players":
            counts.append(int(next(args)))
        elif arg == "--option":
            key, _, value = next(args).partition("=")
            options[key] = value
        else:
            games = int(arg)
    engine = CityStatesEngine(load_ruleset("city-states"))
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "ruleset defaults"
    print(f"ruleset {engine.ruleset.ref} [{label}], random games of 36 turns")
    for players in counts or [2, 4, 6]:
        run(engine, players, games, options)
    print("copies of mid-game positions:")
    for players in counts or [2, 4, 6]:
        copies(engine, players, 5)


if __name__ == "__main__":
    main(sys.argv[1:])
