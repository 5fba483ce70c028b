"""A tournament's journal: JSON lines, locked while a run writes it, every line signed.

The first line describes the tournament (the header); each further line is
one finished game (its record plus the schedule's key for it), appended and
flushed as soon as the game ends, so a killed tournament loses at most the
games in progress.  Every line carries the referee's signature
(`referee.signing`), so that `--resume` can tell the games this referee
played from lines someone edited; every game line also carries the digest
of its header (`BINDING`), under that signature, so that a signed line of
another tournament, copied in, is told apart too (`foreign_problem`; older
journals, whose lines carry none, get only the comparisons with the header).

One run at a time: a run holds an exclusive lock (`fcntl.flock`) on
``<journal>.lock`` from the moment it opens the journal until it ends; the
lock file names the run (process id, host, start time) so that a second
run can say which one holds it.  It does not hold the command line: that
names the master seed, from which every game's deck and dice follow, and
the lock sits beside the journal, where a bot might read it (it is hidden
from them as the journal is, `lock_path`).  The kernel releases the lock when the
process dies, however it dies.

The API, for the tournament runner:

* ``Journal.create(path, header, keyring)`` starts a new journal;
* ``Journal.resume(path, keyring)`` continues one: it returns the journal,
  its header and its rows (a last line cut short by a kill is dropped, and
  the journal's `notes` say so);
* ``journal.write(entry)`` signs and appends a line;
* ``trusted_rows(journal, header, rows, verify=None)`` keeps the rows this
  referee signed; the others are an error, or with `verify` (a replay) are
  kept when they replay and dropped otherwise; a header it did not sign is
  an error, `verify` or not (a header cannot be replayed);
* ``read_header(path)`` reads the settings without locking (to fill in a
  resumed run's options); ``read_journal(path)`` reads every line as it is.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shlex
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from agon.bots import builtin_name
from agon.bots.params import ParamError, parse_settings

from .engine import Result
from .players import KEEP_LOGS
from .signing import (
    Check,
    Keyring,
    NotFinite,
    canonical,
    check_signature,
    digest,
    parse_json,
    unsigned,
)

# /2: the header names its run, and every game line carries the digest of its header
JOURNAL_FORMAT = "agon-tournament/2"
OLD_JOURNAL_FORMATS = ("agon-tournament/1",)  # still read, resumed and replayed
JOURNAL_FORMATS = (JOURNAL_FORMAT, *OLD_JOURNAL_FORMATS)
BINDING = "header_sha256"  # the key of a game line's digest of its journal's header


class JournalError(Exception):
    """A journal that cannot be used as asked; the message says why."""


class JournalBusy(JournalError):
    """Another run holds the journal's lock."""


@dataclass
class Row:
    """One game line of a journal, with its line number for messages."""

    line: int
    entry: dict[str, Any]

    @property
    def key(self) -> str | None:
        """The game's key in the schedule (``3:p1=a,p2=b``), if the line names one."""
        info = self.entry.get("tournament")
        key = info.get("key") if isinstance(info, dict) else None
        return key if isinstance(key, str) else None

    def where(self, path: Path) -> str:
        """``games.jsonl:7 (game 3:p1=a,p2=b)``, for messages."""
        return f"{path}:{self.line}" + (f" (game {self.key})" if self.key else "")


# -- the lock ----------------------------------------------------------------------

def lock_path(journal: Path) -> Path:
    """The lock file a run holds while it writes `journal`."""
    return journal.with_name(journal.name + ".lock")


