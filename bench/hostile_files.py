"""Hostile files against the referee: each case, its outcome, its time and memory.

    python bench/hostile_files.py

Every case runs the installed command (`python -m agon ...`) as a child,
under a 2 GiB address-space cap so that a regression cannot take the machine
with it, and reports:

* outcome: what the referee did (refused, NOT verified ...), prefixed with
  UNEXPECTED when it is not the expected refusal (a crash, an internal error,
  a leaked secret, a forged record that verifies);
* seconds: wall time of the whole command, start-up included, against `limit`;
* leftover: processes left behind (always 0: no case starts a bot);
* peak_mb: the referee's peak resident memory.

`file_cases()` returns the rows, for bench/hostile.py's full matrix.  Records
and journals are made with a throw-away key (XDG_DATA_HOME points at a
temporary folder): the user's own key is never touched.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MEMORY_CAP = 2 << 30
FILE_LIMIT = 2.0  # seconds to refuse a hostile ruleset, start-up included
RECORD_LIMIT = 10.0  # seconds to replay and judge a record or a journal
SECRET = "hunter2-do-not-print"


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def agon(args: list[str], env: dict[str, str], limit: float, stdin: Any = None) -> Run:
    """Run `python -m agon ARGS`, with its own wall time and peak memory (wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "agon", *args], env=env,
                                 stdin=stdin if stdin is not None else subprocess.DEVNULL,
                                 stdout=out, stderr=err, preexec_fn=_cap_memory)
        watchdog = threading.Timer(limit * 5, child.kill)
        watchdog.start()
        _, status, usage = os.wait4(child.pid, 0)
        watchdog.cancel()
        seconds = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(child.returncode, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"), seconds, usage.ru_maxrss / 1024)


def verdict(run: Run, code: int, phrase: str) -> str:
    """The outcome in words, UNEXPECTED unless exit `code` and `phrase` were seen."""
    said = run.stdout + run.stderr
    first = next((line for line in said.splitlines() if line.strip()), "")
    reason = first.split(": ", 2)[-1][:70]
    if run.code < 0:
        return f"UNEXPECTED: killed by signal {-run.code}"
    if SECRET in said:
        return "UNEXPECTED: a secret file's contents were shown"
    if "internal error" in said or "Traceback" in said:
        return f"UNEXPECTED: {reason}"
    if run.code != code or phrase not in said:
        return f"UNEXPECTED (exit {run.code}): {reason}"
    return {0: "accepted", 1: "refused", 2: "refused"}.get(code, f"exit {code}") + \
        f": {phrase}"


# -- the cases -------------------------------------------------------------------------

VARIANT = "format: agon-ruleset/1\nid: v\nname: V\nversion: \"1\"\n"

RULESETS = {  # case -> (file text, phrase of the expected refusal)
    "ruleset nested 30,000 deep (flow)": ("a: " + "[" * 30_000 + "]" * 30_000 + "\n",
                                          "nested too deeply"),
    "ruleset nested 30,000 deep (block)": ("- " * 30_000 + "x\n", "nested too deeply"),
    "alias bomb (9^9 values)": ("a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)), "alias bomb"),
    "3 MB ruleset": ("a: " + "x" * (3 << 20) + "\n", "limited to"),
    "1.9 MB flat list": ("a: [" + ",".join(["1"] * 950_000) + "]\n", "more than 200,000"),
    "tag !!float ~": ("a: !!float ~\n", "not a valid float"),
    "tag !!int 'abc'": ("a: !!int 'abc'\n", "not a valid int"),
    "tag !!python/object": ("a: !!python/object/apply:os.system ['true']\n", "not allowed"),
    "integer of 5,000 digits": ("a: " + "9" * 5000 + "\n", "far too long for a number"),
    "extends ../ (a secret file)": (VARIANT + "extends: ../private/secret.yaml\n",
                                    "leads outside"),
    "extends /proc/self/mem": (VARIANT + "extends: /proc/self/mem\n", "leads outside"),
    "extends of 5,000 characters": (VARIANT + "extends: " + "a" * 5000 + "\n",
                                    "5,000 characters"),
    "rule id that is a list": (VARIANT + "extends: earth-and-water\nrules:\n"
                               "  - {id: [1], title: t, text: x}\n", "not of type 'string'"),
}


def ruleset_cases(work: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    shared, private = work / "shared", work / "private"
    shared.mkdir()
    private.mkdir()
    (private / "secret.yaml").write_text(f"password: {SECRET}\n")
    rows = []
    for case, (text, phrase) in RULESETS.items():
        path = shared / "case.yaml"
        path.write_text(text)
        run = agon(["validate", str(path)], env, FILE_LIMIT)
        rows.append(_row(case, verdict(run, 1, phrase), run, FILE_LIMIT))
    run = agon(["validate", "/dev/zero"], env, FILE_LIMIT)
    rows.append(_row("ruleset /dev/zero (endless)", verdict(run, 1, "limited to"), run,
                     FILE_LIMIT))
    endless = subprocess.Popen(["yes", "a: 1"], stdout=subprocess.PIPE)
    try:
        run = agon(["validate", "/dev/stdin"], env, FILE_LIMIT, stdin=endless.stdout)
    finally:
        endless.kill()
        endless.wait()
    rows.append(_row("ruleset on an endless pipe", verdict(run, 1, "limited to"), run,
                     FILE_LIMIT))
    run = agon(["validate", "/proc/self/mem"], env, FILE_LIMIT)
    rows.append(_row("ruleset /proc/self/mem", verdict(run, 1, "cannot read the file"), run,
                     FILE_LIMIT))
    return rows


def record_cases(work: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    genuine_path = work / "game.json"
    agon(["play", "earth-and-water", "--seat", "persia=random", "--seat", "greece=random",
          "--seed", "7", "--record", str(genuine_path), "--quiet"], env, RECORD_LIMIT)
    genuine = json.loads(genuine_path.read_text())
    rows = []
    for case, forge, code, phrase in (
            ("genuine record", lambda r: r, 0, "signed by this referee's key"),
            ("record cut, winner's forfeit added", _forged_forfeit, 1, "not signed"),
            ("record with changed options", _changed_options, 1, "changed after signing"),
            ("record with changed bot identity", _changed_bot, 1, "changed after signing"),
            ("record with a middle action deleted", _deleted_action, 1, "NOT verified"),
            ("record with an edited digest", _edited_digest, 1, "differs from the digest"),
            ("record signed by another key", _other_key(work), 1, "does not hold")):
        path = work / "case.json"
        path.write_text(json.dumps(forge(json.loads(json.dumps(genuine)))))
        run = agon(["replay", "--quiet", str(path)], env, RECORD_LIMIT)
        rows.append(_row(case, verdict(run, code, phrase), run, RECORD_LIMIT))
    return rows


def _forged_forfeit(record: dict[str, Any]) -> dict[str, Any]:
    winner = min(record["result"]["ranks"], key=record["result"]["ranks"].get)
    loser = next(seat for seat in record["seats"] if seat != winner)
    record["actions"] = record["actions"][:20]
    record["forfeits"] = {winner: {"reason": "timeout", "detail": "", "after_actions": 20}}
    record["result"] = {"scores": {winner: 0.0, loser: 1.0}, "ranks": {winner: 2, loser: 1},
                        "points": {winner: 0.0, loser: 1.0},
                        "reason": f"{winner} forfeits (timeout)"}
    record["digest"]["actions"] = 20
    del record["signature"]
    return record


def _changed_options(record: dict[str, Any]) -> dict[str, Any]:
    record["options"]["cheap_fleets"] = not record["options"].get("cheap_fleets")
    return record


def _changed_bot(record: dict[str, Any]) -> dict[str, Any]:
    record["seats"]["greece"]["name"] = "grandmaster"
    return record


def _deleted_action(record: dict[str, Any]) -> dict[str, Any]:
    del record["actions"][len(record["actions"]) // 2]
    return record


def _edited_digest(record: dict[str, Any]) -> dict[str, Any]:
    record["digest"]["state_sha256"] = "0" * 64
    return record


def _other_key(work: Path) -> Callable[[dict[str, Any]], dict[str, Any]]:
    from agon.referee.signing import Keyring

    other = Keyring.load(folder=work / "another-referee")

    def resign(record: dict[str, Any]) -> dict[str, Any]:
        record["seats"]["greece"]["name"] = "grandmaster"
        return other.sign(record)

    return resign


def journal_cases(work: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    journal = work / "games.jsonl"
    args = ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random", "-n", "2",
            "--seed", "3"]
    agon([*args, "--out", str(journal)], env, RECORD_LIMIT)
    lines = journal.read_text().splitlines()
    row = json.loads(lines[2])
    row["result"]["ranks"] = {seat: 3 - rank for seat, rank in row["result"]["ranks"].items()}
    lines[2] = json.dumps(row)
    journal.write_text("\n".join(lines) + "\n")
    run = agon([*args, "--resume", str(journal)], env, RECORD_LIMIT)
    rows = [_row("journal with an edited result", verdict(run, 2, "changed after it was "
                                                                  "written"), run, RECORD_LIMIT)]
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a'); "
         "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
         f"{journal}.lock"], stdout=subprocess.PIPE, text=True)
    try:
        holder.stdout.readline()  # type: ignore[union-attr]
        run = agon([*args, "--resume", str(journal)], env, RECORD_LIMIT)
    finally:
        holder.kill()
        holder.wait()
    rows.append(_row("two runs on one journal", verdict(run, 2, "being written by another run"),
                     run, RECORD_LIMIT))
    return rows


def _row(case: str, outcome: str, run: Run, limit: float) -> dict[str, Any]:
    return {"case": case, "outcome": outcome, "seconds": round(run.seconds, 3), "limit": limit,
            "leftover": 0, "peak_mb": round(run.peak_mb, 1)}


def file_cases() -> list[dict[str, Any]]:
    """Every hostile-file case, run in a throw-away folder with a throw-away key."""
    with tempfile.TemporaryDirectory(prefix="agon-hostile-files-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "XDG_DATA_HOME": str(work / "data")}
        return ruleset_cases(work, env) + record_cases(work, env) + journal_cases(work, env)


def main() -> None:
    from tabulate import tabulate

    rows = file_cases()
    print(tabulate(rows, headers="keys"))
    unexpected = [row["case"] for row in rows if row["outcome"].startswith("UNEXPECTED")]
    if unexpected:
        print(f"\n{len(unexpected)} case(s) not refused as they should be: "
              + ", ".join(unexpected))
        sys.exit(1)


if __name__ == "__main__":
    main()
