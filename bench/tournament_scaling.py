"""How a tournament scales: games per second by where the games run and who plays.

Usage: python bench/tournament_scaling.py [--seeds N] [--repeat R] [--ruleset ID]
                                           [--cluster-seeds N] [--skip-cluster]
       python bench/tournament_scaling.py --instructions [--ruleset ID]

Plays the same Earth & Water random-bot tournament (N seeds, both seatings:
2N games, master seed 1) in each configuration below and prints its games per
second, measured around `run_tournament` (worker and cluster start-up
included, Python's own start-up not), with the ratio to ``--jobs 1`` and the
issue's target.  The configurations are run in R rounds (5), each once a
round, one after the other: the median run is shown, and each ratio is the
median of the ratios within a round.  A shared machine's speed drifts by a
third over minutes; runs of one configuration in a row would each meet another
speed, and their ratios would say more of the drift than of the referee.

* the bare engine: the same games played by a loop that makes the random
  bots' own choices, no referee, aloud and silenced (`State.silence()`: the
  referee plays silenced a game whose events nobody reads, as here: built-in
  bots that ignore them), and silenced with what a tournament keeps of each
  game (its final position's digest, its journal line, that line's signature):
  the floor under any referee that writes signed, verifiable records;
* the bare loop with external bots: the same games, the same bot program
  (``python -m agon.bots.random``, one process a seat, kept from game to
  game) sent the same lines, and no referee around them (no clock, check,
  record or sandbox): the floor under any referee of external bots on this
  machine, where each decision wakes two processes;
* in-process bots (``random``) on ``--jobs 1`` and ``--jobs 2``;
* external Python bots (``python -m agon.bots.random``, protocol 1.1: one
  process per bot and worker) on ``--jobs 1`` and ``--jobs 2``, and on
  ``--jobs 1`` with ``--keep-logs all`` (log files for every game);
* both again with ``--affinity`` (each worker and its bots on one CPU);
* ``--cluster local:2`` with in-process bots (needs ``agon-referee[cluster]``),
  over more games (10,000): a tournament sent to a cluster is a long one, and
  the cluster's start-up and shut-down (printed on their own, about 0.15 s)
  would be a tenth of a run as short as the others.

It also prints the main process's own CPU time per game of a ``--jobs 2``
tournament (receive, sign, write, count; from two sizes of tournament, so that
what it pays once per tournament is apart): the games per second one main
process can absorb, however many workers feed it; and what external bots' wake-ups
cost on this machine: the decisions a game asks of them, what one bare pipe round
trip between two small Python processes costs here (a line out, a line back), and
what making one game's log files costs (a folder, a log and a transcript per
bot: docs/protocol.md), each as a share of an in-process game: the other runs
keep the default ``--keep-logs notable``, where the random bots, which say
nothing and never forfeit, write no log files.

Targets (issue 11, a 2-core machine): --jobs 2 >= 1.8x --jobs 1; external bots
<= 4x the time of in-process bots; --cluster local:2 >= 1.6x --jobs 1;
in-process tournament <= 1.3x the bare engine's time per game.  Figures from
a shared machine are noisy: run it when the machine is idle, or several times.

``--instructions`` gives the same ratios in machine instructions, which do not
depend on the load: it runs each configuration (``--measure KIND``) under
``valgrind --tool=callgrind`` with PYTHONHASHSEED=0 for two numbers of seeds
and prints the difference per game (Python's start-up and imports cancel out;
each is run once outside valgrind first, so that no run compiles a module):
the bare engine aloud, silenced and with its records, an in-process
tournament game on ``--jobs 1``, and an external game's referee process (no sandbox, generous
time limits: valgrind is slow; asleep while it waits for an answer) and its two
bots (one bot process fed what the referee sent the bots of a tournament, from
its transcripts).  The referee's count of an external game depends a little on
timing (valgrind slows it, not the bots: its clock changes at every ask).  It
takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from tabulate import tabulate

from agon.bots.random import RandomBot
from agon.referee import protocol
from agon.referee import tournament as tournament_module
from agon.referee.games import engine_class
from agon.referee.match import hello_for, player_seed
from agon.referee.players import Limits
from agon.referee.records import GameRecord, state_digest
from agon.referee.ruleset import load_ruleset
from agon.referee.sandbox import Sandbox
from agon.referee.signing import Keyring, canonical
from agon.referee.tournament import Entrant, run_tournament, setup
from agon.referee.worker_pool import SPIN

EXTERNAL = f"{sys.executable} -m agon.bots.random"
RANDOM = {"kind": "builtin", "name": RandomBot.name, "version": RandomBot.version}  # its record
Run = TypeVar("Run", bound=tuple)  # a run's figures, wall seconds first


def bare_engine(ruleset_id: str, seeds: int, silent: bool = False,
                recorded: bool = False) -> float:
    """Seconds to play the tournament's games with no referee: the random bots'
    very choices (each seat's generator seeded as the referee seeds its bot), so
    the same games; `silent`, building no events, as the referee plays a game
    nobody listens to; `recorded`, silenced and each game then given what a
    tournament keeps of it: its final position's digest, its journal line's
    JSON and that line's signature (the record's own cost, no referee around it)."""
    config = setup(ruleset_id, [Entrant("a", "random"), Entrant("b", "random")], games=seeds,
                   seed=1)
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    keyring = Keyring.load() if recorded else None
    began = time.perf_counter()
    for task in config.plan().tasks:
        state = engine.new_game(config.seats, task.seed, dict(config.options))
        if silent or recorded:
            state.silence()
        choosers = {seat: random.Random(player_seed(task.seed, seat)) for seat in config.seats}
        actions = []
        while decisions := state.pending():
            for decision in decisions:
                action = choosers[decision.seat].choice(decision.legal)
                state.apply(decision.seat, action)
                actions.append([decision.seat, action])
        if keyring is not None:
            record = GameRecord(ruleset, dict(config.options), task.seed,
                                {seat: RANDOM for seat in config.seats}, None,
                                actions, state.result(), state_sha256=state_digest(state))
            keyring.signed_line(canonical({"tournament": task.info(), **record.to_json()}))
    return time.perf_counter() - began


def bare_external(ruleset_id: str, seeds: int) -> float:
    """Seconds to play the tournament's games with the external bots and no referee: a
    bare loop that sends each bot program (one process a seat, as a worker keeps them)
    its hello or `newgame`, each ask line as the referee writes it, and `result`, and
    applies the index it answers, waiting for it as the referee does (a spin first,
    then a blocking read).  No clock, no check, no record, no sandbox: the floor under
    any referee of these bots on this machine, where a decision costs two processes a
    wake-up each."""
    config = setup(ruleset_id, [Entrant("a", "random"), Entrant("b", "random")], games=seeds,
                   seed=1)
    engine = engine_class(config.ruleset.engine)(config.ruleset)
    seats = list(config.seats)
    bots = {seat: subprocess.Popen(shlex.split(EXTERNAL), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, bufsize=0) for seat in seats}
    pipes = {seat: (bot.stdin.fileno(), bot.stdout.fileno())  # type: ignore[union-attr]
             for seat, bot in bots.items()}
    clock = protocol.json_text({"move": config.limits.move, "remaining": config.limits.game})
    greeting = protocol.Hello
    began = time.perf_counter()
    for task in config.plan().tasks:
        for seat in seats:
            hello = hello_for(engine, seats, seat, task.seed, dict(config.options),
                              config.limits)
            os.write(pipes[seat][0], protocol.encode(greeting(hello)))
        for seat in seats:
            _answer_of(pipes[seat][1])   # its ready
        greeting = protocol.NewGame
        state = engine.new_game(seats, task.seed, dict(config.options)).silence()
        asked = 0
        while decisions := state.pending():
            for decision in decisions:
                asked += 1
                out, back = pipes[decision.seat]
                os.write(out, protocol.ask_line(asked, decision.legal, decision.prompt, "{}",
                                                clock))
                state.apply(decision.seat, decision.legal[int(_answer_of(back).split()[2])])
        result = protocol.encode(protocol.ResultMsg(state.result().to_json()))
        for seat in seats:
            os.write(pipes[seat][0], result)
    seconds = time.perf_counter() - began
    for bot in bots.values():
        bot.communicate(b"quit\n")
    return seconds


def _answer_of(pipe: int) -> bytes:
    """A bot's next answer (one line, as a quick bot writes it), spun for as a worker
    with a CPU to spare does, then waited for."""
    waiting = select.poll()
    waiting.register(pipe, select.POLLIN)
    end = time.perf_counter() + SPIN
    while not waiting.poll(0) and time.perf_counter() < end:
        pass
    line = os.read(pipe, 65536)
    while not line.endswith(b"\n"):
        line += os.read(pipe, 65536)
    return line


def in_rounds(repeat: int, runs: dict[str, Callable[[], Run]]) -> dict[str, list[Run]]:
    """Each configuration's figures, run once per round for `repeat` rounds: a drift in
    the machine's speed (a neighbour's load comes and goes in minutes) then touches
    every configuration alike, and `paired` compares runs of the same round."""
    figures: dict[str, list[Run]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            figures[name].append(run())
    return figures


def median_run(runs: list[Run]) -> Run:
    """The run with the median wall time (its first figure)."""
    return sorted(runs, key=lambda figures: figures[0])[len(runs) // 2]


def rate_and_ratio(runs: list[Run], base: list[Run]) -> tuple[str, str]:
    """Games per second of the median run, and the paired ratio of games per second to
    `base`'s."""
    wall, _, played, _ = median_run(runs)
    return f"{played / wall:.0f}", f"{1 / paired(runs, base, runs[0][2], base[0][2]):.2f}x"


