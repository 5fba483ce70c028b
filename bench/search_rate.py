"""How many ismcts iterations a decision gets per second of CPU, game by game.

Usage: python bench/search_rate.py [--iterations N | --time T] [--seeds K] [--ruleset ID ...]

ismcts plays whole games from each seat (seeds 0 .. K-1), against random in
a game of two seats, alone against the rules in a solo ruleset, with a fixed
budget of N iterations a decision, and each decision's process time is read
around the search (its prior at the root included).  The median rate gives
the iteration budget that matches a time per decision on an idle core:
`ismcts:iterations=...` then plays as `ismcts:time=...` would on that core,
but the same way on every machine, loaded or not.  Process time is less
disturbed by other work than wall time, not immune to it: quote the machine.

With --time T the bot thinks T seconds of wall time a decision instead, as
in a tournament, and the table adds the iterations a decision got: what the
machine, as loaded as it is now, gives at that time.

Where an iteration's time goes: run it under the profiler, e.g.
`python -m cProfile -s cumulative bench/search_rate.py --ruleset earth-and-water-solo`.
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

# id: seats (one: the solo seat plays against the rules)
RULESETS = {"earth-and-water": 2, "ten-thousand": 2, "epireia": 2, "city-states": 2,
            "earth-and-water-solo": 1, "epireia-solo": 1}


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


def timings(ruleset_id: str, players: int, budget: dict[str, float], seeds: int
            ) -> list[tuple[float, int]]:
    """(CPU seconds, iterations) of every decision searched with `budget`."""
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    seats = engine.seats(players)
    out = []
    for seed in range(seeds):
        for searching in seats:
            bot = TimedIsmcts(seed, **budget)
            players_ = {seat: InProcessPlayer(bot if seat == searching else RandomBot(seed))
                        for seat in seats}
            run_match(engine, players_, seed=seed, options={})
            out += bot.timings
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=150, help="budget a decision")
    budget.add_argument("--time", type=float, help="wall seconds a decision instead")
    parser.add_argument("--seeds", type=int, default=1, help="games from each seat")
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS))
    args = parser.parse_args()
    budget = {"time": args.time} if args.time else {"iterations": args.iterations}
    print("| ruleset | decisions | iterations / CPU s (median) | quartiles | at 0.1 s CPU "
          "| iterations a decision (median, quartiles) |")
    print("|---|---|---|---|---|---|")
    for ruleset_id in args.ruleset or RULESETS:
        found = timings(ruleset_id, RULESETS[ruleset_id], budget, args.seeds)
        low, median, high = quartiles([done / spent for spent, done in found if spent > 0])
        done_low, done_median, done_high = quartiles([done for _, done in found])
        print(f"| {ruleset_id} | {len(found)} | {median:.0f} | {low:.0f}-{high:.0f} | "
              f"{median / 10:.0f} | {done_median:.0f} ({done_low:.0f}-{done_high:.0f}) |")


def quartiles(values: list[float]) -> tuple[float, float, float]:
    low, median, high = statistics.quantiles(values, n=4)
    return low, median, high


if __name__ == "__main__":
    main()
