"""The built-in bots' strength table, played with `agon tournament`, written into docs/bots.md.

    python bench/strength.py                      # the small run (about 20 minutes on 2 cores)
    python bench/strength.py --time 0.1 --games 10 --solo-games 10 --jobs 2 --keep DIR --write

For each game and seat count, ismcts, greedy, mc and random meet in the
duplicate format (every seed in both seatings) with the same thinking time per
decision for the bots that search (`time=`; greedy and random take what they
take, a few ms); the table gives each pairing's score % with its 95%
interval.  For the solo rulesets each bot plays the same seeds: win rate with
its Wilson 95% interval, and the game's mean score.  Every figure comes from
the tournament's own JSON (schemas/results.schema.json); the command lines
that made them are written above the tables.

A run may play more or fewer seeds than --games (or --solo-games) says, by
its `scale`: more where a target needs a larger sample and the games are
cheap (ismcts against random costs only ismcts's thinking), fewer where a
game is long (City States asks each seat a thousand decisions or more).
With --keep, each run's tournament JSON is kept in a folder, and a later
call with the same folder reads a run already kept for the same command
instead of playing it again: an interrupted bench resumes, and a run can be
played on its own (--only) before the tables are written (remove the folder
to play everything again).

With --write the tables replace the part of docs/bots.md between the
``strength`` markers; without it they are printed.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
BEGIN, END = "<!-- strength:begin -->", "<!-- strength:end -->"
BOTS = ("ismcts", "greedy", "mc", "random")


@dataclass
class Run:
    """One tournament: a ruleset, its seats, options, its bots, whether only ismcts's
    games count, and its seeds as a share of --games (--solo-games for a solo one)."""

    ruleset: str
    title: str
    players: int | None = None
    options: tuple[str, ...] = ()
    gauntlet: bool = False
    solo: bool = False
    bots: tuple[str, ...] = BOTS
    scale: float = 1.0

    def seeds(self, games: int, solo_games: int) -> int:
        return max(1, round(self.scale * (solo_games if self.solo else games)))


RUNS = [
    Run("earth-and-water", "Earth & Water, 2 players"),
    # the target of 95% against random needs ~75 games won of 75 to show by its interval
    Run("earth-and-water", "Earth & Water, 2 players: ismcts against random",
        bots=("ismcts", "random"), scale=4),
    Run("ten-thousand", "Ten Thousand, 2 players", players=2, gauntlet=True),
    Run("epireia", "Epireia, 2 players", players=2, gauntlet=True),
    # a game asks each seat 800-1,500 decisions: mc (as dear as ismcts) is left out
    Run("city-states", "City States, 2 players", players=2, gauntlet=True,
        bots=("ismcts", "greedy", "random"), scale=0.2),
    Run("earth-and-water-solo", "Earth & Water solo (against PERS.IA)", solo=True, scale=3),
    Run("ten-thousand", "Ten Thousand solo", players=1, solo=True),
    *(Run("epireia-solo", f"Epireia solo, scenario {s}", options=(f"scenario={s}",), solo=True)
      for s in ("S1", "S2", "S3", "S4")),
]


def command(run: Run, seconds: float, games: int, jobs: int) -> list[str]:
    argv = ["agon", "tournament", run.ruleset, "-n", str(games), "-j", str(jobs),
            "--format", "json", "--move-time", str(max(10.0, seconds * 20))]
    if run.players:
        argv += ["--players", str(run.players)]
    for option in run.options:
        argv += ["-o", option]
    for bot in run.bots:
        spec = f"{bot}:time={seconds}" if bot in ("ismcts", "mc") else bot
        argv += ["-b", f"{bot}={spec}"]
    if run.gauntlet:
        argv += ["--gauntlet", "ismcts"]
    return argv


def play(argv: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-m", "agon", *argv[1:]], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def interval(score: float, variance: float, games: int) -> float:
    """Half the width of the normal 95% interval of a mean score."""
    return 1.96 * math.sqrt(variance / games) if games else float("nan")


def wilson(score: float, games: int) -> str:
    """The Wilson 95% interval of a score (a draw as half a win), in %: not empty at 4-0."""
    z = 1.96
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) \
        / (1 + z * z / games)
    return f"{100 * max(0.0, centre - half):.0f}-{100 * min(1.0, centre + half):.0f}"


def paired_interval(paired: dict, pairs: int) -> str:
    """The interval from the variance of game pairs; none from a single pair."""
    if pairs < 2:
        return "-"
    return f"{100 * interval(paired['score'], paired['variance'], pairs):.0f}"


def duel_table(results: dict) -> list[str]:
    """Rows: each pairing's score % for the first bot, ±95%, games, and by seat."""
    lines = ["| pairing | games | score % of the first | Wilson 95% | paired ±95% |",
             "|---|---|---|---|---|"]
    order = {bot: number for number, bot in enumerate(BOTS)}
    for pair in results["pairs"]:
        first, second = pair["first"], pair["second"]
        plain, paired = pair["plain"], pair["paired"]
        score, games = plain["score"], pair["games"]
        if order[first] > order[second]:   # always the stronger-looking bot first
            first, second, score = second, first, 1.0 - score
        lines.append(f"| {first} vs {second} | {games} | {100 * score:.0f} | "
                     f"{wilson(score, games)} | "
                     f"{paired_interval(paired, pair['pairs'])} |")
    lines.append("")
    seats = {bot: by_seat for bot, by_seat in results["seats"].items() if bot in order}
    if seats:
        names = list(next(iter(seats.values())))
        lines += ["| bot | " + " | ".join(f"score % as {s}" for s in names) + " |",
                  "|---|" + "---|" * len(names)]
        for bot in sorted(seats, key=order.get):
            lines.append(f"| {bot} | " + " | ".join(
                f"{100 * seats[bot][s]['score']:.0f} ({seats[bot][s]['games']})" for s in names)
                + " |")
    return lines