def paired(runs: list[Run], base: list[Run], games: int, base_games: int) -> float:
    """The median over rounds of the time per game of `runs` over that of `base`."""
    return statistics.median((run[0] / games) / (other[0] / base_games)
                             for run, other in zip(runs, base, strict=True))


def tournament_and_decisions(ruleset_id: str, seeds: int, bot: str, *,
                             sandbox: Sandbox | None = None, limits: Limits | None = None,
                             count: bool = True, **how: Any) -> tuple[float, float, int, int]:
    """`tournament`'s figures and, with `count`, the decisions its games asked (the
    journal's actions; read after the timing)."""
    config = setup(ruleset_id, [Entrant("a", bot), Entrant("b", bot)], games=seeds, seed=1,
                   sandbox=sandbox, limits=limits)
    with tempfile.TemporaryDirectory() as folder:
        journal = Path(folder) / "games.jsonl"
        wall, cpu = time.perf_counter(), time.process_time()
        _, rows = run_tournament(config, journal=journal, **how)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        lines = journal.read_text().splitlines()[1:] if count else []
    errors = [row.get("error") or row["forfeits"] for row in rows
              if "error" in row or row["forfeits"]]
    if errors:   # a random bot never forfeits: the figures would not be a game's
        raise SystemExit(f"a game failed: {errors[0]}")
    decisions = sum(len(json.loads(line)["actions"]) for line in lines)
    return wall, cpu, len(rows), decisions


