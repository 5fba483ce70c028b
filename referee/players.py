"""Player kinds: in-process bot, subprocess bot (line protocol), human terminal.

The match loop (referee/match.py) talks to every kind through `Player`, so
it never knows whether a seat is a Python object, a program in another
language or a person.
"""

from __future__ import annotations

import os
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
from typing import IO, Any, NoReturn

from agon.bots import BUILTIN, bot_class, builtin_name
from agon.bots.base import Bot
from agon.bots.params import SEED, ParamError, parse_settings, settle

from . import protocol, transport
from .engine import Decision, State
from .sandbox import Cell, Sandbox, SandboxError, Usage
from .transport import BoundedLog, ChildProcess

# Reason codes for a seat that loses by forfeit (docs/protocol.md, "Faults").
FORFEIT_REASONS = ("timeout", "crash", "illegal", "protocol", "handshake", "resign")
MAX_DETAIL = 400  # characters of a forfeit's detail


class BotFault(Exception):
    """A player broke the rules of the referee (not of the game)."""

    def __init__(self, reason: str, detail: str) -> None:
        assert reason in FORFEIT_REASONS, reason
        if len(detail) > MAX_DETAIL:  # details go into records; a bot must not fill them
            detail = detail[:MAX_DETAIL] + "..."
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Limits:
    """Time and size limits the referee enforces, in seconds and bytes."""

    handshake: float = 10.0
    move: float = 10.0
    game: float = 600.0
    grace: float = 0.25
    max_line: int = 1 << 20
    max_log: int = 4 << 20  # bytes of a bot's log, and of its transcript

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

    @abstractmethod
    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        """Begin the game. `hello` holds game, seat, seats, ruleset, limits.

        Raises BotFault("handshake", ...) when the player cannot start.
        """

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

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Release every resource (processes, files). Safe to call twice."""


EXIT_WAIT = 0.2  # seconds to wait for an exit status after a program closes its output
CLIPPED = 500  # bytes of a line kept in `recent` (and characters of an info line in `infos`)


# -- in-process bots ---------------------------------------------------------

class InProcessPlayer(Player):
    """A built-in bot (`bots.base.Bot`) running inside the referee's process.

    It cannot be interrupted, so its clock is checked after it answers; an
    exception inside the bot is a crash.
    """

    def __init__(self, bot: Bot, settings: dict[str, str] | None = None) -> None:
        self.bot = bot
        self.settings = settings or {}
        self.wants_state = bot.wants_state

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
        began = time.monotonic()
        action = self._call("crash", self.bot.choose, decision, view, state)
        spent = time.monotonic() - began
        if spent > timeout:
            raise BotFault("timeout", f"answered after {spent:.3f} s (limit {timeout:.3f} s)")
        if not isinstance(action, str) or action not in decision.legal:
            raise BotFault("illegal", f"{action!r} is not a legal action of ask {ask_id}")
        return action

    def _call(self, reason: str, method: Callable[..., Any], *args: Any) -> Any:
        try:
            return method(*args)
        except Exception as err:  # a bug in a bot is that bot's forfeit, not ours
            where = traceback.extract_tb(err.__traceback__)[-1]
            raise BotFault(reason, f"{type(err).__name__}: {err} "
                                   f"({Path(where.filename).name}:{where.lineno})") from err


# -- programs speaking the line protocol -------------------------------------

class SubprocessPlayer(Player):
    """An external program speaking docs/protocol.md over its stdin/stdout.

    The program is started by `start` (one process for the whole game) in a
    sandbox (`referee.sandbox`: its own directory, limits, bubblewrap where
    available) and killed, with everything it started, by `stop` or `close`.
    Its stderr and its `info` lines are kept in `log`, and with `transcript`
    the lines exchanged in `transcript_log`, both in memory and bounded by
    `Limits.max_log`; `close` writes them to ``<log_dir>/<seat>.log`` and
    ``<log_dir>/<seat>.transcript``, so that no bot can read another's while
    the game runs.  The last lines exchanged are kept (cut short) in `recent`
    for error reports.
    """

    def __init__(self, argv: Sequence[str], *, log_dir: Path | None = None,
                 transcript: bool = False, label: str | None = None,
                 sandbox: Sandbox | None = None) -> None:
        if not argv:
            raise ValueError("an external bot needs a command line")
        self.argv = list(argv)
        self.log_dir = log_dir
        self.transcript = transcript and log_dir is not None
        self.label = label
        self.sandbox = sandbox or Sandbox()
        self.cell: Cell | None = None
        self.files: dict[str, bytes] = {}
        self.child: ChildProcess | None = None
        self.limits = Limits()
        self.ready: protocol.Ready | None = None
        self.fault: BotFault | None = None
        self.recent: deque[tuple[str, bytes]] = deque(maxlen=40)
        self.infos: deque[str] = deque(maxlen=100)
        self.answers = {"index": 0, "text": 0}
        self.slowest = 0.0
        self.exit_status: int | None = None
        self.usage: Usage | None = None
        self.quit_wait: float | None = None  # seconds to exit after quit; None: from limits
        self.log_path: Path | None = None
        self.log = BoundedLog(Limits.max_log, "log")
        self.transcript_log = BoundedLog(Limits.max_log, "transcript")
        self.seat = "bot"

    # -- identity and logs ---------------------------------------------------

    def identity(self) -> dict[str, Any]:
        who: dict[str, Any] = {"name": self.ready.name if self.ready else Path(self.argv[0]).name,
                               "kind": "program", "command": shlex.join(self.argv)}
        if self.ready and self.ready.about:
            who["about"] = self.ready.about
        return who

    def give(self, files: dict[str, bytes]) -> None:
        self.files.update(files)

    def _note(self, direction: str, line: bytes) -> None:
        self.recent.append((direction, line if len(line) <= CLIPPED else
                            line[:CLIPPED] + b"... (%d bytes)" % len(line)))
        if self.transcript:
            self.transcript_log.add(direction.encode(), b" ", line, b"\n")

    def _log_info(self, text: str) -> None:
        self.infos.append(text if len(text) <= CLIPPED else text[:CLIPPED] + "...")
        self.log.add(b"info: ", text.encode("utf-8", "replace"), b"\n")

    def _save_logs(self) -> None:
        """Write the log (and transcript) to `log_dir`: at the end, never while bots run."""
        if self.log_dir is None or self.child is None:
            return
        self.log_dir.mkdir(parents=True, exist_ok=True)
        name = _file_name(self.label or self.seat)
        self.log_path = self.log_dir / f"{name}.log"
        self.log_path.write_bytes(f"# {shlex.join(self.argv)}\n".encode() + self.log.getvalue())
        if self.transcript:
            (self.log_dir / f"{name}.transcript").write_bytes(self.transcript_log.getvalue())

    # -- the protocol ----------------------------------------------------------

    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        self.limits = limits
        self.seat = str(hello.get("seat", "bot"))
        self.log.cap = self.transcript_log.cap = limits.max_log
        try:
            self.cell = Cell(self.sandbox.hiding(self.log_dir), label=self.label or self.seat,
                             game_seconds=limits.game)
            for name, data in self.files.items():
                self.cell.put(name, data)
            self.child = ChildProcess(self.argv, max_line=limits.max_line, stderr=self.log,
                                      spawn=self.cell.spawn, stop_grace=self.cell.stop_grace)
        except (OSError, SandboxError) as err:
            self._fail(BotFault("handshake", f"cannot run {shlex.join(self.argv)!r}: "
                                             f"{getattr(err, 'strerror', None) or err}"))
        deadline = time.monotonic() + limits.handshake + limits.grace
        self._send(protocol.Hello(hello))
        while True:
            message = self._receive(deadline, _late_ready)
            if isinstance(message, protocol.Ready):
                self.ready = message
                wants = message.about.get("wants")
                self.wants_state = isinstance(wants, list) and "state" in wants
                return
            if not isinstance(message, protocol.Info):
                self._fail(BotFault("handshake", f"expected 'ready NAME', got "
                                                 f"{protocol.shown(self.recent[-1][1])}"))

    def event(self, event: dict[str, Any]) -> None:
        if self.fault is None and self.child is not None:
            self._send(protocol.EventMsg(event))

    def choose(self, ask_id: int, decision: Decision, view: dict[str, Any],
               clock: dict[str, float], timeout: float, state: State | None = None) -> str:
        if self.fault is not None:
            raise self.fault
        if self.child is None:
            self._fail(BotFault("crash", "the program was never started"))
        began = time.monotonic()
        legal = decision.legal
        self._send_line(protocol.ask_line(ask_id, legal, decision.prompt, view, clock,
                                          state.to_json() if state is not None else None))
        while True:
            message = self._receive(began + timeout, lambda: BotFault(
                "timeout", f"no answer to ask {ask_id} within {timeout:.3g} s"))
            if isinstance(message, protocol.Act):
                break
            if not isinstance(message, protocol.Info):
                self._fail(BotFault("protocol", f"expected 'act {ask_id} K', got "
                                                f"{protocol.shown(self.recent[-1][1])}"))
        spent = time.monotonic() - began
        if spent > self.slowest:
            self.slowest = spent
        if message.id != ask_id:
            self._fail(BotFault("protocol", f"answered ask {message.id}, but the open ask is {ask_id}"))
        return self._action_of(message, legal, ask_id)

    def _action_of(self, act: protocol.Act, legal: Sequence[str], ask_id: int) -> str:
        if act.index is not None:
            if not 0 <= act.index < len(legal):
                self._fail(BotFault("illegal", f"index {act.index} is out of range for ask "
                                               f"{ask_id} ({len(legal)} legal actions)"))
            self.answers["index"] += 1
            return legal[act.index]
        text = act.text or ""
        if text not in legal:
            self._fail(BotFault("illegal", f"{protocol.shown(text)} is not a legal action "
                                           f"of ask {ask_id}"))
        self.answers["text"] += 1
        return text

    def finish(self, result: dict[str, Any]) -> None:
        if self.fault is None and self.child is not None:
            self._send_quietly(protocol.ResultMsg(result))

    def stop(self) -> None:
        """End the program (asking it to quit first, if it did nothing wrong)."""
        if self.child is not None and not self.child.closed:
            linger = 0.0
            if self.fault is None and self._send_quietly(protocol.Quit()):
                linger = self.quit_wait if self.quit_wait is not None else \
                    min(1.0, max(0.2, 2 * self.limits.grace))
            self.exit_status = self.child.close(linger)
            assert self.cell is not None
            self.usage = self.cell.usage()

    def close(self) -> None:
        self.stop()
        if self.cell is not None:
            self._save_logs()
            self.cell.remove()
            self.cell = None

    # -- plumbing --------------------------------------------------------------

    def _send(self, message: protocol.Message) -> None:
        self._send_line(protocol.encode(message))

    def _send_line(self, line: bytes) -> None:
        assert self.child is not None
        self._note(">", line[:-1])
        try:
            self.child.send(line)
        except transport.Closed:
            self._fail(BotFault("crash", self._exit_story("stopped reading its input")))
        except transport.Backlog as err:
            self._fail(BotFault("timeout", f"{err} (it is not reading its input)"))

    def _send_quietly(self, message: protocol.Message) -> bool:
        """Send at the end of a game, when a bot that left early loses nothing more."""
        assert self.child is not None
        line = protocol.encode(message)
        self._note(">", line[:-1])
        try:
            self.child.send(line)
        except transport.TransportError:
            return False
        return True

    def _receive(self, deadline: float, late: Callable[[], BotFault]) -> protocol.Message:
        """The next message from the bot (blank lines skipped); `late()` is the fault on time.

        Info lines and blank lines are read against the same deadline: a flood
        of them spends the bot's own clock, and past `Limits.max_log` they are
        no longer kept.
        """
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
            if not line or line.isspace():
                continue  # blank lines are allowed and ignored
            self._note("<", line)
            try:
                message = protocol.decode_from_bot(line, self.limits.max_line)
            except protocol.ProtocolError as err:
                self._fail(BotFault(self._breach, f"{err}: {protocol.shown(line)}"))
            if type(message) is protocol.Info:
                self._log_info(message.text)
            return message

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


def _late_ready() -> BotFault:
    return BotFault("handshake", "no 'ready' in time")


def _file_name(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in label) or "bot"


# -- a person at a terminal --------------------------------------------------

class Resign(Exception):
    """A human player gave up (typed quit, or closed the input)."""

    def __init__(self, seat: str) -> None:
        super().__init__(f"{seat} resigns")
        self.seat = seat


HUMAN_HELP = """\
Type the number of an action, or its text (a unique beginning is enough).
  board          show the position again
  rules QUERY    look up the rules (a section id, a card, or any words)
  help           this help
  quit           resign the game"""


class HumanPlayer(Player):
    """A person at a terminal: sees the board, the news, the numbered legal actions.

    The match shows it the board (`board`) before each decision because it
    is `interactive`; a human has no clock of its own.
    """

    interactive = True

    def __init__(self, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 rules_lookup: Callable[[str], str] | None = None, name: str = "human") -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.rules_lookup = rules_lookup
        self.name = name
        self.seat = "?"
        self.news: list[str] = []
        self.last_board = ""

    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "kind": "human"}

    def _say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        self.seat = str(hello.get("seat", "?"))
        seats = ", ".join(hello.get("seats", []))
        self._say(f"You play {self.seat} in {hello.get('game', '?')} (seats: {seats}). "
                  "Type help at any prompt.")

    def event(self, event: dict[str, Any]) -> None:
        text = event.get("text") or event.get("type", "")
        if text:
            self.news.append(str(text))

    def board(self, text: str) -> None:
        self._show_news()
        if text != self.last_board:   # an unchanged board is not repeated (`board` shows it)
            self._say(text)
        self.last_board = text

    def choose(self, ask_id: int, decision: Decision, view: dict[str, Any],
               clock: dict[str, float], timeout: float, state: State | None = None) -> str:
        self._show_news()
        self._show_choices(decision)
        while True:
            self.stdout.write(f"{self.seat}> ")
            self.stdout.flush()
            reply = self.stdin.readline()
            if not reply:
                self._say()
                raise Resign(self.seat)
            action = self._understand(reply.strip(), decision)
            if action is not None:
                return action

    def _show_news(self) -> None:
        """What happened since this seat last decided, each event once."""
        if self.news:
            self._say("Since your last move:")
            for line in self.news:
                self._say(f"  {line}")
            self.news.clear()

    def _show_choices(self, decision: Decision) -> None:
        self._say(decision.prompt or "Your move:")
        for number, action in enumerate(decision.legal, 1):
            self._say(f"  {number:>3}. {action}")

    def _understand(self, reply: str, decision: Decision) -> str | None:
        """The action `reply` names, or None after answering a command or an error."""
        legal = list(decision.legal)
        word, _, rest = reply.partition(" ")
        if not reply:
            return None
        if reply.isdigit():
            number = int(reply)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self._say(f"Choose a number from 1 to {len(legal)}.")
            return None
        if reply in legal:
            return reply
        if word == "quit" and not rest:
            raise Resign(self.seat)
        if word == "help" and not rest:
            self._say(HUMAN_HELP)
        elif word == "board" and not rest:
            self._say(self.last_board or "(no board to show)")
            self._show_choices(decision)
        elif word == "rules":
            self._say(self._rules(rest.strip()))
        else:
            starting = [a for a in legal if a.startswith(reply)]
            if len(starting) == 1:
                return starting[0]
            if starting:
                self._say("That could be: " + "; ".join(starting))
            else:
                self._say(f"{reply!r} is not a legal action here; type help.")
        return None

    def _rules(self, query: str) -> str:
        if self.rules_lookup is None:
            return "No rules are available for this game."
        try:
            return self.rules_lookup(query)
        except Exception as err:  # a failed lookup must not end the game
            return f"Rules lookup failed: {err}"

    def finish(self, result: dict[str, Any]) -> None:
        self._show_news()
        ranks = result.get("ranks", {})
        standing = ", ".join(f"{seat} {rank}" for seat, rank in sorted(ranks.items(),
                                                                        key=lambda kv: kv[1]))
        points = result.get("points") or {}
        if len(ranks) == 1 and self.seat in points:   # solo: against the rules themselves
            verdict = {1.0: "you win", 0.5: "a draw"}.get(points[self.seat], "you lose")
            self._say(f"Game over ({result.get('reason', '')}): {verdict}.")
            return
        self._say(f"Game over ({result.get('reason', '')}). Ranks: {standing}")


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


def make_player(spec: str, *, seed: int, log_dir: Path | None = None,
                rules_lookup: Callable[[str], str] | None = None,
                stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                transcript: bool = True, sandbox: Sandbox | None = None) -> Player:
    """The player a command-line spec names.

    `spec` is a built-in bot (`bots.BUILTIN`, with parameters: `BuiltinSpec`),
    ``human``, or a command line for an external program, split like a shell
    would but never run through one.  A program's stderr and `info` lines go
    to ``<log_dir>/<seat>.log`` and, with `transcript`, every line exchanged
    to ``<log_dir>/<seat>.transcript``; it runs in `sandbox` (default: the
    default `Sandbox`).  Raises ValueError with a clear message for anything
    else.
    """
    name = spec.strip()
    builtin = builtin_spec(name)
    if builtin is not None:
        return InProcessPlayer(builtin.bot(seed), builtin.settings)
    if name == "human":
        return HumanPlayer(stdin=stdin, stdout=stdout, rules_lookup=rules_lookup)
    try:
        argv = shlex.split(name)
    except ValueError as err:
        raise ValueError(f"cannot read the bot command {spec!r}: {err}") from None
    if not argv:
        raise ValueError("empty bot spec: give a built-in bot name, 'human', or a command line")
    if not _runnable(argv[0]):
        builtin = ", ".join(sorted(BUILTIN))
        raise ValueError(f"unknown bot {spec!r}: not a built-in bot ({builtin}), not 'human', "
                         f"and {argv[0]!r} is not a program found on PATH or an executable file")
    return SubprocessPlayer(argv, log_dir=log_dir, transcript=transcript, sandbox=sandbox)


def _runnable(program: str) -> bool:
    if os.sep in program:
        path = Path(program)
        return path.is_file() and os.access(path, os.X_OK)
    return shutil.which(program) is not None
