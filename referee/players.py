"""Player kinds: in-process bot, subprocess bot (line protocol); a person is in `human`.

The match loop (referee/match.py) talks to every kind through `Player`, so
it never knows whether a seat is a Python object, a program in another
language or a person.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import time
import traceback
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from agon.bots import BUILTIN, bot_class, builtin_name
from agon.bots.base import Bot
from agon.bots.params import SEED, ParamError, parse_settings, settle

from . import protocol, transport
from .engine import Decision, State
from .ruleset import CONTROL_CHARACTER
from .sandbox import Cell, Sandbox, SandboxError, Usage, say_once
from .suggest import closest, did_you_mean
from .transcript import CLIPPED, Transcript
from .transport import BoundedLog, ChildProcess

# Reason codes for a seat that loses by forfeit (docs/protocol.md, "Faults").
FORFEIT_REASONS = ("timeout", "crash", "illegal", "protocol", "handshake", "resign")
MAX_DETAIL = 400  # characters of a forfeit's detail
# Which games a tournament keeps a program's log and transcript of (--keep-logs): those
# where it wrote to stderr, sent `info` or forfeited, or every game.
KEEP_LOGS = ("notable", "all")


class BotFault(Exception):
    """A player broke the rules of the referee (not of the game)."""

    def __init__(self, reason: str, detail: str) -> None:
        assert reason in FORFEIT_REASONS, reason
        if len(detail) > MAX_DETAIL:  # details go into records; a bot must not fill them
            detail = detail[:MAX_DETAIL] + "..."
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


# The longest time limit: a week.  A limit must be a clock the referee can keep:
# nan never elapses, and inf or 1e300 seconds overflow the CPU limit of a process.
MAX_SECONDS = 7 * 24 * 3600


def check_seconds(what: str, value: Any) -> float:
    """`value` as seconds when it is a time limit above 0 and at most MAX_SECONDS;
    else ValueError naming `what` (the option or parameter that gave it)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or not 0 < value <= MAX_SECONDS:  # nan fails both comparisons
        raise ValueError(f"{what} takes a number of seconds above 0 (at most {MAX_SECONDS}), "
                         f"not {value!r}")
    return float(value)


@dataclass(frozen=True)
class Limits:
    """Time and size limits the referee enforces, in seconds and bytes.

    The three clocks are checked here, once for every caller (ValueError)."""

    handshake: float = 10.0
    move: float = 10.0
    game: float = 600.0
    grace: float = 0.25
    max_line: int = 1 << 20
    max_log: int = 4 << 20  # bytes of a bot's log, and of its transcript

    def __post_init__(self) -> None:
        for what, value in (("handshake_time", self.handshake), ("move_time", self.move),
                            ("game_time", self.game)):
            check_seconds(what, value)

    def to_json(self) -> dict[str, Any]:
        return {"handshake": self.handshake, "move": self.move, "game": self.game,
                "max_line": self.max_line}


