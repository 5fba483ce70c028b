"""What several commands share: errors, key=value options, table output."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
import signal
import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from tabulate import tabulate

from agon.bots import BUILTIN
from agon.referee.players import builtin_hint, check_seconds
from agon.referee.ruleset import CONTROL_CHARACTER, Ruleset, RulesetError, load_ruleset
from agon.referee.sandbox import LIMITS, MODES, Sandbox, SandboxError
from agon.referee.signing import Keyring, KeyringError


class StdoutFailed(Exception):
    """Standard output could not be written: a full disk, a closed pipe (`| head`).

    Not an OSError, so that no command's own `except OSError` (about the files
    it writes) mistakes it for theirs."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.errno = error.errno


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


# Exit statuses, the same for every command (README.md, "Exit status").
FAILED = 1  # a file or a game that agon read or ran fails: invalid, not verified, not compliant
USAGE = 2  # the command line is wrong: an unknown name, a malformed value, a missing file


LONG_WORD = 200  # characters of one word of an error message past which it is cut short
_LONG_WORD = re.compile(rf"\S{{{LONG_WORD + 1},}}")


def clip_long_words(message: str) -> str:
    """`message` with every word longer than LONG_WORD cut short: a message often
    quotes what was typed, and 5,000 characters of it help nobody."""
    return _LONG_WORD.sub(lambda found: f"{found[0][:LONG_WORD // 2]}... "
                                        f"({len(found[0]):,} characters)", message)


def shown(message: str) -> str:
    """`message` with its control characters (but newline and tab) written as escapes:
    a record or journal may come from anyone, and what it holds (a forfeit's reason, a
    game's key) must not reach the terminal as escape sequences (a title, a colour,
    the clipboard)."""
    return CONTROL_CHARACTER.sub(lambda found: repr(found[0])[1:-1], message)


def fail(message: str, code: int = FAILED) -> NoReturn:
    """Print an error for a person on stderr and exit with `code`."""
    typer.echo(f"agon: error: {shown(clip_long_words(message))}", err=True)
    raise typer.Exit(code)


def not_there(path: Path, what: str = "file") -> str:
    """What to say of `path`, which does not exist: no such file, unless its name is a
    symbolic link that leads nowhere (a loop, or a target that is gone), where "no such
    file" would send the user looking for a name that is there."""
    if not path.is_symlink():
        return f"{path}: no such {what}"
    try:
        path.stat()
    except OSError as err:
        if err.errno == errno.ELOOP:
            return f"{path}: a loop of symbolic links, not a {what}"
    return f"{path}: a symbolic link to {os.readlink(path)}, which does not exist"


def ruleset_failure(exc: RulesetError) -> NoReturn:
    """Exit for a ruleset that cannot be used.

    A ruleset error with issues comes from a file that was read and is wrong
    (1); one without names what the user typed: an unknown ruleset, an
    unknown option or a value it does not take (2).
    """
    fail(str(exc), FAILED if exc.issues else USAGE)


def parse_pairs(values: list[str] | None, what: str) -> dict[str, str]:
    """['a=1', 'b=x'] -> {'a': '1', 'b': 'x'}; a malformed item is a usage error."""
    pairs: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"{what} must look like NAME=VALUE, not {item!r}", USAGE)
        if key.strip() in pairs:
            fail(f"{what} {key.strip()!r} is given twice", USAGE)
        pairs[key.strip()] = value.strip()
    return pairs


# The same option on every command that reads rulesets.
RulesetsPath = Annotated[list[Path] | None, typer.Option(
    "--rulesets-path", envvar="AGON_RULESETS_PATH", file_okay=False, metavar="DIR",
    help="a folder of rulesets: ids are looked up there, and `extends:` may lead there "
         "(repeatable; AGON_RULESETS_PATH takes folders separated by ':')")]


