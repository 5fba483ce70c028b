"""What the tournament's statistics cost in the main process, per game.

Usage: python bench/tournament_statistics.py [GAMES]
Builds GAMES synthetic finished games (journal rows, seeded results) for a
two-seat field of 4 bots and for 4-seat games of 5 bots, then times, in CPU
seconds of this process:
  * the SPRT as the runner calls it, one game pair at a time (the LLR after
    every pair), per game;
  * `standings` at the end: every table, Elo, pairs and pentanomial for the
    duel; mean ranks and the Plackett-Luce (openskill) ratings for 4 seats.
The SPRT is the only statistic computed while games are still being played.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from typing import Any

from agon.referee.ratings import standings
from agon.referee.sprt import SequentialTest, SprtSpec


def row(index: int, seed_index: int, seating: dict[str, str], ranks: dict[str, int]) -> dict:
    return {"tournament": {"key": str(index), "index": index, "seed_index": seed_index,
                           "seating": seating},
            "result": {"ranks": ranks, "scores": dict.fromkeys(seating, 0.0)}}


def duel_rows(games: int, rng: random.Random) -> list[dict[str, Any]]:
    bots, rows = ["a", "b", "c", "d"], []
    pairings = list(itertools.combinations(bots, 2))
    for seed_index in itertools.count():
        for x, y in pairings:
            for first, second in ((x, y), (y, x)):
                ranks = rng.choice(({"p1": 1, "p2": 2}, {"p1": 2, "p2": 1}, {"p1": 1, "p2": 1}))
                rows.append(row(len(rows), seed_index, {"p1": first, "p2": second}, ranks))
                if len(rows) == games:
                    return rows
    raise AssertionError("unreachable")


def four_seat_rows(games: int, rng: random.Random) -> list[dict[str, Any]]:
    seats, rows = ["p1", "p2", "p3", "p4"], []
    for seed_index in itertools.count():
        for group in itertools.combinations("abcde", 4):
            for order in itertools.permutations(group):
                ranks = dict(zip(seats, rng.sample([1, 2, 3, 4], 4), strict=True))
                rows.append(row(len(rows), seed_index, dict(zip(seats, order, strict=True)),
                                ranks))
                if len(rows) == games:
                    return rows
    raise AssertionError("unreachable")


def timed(label: str, games: int, work: Any) -> None:
    start = time.process_time()
    work()
    cpu = time.process_time() - start
    print(f"  {label}: {cpu:.2f} s CPU for {games} games = {1e6 * cpu / games:.1f} µs per game")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rng = random.Random(1)
    match = [r for r in duel_rows(games * 6, rng)
             if set(r["tournament"]["seating"].values()) == {"a", "b"}][:games]

    def sprt() -> None:  # bounds of -+20.7 that random results never reach
        test = SequentialTest(SprtSpec(-5, 5, alpha=1e-9, beta=1e-9), "a", "b")
        for i in range(0, len(match) - 1, 2):
            test(match[i:i + 2])
        assert test.result.decision == "continue" and test.result.pairs == len(match) // 2

    print(f"two seats ({games} games)")
    timed("SPRT, LLR after every pair", games, sprt)
    duel = duel_rows(games, rng)
    timed("standings (4 bots)", games, lambda: standings(duel, "duel", list("abcd"),
                                                         ["p1", "p2"]))
    print(f"four seats ({games} games)")
    multi = four_seat_rows(games, rng)
    timed("standings with Plackett-Luce (5 bots)", games,
          lambda: standings(multi, "multiplayer", list("abcde"), ["p1", "p2", "p3", "p4"]))


if __name__ == "__main__":
    main()