class Player(ABC):
    """One seat's decision maker for the length of one game.

    A player whose `wants_state` is true is also handed, with each decision,
    a `State` consistent with everything its seat knows and with the rest
    resampled (`State.determinize`): what search bots need.
    """

    wants_state = False
    # whether a take-back may replace this player by a new one (`Match(remake=...)`)
    # that is told the game so far: not a program, which cannot be set back
    replayable = False
    wants_view = True  # False: the seat's view is not built for it (it would not read it)
    wants_events = True  # False: events are not sent to it (it would ignore them)
    wants_clock = True  # False: `choose` is passed no clock (it would not read it)
    interactive = False  # a person at a terminal: shown the board, has no clock
    # whether `choose` keeps to the `timeout` it is passed (a program, read with a
    # deadline); False: the player cannot be interrupted and is timed once it answers
    deadline = True

    @abstractmethod
    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        """Begin the game. `hello` holds game, seat, seats, seed, ruleset, limits.

        Raises BotFault("handshake", ...) when the player cannot start.
        """

    def greet(self, hello: dict[str, Any], limits: Limits) -> None:  # noqa: B027
        """Optional: begin `start` without waiting for the answer.  The referee greets
        every seat before it starts any (each `start` follows its `greet`), so the
        players that take time to get ready do it side by side."""

    def identity(self) -> dict[str, Any]:
        """Who this player is, for records: at least a name."""
        return {"name": type(self).__name__}

    def event(self, event: dict[str, Any]) -> None:  # noqa: B027 (optional hook)
        """Something this seat may see happened (already filtered)."""

    @abstractmethod
    def choose(self, ask_id: int, decision: Decision, view: dict[str, Any],
               clock: dict[str, float], timeout: float, state: State | None = None) -> str:
        """Return the chosen action's text (not yet checked for legality).

        `timeout` is the wall-clock budget in seconds including the grace
        margin.  Raises BotFault on timeout, crash or protocol errors.
        """

    def finish(self, result: dict[str, Any]) -> None:  # noqa: B027 (optional hook)
        """The game is over; `result` is Result.to_json() plus forfeits."""

    def give(self, files: dict[str, bytes]) -> None:  # noqa: B027 (optional hook)
        """Files the player's program may read in its own directory (before `start`)."""

    def stop(self) -> None:
        """Stop taking part (a forfeit): end any process, keep what is kept for `close`."""
        self.close()

    def end_game(self) -> None:
        """The game ended normally: keep what may serve the next game, release the rest.

        Only a player that can play again (a program speaking protocol 1.1 that
        was asked to stay up) keeps anything; the others close.
        """
        self.close()

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Release every resource (processes, files). Safe to call twice."""


EXIT_WAIT = 0.2  # seconds to wait for an exit status after a program closes its output
HELD_BYTES = 1 << 16  # event lines held for a bot are sent once they reach this size
NOT_GREETED = 0.0  # a running program did not take `newgame` (it is ended): `start` launches one
# what a program that timed out is reminded of
UNSENT = "(a line written but not flushed is not sent: `agon check` lists the usual causes)"
# what a program that asked for `newgame` and did not answer it, or left after its game, is told
NEWGAME_READY = "a bot whose ready asked for newgame answers newgame with ready, as the hello"
STAY_UP = "after a result, a bot that asked for newgame reads on until newgame or quit"


# -- in-process bots ---------------------------------------------------------

class InProcessPlayer(Player):
    """A built-in bot (`bots.base.Bot`) running inside the referee's process.

    It cannot be interrupted, so its clock is checked after it answers; an
    exception inside the bot is a crash.
    """

    replayable = True  # remade from its seed, it can be set back to any earlier position
    deadline = False  # it runs in the referee's thread: timed once it answers

    def __init__(self, bot: Bot, settings: dict[str, str] | None = None,
                 copies: bool = False) -> None:
        self.bot = bot
        self.settings = settings or {}
        # a bot of the caller's (agon.api) gets a copy of each decision, which it may
        # edit; ours, which never do, get the engine's own (a copy costs a tournament
        # a tenth of its referee's work)
        self.copies = copies
        self.wants_state = bot.wants_state
        self.wants_view = getattr(bot, "wants_view", True)
        self.wants_events = type(bot).event is not Bot.event  # the hook is overridden
        self.wants_clock = False  # a built-in bot's choose() takes no clock

    def identity(self) -> dict[str, Any]:
        who = {"name": self.bot.name, "version": self.bot.version, "kind": "builtin"}
        if self.settings:
            who["params"] = dict(self.settings)
        return who

    def give(self, files: dict[str, bytes]) -> None:
        # what a program would find in its directory (a ruleset that is not shipped)
        if hasattr(self.bot, "files"):
            self.bot.files.update(files)

    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        self._call("handshake", self.bot.start, hello)

    def event(self, event: dict[str, Any]) -> None:
        self._call("crash", self.bot.event, event)

    def choose(self, ask_id: int, decision: Decision, view: dict[str, Any],
               clock: dict[str, float], timeout: float, state: State | None = None) -> str:
        # The match times the answer and checks that it is legal, against the engine's
        # own list: a caller's bot gets a copy, so editing it cannot make its answer legal.
        try:
            action = self.bot.choose(decision.copy() if self.copies else decision, view, state)
        except Exception as err:  # noqa: BLE001 - a bug in a bot is that bot's forfeit
            raise self._fault("crash", err) from err
        if type(action) is str:
            return action
        if isinstance(action, str):
            return str.__str__(action)  # a plain str: a subclass's __eq__ is not ours to run
        raise BotFault("illegal", f"answered a {type(action).__name__}, not an action "
                                  f"(a str) of ask {ask_id}")

    def _call(self, reason: str, method: Callable[..., Any], *args: Any) -> Any:
        try:
            return method(*args)
        except Exception as err:  # a bug in a bot is that bot's forfeit, not ours
            raise self._fault(reason, err) from err

    @staticmethod
    def _fault(reason: str, err: Exception) -> BotFault:
        where = traceback.extract_tb(err.__traceback__)[-1]
        return BotFault(reason, f"{type(err).__name__}: {err} "
                                f"({Path(where.filename).name}:{where.lineno})")


# -- programs speaking the line protocol -------------------------------------

class SubprocessPlayer(Player):
    """An external program speaking docs/protocol.md over its stdin/stdout.

    The program is started by `start` in a sandbox (`referee.sandbox`: its own
    directory, limits, bubblewrap where available) and killed, with everything
    it started, by `stop` or `close`.  Its stderr and its `info` lines are
    kept in `log`, and with `transcript` the lines exchanged in `lines`
    (`referee.transcript`), both in memory and bounded by `Limits.max_log`; at the
    end of each game they are written to ``<log_dir>/<seat>.log`` and
    ``<log_dir>/<seat>.transcript``, so that no bot can read another's while
    the game runs; with `notable_only` (a tournament's default), only for a
    game in which the program wrote to stderr, sent `info` or forfeited
    (`notable`).  The last lines exchanged are kept (cut short) in `recent`
    for error reports.

    With `lasting` (a tournament's), a program whose `ready` asks for
    ``newgame`` (protocol 1.1) stays up when a game ends well, and the next
    `start` sends it ``newgame`` instead of starting it again.  It is started
    afresh after any fault of its own (crash, timeout, illegal answer ...),
    when it fails to take the next game, and when its CPU time leaves less
    than one game's budget under its lifetime limit (`Cell.room_for_a_game`).
    A program that leaves a ``newgame`` unanswered (or answers it with anything
    but ``ready``) is not sent one again: each later game starts it afresh, rather
    than waiting out the handshake limit game after game.
    Set `log_dir` before each `start`: each game's log goes to its own folder.
    """

    def __init__(self, argv: Sequence[str], *, log_dir: Path | None = None,
                 transcript: bool = False, label: str | None = None,
                 sandbox: Sandbox | None = None, lasting: bool = False,
                 notable_only: bool = False) -> None:
        if not argv:
            raise ValueError("an external bot needs a command line")
        self.argv = list(argv)
        self.log_dir = log_dir
        self.lines = Transcript(Limits.max_log)  # see `recent`, `transcript`
        self.transcript = transcript and log_dir is not None
        self.label = label
        self.sandbox = sandbox or Sandbox()
        self.lasting = lasting
        self.notable_only = notable_only
        self.forfeited = False  # stopped by the match in this game (`stop`)
        self.cell: Cell | None = None
        self.files: dict[str, bytes] = {}
        self.child: ChildProcess | None = None
        self.limits = Limits()
        self.ready: protocol.Ready | None = None
        self.fault: BotFault | None = None
        self.infos: deque[str] = deque(maxlen=100)
        self.answers = {"index": 0, "text": 0}
        self.slowest = 0.0
        self.exit_status: int | None = None
        self.usage: Usage | None = None
        self.quit_wait: float | None = None  # seconds to exit after quit; None: from limits
        self.log_path: Path | None = None
        self.log = BoundedLog(Limits.max_log, "log")
        self.seat = "bot"
        self.held: list[bytes] = []  # event lines not yet sent (`event`)
        self.clock: dict[str, float] = {}  # the last clock sent, and its JSON
        self.clock_json = "{}"
        self.open_ask = (0, 0.0)  # the ask waiting for an answer, and its seconds
        self.answered = 0  # the ask answered last in this game (0: none)
        self.held_bytes = 0
        self.games = 0  # games the running process has played to their end
        self.starts = 0  # processes started so far
        self.greeted: float | None = None  # `greet`: the deadline of the `ready` it awaits
        self.greeted_with: dict[str, Any] = {}  # and the hello it was sent
        self.fresh = False  # whether `greet` started the program (else: sent it newgame)
        self.spin = 0.0  # seconds to wait for an answer without sleeping (`ChildProcess`)
        self.takes_newgame = True  # False once it failed to take one (`_not_taken`)

    # -- identity and logs ---------------------------------------------------

    def identity(self) -> dict[str, Any]:
        who: dict[str, Any] = {"name": self.ready.name if self.ready else Path(self.argv[0]).name,
                               "kind": "program", "command": shlex.join(self.argv)}
        if self.ready and self.ready.about:
            who["about"] = self.ready.about
        return who

    def give(self, files: dict[str, bytes]) -> None:
        self.files.update(files)

    @property
    def transcript(self) -> bool:
        """Whether each game's lines are kept for ``<seat>.transcript``."""
        return self.lines.whole

    @transcript.setter
    def transcript(self, keep: bool) -> None:
        self.lines.whole = keep

    @property
    def recent(self) -> list[tuple[str, bytes]]:
        """The last lines exchanged, cut short: ("<", received) or (">", sent)."""
        return self.lines.recent()

    def _log_info(self, text: str) -> None:
        self.infos.append(text if len(text) <= CLIPPED else text[:CLIPPED] + "...")
        self.log.add(b"info: " + text.encode("utf-8", "replace") + b"\n")

    @property
    def notable(self) -> bool:
        """Whether this game's files say something: the program wrote to stderr, sent
        `info` (or the referee noted a failed `newgame`), or forfeited."""
        return self.forfeited or not self.log.empty

    def _save_logs(self) -> None:
        """Write the log (and transcript) to `log_dir`: at the end, never while bots run.

        The buffers are emptied for the next game: what a lasting program
        writes between two games goes with the next game's files, what it
        writes after its last game with that game's.  With `notable_only`,
        nothing is written (not even the folder) unless they are `notable`.
        """
        if self.log_dir is None or self.child is None:
            return
        if self.notable_only and not self.notable:
            self.log.clear()
            self.lines.clear()
            return
        try:
            self._write_logs(self.log_dir)
        except OSError as err:   # a full disk (a bot under --sandbox none may fill it)
            say_once(f"agon: warning: cannot write the bots' logs and transcripts "
                     f"({err.strerror or err}): the games go on without them")
        self.log.clear()
        self.lines.clear()

    def _write_logs(self, log_dir: Path) -> None:
        log_dir.mkdir(parents=True, exist_ok=True)
        name = _file_name(self.label or self.seat)
        log_path = log_dir / f"{name}.log"
        again = log_path == self.log_path and log_path.exists()
        self.log_path = log_path
        with log_path.open("ab" if again else "wb") as handle:
            if not again:
                handle.write(f"# {shlex.join(self.argv)}\n".encode())
            handle.write(self.log.getvalue())
        if self.transcript:
            with (log_dir / f"{name}.transcript").open("ab" if again else "wb") as handle:
                handle.write(self.lines.transcript())

    # -- the protocol ----------------------------------------------------------

    def greet(self, hello: dict[str, Any], limits: Limits) -> None:
        """Send `newgame` to a program still up from the last game, or start the program
        and send it the hello; `start` waits for its `ready` (and starts the program
        afresh when a running one does not take the game).  A program greeted already
        with this hello (ahead of its game, while the last one was being recorded:
        `referee.worker.play`) is not greeted again."""
        if self.greeted and hello == self.greeted_with:
            return
        self.greeted = None
        self._begin(hello, limits)
        self.greeted_with = hello
        self.fresh = not self.running()
        if self.fresh:
            self._note_gone()
        self.greeted = self._launch(hello) if self.fresh else self._send_newgame(hello)

    def _note_gone(self) -> None:
        """Say in the log when a program that asked for `newgame` exited after its game
        instead of waiting for `newgame` or `quit` (it is started again, which its
        author wanted to save)."""
        child = self.child
        if (child is not None and not child.closed and self.ready is not None
                and protocol.wants(self.ready, protocol.NEWGAME)
                and child.exited(time.monotonic())):
            self.log.add(f"agon: the program exited after its last game (exit status "
                         f"{child.exit_status(0)}) though its ready asked for newgame; it "
                         f"is started again: {STAY_UP}\n".encode())

    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        if self.greeted is None:   # not greeted first: greet now
            self.greet(hello, limits)
        greeted, self.greeted = self.greeted, None
        if self.fresh:   # a program just started: its faults are this game's
            self._await_ready(greeted)
        elif not (greeted and self._ready_for_next(greeted)):
            self._await_ready(self._launch(hello))

    def _begin(self, hello: dict[str, Any], limits: Limits) -> None:
        """A new game's counts and limits."""
        self.limits = limits
        self.seat = str(hello.get("seat", "bot"))
        self.log.cap = self.lines.cap = limits.max_log
        self.fault = None
        self.forfeited = False
        self.answers = {"index": 0, "text": 0}
        self.open_ask = (0, 0.0)   # a game's ask IDs start again at 1
        self.slowest = 0.0

    def running(self) -> bool:
        """A program still up from an earlier game that can take the next one."""
        return (self.takes_newgame and self.child is not None and not self.child.closed
                and self.ready is not None and protocol.wants(self.ready, protocol.NEWGAME)
                and not self.child.exited(time.monotonic()))

    def _send_newgame(self, hello: dict[str, Any]) -> float:
        """`newgame` to the running program: the deadline of its `ready`, or NOT_GREETED
        (the program is ended) when it cannot take it."""
        assert self.cell is not None
        try:
            for name, data in self.files.items():
                self.cell.put(name, data)
        except OSError as err:   # the bot made the name something else (a directory)
            self._not_taken(BotFault("handshake", f"its directory cannot take its files "
                                                  f"again: {err.strerror or err}"))
            return NOT_GREETED
        try:
            return self._greet(protocol.NewGame(hello))
        except BotFault as fault:
            self._not_taken(fault)
            return NOT_GREETED

    def _ready_for_next(self, deadline: float) -> bool:
        """Whether the running program said `ready` to its `newgame` (if not, it is ended)."""
        try:
            self._await_ready(deadline)
        except BotFault as fault:
            self._not_taken(fault)
            return False
        return True

    def _not_taken(self, fault: BotFault) -> None:
        advice = f": {STAY_UP}" if fault.reason == "crash" else \
            f": {NEWGAME_READY}" if fault.reason == "handshake" else ""
        if fault.reason == "handshake":   # it would make every game wait as long
            self.takes_newgame = False
            advice += " (it is no longer sent newgame: each of its games starts it afresh)"
        self.log.add(f"agon: the program did not take the next game ({fault}); "
                     f"it is started again{advice}\n".encode())
        self._discard()

    def _launch(self, hello: dict[str, Any]) -> float:
        """Start the program afresh in a new cell and greet it: the deadline of its
        `ready`."""
        self._discard()
        self.starts += 1
        self.games = 0
        try:
            self.cell = Cell(self.sandbox.hiding(self.log_dir), label=self.label or self.seat,
                             game_seconds=self.limits.game, lasting=self.lasting)
            for name, data in self.files.items():
                self.cell.put(name, data)
            self.child = ChildProcess(self.argv, max_line=self.limits.max_line,
                                      stderr=self.log, spawn=self.cell.spawn,
                                      stop_grace=self.cell.stop_grace, spin=self.spin)
        except (OSError, SandboxError) as err:
            self._fail(BotFault("handshake", f"cannot run {shlex.join(self.argv)!r}: "
                                             f"{getattr(err, 'strerror', None) or err}"))
        return self._greet(protocol.Hello(hello))

    def _greet(self, greeting: protocol.Hello | protocol.NewGame) -> float:
        """Send the hello (or newgame): the deadline of the `ready` it asks for."""
        self.ready = None
        deadline = time.monotonic() + self.limits.handshake + self.limits.grace
        self._send(greeting)
        return deadline

    def _await_ready(self, deadline: float) -> None:
        """Wait for the `ready` (info lines before it are kept in the log)."""
        while True:
            message = self._receive(deadline, self._late_ready)
            if isinstance(message, protocol.Ready):
                self.ready = message
                self.wants_state = protocol.wants(message, "state")
                self.wants_view = not protocol.skips(message, "view")
                self.wants_events = not protocol.skips(message, "events")
                return
            if not isinstance(message, protocol.Info):
                self._fail(BotFault("handshake", f"expected 'ready NAME', got "
                                                 f"{protocol.shown(self.recent[-1][1])}"))

    def _discard(self) -> None:
        """End the running program, if any, and remove its cell (logs are kept in memory)."""
        if self.child is not None and not self.child.closed:
            self.exit_status = self.child.close()
        if self.cell is not None:
            self.cell.remove()
            self.cell = None
        self.child = None
        self.ready = None
        self.fault = None
        self.held.clear()
        self.held_bytes = 0

    def event(self, event: dict[str, Any]) -> None:
        """Send the event; a `lasting` (tournament) player holds its line until the next
        line that needs an answer (or, after the result, newgame or quit): one write, and
        one wake-up of the bot, per ask instead of per line (a bot that left is then found
        out at that line)."""
        if self.fault is None and self.child is not None:
            if not self.lasting:
                self._send(protocol.EventMsg(event))
                return
            self._hold(protocol.encode(protocol.EventMsg(event)))
            if self.held_bytes > HELD_BYTES:
                self._send_line(b"")

    def _hold(self, line: bytes) -> None:
        """Keep `line` (noted now) to go with the next line sent."""
        self.lines.sent(line)
        self.held.append(line)
        self.held_bytes += len(line)

    def choose(self, ask_id: int, decision: Decision, view: dict[str, Any],
               clock: dict[str, float], timeout: float, state: State | None = None) -> str:
        if self.fault is not None:
            raise self.fault
        if self.child is None:
            self._fail(BotFault("crash", "the program was never started"))
        began = time.monotonic()
        legal = decision.legal
        if clock != self.clock:   # the same to the millisecond: its JSON is already made
            self.clock, self.clock_json = clock, protocol.json_text(clock)
        self._send_line(protocol.ask_line(
            ask_id, legal, decision.prompt, protocol.json_text(view) if view else "{}",
            self.clock_json, None if state is None else protocol.json_text(state.to_json())))
        self.answered = self.open_ask[0]   # the ask before this one was answered
        self.open_ask = (ask_id, timeout)
        action = self._answer(ask_id, legal, began + timeout)
        spent = time.monotonic() - began
        if spent > self.slowest:
            self.slowest = spent
        return action

    def _answer(self, ask_id: int, legal: Sequence[str], deadline: float) -> str:
        """The action the bot answers ask `ask_id` with; info lines before it are logged.

        The usual answer, `act ASK_ID K` with K in range, is taken as it comes; any
        other line is parsed in full.
        """
        while True:
            line = self._next_line(deadline, self._late_answer)
            self.lines.received(line)
            index = protocol.answer_index(line, ask_id)
            if index is not None and index < len(legal):
                self.answers["index"] += 1
                return legal[index]
            message = self._decoded(line)
            if type(message) is protocol.Act:
                if message.id != ask_id:
                    again = " again (one act per ask)" if message.id == self.answered else ""
                    self._fail(BotFault("protocol", f"answered ask {message.id}{again}, but "
                                                    f"the open ask is {ask_id}"))
                return self._action_of(message, legal, ask_id)
            if type(message) is not protocol.Info:
                self._fail(BotFault("protocol", f"expected 'act {ask_id} K', got "
                                                f"{protocol.shown(self.recent[-1][1])}"))

    def _late_answer(self) -> BotFault:
        ask_id, timeout = self.open_ask
        first = not any(self.answers.values())   # an unflushed answer: usually the first
        return BotFault("timeout", f"no answer to ask {ask_id} within {timeout:.3g} s"
                                   + (f" {UNSENT}" if first else ""))

    def _late_ready(self) -> BotFault:
        return BotFault("handshake", f"no 'ready' within {self.limits.handshake:g} s "
                                     f"{UNSENT}")

    def _action_of(self, act: protocol.Act, legal: Sequence[str], ask_id: int) -> str:
        if act.index is not None:
            if not 0 <= act.index < len(legal):
                self._fail(BotFault("illegal", f"index {act.index} is out of range for ask "
                                               f"{ask_id} ({len(legal)} legal actions)"))
            self.answers["index"] += 1
            return legal[act.index]
        text = act.text or ""
        if text not in legal:
            lowered = {action.lower(): action for action in legal}   # BUY_CARD: buy_card
            near = lowered.get(closest(text.strip().strip("'\"").strip().lower(), lowered) or "")
            hint = f"did you mean {near!r}? " if near is not None else ""
            self._fail(BotFault("illegal", f"{protocol.shown(text)} is not a legal action "
                                           f"of ask {ask_id} ({hint}answer with an index "
                                           f"0 to {len(legal) - 1}, or an action's text "
                                           f"exactly as listed)"))
        self.answers["text"] += 1
        return text

    def finish(self, result: dict[str, Any]) -> None:
        """Send the result; a `lasting` player's goes with the line that follows it
        (``newgame`` or ``quit``): one wake-up of the bot between two games, not two."""
        if self.fault is None and self.child is not None:
            if self.lasting:
                self._hold(protocol.encode(protocol.ResultMsg(result)))
            else:
                self._send_quietly(protocol.ResultMsg(result))

    def stop(self) -> None:
        """A forfeit: end the program; this game's logs are `notable`."""
        self.forfeited = True
        self._end_program()

    def _end_program(self) -> None:
        """End the program (asking it to quit first, if it did nothing wrong)."""
        if self.child is not None and not self.child.closed:
            linger = 0.0
            if self.fault is None and self._send_quietly(protocol.Quit()):
                linger = self.quit_wait if self.quit_wait is not None else \
                    min(1.0, max(0.2, 2 * self.limits.grace))
            self.exit_status = self.child.close(linger)
            assert self.cell is not None
            self.usage = self.cell.usage()

    def end_game(self) -> None:
        """Keep a lasting program that did well and has CPU time left; close the others."""
        child, cell = self.child, self.cell
        if not (self.lasting and self.takes_newgame and self.fault is None
                and child is not None and cell is not None and not child.closed
                and self.ready is not None
                and protocol.wants(self.ready, protocol.NEWGAME)
                and cell.room_for_a_game(child.pid)):
            self.close()
            return
        self.games += 1
        child.collect_stderr()
        self._save_logs()

    def close(self) -> None:
        self._end_program()
        if self.cell is not None:
            self._save_logs()
            self.cell.remove()
            self.cell = None

    # -- plumbing --------------------------------------------------------------

    def _send(self, message: protocol.Message) -> None:
        self._send_line(protocol.encode(message))

    def _send_line(self, line: bytes) -> None:
        """Send `line` (b"": none), after the events held for it.  The line is noted once
        it is on its way: the bot reads it while we write the transcript."""
        assert self.child is not None
        try:
            self.child.send(self._with_held(line) if self.held else line)
        except transport.Closed:
            self._fail(BotFault("crash", self._exit_story("stopped reading its input")))
        except transport.Backlog as err:
            self._fail(BotFault("timeout", f"{err} (it is not reading its input)"))
        finally:
            if line:
                self.lines.sent(line)

    def _send_quietly(self, message: protocol.Message) -> bool:
        """Send at the end of a game, when a bot that left early loses nothing more."""
        assert self.child is not None
        line = protocol.encode(message)
        self.lines.sent(line)
        try:
            self.child.send(self._with_held(line))
        except transport.TransportError:
            return False
        return True

    def _with_held(self, line: bytes) -> bytes:
        if not self.held:
            return line
        self.held.append(line)
        data = b"".join(self.held)
        self.held.clear()
        self.held_bytes = 0
        return data

    def _receive(self, deadline: float, late: Callable[[], BotFault]) -> protocol.Message:
        """The next message from the bot (blank lines skipped); `late()` is the fault on time.

        Info lines and blank lines are read against the same deadline: a flood
        of them spends the bot's own clock, and past `Limits.max_log` they are
        no longer kept.
        """
        line = self._next_line(deadline, late)
        self.lines.received(line)
        return self._decoded(line)

    def _next_line(self, deadline: float, late: Callable[[], BotFault]) -> bytes:
        """The bot's next line that is not blank (not yet noted: `lines.received`)."""
        assert self.child is not None
        while True:
            try:
                line = self.child.read_line(deadline)
            except transport.Timeout:
                self._fail(late())
            except transport.Closed as err:
                self._fail(BotFault("crash", self._exit_story(str(err))))
            except transport.LineTooLong as err:
                self._fail(BotFault(self._breach, str(err)))
            if line and not line.isspace():
                return line   # blank lines are allowed and ignored

    def _decoded(self, line: bytes) -> protocol.Message:
        """The message `line` holds (an info line is logged), or the fault it is."""
        try:
            message = protocol.decode_from_bot(line, self.limits.max_line)
        except protocol.ProtocolError as err:
            quoted = protocol.shown(line)
            said = f"{err}" if str(err).endswith(quoted) else f"{err}: {quoted}"  # a one-word line
            self._fail(BotFault(self._breach, f"{said}{self._expected(line)}"))
        if type(message) is protocol.Info:
            self._log_info(message.text)
        return message

    def _expected(self, line: bytes) -> str:
        """What the bot should have sent instead of `line`, a line that is no message:
        a typo of a keyword, or debugging output written on stdout."""
        word = line.split(b" ", 1)[0].decode("utf-8", "replace").strip()
        if "\t" in word:
            return " (separate the words of a message with single spaces, not tabs)"
        keywords = ("ready", "info") if self.ready is None else ("act", "info")
        near = closest(word.lower(), keywords)   # `READY` and `Act` are typos too
        if near and near != word:
            return f" (did you mean {near!r}?)"
        if self.ready is None:
            return " (expected 'ready NAME', or 'info TEXT'; write anything else to stderr)"
        return (" (expected 'act ID K' or 'info TEXT': every line on stdout is read as "
                "a message; write debugging output to stderr)")

    @property
    def _breach(self) -> str:
        """The reason code of a malformed line: before `ready` it spoils the handshake."""
        return "handshake" if self.ready is None else "protocol"

    def _exit_story(self, what: str) -> str:
        """`what` happened, plus the exit status once the program is gone."""
        assert self.child is not None
        status = self.child.exit_status(EXIT_WAIT)  # a program that closed its pipes is exiting
        if status is None:
            return f"the program {what}"
        assert self.cell is not None
        killer = self.cell.killed_by(status)
        if killer is not None:
            return f"the program {what} and was killed by signal {killer}"
        return f"the program {what} and exited with status {status}"

    def _fail(self, fault: BotFault) -> NoReturn:
        """Record the fault, kill the program and its group at once, and raise.

        A program that died of a resource limit (memory, CPU) is said to have.
        """
        self.fault = fault
        if self.child is not None:
            self.exit_status = self.child.close()
            assert self.cell is not None
            self.usage = self.cell.usage()
            limit = self.cell.verdict(self.usage, bytes(self.log.data[-4096:]))
            if limit and fault.reason in ("crash", "protocol", "handshake"):
                fault = self.fault = BotFault(fault.reason, f"{fault.detail}; {limit}")
        raise fault


def stderr_tail(log: bytes, count: int = 12) -> list[str]:
    """The last `count` lines a program wrote to stderr, from its log: without the
    command line heading the file, its `info` lines and the referee's own notes
    (``agon: ...``, ``[agon: log cut ...]``), which are not the program's.  They are
    shown on the organiser's terminal: control characters come as escapes (``\\x1b``),
    so that no escape sequence of the bot's sets the title, clears the screen or
    writes to the clipboard."""
    lines = log.decode("utf-8", errors="replace").splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return [escaped(line) for line in lines
            if not line.startswith(("info: ", "agon: ", "[agon: "))][-count:]


def escaped(text: str) -> str:
    """`text` from a program, for the terminal: its control characters (but tab) as
    escapes (``\\x1b``), so that none of its escape sequences reaches the terminal."""
    return CONTROL_CHARACTER.sub(lambda found: repr(found[0])[1:-1], text)


def _file_name(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in label) or "bot"


# -- a person at a terminal --------------------------------------------------

class Resign(Exception):
    """A human player gave up (typed quit, or closed the input)."""

    def __init__(self, seat: str) -> None:
        super().__init__(f"{seat} resigns")
        self.seat = seat


# -- from a --seat / --bot spec to a player ----------------------------------

@dataclass
class BuiltinSpec:
    """A built-in bot and its parameters, as a spec names them.

    The spec is ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE...`` (no spaces needed:
    ``ismcts:time=0.5,c=0.7``); the keys are the bot's declared parameters
    (`agon bots`), ``seed`` included.
    """

    name: str
    settings: dict[str, str]

    def bot(self, seed: int) -> Bot:
        """The bot, seeded by the spec's `seed=` if it has one, else by `seed`."""
        settings = dict(self.settings)
        if "seed" in settings:
            seed = SEED.parse(settings.pop("seed"))
        return bot_class(self.name)(seed, **settings)

    def argv(self) -> list[str]:
        """The same bot as a program speaking the protocol."""
        argv = [sys.executable, "-m", f"agon.bots.{self.name}"]
        for key, value in self.settings.items():
            argv += [f"--{key}", value]
        return argv


def builtin_spec(spec: str) -> BuiltinSpec | None:
    """The built-in bot `spec` names, None when it names none.

    Raises ValueError with a clear message for a built-in bot's unknown
    parameter or a value it cannot take (checked here, before any game).
    """
    name = builtin_name(spec)
    if name is None:
        return None
    rest = spec.strip()[len(name):]
    sep, rest = rest[:1], rest[1:]
    if sep and not rest.strip():
        raise ValueError(f"{spec!r}: nothing after {name}: (e.g. {name}:seed=7, "
                         "or the bare name)")
    settings = parse_settings(name, rest) if sep else {}
    cls = bot_class(name)
    try:
        settle(name, cls.all_params(), settings)
        cls(0, **{k: v for k, v in settings.items() if k != "seed"})  # cross-checks (budgets)
    except ParamError as err:
        raise ValueError(str(err)) from None
    return BuiltinSpec(name, settings)


def builtin_hint(spec: str, names: Sequence[str]) -> str:
    """The "(did you mean 'random'?)" added after a bot spec that `make_player` refused,
    when it is near one of `names`; nothing when its first word is a file (a file of
    yours that cannot be run, not a built-in bot misspelt: its message says what to do)."""
    words = spec.split()
    if words and os.path.lexists(words[0]):
        return ""
    meant = _builtin_meant(spec.strip())
    if meant is not None:
        return f" (did you mean {meant!r}? a built-in bot's settings follow a colon, " \
               "with no spaces)"
    return did_you_mean(spec.strip().partition(":")[0], names)   # `ismcts:time=1`: ismcts


def _builtin_meant(spec: str) -> str | None:
    """The built-in bot with settings that `spec` names but for its spaces (`mc : time=1`,
    `mc time=1 seed=2`), or None."""
    joined = re.sub(r"\s*([:,=])\s*", r"\1", spec)
    name, _, settings = joined.partition(" ")
    guesses = [joined, f"{name}:{','.join(settings.split())}"] if settings else [joined]
    for meant in guesses:
        try:
            if meant != spec and builtin_spec(meant) is not None:
                return meant
        except ValueError:   # settings the bot does not take: not what was meant
            continue
    return None


def make_player(spec: str, *, seed: int, log_dir: Path | None = None,
                transcript: bool = True, sandbox: Sandbox | None = None) -> Player:
    """The bot a command-line spec names.

    `spec` is a built-in bot (`bots.BUILTIN`, with parameters: `BuiltinSpec`)
    or a command line for an external program, split like a shell would but
    never run through one (``human`` is seated by its caller:
    `referee.human.HumanPlayer`).  A program's stderr and `info` lines go to
    ``<log_dir>/<seat>.log`` and, with `transcript`, every line exchanged to
    ``<log_dir>/<seat>.transcript``; it runs in `sandbox` (default: the
    default `Sandbox`).  Raises ValueError with a clear message for anything
    else.
    """
    name = spec.strip()
    builtin = builtin_spec(name)
    if builtin is not None:
        return InProcessPlayer(builtin.bot(seed), builtin.settings)
    if name == "human":
        raise ValueError("a person is seated with agon.referee.human.HumanPlayer, not make_player")
    try:
        argv = shlex.split(name)
    except ValueError as err:
        raise ValueError(f"cannot read the bot command {spec!r}: {err}") from None
    if not argv:
        raise ValueError("empty bot spec: give a built-in bot name, 'human', or a command line")
    problem = program_problem(argv[0])
    if problem is not None:
        builtin = ", ".join(sorted(BUILTIN))
        raise ValueError(f"unknown bot {spec!r}: not a built-in bot ({builtin}), not 'human', "
                         f"and {problem}")
    return SubprocessPlayer(argv, log_dir=log_dir, transcript=transcript, sandbox=sandbox)


def program_problem(program: str) -> str | None:
    """Why `program` (a command line's first word) cannot be run, None when it can.

    Says what a shell would leave its user to guess: the file is there but not
    executable, is a folder, or is in this folder but not on PATH (a shell too
    runs ``./bot``, not ``bot``).
    """
    try:
        return _program_problem(program)
    except (OSError, ValueError) as err:   # a name too long for a path, a NUL in it
        return (f"{protocol.shown(program)} is not a program found on PATH or an executable file "
                f"({getattr(err, 'strerror', None) or err})")


def _program_problem(program: str) -> str | None:
    if os.sep in program:
        path = Path(program)
        if path.is_file() and os.access(path, os.X_OK):
            return None
        if path.is_dir():
            return f"{program!r} is a folder, not a program"
        if path.is_file():
            return (f"{program!r} is not executable: make it so (chmod +x {program}), "
                    f"or name its interpreter first ({_interpreted(program)!r})")
        if program.startswith("~"):   # quoted, so no shell expanded it
            return (f"there is no file {program!r}: no shell runs the command line, so `~` "
                    f"is not your home folder (write {str(Path(program).expanduser())!r})")
        return f"there is no file {program!r}"
    if shutil.which(program) is not None:
        return None
    if Path(program).is_file():
        runnable = os.access(program, os.X_OK)
        how = (f"'./{program}'" if runnable else
               f"its interpreter first ({_interpreted(program)!r})")
        return (f"{program!r} is not a program found on PATH; for the file in this folder, "
                f"write {how}")
    return f"{program!r} is not a program found on PATH or an executable file"


# the usual interpreter of a script, by its suffix, for the example in a message
INTERPRETERS = {".py": "python3", ".js": "node", ".mjs": "node", ".sh": "bash", ".rb": "ruby",
                ".pl": "perl", ".lua": "lua", ".jar": "java -jar"}


def _interpreted(program: str) -> str:
    return f"{INTERPRETERS.get(Path(program).suffix, 'INTERPRETER')} {program}"
