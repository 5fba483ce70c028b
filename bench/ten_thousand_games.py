"""Random-play speed of the Ten Thousand engine: games/s and decisions/game.

Run: python bench/ten_thousand_games.py [games per player count]
"""

from __future__ import annotations

import random
import sys
import time

from agon.referee.games.ten_thousand import TenThousandEngine
from agon.referee.ruleset import load_ruleset


def play_random(engine: TenThousandEngine, players: int, seed: int) -> int:
    state = engine.new_game(engine.seats(players), seed, {})
    chooser = random.Random(seed)
    decisions = 0
    while True:
        pending = state.pending()
        if not pending:
            return decisions
        decision = pending[0]
        state.apply(decision.seat, chooser.choice(decision.legal))
        decisions += 1


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    engine = TenThousandEngine(load_ruleset("ten-thousand"))
    print(f"{'players':>7} {'games/s':>9} {'decisions/game':>15} {'decisions/s':>12}")
    for players in (1, 2, 4, 6):
        started = time.perf_counter()
        decisions = sum(play_random(engine, players, seed) for seed in range(games))
        elapsed = time.perf_counter() - started
        print(f"{players:>7} {games / elapsed:>9.1f} {decisions / games:>15.1f} "
              f"{decisions / elapsed:>12.0f}")


if __name__ == "__main__":
    main()
