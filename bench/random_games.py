"""Random-vs-random games of 300: Earth & Water: speed and outcome split.

Usage: python bench/random_games.py [GAMES] [--option k=v ...] [--ruleset ID|PATH]
       python bench/random_games.py 2000 --ruleset earth-and-water-solo
Plays full games in one process (pending -> uniform choice from a seeded
random.Random -> apply) and prints games/s, decisions per game and the split.
Without options it runs the ruleset's defaults and then forced_spend=true (the
Rally the Troops reading, comparable with the public JS engine's figures).
With a solo ruleset (one seat; PERS.IA plays Persia) the split is the random
Greek player's record against the automaton.
"""

from __future__ import annotations

import random
import sys
import time

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.ruleset import load_ruleset


def play(engine: EarthAndWaterEngine, seed: int, options: dict) -> tuple[int, int]:
    """One game; returns (winner: 0 Persia, 1 Greece, -1 tie; decisions)."""
    state = engine.new_game(list(engine.ruleset.players["seats"]), seed, options)
    chooser = random.Random(seed)
    choice = chooser.choice
    decisions = 0
    while True:
        pending = state.pending()
        if not pending:
            break
        decision = pending[0]
        state.apply(decision.seat, choice(decision.legal))
        decisions += 1
    return state.winner, decisions


def run(engine: EarthAndWaterEngine, games: int, options: dict) -> None:
    wins = {0: 0, 1: 0, -1: 0}
    total_decisions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for seed in range(games):
        winner, decisions = play(engine, seed, options)
        wins[winner] += 1
        total_decisions += decisions
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "ruleset defaults"
    print(f"[{label}]")
    print(f"  games: {games} in {wall:.2f} s wall, {cpu:.2f} s CPU = {games / cpu:.0f} games/s "
          f"of CPU ({total_decisions / cpu:.0f} decisions/s; {games / wall:.0f} games/s wall)")
    print(f"  decisions per game: {total_decisions / games:.1f}")
    if len(engine.ruleset.players["seats"]) == 1:
        print(f"  random Greek player against PERS.IA: wins {100 * wins[1] / games:.1f}%, "
              f"draws {100 * wins[-1] / games:.1f}%, loses {100 * wins[0] / games:.1f}%")
        return
    print(f"  Persia {100 * wins[0] / games:.1f}%  Greece {100 * wins[1] / games:.1f}%  "
          f"tie {100 * wins[-1] / games:.1f}%")


def main(argv: list[str]) -> None:
    games = 2000
    options: dict[str, str] = {}
    ruleset = "earth-and-water"
    args = iter(argv)
    for arg in args:
        if arg == "--option":
            key, _, value = next(args).partition("=")
            options[key] = value
        elif arg == "--ruleset":
            ruleset = next(args)
        else:
            games = int(arg)
    engine = EarthAndWaterEngine(load_ruleset(ruleset))
    print(f"ruleset {engine.ruleset.ref}, seats {', '.join(engine.ruleset.players['seats'])}")
    if options or len(engine.ruleset.players["seats"]) == 1:
        run(engine, games, options)
        return
    run(engine, games, {})
    # Rally the Troops' rules (which the public JS engine follows) force spending
    run(engine, games, {"forced_spend": "true"})


if __name__ == "__main__":
    main(sys.argv[1:])
