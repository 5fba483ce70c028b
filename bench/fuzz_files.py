"""Randomly mutated files against the commands that read them: does any answer badly?

    python bench/fuzz_files.py [--cases N] [--seed S]

Makes genuine files first (a record of each multi-player ruleset, a saved
unfinished game, a tournament journal), with a throw-away key (XDG_DATA_HOME
points at a temporary folder). Then, N times per kind, it changes one or two
places of the JSON at random: deletes a key, adds one, duplicates or drops a
list item, or puts another value there (null, a huge number, a long string,
a list, a value copied from elsewhere in the file). Each mutant goes to the
commands that read it, run in this process:

* records: ``agon replay`` and ``agon map --record``;
* saved games: ``agon play --resume`` (programs replaced by random bots);
* journals: ``agon replay`` and ``agon tournament --resume``.

Mutated rulesets are the test suite's (tests/platform/test_mutants.py: every
mutant is refused or plays to the end).

A bad answer is a traceback, "internal error", or Python's own wording of an
exception in a message ("unhashable type", "'NoneType' object ..."): every
input must get a clear refusal or a correct verdict.  It prints the counts
per kind and each bad answer (the mutant is kept in the working folder, whose
path is printed), and exits 1 if there was one.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import tempfile
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tabulate import tabulate

# what a message must never show: Python's words for an exception nobody caught
PYTHON_WORDING = ("Traceback", "internal error", "unhashable type", "object is not",
                  "has no attribute", "NoneType", "index out of range", "not subscriptable",
                  "invalid literal", "object of type", "unsupported operand", "not iterable",
                  "KeyError", "TypeError", "AttributeError", "missing 1 required")
ODD_VALUES = (None, -1, 0, 2 ** 70, -2 ** 70, 1.5, 1e308, "", "x" * 5000, [], {}, True,
              False, "persia", "p1", ["a"], {"a": 1}, [[1, 2]], "\u0000", "../../etc/passwd")
RULESETS = {"earth-and-water": ("persia", "greece"), "ten-thousand": ("p1", "p2"),
            "epireia": ("p1", "p2"), "city-states": ("p1", "p2", "p3")}


def places(value: Any, at: tuple = ()) -> Iterator[tuple]:
    """Every path into a JSON value (lists: their first 50 items)."""
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:50]):
            yield from places(item, (*at, index))


def mutant(document: Any, rng: random.Random) -> Any:
    """A copy of `document` with one place changed at random."""
    document = copy.deepcopy(document)
    paths = [path for path in places(document) if path]
    path = rng.choice(paths)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key, dice = path[-1], rng.random()
    if dice < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif dice < 0.3 and isinstance(parent, list):
        if rng.random() < 0.5:
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            del parent[key]
    elif dice < 0.4 and isinstance(parent, dict):
        parent[f"extra{rng.randrange(9)}"] = rng.choice(ODD_VALUES)
    elif dice < 0.55:
        elsewhere: Any = document
        for step in rng.choice(paths):
            elsewhere = elsewhere[step]
        parent[key] = copy.deepcopy(elsewhere)
    else:
        parent[key] = rng.choice(ODD_VALUES)
    return document


def twice_perhaps(document: Any, rng: random.Random) -> Any:
    changed = mutant(document, rng)
    return mutant(changed, rng) if rng.random() < 0.5 else changed


class Harness:
    """The CLI run in this process, and what it answered badly."""

    def __init__(self, folder: Path) -> None:
        from typer.testing import CliRunner

        from agon.cli.main import app

        self.app, self.runner, self.folder = app, CliRunner(), folder
        self.bad: list[str] = []

    def run(self, args: list[str], stdin: str = "") -> int:
        """Exit code of `agon ARGS`; a bad answer is noted."""
        result = self.runner.invoke(self.app, args, input=stdin, catch_exceptions=True)
        said = result.output or ""
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            said = "".join(traceback.format_exception(result.exception))
        if any(words in said for words in PYTHON_WORDING):
            self.bad.append(f"agon {' '.join(args)}\n{said[-1200:]}")
        return result.exit_code

    def write(self, name: str, text: str) -> Path:
        path = self.folder / name
        path.write_text(text)
        return path


def genuine_files(h: Harness) -> dict[str, Path]:
    """A record per ruleset, a saved game, and a journal, played now."""
    files = {}
    for ruleset, seats in RULESETS.items():
        files[ruleset] = h.folder / f"{ruleset}.json"
        h.run(["play", ruleset, "--seed", "3", "--record", str(files[ruleset]),
               *[arg for seat in seats for arg in ("-s", f"{seat}=random")]])
    # without --record, `save` writes the unfinished game here (the current folder) and the
    # resignation after it writes nothing
    files["saved"] = Path("earth-and-water-unfinished.json").resolve()
    h.run(["play", "earth-and-water", "--seed", "3", "-s", "persia=random", "-s",
           "greece=human"], stdin="buy_card\nsave\nquit\ny\n")
    files["journal"] = h.folder / "journal.jsonl"
    h.run(["tournament", "earth-and-water", "-b", "random", "-b", "greedy", "--games", "2",
           "--out", str(files["journal"])])
    missing = [name for name, path in files.items() if not path.exists()]
    if not missing and "status" not in json.loads(files["saved"].read_text()):
        missing.append("saved (not an unfinished game)")
    if missing:
        raise SystemExit(f"could not make the genuine files: {', '.join(missing)}")
    return files


def fuzz_records(h: Harness, files: dict[str, Path], cases: int, rng: random.Random) -> int:
    for ruleset in RULESETS:
        record = json.loads(files[ruleset].read_text())
        for case in range(cases):
            path = h.write(f"{ruleset}-{case}.json", json.dumps(twice_perhaps(record, rng)))
            h.run(["replay", str(path)])
            h.run(["map", "--record", str(path), "--out", str(h.folder / "map.svg")])
    return cases * len(RULESETS)


def fuzz_saved_games(h: Harness, files: dict[str, Path], cases: int,
                     rng: random.Random) -> int:
    saved = json.loads(files["saved"].read_text())
    for case in range(cases):
        path = h.write(f"saved-{case}.json", json.dumps(twice_perhaps(saved, rng)))
        h.run(["play", "--resume", str(path), "-s", "greece=random", "-s", "persia=random"])
    return cases


def fuzz_journals(h: Harness, files: dict[str, Path], cases: int, rng: random.Random) -> int:
    lines = files["journal"].read_text().splitlines()[:-1]   # one game left to play
    for case in range(cases):
        changed = list(lines)
        at = rng.randrange(len(changed))
        changed[at] = json.dumps(mutant(json.loads(changed[at]), rng))
        path = h.write(f"journal-{case}.jsonl", "\n".join(changed) + "\n")
        h.run(["replay", str(path)])
        h.run(["tournament", "--resume", str(path)])
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cases", type=int, default=40, help="mutants per file and kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="agon-fuzz-"))
    os.environ["XDG_DATA_HOME"] = str(folder / "data")   # a throw-away signing key
    os.chdir(folder)   # a saved game's default file lands here
    h = Harness(folder)
    files = genuine_files(h)
    rows = []
    for kind, fuzz in (("records", lambda: fuzz_records(h, files, args.cases, rng)),
                       ("saved games", lambda: fuzz_saved_games(h, files, args.cases, rng)),
                       ("journals", lambda: fuzz_journals(h, files, args.cases, rng))):
        before = len(h.bad)
        rows.append([kind, fuzz(), len(h.bad) - before])
    print(tabulate(rows, headers=["mutated", "files", "bad answers"]))
    print(f"\nmutants kept in {folder}")
    for answer in h.bad:
        print(f"\n{answer}")
    sys.exit(1 if h.bad else 0)


if __name__ == "__main__":
    main()