class _Lock:
    """An exclusive hold on ``<journal>.lock``, removed when released."""

    def __init__(self, journal: Path) -> None:
        self.path = lock_path(journal)
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as exc:
                raise JournalError(f"cannot lock {journal}: {exc.strerror or exc} "
                                   f"({self.path})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                os.close(fd)
                raise JournalBusy(f"{journal} is being written by another run ({holder}); "
                                  "wait for it to end, or stop it first") from None
            # The file we locked may have been released and removed meanwhile:
            # the lock only counts if the name still leads to it.
            try:
                if os.stat(self.path).st_ino == os.fstat(fd).st_ino:
                    break
            except FileNotFoundError:
                pass
            os.close(fd)
        self.fd = fd
        os.ftruncate(fd, 0)
        holder = {"pid": os.getpid(), "host": socket.gethostname(),
                  "started": time.strftime("%Y-%m-%d %H:%M:%S")}
        os.write(fd, json.dumps(holder).encode())

    def release(self) -> None:
        self.path.unlink(missing_ok=True)
        os.close(self.fd)  # closing releases the lock


def _read_holder(fd: int) -> str:
    try:
        holder = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"process {holder['pid']} on {holder['host']}, started {holder['started']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a run that did not say which"


# -- reading -----------------------------------------------------------------------

def _require_file(path: Path, new_allowed: bool = False) -> None:
    """A journal is a regular file (not a device, a pipe or a folder)."""
    if new_allowed and not path.exists():
        return
    if not path.exists():
        raise JournalError(f"{path}: no such journal")
    if not path.is_file():
        raise JournalError(f"{path}: not a journal file (a folder, a device or a pipe)")


def _first_line(path: Path) -> dict[str, Any]:
    """The journal's header, whatever its settings hold."""
    _require_file(path)
    try:
        with path.open("rb") as handle:
            first = handle.readline(1 << 20)
    except FileNotFoundError:
        raise JournalError(f"{path}: no such journal") from None
    except OSError as exc:
        raise JournalError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        header = parse_json(first)
    except NotFinite as exc:
        raise JournalError(f"{path}:1: not a journal line ({exc})") from None
    except (ValueError, RecursionError):
        raise JournalError(f"{path}:1: not a journal line") from None
    if not isinstance(header, dict) or header.get("format") not in JOURNAL_FORMATS:
        raise JournalError(f"{path}: not an {JOURNAL_FORMAT} journal")
    return header


def is_journal(path: Path) -> bool:
    """Whether the file starts with a journal's header (whatever the rest holds)."""
    try:
        _first_line(path)
    except JournalError:
        return False
    return True


def read_header(path: Path) -> dict[str, Any]:
    """The journal's first line: the tournament's settings."""
    header = _first_line(path)
    problem = settings_problem(header)
    if problem:
        raise JournalError(f"{path}:1 (the header): {problem}")
    return header


# what each setting of a header holds, when it is there, in types and in words
_NONE = type(None)
_SETTINGS: dict[str, tuple[tuple[type, ...], str]] = {
    "ruleset": ((dict,), "a mapping"), "bots": ((dict,), "a mapping"),
    "options": ((dict,), "a mapping"), "limits": ((dict,), "a mapping"),
    "games": ((int,), "a whole number"), "seed": ((int,), "a whole number"),
    "players": ((int, _NONE), "a whole number or null"),
    "jobs": ((int, _NONE), "a whole number or null"),
    "cluster": ((str, _NONE), "a text or null"), "gauntlet": ((str, _NONE), "a text or null"),
    "sprt": ((str, _NONE), "a text or null"),
}


def settings_problem(header: dict[str, Any]) -> str | None:
    """What in a header's settings is not of its kind (a resume reuses them), if anything."""
    for key, (kinds, words) in _SETTINGS.items():
        value = header.get(key)
        if key in header and (not isinstance(value, kinds) or isinstance(value, bool)):
            return f"its {key} setting is not {words}"
    if header.get("keep_logs", KEEP_LOGS[0]) not in KEEP_LOGS:
        return f"its keep_logs setting is not {' or '.join(KEEP_LOGS)}"
    if not isinstance(header.get("ruleset", {}).get("ref", ""), str):
        return "its ruleset is not named by a text"
    bots = header.get("bots", {})
    if not all(isinstance(name, str) and isinstance(spec, str) for name, spec in bots.items()):
        return "its bots are not names with bot specs"
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool)
               for v in header.get("limits", {}).values()):
        return "its time limits are not numbers"
    return None


# why a header without this referee's signature is refused, --verify or not
UNPROVEN_HEADER = ("its settings (the bots it starts, the games that count and who played "
                   "them) are not this referee's, and a header cannot be replayed: --verify "
                   "checks game lines only; start the tournament again with its settings on "
                   "the command line and a new --out")


