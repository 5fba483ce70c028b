"""The hostile matrix of issue 10: every attack by a bot, under each sandbox, and what came of it.

    python bench/hostile.py [--sandbox bwrap,none] [--case NAME ...]

Each case is one game of Earth & Water in a fresh referee process (so that
its peak memory is its own) between the random bot and a hostile program
(tests/protocol/faulty_bot.py, or tests/protocol/snoop_bot.py for snooping).
Per case and sandbox it prints: the outcome (the forfeit's reason and the
start of its detail, or how the game ended; for the snoop, what it found),
the seconds the game took against the limit meant to stop the attack, the
hostile program's processes still running after the game (found by a marker
in their command line), and the referee's peak resident memory.  Then the
file cases of bench/hostile_files.py, when that module is there.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabulate import tabulate

from agon.referee.games import engine_class
from agon.referee.match import run_match
from agon.referee.players import Limits, SubprocessPlayer, make_player
from agon.referee.ruleset import load_ruleset
from agon.referee.sandbox import Sandbox, bwrap_problem, shield_referee

HERE = Path(__file__).resolve().parent
HELPERS = HERE.parent / "tests" / "protocol"
LIMITS = {"handshake": 5.0, "move": 2.0, "game": 60.0, "grace": 0.25}


@dataclass
class Case:
    name: str
    args: list[str]  # after the program; MARKER is replaced by the case's marker
    limit: str  # what should stop the attack, for the table
    limits: dict[str, Any] = field(default_factory=dict)
    sandbox: dict[str, Any] = field(default_factory=dict)
    program: str = "faulty_bot.py"


CASES = [
    Case("crash before the handshake", ["crash-at-start"], "handshake 5 s"),
    Case("crash after the handshake", ["crash-mid-game"], "-"),
    Case("exit 0 after ready", ["leave"], "-"),
    Case("hang", ["hang"], "move 2 s"),
    Case("late answer (2 s)", ["late"], "move 1 s", limits={"move": 1.0}),
    Case("illegal answer", ["illegal-index"], "-"),
    Case("garbage", ["garbage"], "-"),
    Case("answering twice", ["answer-twice"], "-"),
    Case("deep JSON in ready", ["deep-ready"], "-"),
    Case("5000-digit number in ready", ["huge-number-ready"], "-"),
    Case("100 MB line", ["line-100mb"], "line 1 MiB"),
    Case("stdout flood (info, 0.5 s per ask)", ["info-flood", "0.5"], "game 20 s, log 4 MiB",
         limits={"move": 5.0, "game": 20.0}),
    Case("stderr flood (20 MB per ask)", ["stderr-flood"], "log 4 MiB", limits={"move": 10.0}),
    Case("SIGTERM and quit ignored", ["ignore-term"], "move 2 s"),
    Case("double fork, setsid", ["double-fork", "MARKER"], "end of game"),
    Case("memory hog", ["memory-hog"], "memory 2048 MB", limits={"move": 30.0}),
    Case("CPU spinner on its turn", ["cpu-spin"], "move 2 s"),
    Case("CPU spinner in the background", ["background-spin"], "cpu 3 s",
         sandbox={"cpu_seconds": 3}),
    Case("snooping", [], "-", limits={"move": 60.0, "handshake": 30.0},
         program="snoop_bot.py"),
    Case("invalid UTF-8", ["not-utf8"], "-"),
    Case("closed stdout", ["closed-stdout"], "-"),
    Case("acting for another seat", ["act-for-other"], "-"),
]


# -- one case, in its own referee process ---------------------------------------------

def run_case(case: Case, mode: str, marker: str) -> dict[str, Any]:
    shield_referee()
    seed = random.SystemRandom().randrange(10**8, 10**9)
    needles = [str(seed), os.environ.get("AGON_CANARY", ""), os.environ.get("HOSTILE_KEY", "")]
    sandbox = Sandbox(mode=mode, env=(("SNOOP_NEEDLES", ",".join(needles)),), **case.sandbox)
    limits = Limits(**{**LIMITS, **case.limits})
    args = [marker if a == "MARKER" else a for a in case.args]
    if case.program == "snoop_bot.py":
        args = [os.environ["XDG_DATA_HOME"]]
    argv = [sys.executable, str(HELPERS / case.program), *args, marker]
    ruleset = load_ruleset("earth-and-water")
    engine = engine_class(ruleset.engine)(ruleset)
    with tempfile.TemporaryDirectory(prefix="agon-hostile-logs-") as logs:
        hostile = SubprocessPlayer(argv, sandbox=sandbox, log_dir=Path(logs), transcript=True)
        players = {"persia": make_player("random", seed=seed), "greece": hostile}
        began = time.monotonic()
        record = run_match(engine, players, seed=seed, options=ruleset.resolve_options({}),
                           limits=limits)
        took = time.monotonic() - began
        leftover = _leftover(marker)
        outcome = _outcome(record, hostile) + _cut_logs(Path(logs))
    return {"outcome": outcome, "seconds": round(took, 2),
            "leftover": leftover,
            "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}


def _outcome(record: Any, hostile: SubprocessPlayer) -> str:
    snooped = [i for i in hostile.infos if i.startswith("snoop: ")]
    if snooped:
        found = [i for i in snooped if "FOUND" in i]
        return f"found {len(found)}: {found[0][13:70]}" if found else "found nothing"
    forfeit = record.forfeits.get("greece")
    if forfeit:
        detail = forfeit["detail"]
        return f"{forfeit['reason']}: {detail if len(detail) < 120 else detail[:117] + '...'}"
    return f"played to the end ({record.result.reason[:40]})"


def _cut_logs(logs: Path) -> str:
    """The sizes of the logs and transcripts that were cut, e.g. ' [log 4.0 MiB, cut]'."""
    cut = [f"{path.suffix[1:]} {path.stat().st_size / (1 << 20):.1f} MiB, cut"
           for path in sorted(logs.iterdir()) if b"[agon: " in path.read_bytes()[-200:]]
    return f" [{'; '.join(cut)}]" if cut else ""


def _leftover(marker: str, wait: float = 2.0) -> int:
    deadline = time.monotonic() + wait
    while True:
        found = [p for p in Path("/proc").iterdir() if p.name.isdigit() and p.name != str(os.getpid())
                 and marker.encode() in _read(p / "cmdline")]
        if not found or time.monotonic() > deadline:
            return len(found)
        time.sleep(0.1)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


# -- the matrix -------------------------------------------------------------------------

def run_matrix(cases: list[Case], modes: list[str]) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="agon-hostile-") as scratch:
        data = Path(scratch) / "data"
        (data / "agon").mkdir(parents=True)
        key = uuid.uuid4().hex
        (data / "agon" / "referee.key").write_text(key)
        env = {**os.environ, "AGON_CANARY": uuid.uuid4().hex, "HOSTILE_KEY": key,
               "XDG_DATA_HOME": str(data)}
        for case in cases:
            for mode in modes:
                marker = f"agon-hostile-{uuid.uuid4().hex[:12]}"
                run = subprocess.run([sys.executable, __file__, "--run", case.name, "--sandbox",
                                      mode, "--marker", marker], capture_output=True, text=True,
                                     env=env, timeout=600)
                try:
                    row = json.loads(run.stdout.strip().splitlines()[-1])
                except (ValueError, IndexError):
                    row = {"outcome": f"REFEREE FAILED ({run.returncode}): "
                                      f"{run.stderr.strip()[-120:]}"}
                rows.append({"sandbox": mode, "case": case.name, "outcome": row.get("outcome"),
                             "seconds": row.get("seconds"), "limit": case.limit,
                             "leftover": row.get("leftover"), "peak_mb": row.get("peak_mb")})
                print(f"  {mode:5s} {case.name}: {row.get('outcome')}", file=sys.stderr)
    return rows


def file_rows() -> list[dict[str, Any]]:
    """The hostile-file cases of bench/hostile_files.py, where that module exists."""
    try:
        from hostile_files import file_cases  # type: ignore[import-not-found]
    except ImportError:
        return []
    return file_cases()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sandbox", default="bwrap,none", help="modes, comma-separated")
    parser.add_argument("--case", action="append", help="run only these cases (by name)")
    parser.add_argument("--run", help=argparse.SUPPRESS)  # one case, in this process
    parser.add_argument("--marker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    by_name = {case.name: case for case in CASES}
    if args.run:
        print(json.dumps(run_case(by_name[args.run], args.sandbox, args.marker)))
        return
    modes = [m for m in args.sandbox.split(",") if m]
    if "bwrap" in modes and bwrap_problem():
        print(f"skipping bwrap: {bwrap_problem()}", file=sys.stderr)
        modes.remove("bwrap")
    cases = [by_name[name] for name in args.case] if args.case else CASES
    rows = run_matrix(cases, modes)
    print(tabulate(rows, headers="keys"))
    files = file_rows()
    if files:
        print()
        print(tabulate(files, headers="keys"))


if __name__ == "__main__":
    main()
