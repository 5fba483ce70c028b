"""How many ismcts iterations a decision gets per second of CPU, game by game.

Usage: python bench/search_rate.py [--iterations N] [--seeds K] [--ruleset ID ...]

ismcts plays whole games against random from each seat (seeds 0 .. K-1) with a
fixed budget of N iterations a decision, and each decision's process time is
read around the search (its prior at the root included).  The median rate
gives the iteration budget that matches a time per decision on an idle core:
`ismcts:iterations=...` then plays as `ismcts:time=...` would on that core,
but the same way on every machine, loaded or not.  Process time is less
disturbed by other work than wall time, not immune to it: quote the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from agon.bots.ismcts import IsmctsBot
from agon.bots.random import RandomBot
from agon.referee.engine import Decision, State
from agon.referee.games import engine_class
from agon.referee.match import run_match
from agon.referee.players import InProcessPlayer
from agon.referee.ruleset import load_ruleset

RULESETS = {"earth-and-water": 2, "ten-thousand": 2, "epireia": 2}   # id: seats


class TimedIsmcts(IsmctsBot):
    """ismcts that keeps (CPU seconds, iterations) of every decision it searched."""

    def __init__(self, seed: int = 0, **settings) -> None:
        super().__init__(seed, **settings)
        self.timings: list[tuple[float, int]] = []

    def choose(self, decision: Decision, view: dict, state: State | None = None) -> str:
        began, searched = time.process_time(), len(self.iterations_done)
        action = super().choose(decision, view, state)
        if len(self.iterations_done) > searched:
            self.timings.append((time.process_time() - began, self.iterations_done[-1]))
        return action


def rates(ruleset_id: str, players: int, iterations: int, seeds: int) -> list[float]:
    """Iterations per CPU second of every decision searched."""
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    seats = engine.seats(players)
    out = []
    for seed in range(seeds):
        for searching in seats:
            bot = TimedIsmcts(seed, iterations=iterations)
            players_ = {seat: InProcessPlayer(bot if seat == searching else RandomBot(seed))
                        for seat in seats}
            run_match(engine, players_, seed=seed, options={})
            out += [done / spent for spent, done in bot.timings if spent > 0]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=150, help="budget a decision")
    parser.add_argument("--seeds", type=int, default=1, help="games from each seat")
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS))
    args = parser.parse_args()
    print("| ruleset | decisions | iterations / CPU s (median) | quartiles | at 0.1 s |")
    print("|---|---|---|---|---|")
    for ruleset_id in args.ruleset or RULESETS:
        found = rates(ruleset_id, RULESETS[ruleset_id], args.iterations, args.seeds)
        low, median, high = statistics.quantiles(found, n=4)
        print(f"| {ruleset_id} | {len(found)} | {median:.0f} | {low:.0f}-{high:.0f} | "
              f"{median / 10:.0f} |")


if __name__ == "__main__":
    main()
