"""`agon play --resume FILE`: read a saved game and decide whether it can go on.

A saved game is the record of an unfinished game (`referee.records`): its
moves must replay, it must carry this referee's signature (it names the
players, which only the signature vouches for), and it must hold no forfeit.
The seats are taken again as its `resume` section names them; a program's
seat must be named again on the command line, because a record, which may
come from anyone, never starts a program by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agon.bots import builtin_name
from agon.referee.records import is_unfinished, verify
from agon.referee.ruleset_model import Ruleset
from agon.referee.signing import Keyring, KeyringError

from .common import USAGE, fail, parse_pairs
from .replay import read_record, record_ruleset


@dataclass(frozen=True)
class Saved:
    """An unfinished game that may go on: how it was set up, and its moves so far."""

    ruleset: Ruleset
    seed: int
    options: dict[str, Any]
    actions: list[list[str]]
    specs: dict[str, str]  # seat -> a built-in bot, `human`, or a command line


def read_saved(path: Path, ruleset: str | None, rulesets_path: list[Path] | None,
               seat_args: list[str], seed: int | None, option_args: list[str]) -> Saved:
    """The saved game in `path`, or a clear error (exit 1, or 2 for usage)."""
    if seed is not None or option_args:
        fail("--seed and --option come from the saved game: leave them out with --resume",
             USAGE)
    data = read_record(path)
    if not is_unfinished(data):
        fail(f"{path} is the record of a finished game (`agon replay {path}` shows it): "
             "there is nothing to resume")
    rs = record_ruleset(path, data, ruleset, rulesets_path)
    try:
        keyring = Keyring.existing()
    except KeyringError as exc:
        fail(f"{path} cannot be resumed: {exc}")
    problems = [f.text for f in verify(data, rs, keyring).findings if not f.ok]
    if problems:
        fail(f"{path} cannot be resumed: " + "; ".join(problems))
    if data.get("forfeits"):
        fail(f"{path} cannot be resumed: a seat forfeited in it, and a forfeit is not "
             "carried into a new session")
    specs = _recorded_specs(path, data)
    return Saved(rs, data["seed"], dict(data.get("options") or {}), data["actions"],
                 {**specs, **_programs_again(specs, seat_args)})


def _recorded_specs(path: Path, data: dict[str, Any]) -> dict[str, str]:
    specs = (data.get("resume") or {}).get("seats")
    if not isinstance(specs, dict) or set(specs) != set(data["seats"]) or not all(
            isinstance(spec, str) for spec in specs.values()):
        fail(f"{path} cannot be resumed: it does not say who played each seat")
    return specs


def _programs_again(specs: dict[str, str], seat_args: list[str]) -> dict[str, str]:
    """The command lines given again for the seats programs played (and only those)."""
    programs = {seat for seat, spec in specs.items() if not builtin_name(spec) and spec != "human"}
    given = parse_pairs(seat_args, "--seat")
    for seat in given:
        if seat not in specs:
            fail(f"--seat {seat}: the saved game has no seat {seat!r}; its seats are "
                 f"{', '.join(specs)}", USAGE)
        if seat not in programs:
            fail(f"--seat {seat}: with --resume only a program's seat is named again; "
                 f"{seat} is played by {specs[seat]!r} as before", USAGE)
    for seat in sorted(programs - set(given)):
        fail(f"{seat} was played by the program {specs[seat]!r}: name it again with "
             f"--seat {seat}=COMMAND (a saved game never starts a program by itself)", USAGE)
    return given