ECHO = ("import sys\nfor line in sys.stdin.buffer:\n    sys.stdout.buffer.write(line)\n"
        "    sys.stdout.buffer.flush()\n")
ASK = (b'ask 9 6 {"prompt":"Raise armies and fleets with your remaining talents, then done '
       b'(5 talents left)","legal":["raise_army Athenai","raise_army Sparta","raise_army '
       b'Korinthos","raise_fleet Athenai","raise_fleet Sparta","done"],"view":{},'
       b'"clock":{"move":10.0,"remaining":599.999}}\n')


def main_process_cpu(ruleset_id: str, seeds: int, times: int = 5) -> tuple[float, float]:
    """The main process's CPU seconds per game of a ``--jobs 2`` tournament (receive,
    sign, write, count), and per tournament (its journal, plan, workers' start and
    end): from tournaments of `seeds` and `times` x `seeds` seeds, each the median of
    three.  The tournament's own share would make a short run's figure per game look
    several times the real one."""
    def cpu(of: int) -> float:
        return statistics.median(tournament_and_decisions(ruleset_id, of, "random",
                                                          count=False, jobs=2)[1]
                                 for _ in range(3))
    small, large = cpu(seeds), cpu(times * seeds)
    per_game = (large - small) / (2 * (times - 1) * seeds)
    return per_game, small - per_game * 2 * seeds