def open_ruleset(ref: str, rulesets_path: list[Path] | None = None) -> Ruleset:
    try:
        return load_ruleset(ref, tuple(rulesets_path or ()))
    except RulesetError as exc:
        ruleset_failure(exc)


def seconds(ctx: typer.Context, param: typer.CallbackParam, value: float | None
            ) -> float | None:
    """A time-limit option's callback (--move-time and the like): the value checked
    as the referee's `Limits` checks it, a usage error naming the option."""
    if value is None or ctx.resilient_parsing:
        return value
    try:
        return check_seconds(param.opts[0], value)
    except ValueError as exc:
        fail(str(exc), USAGE)


# -- files a command writes ------------------------------------------------------------

@dataclass(frozen=True)
class OutputKind:
    """What a command writes, told from the first bytes of a file: a file of this
    kind may be written over (it is this command's, or agon reserved it empty)."""

    name: str
    head: re.Pattern[bytes]


RECORD_FILE = OutputKind("a game record", re.compile(rb'\s*\{\s*"format"\s*:\s*"agon-record/'))
HTML_FILE = OutputKind("an HTML page", re.compile(rb"\s*<(!doctype\s+)?html", re.IGNORECASE))
PICTURE_FILE = OutputKind("a picture", re.compile(rb"\s*<(\?xml|svg)|\x89PNG\r\n", re.IGNORECASE))
ANY_FILE = OutputKind("a file", re.compile(rb""))   # the command says itself what it keeps
HEAD_BYTES = 512


def check_output(path: Path, option: str, kind: OutputKind, *, force: bool = False,
                 inputs: tuple[Path | None, ...] = ()) -> None:
    """Refuse, before any work, an output file that cannot or may not be written
    (usage error): one in no folder, a folder, a file the command reads, or an
    existing file of another kind unless --force (a record, a journal or a
    page is not lost by a mistyped name)."""
    try:
        target = path.resolve()   # a symbolic link is judged by where it leads
    except (OSError, RuntimeError):
        fail(f"cannot write {option} {path}: a symbolic-link loop", USAGE)
    if not target.parent.is_dir():
        fail(f"cannot write {option} {path}: no such folder {target.parent}", USAGE)
    if target.is_dir():
        fail(f"{option} {path} is a folder: name a file (in it)", USAGE)
    for source in inputs:
        if source is not None and _same_file(target, source):
            fail(f"{option} {path} is the file this command reads: choose another file", USAGE)
    if not force and target.is_file() and not _holds(target, kind):
        fail(f"{path} exists and is not {kind.name}: choose another file, or replace it "
             "with --force", USAGE)


def check_log_dir(path: Path | None, option: str = "--log-dir") -> None:
    """Refuse, before any game, a log folder that cannot be made: an existing file in
    its place or in place of a folder above it (the game would go on without logs)."""
    if path is None:
        return
    nearest = path.absolute()
    while not nearest.exists() and nearest != nearest.parent:
        nearest = nearest.parent
    if not nearest.is_dir():
        fail(f"{option} {path}: {nearest} is a file, not a folder (a missing folder is "
             "made)", USAGE)


def _same_file(target: Path, source: Path) -> bool:
    try:
        return target.exists() and target.samefile(source)
    except OSError:
        return False


def _holds(path: Path, kind: OutputKind) -> bool:
    """Whether a file is empty (agon reserves its outputs empty) or of `kind`."""
    try:
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return True   # unreadable: writing it will say why
    return not head or bool(kind.head.match(head))


def existing_keyring() -> Keyring | None:
    """The referee's key to check a record's signature, or None (with a warning) without one."""
    try:
        return Keyring.existing()
    except KeyringError as exc:
        typer.echo(f"agon: warning: {exc}", err=True)
        return None


def unknown_bot(message: str, spec: str) -> NoReturn:
    """A bot that is neither built in nor a program: a usage error, with the nearest name."""
    fail(f"{message}{builtin_hint(spec, [*BUILTIN, 'human'])}", USAGE)