def header_trust_problem(header: dict[str, Any], keyring: Keyring | None) -> str | None:
    """Why a journal's header is not this referee's word, if it is not."""
    check = check_signature(header, keyring)
    return None if check.proven else _why(check)


@dataclass
class Lines:
    """A journal's lines as read: the complete ones, and a last one cut short."""

    rows: list[Row]  # every complete line (the header is row 1)
    end: int  # where the complete lines end, in bytes
    torn: int | None = None  # the number of a last line cut short, if there is one


def _read_lines(path: Path) -> Lines:
    """Every complete line as a Row, where they end, and the line a kill cut short.

    Only the very last line, without its newline, can be cut short: a run
    writes a line and its newline at once, so a kill while writing leaves
    the line unfinished and the newline unwritten.  Such a line, if it is not
    JSON, is left out (and `torn` names it); any other line that is not a
    JSON object is an error, a last line that ends with its newline too.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise JournalError(f"{path}: no such journal") from None
    except OSError as exc:
        raise JournalError(f"{path}: cannot read ({exc.strerror})") from None
    chunks = raw.split(b"\n")
    lines = Lines([], 0)
    position = 0
    for number, chunk in enumerate(chunks, 1):
        start, position = position, position + len(chunk) + 1
        if not chunk.strip():
            continue
        try:
            entry = parse_json(chunk)
        except NotFinite as exc:
            raise JournalError(f"{path}:{number}: not a journal line ({exc})") from None
        except (ValueError, RecursionError) as exc:
            if number < len(chunks) or not _cut_short(chunk, exc):
                raise JournalError(f"{path}:{number}: not a journal line (not JSON)"
                                   + _not_torn(chunks, number)) from None
            lines.torn, lines.end = number, start
            continue
        if not isinstance(entry, dict):
            raise JournalError(f"{path}:{number}: not a journal line (not a JSON object)")
        lines.rows.append(Row(number, entry))
        lines.end = min(position, len(raw))
    return lines


def _cut_short(chunk: bytes, exc: BaseException) -> bool:
    """Whether a line that does not parse may be one a kill cut off: the start of a JSON
    object that stops early, or inside a character (not one nested too deep, or a
    number too long, which no cut makes)."""
    return chunk.startswith(b"{") and isinstance(exc, (json.JSONDecodeError,
                                                       UnicodeDecodeError))


def _not_torn(chunks: list[bytes], number: int) -> str:
    """Why a last line that is not JSON is not taken for one a kill cut short."""
    if any(rest.strip() for rest in chunks[number:]):
        return ""
    why = "it ends with its newline" if number < len(chunks) else "it is no JSON object cut off"
    return f"; {why}, so no kill cut it short: remove the line yourself, and its game is " \
        "played again"


def torn_note(path: Path, line: int, removed: bool) -> str:
    """What is said of a last line a kill cut short (`Lines.torn`)."""
    done = ("it was removed, and the game it held is played again" if removed else
            "it is left out (a run was killed while writing it, or is writing it now)")
    return f"{path}:{line}: the last line is cut short (no newline at its end); {done}"


def row_problem(entry: dict[str, Any]) -> str | None:
    """What keeps a game line from being counted, if anything."""
    info = entry.get("tournament")
    if not isinstance(info, dict) or not isinstance(info.get("key"), str) \
            or not isinstance(info.get("seating"), dict):
        return "it names no game of the schedule (no tournament key and seating)"
    if "error" in entry:
        return None if isinstance(entry["error"], str) else "its error is not a message"
    if "result" not in entry:
        return "it has no result"
    try:
        result = Result.from_json(entry["result"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return "its result is not a result (scores, ranks, points, reason)"
    missing = [seat for seat in info["seating"] if seat not in result.ranks
               or (result.points and seat not in result.points)]
    if missing:
        return f"its result has no rank or points for {', '.join(map(str, missing))}"
    if not isinstance(entry.get("forfeits") or {}, dict):
        return "its forfeits are not a mapping"
    return None


def header_digest(header: dict[str, Any]) -> str | None:
    """What a game line of the journal names its header by (None: an older journal's
    lines name none).  The header's digest covers its settings and its run's id."""
    if header.get("format") != JOURNAL_FORMAT:
        return None
    try:
        return digest(unsigned(header))
    except ValueError:  # NaN in it: parse_json refuses such a header first
        return None


def foreign_problem(header: dict[str, Any], entry: dict[str, Any]) -> str | None:
    """Why a line (of a good shape, `row_problem`) is no game of the tournament `header`
    describes, if it is not.

    A line written into an agon-tournament/2 journal carries the digest of
    its header, under its signature: a line of another journal names another
    header.  A line of an older journal carries none; of it, and of any line,
    what can be compared is compared: its seating names the header's bots,
    its seats were played by the bots the header's specs start, and its
    ruleset and options are the header's.
    """
    expected, named = header_digest(header), entry.get(BINDING)
    if named != expected:
        why = ("it carries no digest of this journal's header" if named is None else
               "it was written under another journal's header")
        return f"it is not a game of this tournament: {why}"
    mismatch = _seating_mismatch(header.get("bots") or {}, entry)
    if mismatch is None and "error" not in entry:
        mismatch = _settings_mismatch(header, entry)
    return f"it is not a game of this tournament: {mismatch}" if mismatch else None


def _seating_mismatch(bots: dict[str, Any], entry: dict[str, Any]) -> str | None:
    """Whether the line's seating names the header's bots, and its seats were theirs."""
    seating = entry["tournament"]["seating"]
    seats = entry.get("seats")
    if "error" not in entry and (not isinstance(seats, dict) or set(seats) != set(seating)):
        return "its seats are not the seats of its seating"
    for seat, name in seating.items():
        if not isinstance(name, str) or name not in bots:
            return f"its {seat} is {name!r}, none of the header's bots ({', '.join(bots)})"
        if "error" not in entry and not _played_by(seats[seat], bots[name]):
            return (f"its {seat} was played by {_who(seats[seat])}, and the header's {name} "
                    f"is {bots[name]!r}")
    return None


def _settings_mismatch(header: dict[str, Any], entry: dict[str, Any]) -> str | None:
    played = entry.get("ruleset")
    sha = played.get("sha256") if isinstance(played, dict) else None
    if sha != (header.get("ruleset") or {}).get("sha256"):
        return "its ruleset is not the header's (another sha256)"
    if entry.get("options") != header.get("options"):
        return "its options are not the header's"
    return None


def _played_by(who: Any, spec: str) -> bool:
    """Whether a seat's identity in a record is the one the bot spec starts."""
    if not isinstance(who, dict):
        return False
    name = builtin_name(spec)
    if name is None:
        try:
            command = shlex.join(shlex.split(spec))
        except ValueError:
            return False
        return who.get("kind") == "program" and who.get("command") == command
    rest = spec.strip()[len(name) + 1:]
    try:
        params = parse_settings(name, rest) if rest.strip() else {}
    except ParamError:
        return False
    return (who.get("kind"), who.get("name"), who.get("params") or {}) == ("builtin", name,
                                                                          params)


