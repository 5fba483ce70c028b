"""Random Epireia games: games per second and decisions per game, for 2, 3, 4 players and solo."""

from __future__ import annotations

import random
import time

from agon.referee.games.epireia import EpireiaEngine
from agon.referee.ruleset import load_ruleset


def play(engine: EpireiaEngine, players: int, seed: int, options: dict) -> int:
    state = engine.new_game(engine.seats(players), seed, options)
    rng = random.Random(seed)
    decisions = 0
    while True:
        pending = state.pending()
        if not pending:
            return decisions
        for decision in pending:
            state.apply(decision.seat, rng.choice(list(decision.legal)))
            decisions += 1


def measure(label: str, engine: EpireiaEngine, players: int, options: dict, games: int) -> None:
    start = time.perf_counter()
    total = sum(play(engine, players, seed, options) for seed in range(games))
    elapsed = time.perf_counter() - start
    print(f"{label:>12}: {games / elapsed:7.1f} games/s, {total / games:7.1f} decisions/game")


def main(games: int = 40) -> None:
    multi = EpireiaEngine(load_ruleset("epireia"))
    for players in (2, 3, 4):
        measure(f"{players} players", multi, players, {}, games)
    solo = EpireiaEngine(load_ruleset("epireia-solo"))
    for scenario in ("S1", "S2", "S3", "S4"):
        measure(f"solo {scenario}", solo, 1, {"scenario": scenario}, games)


if __name__ == "__main__":
    main()
