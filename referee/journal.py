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
``<journal>.lock`` (and on the journal file itself, which another name of it,
a hard link, leads to) from the moment it opens the journal until it ends; the
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
  the journal's `notes` say so); with ``append=False`` it is only read;
* ``journal.write(entry)`` signs and appends a line;
* ``trusted_rows(journal, header, rows, verify=None)`` keeps the rows this
  referee signed; the others are an error, or with `verify` (a replay) are
  kept when they replay and dropped otherwise; a header it did not sign is
  an error, `verify` or not (a header cannot be replayed);
* ``read_header(path)`` reads the settings without locking (to fill in a
  resumed run's options); ``read_journal(path)`` reads every line as it is.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .journal_lines import (
    BINDING,
    JOURNAL_FORMAT,
    JOURNAL_FORMATS,
    UNPROVEN_HEADER,
    foreign_problem,
    header_digest,
    header_trust_problem,
    row_problem,
    settings_problem,
    why_not_proven,
)
from .signing import (
    DuplicateKey,
    Keyring,
    NotFinite,
    canonical,
    check_signature,
    parse_json,
    unsigned,
)


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
    """The lock file a run holds while it writes `journal`: beside the file itself, so
    that two runs naming it differently (a symbolic link) still hold one lock."""
    real = Path(os.path.realpath(journal))
    return real.with_name(real.name + ".lock")


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
        if not _holds_a_lock(fd):   # emptied and removed below: never another file
            os.close(fd)
            raise JournalError(f"cannot lock {journal}: {self.path}, where its lock goes, "
                               "holds something else (another journal?), which the lock "
                               "would overwrite: move that file, or name the journal "
                               "otherwise")
        self.fd, self.journal_fd = fd, None
        try:
            self.hold(journal)
        except JournalBusy:
            self.release()
            raise
        os.ftruncate(fd, 0)
        holder = {"pid": os.getpid(), "host": socket.gethostname(),
                  "started": time.strftime("%Y-%m-%d %H:%M:%S")}
        os.write(fd, json.dumps(holder).encode())

    def hold(self, journal: Path) -> None:
        """Lock the journal file itself too, once it exists: a second name of it (a hard
        link) has a lock file of its own, and two runs would write the one file."""
        if self.journal_fd is not None:
            return
        try:
            fd = os.open(journal, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return   # not made yet (Journal.create holds it once it is)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalBusy(f"{journal} is being written by another run, which names it "
                              "otherwise (a hard link to the same file); wait for it to end, "
                              "or stop it first") from None
        self.journal_fd = fd

    def release(self) -> None:
        self.path.unlink(missing_ok=True)
        if self.journal_fd is not None:
            os.close(self.journal_fd)
        os.close(self.fd)  # closing releases the lock


def _holds_a_lock(fd: int) -> bool:
    """Whether a lock file is empty or names a run (`_Lock` writes it so): a file
    named ``<journal>.lock`` may be anything, a journal too (``--out x.lock``)."""
    try:
        text = os.pread(fd, 4096, 0)
        holder = json.loads(text) if text else {"pid": None}
    except (OSError, ValueError):
        return False
    return isinstance(holder, dict) and "pid" in holder


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
    if not first.strip():
        raise JournalError(f"{path}: empty, not a journal (its first line would be the "
                           "tournament's header)")
    try:
        header = parse_json(first)
    except (NotFinite, DuplicateKey) as exc:
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
        except (NotFinite, DuplicateKey) as exc:
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


TORN_REMOVED = "it was removed, and the game it held is played again"  # by a resume
TORN_LEFT_OUT = "it is left out, and the game it held is played again"  # carried over
TORN_READ = "it is left out (a run was killed while writing it, or is writing it now)"


def torn_note(path: Path, line: int, done: str) -> str:
    """What is said of a last line a kill cut short (`Lines.torn`), and `done` with it."""
    return f"{path}:{line}: the last line is cut short (no newline at its end); {done}"


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


def _open_existing(path: Path, repair: bool = True) -> tuple[_Lock, Lines]:
    """Lock a journal, read it and (with `repair`) drop a torn last line; the lock
    stays held."""
    _require_file(path)
    lock = _Lock(path)
    try:
        lines = _journal_lines(path)
        if repair:
            _repair_end(path, lines.end)
    except BaseException:
        lock.release()
        raise
    return lock, lines


def refuse_existing(path: Path) -> None:
    """A new journal never takes the place of a file that holds something."""
    if not (path.exists() and path.stat().st_size):
        return
    if not _looks_like_journal(path):   # a record, a ruleset: nothing to resume
        raise JournalError(f"{path} already exists and is not a journal: choose "
                           "another --out")
    raise JournalError(f"{path} already exists: continue it with --resume {path}, "
                       "or choose another --out")


def _looks_like_journal(path: Path) -> bool:
    """Whether a file's first line is a journal's header (read no further than that)."""
    try:
        with path.open("rb") as handle:
            first = json.loads(handle.readline(1 << 20))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(first, dict) and first.get("format") in JOURNAL_FORMATS


# -- the journal a run holds ---------------------------------------------------------