def _who(who: Any) -> str:
    if not isinstance(who, dict):
        return "nobody it names"
    named = who.get("command") if who.get("kind") == "program" else who.get("name")
    params = who.get("params")
    return f"{named!r}" + (f" (with {params})" if params else "")


def journal_rows(path: Path) -> tuple[dict[str, Any], list[Row], int | None]:
    """The header and the game lines of a journal, only read: nothing is locked or
    repaired, so a journal may be checked while a run still writes it.  Last, the
    number of a last line cut short, left out (`torn_note` says so)."""
    lines = _journal_lines(path)
    return lines.rows[0].entry, lines.rows[1:], lines.torn


def _journal_lines(path: Path) -> Lines:
    """`_read_lines` of a file that must be a journal (its header first)."""
    _require_file(path)
    lines = _read_lines(path)
    if not lines.rows or lines.rows[0].entry.get("format") not in JOURNAL_FORMATS:
        raise JournalError(f"{path}: not an {JOURNAL_FORMAT} journal")
    return lines


def read_journal(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the game lines of a journal, as they are (nothing checked).

    Waits for no one: a journal another run holds is refused (JournalBusy).
    """
    lock, lines = _open_existing(path)
    lock.release()
    return lines.rows[0].entry, [row.entry for row in lines.rows[1:]]


def _open_existing(path: Path) -> tuple[_Lock, Lines]:
    """Lock a journal, read it and drop a torn last line; the lock stays held."""
    _require_file(path)
    lock = _Lock(path)
    try:
        lines = _journal_lines(path)
        _repair_end(path, lines.end)
    except BaseException:
        lock.release()
        raise
    return lock, lines


# -- the journal a run holds ---------------------------------------------------------

class Journal:
    """One run's hold on a journal: locked, every line appended signed and flushed."""

    def __init__(self, path: Path, keyring: Keyring, lock: _Lock,
                 header: dict[str, Any]) -> None:
        self.path, self.keyring, self.lock = path, keyring, lock
        self.handle: IO[bytes] = path.open("ab")
        self.binding = header_digest(header)  # None: an older journal's lines carry none
        self._bound = canonical({BINDING: self.binding})[1:-1]   # b'"header_sha256":"..."'
        self.notes: list[str] = []  # what opening it changed (a torn last line removed)

    @classmethod
    def create(cls, path: Path, header: dict[str, Any], keyring: Keyring) -> Journal:
        _require_file(path, new_allowed=True)
        lock = _Lock(path)
        if path.exists() and path.stat().st_size:
            lock.release()
            raise JournalError(f"{path} already exists: continue it with --resume {path}, "
                               "or choose another --out")
        # the run's id: two tournaments of the same settings still have two headers
        header = {**header, "run": secrets.token_hex(8)}
        journal = cls(path, keyring, lock, header)
        journal._append(canonical(unsigned(header)))
        return journal

    @classmethod
    def resume(cls, path: Path, keyring: Keyring,
               ) -> tuple[Journal, dict[str, Any], list[Row]]:
        """The journal, opened to append, its header and its game rows; its `notes`
        say what was repaired (a last line cut short by a kill, removed)."""
        lock, lines = _open_existing(path)
        journal = cls(path, keyring, lock, lines.rows[0].entry)
        if lines.torn is not None:
            journal.notes.append(torn_note(path, lines.torn, removed=True))
        return journal, lines.rows[0].entry, lines.rows[1:]

    def write(self, entry: dict[str, Any]) -> None:
        """Sign and append a game line (its `BINDING` added)."""
        bound = {**unsigned(entry), BINDING: self.binding} if self.binding else unsigned(entry)
        self.write_canonical(canonical(bound))

    def write_canonical(self, body: bytes) -> None:
        """Sign and append a game line given as its canonical JSON (`signing.canonical`).

        The line carries the digest of this journal's header under `BINDING`, so
        that its signature ties it to this tournament (a line of another one with
        the same seed and names is refused).  The workers put it in as they encode
        the line (`worker.Settings.binding`): decoding and encoding the line again
        here would cost the main process about 100 µs a game.  ValueError if
        it is missing."""
        if self.binding is not None and self._bound not in body:
            raise ValueError(f"a game line without {BINDING}: it would not be this "
                             "tournament's")
        self._append(body)

    def _append(self, body: bytes) -> None:
        self.handle.write(self.keyring.signed_line(body) + b"\n")
        self.handle.flush()  # a killed tournament loses at most the games in progress

    def close(self) -> None:
        self.handle.close()
        self.lock.release()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _repair_end(path: Path, end: int) -> None:
    """Drop a torn last line and make the file end with a newline, so appends line up."""
    size = path.stat().st_size
    with path.open("r+b") as handle:
        if end < size:
            handle.truncate(end)
        handle.seek(0, os.SEEK_END)
        if handle.tell():
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")


# -- which lines to believe -------------------------------------------------------------

Verifier = Callable[[dict[str, Any]], str | None]  # a row -> why it does not replay, or None


@dataclass
class Trusted:
    rows: list[dict[str, Any]]  # the rows to count
    dropped: list[str]  # notes on rows set aside (their games are played again)


def trusted_rows(journal: Journal, header: dict[str, Any], rows: list[Row],
                 verify: Verifier | None = None) -> Trusted:
    """The rows this referee signed; what to do with the others.

    A header this referee did not sign is an error, with `verify` too: it
    names the bots the rows are credited to, and only a signature proves it.
    Without `verify`, a line that is malformed or not signed by this
    referee's key (altered, forged, from another machine) is an error that
    names it.  With `verify` (a replay of the row), such rows are kept when
    they replay to their result and dropped, to be played again, when not.
    """
    path, keyring = journal.path, journal.keyring
    problems, kept, dropped = [], [], []
    header_problem = header_trust_problem(header, keyring)
    if header_problem:  # even with `verify`: the rows would be counted under its names
        raise JournalError(f"{path}:1 (the header): {header_problem}: {UNPROVEN_HEADER}")
    for row in rows:
        problem = row_problem(row.entry)
        check = check_signature(row.entry, keyring)
        foreign = None if problem else foreign_problem(header, row.entry)
        if problem is None and foreign is None and check.proven:
            kept.append(row.entry)
        elif verify is None:
            problems.append(f"{row.where(path)}: {problem or foreign or _why(check)}")
        else:  # a line of another tournament is not kept, however well it replays
            failure = problem or foreign or verify(row.entry)
            if failure is None:
                kept.append(row.entry)
            else:
                dropped.append(f"{row.where(path)}: {failure}; the game is played again")
    if problems:
        raise JournalError(
            f"{path} holds lines this referee did not write as they are:\n  "
            + "\n  ".join(problems)
            + "\nremove those lines to play their games again, or resume with --verify to "
              "replay them and keep those that replay")
    return Trusted(kept, dropped)


def _why(check: Check) -> str:
    if check == Check.BROKEN:
        return "it was changed after it was written (its signature does not match)"
    return check.value


def header_mismatches(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What differs between a journal's tournament and the one asked for now, each in
    words (the ruleset and the bots first: the usual mistakes)."""
    problems = _ruleset_mismatch(stored.get("ruleset"), current["ruleset"])
    problems += _bots_mismatch(stored.get("bots"), current.get("bots"))
    for key in ("games", "seed", "players", "options", "limits", "gauntlet"):
        if _json(stored.get(key)) != _json(current.get(key)):
            problems.append(f"{key}: the journal's is {_json(stored.get(key))}, "
                            f"this run's {_json(current.get(key))}")
    return problems


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _ruleset_mismatch(was: Any, now: dict[str, Any]) -> list[str]:
    was = was if isinstance(was, dict) else {}
    if was.get("id") != now["id"]:
        return [f"ruleset: the journal's games are of {was.get('id')}@{was.get('version')}, "
                f"this run names {now['id']}@{now['version']}"]
    if was.get("sha256") != now["sha256"]:
        return [f"ruleset: {now['id']} is not the one the journal's games were played with "
                f"(sha256 {str(was.get('sha256'))[:12]} then, {now['sha256'][:12]} now: "
                f"edited or upgraded since); its games cannot be counted with new ones"]
    return []


def _bots_mismatch(was: Any, now: Any) -> list[str]:
    was = was if isinstance(was, dict) else {}
    now = now if isinstance(now, dict) else {}
    if was == now:
        return []
    listed = ", ".join(f"{name}={spec}" for name, spec in was.items()) or "none"
    problems = [f"bots: the journal's are {listed}"]
    if set(now) - set(was):
        problems.append(f"  not in the journal: {', '.join(sorted(set(now) - set(was)))}")
    if set(was) - set(now):
        problems.append(f"  missing from this run: {', '.join(sorted(set(was) - set(now)))}")
    for name in sorted(set(was) & set(now)):
        if was[name] != now[name]:
            problems.append(f"  {name} was {was[name]!r}, now {now[name]!r}")
    return problems