def emit(rows: list[dict[str, Any]], fmt: Format, *, title: str | None = None,
         columns: list[str] | None = None) -> None:
    """Rows as a table (default), a JSON list or CSV on stdout.

    CSV always starts with its header row: `columns`, else the first row's keys.
    """
    if fmt == Format.json:
        typer.echo(json.dumps(rows, indent=1))
        return
    if fmt == Format.csv:
        buffer = io.StringIO()
        header = columns or list(rows[0] if rows else [])
        if header:
            writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        sys.stdout.write(buffer.getvalue())
        return
    if title:
        typer.echo(title)
    typer.echo(tabulate(rows, headers="keys", disable_numparse=True) if rows else "(none)")


# -- how bots are isolated: the options play, tournament and check share -------------

_LIMIT_HELP = "; ".join(f"{name} ({unit + ', ' if unit else ''}{meaning})"
                        for name, (_, unit, meaning) in LIMITS.items())
SandboxOption = Annotated[str, typer.Option(
    "--sandbox", metavar="MODE", help=f"how bot programs are isolated: {', '.join(MODES)} (auto: bubblewrap "
                      "where it works, else the fallback; see docs/protocol.md)")]
BotEnvOption = Annotated[list[str] | None, typer.Option(
    "--bot-env", metavar="NAME=VALUE", help="NAME=VALUE: an environment variable every bot program gets "
                      "(they get PATH, HOME, TMPDIR and LANG, and nothing else)")]
BotNetworkOption = Annotated[bool, typer.Option(
    "--bot-network", help="let bot programs use the network (default: no network)")]
BotLimitOption = Annotated[list[str] | None, typer.Option(
    "--bot-limit", metavar="NAME=VALUE", help=f"NAME=VALUE, 0 for none: {_LIMIT_HELP}; log (MB of each bot's log "
                        "and transcript, default 4)")]
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class BotRules:
    """What the sandbox options asked for: the sandbox and the log cap (bytes)."""

    sandbox: Sandbox
    max_log: int


def bot_rules(mode: str, env: list[str] | None, network: bool, limits: list[str] | None,
              *, programs: bool = True) -> BotRules:
    """The sandbox the options describe, resolved when bot `programs` will run (auto
    tries bubblewrap then, and says once if it falls back); usage errors exit 2."""
    variables = parse_pairs(env, "--bot-env")
    for name in variables:
        if not _ENV_NAME.match(name):
            fail(f"--bot-env {name!r}: a variable name is letters, digits and _", USAGE)
    wanted = parse_pairs(limits, "--bot-limit")
    log_mb = wanted.pop("log", "4")
    if not log_mb.isdigit() or int(log_mb) < 1:
        fail(f"--bot-limit log takes a whole number of MB >= 1, not {log_mb!r}", USAGE)
    try:
        sandbox = Sandbox(mode=mode, network=network, env=tuple(variables.items()))
        sandbox = sandbox.with_limits(wanted)
        if programs:
            sandbox = sandbox.resolved()
    except SandboxError as exc:
        fail(str(exc), USAGE)
    return BotRules(sandbox, int(log_mb) << 20)


class SigtermStops:
    """While held, SIGTERM (kill, timeout) stops a command as Ctrl-C does (it raises
    KeyboardInterrupt), so that what a game or tournament holds so far is saved.
    `signal` is the one that stopped it (SIGINT unless SIGTERM came): the exit
    status is 128 + signal."""

    def __init__(self) -> None:
        self.signal = signal.SIGINT
        self.before: Any = None

    def __enter__(self) -> SigtermStops:
        def interrupt(signum: int, frame: Any) -> None:
            self.signal = signal.Signals(signum)
            raise KeyboardInterrupt

        try:
            self.before = signal.signal(signal.SIGTERM, interrupt)
        except ValueError:  # not the main thread: signals are not ours to take
            self.before = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.before is not None:
            signal.signal(signal.SIGTERM, self.before)