class Journal:
    """One run's hold on a journal: locked, every line appended signed and flushed."""

    def __init__(self, path: Path, keyring: Keyring, lock: _Lock,
                 header: dict[str, Any], append: bool = True) -> None:
        self.path, self.keyring, self.lock = path, keyring, lock
        try:
            self.handle: IO[bytes] | None = path.open("ab") if append else None
        except OSError as exc:   # a journal made read-only (chmod a-w), kept as it is
            lock.release()
            raise _unwritable(path, exc) from None
        try:
            lock.hold(path)   # a journal just made
        except JournalBusy:
            self.close()
            raise
        self.binding = header_digest(header)  # None: an older journal's lines carry none
        self._bound = canonical({BINDING: self.binding})[1:-1]   # b'"header_sha256":"..."'
        self.notes: list[str] = []  # what opening it changed (a torn last line removed)

    @classmethod
    def create(cls, path: Path, header: dict[str, Any], keyring: Keyring) -> Journal:
        _require_file(path, new_allowed=True)
        lock = _Lock(path)
        try:
            refuse_existing(path)
        except JournalError:
            lock.release()
            raise
        # the run's id: two tournaments of the same settings still have two headers
        header = {**header, "run": secrets.token_hex(8)}
        journal = cls(path, keyring, lock, header)
        journal._append(keyring.signed_line(canonical(unsigned(header))))
        return journal

    @classmethod
    def resume(cls, path: Path, keyring: Keyring, append: bool = True,
               ) -> tuple[Journal, dict[str, Any], list[Row]]:
        """The journal, opened to append, its header and its game rows; its `notes`
        say what was repaired (a last line cut short by a kill, removed).  Without
        `append` it is only read (locked all the same), left as it is: a journal
        carried into a new one, which may be read-only."""
        lock, lines = _open_existing(path, repair=append)
        journal = cls(path, keyring, lock, lines.rows[0].entry, append)
        if lines.torn is not None:
            journal.notes.append(torn_note(path, lines.torn,
                                           TORN_REMOVED if append else TORN_LEFT_OUT))
        return journal, lines.rows[0].entry, lines.rows[1:]

    def write(self, entry: dict[str, Any]) -> None:
        """Sign and append a game line (its `BINDING` added)."""
        bound = {**unsigned(entry), BINDING: self.binding} if self.binding else unsigned(entry)
        self.write_lines([canonical(bound)], signed=False)

    def write_lines(self, bodies: list[bytes], signed: bool) -> None:
        """Append game lines given as their canonical JSON, `signed` already (by a
        worker process, with this journal's key) or to be signed here, in one write.

        Each line carries the digest of this journal's header under `BINDING`, so
        that its signature ties it to this tournament (a line of another one with
        the same seed and names is refused).  The workers put it in as they encode
        the line (`worker.Settings.binding`): decoding and encoding the line again
        here would cost the main process about 100 µs a game.  ValueError if
        one lacks it."""
        if self.binding is not None and any(self._bound not in body for body in bodies):
            raise ValueError(f"a game line without {BINDING}: it would not be this "
                             "tournament's")
        if not signed:
            bodies = [self.keyring.signed_line(body) for body in bodies]
        self._append(b"\n".join(bodies))

    def _append(self, lines: bytes) -> None:
        if self.handle is None:
            raise JournalError(f"{self.path} was opened to be read, not written")
        try:
            self.handle.write(lines + b"\n")
            self.handle.flush()  # a killed tournament loses at most the games in progress
        except OSError as err:   # a full disk (a bot under --sandbox none may fill it)
            raise JournalError(
                f"{self.path}: cannot write its next line ({err.strerror or err}): the "
                "lines written before are kept (the one cut short is dropped on resume); "
                f"make room, then continue with --resume {self.path}") from None

    def close(self) -> None:
        with contextlib.suppress(OSError):   # only a line that failed already is unwritten
            if self.handle is not None:
                self.handle.close()
        self.lock.release()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _unwritable(path: Path, exc: OSError) -> JournalError:
    return JournalError(f"{path}: cannot write it ({exc.strerror or exc}): a resume appends "
                        "its games to it; make it writable, or to play more games continue "
                        f"it into a new journal (--resume {path} --games N --out NEW)")


def _repair_end(path: Path, end: int) -> None:
    """Drop a torn last line and make the file end with a newline, so appends line up."""
    size = path.stat().st_size
    try:
        handle = path.open("r+b")
    except OSError as exc:
        raise _unwritable(path, exc) from None
    with handle:
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
    dropped: list[str]  # notes on rows set aside (their games are played again, if planned)
    replayed: list[str] = field(default_factory=list)  # notes on rows kept on replay alone


NOT_IN_PLAN = "it is no game of this tournament"  # a `Verifier`'s verdict: nothing to play again
RESUME_REMEDY = ("remove those lines to play their games again, or resume with --verify to "
                 "replay them and keep those that replay")


def trusted_rows(journal: Journal, header: dict[str, Any], rows: list[Row],
                 verify: Verifier | None = None, remedy: str = RESUME_REMEDY) -> Trusted:
    """The rows this referee signed; what to do with the others.

    A header this referee did not sign is an error, with `verify` too: it
    names the bots the rows are credited to, and only a signature proves it.
    Without `verify`, a line that is malformed or not signed by this
    referee's key (altered, forged, from another machine) is an error that
    names it.  With `verify` (a replay of the row), such rows are kept when
    they replay to their result and dropped, to be played again, when not.
    """
    path, keyring = journal.path, journal.keyring
    problems, kept, dropped, replayed = [], [], [], []
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
            problems.append(f"{row.where(path)}: {problem or foreign or why_not_proven(check)}")
        else:  # a line of another tournament is not kept, however well it replays
            failure = problem or foreign or verify(row.entry)
            if failure is None:
                kept.append(row.entry)
                replayed.append(f"{row.where(path)}: {why_not_proven(check)}; counted because "
                                "its moves replay to its result, but who played it and its "
                                "timings are not proven")
            else:
                then = "it is left out" if failure == NOT_IN_PLAN else "the game is played again"
                dropped.append(f"{row.where(path)}: {failure}; {then}")
    if problems:
        raise JournalError(
            f"{path} holds lines this referee did not write as they are:\n  "
            + "\n  ".join(problems)
            + f"\n{remedy}")
    return Trusted(kept, dropped, replayed)