def _pm(ci: float | None) -> str:
    """' ± ci', or nothing where there is no interval (every game scored the same)."""
    return "" if ci is None else f" ± {ci:.1f}"


def solo_table(results: dict) -> list[str]:
    lines = ["| bot | games | win % | Wilson 95% | mean score ±95% |", "|---|---|---|---|---|"]
    rows = {row["bot"]: row for row in results["bots"]}
    for bot in (bot for bot in BOTS if bot in rows):
        row = rows[bot]
        low, high = row["win_rate_ci95"]
        lines.append(f"| {bot} | {row['games']} | {100 * row['win_rate']:.0f} | "
                     f"{100 * low:.0f}-{100 * high:.0f} | "
                     f"{row['mean_score']:.1f}{_pm(row['mean_score_ci95'])} |")
    return lines


def report(seconds: float, games: int, solo_games: int, jobs: int,
           keep: Path | None = None) -> list[str]:
    lines = [f"Measured with `python bench/strength.py --time {seconds} --games {games} "
             f"--solo-games {solo_games} --jobs {jobs} --write` on {time.strftime('%Y-%m-%d')}, "
             "a shared 2-core machine. ismcts and mc think "
             f"{seconds} s a decision; greedy and random take what their choice costs.", ""]
    for run in RUNS:
        argv = command(run, seconds, run.seeds(games, solo_games), jobs)
        results, spent = played(run, argv, keep)
        print(f"{run.title}: {results['played']} games in {spent:.0f} s", file=sys.stderr)
        lines += [f"### {run.title}", "", f"`{' '.join(argv).replace(' --format json', '')}`"
                  f" ({results['played']} games, {spent:.0f} s)", ""]
        lines += solo_table(results) if run.solo else duel_table(results)
        lines.append("")
    return lines


def played(run: Run, argv: list[str], keep: Path | None) -> tuple[dict, float]:
    """The run's results and the seconds they took: kept ones for the same command, or
    a new tournament's (kept when there is a folder)."""
    kept = keep / (re.sub(r"[^a-z0-9]+", "-", run.title.lower()).strip("-") + ".json") \
        if keep else None
    if kept and kept.exists():
        earlier = json.loads(kept.read_text())
        if earlier["command"] == argv:
            return earlier["results"], earlier["seconds"]
    began = time.monotonic()
    results = play(argv)
    spent = time.monotonic() - began
    if kept:
        kept.write_text(json.dumps({"command": argv, "seconds": spent, "results": results}))
    return results, spent


def write(lines: list[str]) -> None:
    text = DOC.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    DOC.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=0.1, help="seconds a decision for the "
                                                                "searching bots")
    parser.add_argument("--games", type=int, default=2, help="seeds per pairing (two seatings)")
    parser.add_argument("--solo-games", type=int, default=6, help="seeds per solo ruleset")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="play only the runs whose title contains this")
    parser.add_argument("--write", action="store_true", help="write the tables into docs/bots.md")
    parser.add_argument("--keep", type=Path, help="a folder to keep each tournament's JSON in, "
                        "and to read those of the same commands from instead of playing again")
    args = parser.parse_args()
    if args.only:
        RUNS[:] = [run for run in RUNS if args.only.lower() in run.title.lower()]
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    lines = report(args.time, args.games, args.solo_games, args.jobs, args.keep)
    if args.write:
        write(lines)
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