def pipe_round_trip(samples: int = 3000) -> float:
    """Median seconds to write an ask-sized line to a Python child that echoes it and
    read it back (blocking reads and writes, no protocol): the least any referee pays
    per decision of an external Python bot, wherever the kernel runs the two."""
    child = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    out, back = child.stdin.fileno(), child.stdout.fileno()
    times = []
    for _ in range(samples):
        began = time.perf_counter()
        os.write(out, ASK)
        got = os.read(back, 65536)
        while not got.endswith(b"\n"):
            got += os.read(back, 65536)
        times.append(time.perf_counter() - began)
    child.stdin.close()
    child.wait()
    return statistics.median(times[samples // 10:])


def log_files(games: int = 200) -> float:
    """Seconds to make one game's log files of two external bots where the journal goes
    (the temporary folder): a folder, then a log and a transcript of 10 kB per bot."""
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        for game in range(games):
            here = Path(folder) / str(game)
            here.mkdir()
            for name in ("a.log", "a.transcript", "b.log", "b.transcript"):
                (here / name).write_bytes(b"x" * 10_000)
        return (time.perf_counter() - began) / games


def cluster_startup() -> float:
    """Seconds to start a LocalCluster of two workers and close it again, no game played
    (Dask's import, paid once per process, is left out)."""
    from agon.referee.cluster import DaskCluster
    from agon.referee.worker import Settings

    config = setup("earth-and-water", [Entrant("a", "random"), Entrant("b", "random")],
                   games=1, seed=1)
    settings = Settings(config.ruleset, config.options, config.limits, {}, None)
    DaskCluster("local:1", settings).close()  # imports Dask
    began = time.perf_counter()
    cluster = DaskCluster("local:2", settings)
    cluster.client.wait_for_workers(2)  # (a tournament's games start while they start)
    cluster.close()
    return time.perf_counter() - began


MEASURES = ("bare", "bare-silenced", "bare-recorded", "in-process", "external")
INSTRUCTION_SEEDS = (5, 15)  # the two run sizes whose difference is measured


def measure(kind: str, ruleset_id: str, seeds: int) -> None:
    """Play one configuration once (what `--instructions` runs under callgrind)."""
    if kind.startswith("bare"):
        bare_engine(ruleset_id, seeds, silent=kind == "bare-silenced",
                    recorded=kind == "bare-recorded")
    elif kind == "in-process":
        tournament_and_decisions(ruleset_id, seeds, "random", count=False)
    else:   # the bots run outside valgrind (whose limits they could not raise)
        # and the referee sleeps while it waits: reading in a loop for a quick answer
        # (worker_pool.spin_for) would count the waiting as instructions
        tournament_module.spin_for = lambda workers: 0.0
        tournament_and_decisions(ruleset_id, seeds, EXTERNAL, count=False,
                                 sandbox=Sandbox(mode="none", open_files=0),
                                 limits=Limits(handshake=60.0, move=60.0, game=3600.0))


def callgrind(command: list[str], stdin: bytes | None = None) -> int:
    """Instructions `command` runs (its own process: not its forks, not its children)."""
    with tempfile.TemporaryDirectory() as folder:
        child = subprocess.Popen(["valgrind", "--tool=callgrind",
                                  f"--callgrind-out-file={folder}/callgrind.%p", *command],
                                 env={**os.environ, "PYTHONHASHSEED": "0"},
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        child.communicate(stdin)
        if child.returncode:
            raise SystemExit(f"{' '.join(command)} failed under valgrind")
        text = (Path(folder) / f"callgrind.{child.pid}").read_text(errors="replace")
    return int(next(line for line in text.splitlines() if line.startswith("totals:")).split()[1])


def sent_to_bots(ruleset_id: str, seeds: int) -> list[bytes]:
    """What the referee sent each external bot in each game of a tournament (from the
    transcripts of --keep-logs all): the input that replays one bot's side of a game."""
    config = setup(ruleset_id, [Entrant("a", EXTERNAL), Entrant("b", EXTERNAL)], games=seeds,
                   seed=1, sandbox=Sandbox(mode="none", open_files=0))
    with tempfile.TemporaryDirectory() as folder:
        journal = Path(folder) / "games.jsonl"
        run_tournament(config, journal=journal, keep_logs="all")
        return [b"".join(line[2:] + b"\n" for line in path.read_bytes().splitlines()
                         if line.startswith(b"> ") and line != b"> quit")
                for path in sorted(Path(f"{journal}.logs").rglob("*.transcript"))]


def instructions(ruleset_id: str) -> None:
    """Print each configuration's instructions per game and the issue's two ratios."""
    small, large = INSTRUCTION_SEEDS
    games = 2 * (large - small)
    per_game: dict[str, float] = {}
    for kind in MEASURES:
        command = [sys.executable, __file__, "--measure", kind, "--ruleset", ruleset_id]
        # once outside valgrind first: the modules' bytecode is cached before it counts
        subprocess.run([*command, "--seeds", "1"], check=True, stdout=subprocess.DEVNULL)
        low, high = (callgrind([*command, "--seeds", str(seeds)]) for seeds in (small, large))
        per_game[kind] = (high - low) / games
    inputs = sent_to_bots(ruleset_id, large)  # two a game: one bot process plays them all
    bot = [sys.executable, "-m", "agon.bots.random"]
    subprocess.run(bot, input=inputs[0], check=True, stdout=subprocess.DEVNULL)
    low, high = (callgrind(bot, b"".join(inputs[:4 * seeds])) for seeds in (small, large))
    bots = (high - low) / games
    bare, silent, recorded = per_game["bare"], per_game["bare-silenced"], per_game["bare-recorded"]
    inside, referee = per_game["in-process"], per_game["external"]
    million = 1e6
    rows = [["bare engine", f"{bare / million:.2f}", ""],
            ["bare engine, silenced", f"{silent / million:.2f}", ""],
            ["bare engine + its record", f"{recorded / million:.2f}",
             f"{recorded / bare:.2f}x the bare engine: the floor under any referee"],
            ["in-process tournament game", f"{inside / million:.2f}",
             f"{inside / bare:.2f}x the bare engine (target <= 1.3x), "
             f"{inside / silent:.2f}x silenced"],
            ["external game: referee process", f"{referee / million:.2f}",
             f"{referee / inside:.2f}x an in-process game"],
            ["external game: both bots", f"{bots / million:.2f}",
             f"{bots / 2 / million:.2f} each (one bot fed the game's lines)"],
            ["external game: all", f"{(referee + bots) / million:.2f}",
             f"{(referee + bots) / inside:.2f}x an in-process game (target <= 4x in time)"]]
    print(f"{ruleset_id}, random bots: instructions per game (callgrind, PYTHONHASHSEED=0, "
          f"{2 * large} games less {2 * small})\n")
    print(tabulate(rows, headers=["configuration", "M instr/game", ""]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=300, help="seeds (games: twice as many)")
    parser.add_argument("--ruleset", default="earth-and-water")
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of each configuration: the median run is shown")
    parser.add_argument("--cluster-seeds", type=int, default=5000,
                        help="seeds of the --cluster run: more, so that the cluster's "
                             "start-up (printed) is spread over as many games as a "
                             "tournament sent to a cluster plays")
    parser.add_argument("--skip-cluster", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="instructions per game under callgrind instead of timings")
    parser.add_argument("--measure", choices=MEASURES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat takes at least 1")
    if args.measure:
        measure(args.measure, args.ruleset, args.seeds)
        return
    if args.instructions:
        instructions(args.ruleset)
        return
    games, repeat = 2 * args.seeds, args.repeat
    ruleset, seeds = args.ruleset, args.seeds
    plays: dict[str, tuple[str, dict[str, Any]]] = {   # the tournaments: bot and how
        "in-process, --jobs 1": ("random", {}),
        "in-process, --jobs 2": ("random", {"jobs": 2}),
        "in-process, --jobs 2 --affinity": ("random", {"jobs": 2, "affinity": True}),
        "external, --jobs 1": (EXTERNAL, {}),
        "external, --jobs 1 --keep-logs all": (EXTERNAL, {"keep_logs": "all"}),
        "external, --jobs 1 --affinity": (EXTERNAL, {"affinity": True}),
        "external, --jobs 2": (EXTERNAL, {"jobs": 2}),
        "external, --jobs 2 --affinity": (EXTERNAL, {"jobs": 2, "affinity": True}),
    }
    runs: dict[str, Callable[[], tuple]] = {
        "bare": lambda: (bare_engine(ruleset, seeds), 0.0, games, 0),
        "silenced": lambda: (bare_engine(ruleset, seeds, silent=True), 0.0, games, 0),
        "recorded": lambda: (bare_engine(ruleset, seeds, recorded=True), 0.0, games, 0),
        "bare external": lambda: (bare_external(ruleset, seeds), 0.0, games, 0),
        **{name: partial(tournament_and_decisions, ruleset, seeds, bot, **how)
           for name, (bot, how) in plays.items()},
    }
    startup = None
    if not args.skip_cluster:
        startup = cluster_startup()
        runs["in-process, --cluster local:2"] = partial(
            tournament_and_decisions, ruleset, args.cluster_seeds, "random", count=False,
            cluster="local:2")
    figures = in_rounds(repeat, runs)
    base = figures["in-process, --jobs 1"]

    def ratio(name: str, to: str = "in-process, --jobs 1") -> float:
        """`name`'s time per game over `to`'s, paired by round."""
        return paired(figures[name], figures[to], figures[name][0][2], figures[to][0][2])

    bare_ratio, silent_ratio = 1 / ratio("bare"), 1 / ratio("silenced")
    targets = {"in-process, --jobs 2": ">= 1.8x", "in-process, --jobs 2 --affinity": ">= 1.8x",
               "in-process, --cluster local:2": ">= 1.6x"}
    table = [["bare engine (no referee)", *rate_and_ratio(figures["bare"], base),
              f"tournament time {bare_ratio:.2f}x the engine's (target <= 1.3x)"],
             ["bare engine, silenced", *rate_and_ratio(figures["silenced"], base),
              f"tournament time {silent_ratio:.2f}x (its games build no events either)"],
             ["bare engine + its record", *rate_and_ratio(figures["recorded"], base),
              f"its time {ratio('recorded', 'bare'):.2f}x the engine's: the floor under "
              "any referee"],
             ["bare loop + external bots", *rate_and_ratio(figures["bare external"], base),
              f"time {ratio('bare external'):.2f}x in-process: the floor under any referee "
              "of these bots here"]]
    for name in [*plays, *(["in-process, --cluster local:2"] if startup is not None else [])]:
        note = f"target {targets[name]}" if name in targets else ""
        if name.startswith("external, --jobs 1"):
            note = f"time {ratio(name):.2f}x in-process" + \
                (f" (target <= 4x), {ratio(name, 'bare external'):.2f}x the bare loop's"
                 if name == "external, --jobs 1" else "")
        table.append([name, *rate_and_ratio(figures[name], base), note])
    cluster = "" if args.skip_cluster else f"; the cluster {2 * args.cluster_seeds}"
    runs_each = "one round" if repeat == 1 else \
        f"{repeat} rounds, each configuration once a round: the median run, and the " \
        "median of the ratios within a round"
    print(f"{args.ruleset}, random bots, {games} games (seed 1{cluster}), {runs_each}\n")
    print(tabulate(table, headers=["configuration", "games/s", "vs --jobs 1", ""]))
    if startup is not None:
        print(f"\n--cluster local:2 start-up and shut-down, no game: {startup:.2f} s "
              "(Dask imported already)")
    per_game, fixed = main_process_cpu(ruleset, seeds)
    print(f"\nmain process, --jobs 2: {per_game * 1e6:.0f} µs CPU per game more (and "
          f"{fixed * 1e3:.0f} ms per tournament): it can absorb about {1 / per_game:.0f} "
          "games/s")
    in_process = median_run(base)[0] / games
    round_trip, files = pipe_round_trip(), log_files()
    asks = median_run(figures["external, --jobs 1"])[3] / games
    print(f"\nexternal bots' wake-ups here: {asks:.0f} decisions a game x "
          f"{round_trip * 1e6:.1f} µs (a bare pipe round trip between two small Python "
          f"processes) = "
          f"{asks * round_trip * 1e3:.2f} ms a game, {asks * round_trip / in_process:.2f}x an "
          f"in-process game ({in_process * 1e3:.2f} ms); one game's log files (--keep-logs "
          f"all, or a game in which a bot wrote to stderr, sent info or forfeited) "
          f"{files * 1e3:.2f} ms ({files / in_process:.2f}x)")


if __name__ == "__main__":
    main()
