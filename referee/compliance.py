"""`agon check`: a scripted protocol session against a bot program.

The bot plays one seat of a real game of the ruleset; the other seats play
uniformly at random inside the referee.  The session checks, in order, that
the program starts, answers the hello with `ready`, ignores an event of a type
no game uses, answers every ask with a legal action (by index or by text)
in time, plays a second game after `newgame` in the same process when its
`ready` asked for it (protocol 1.1), and exits on its own after `quit`.
Where a step fails, the report shows the last lines exchanged and the end of
the bot's stderr.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Engine, State
from .match import game_seats, hello_for, ruleset_hello
from .players import UNSENT, BotFault, Limits, SubprocessPlayer, escaped, stderr_tail
from .protocol import NEWGAME, wants
from .rng import stream
from .sandbox import Sandbox
from .suggest import did_you_mean

PROBE_EVENT = {"type": "agon-check", "text": "agon check: an event no game sends; ignore it"}
QUIT_WAIT = 2.0  # seconds a bot has to exit after `quit`
SHOWN_LINES = 12
NEWGAME_HINT = ("answer `newgame {...}` with `ready`, as the hello, and after a `result` "
                "read on until `newgame` or `quit`; or leave newgame out of `wants`")
STOPPED = {"scores": {}, "ranks": {}, "points": {}, "reason": "agon check stopped the game early"}


TIMEOUT_HINTS = """\
a timeout usually has one of these causes:
  - the bot wrote its line but did not flush stdout: output to a pipe is buffered
    (Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush())
  - the bot reads more than the one line it was sent before it answers: all of
    stdin (sys.stdin.read(), a read of a fixed size), which never ends while the
    game goes on; read one line at a time (mawk, Debian's awk, reads its input in
    blocks: run it as `awk -W interactive`, or use gawk)
  - the bot is slower than the limits: `ready` within the hello's `limits.handshake`
    seconds (--handshake-time), each `act` within its ask's `clock.move` (--move-time)
  - the bot waits for a message that does not come: it must answer the hello
    (`agon 1 {...}`) with `ready NAME`, and each `ask` with `act`; events need no answer"""


@dataclass
class Step:
    name: str
    ok: bool
    detail: str
    reason: str = ""  # a failure's reason code (timeout, crash, ...)


@dataclass
class Report:
    """What the check found; `render()` is the text `agon check` prints."""

    command: str
    seat: str
    game: str
    steps: list[Step] = field(default_factory=list)
    exchanged: list[tuple[str, bytes]] = field(default_factory=list)
    stderr_tail: list[str] = field(default_factory=list)
    infos: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.steps) and all(step.ok for step in self.steps)

    def add(self, name: str, ok: bool, detail: str, reason: str = "") -> bool:
        self.steps.append(Step(name, ok, detail, reason))
        return ok

    def render(self) -> str:
        lines = [f"agon check: {self.command} as {self.seat} in {self.game}"]
        for step in self.steps:
            lines.append(f"  {'ok  ' if step.ok else 'FAIL'}  {step.name}: {step.detail}")
        if any(step.reason == "timeout" for step in self.steps):
            lines.append(TIMEOUT_HINTS)
        if not self.passed:
            lines.append("last lines exchanged (> referee to bot, < bot to referee):")
            lines += [f"  {d} {_clip(line)}" for d, line in self.exchanged[-SHOWN_LINES:]]
            if not self.exchanged:
                lines.append("  (none)")
            lines.append("bot stderr (last lines):")
            lines += [f"  {line}" for line in self.stderr_tail] or ["  (empty)"]
        lines.append("PASS" if self.passed else "FAIL")
        return "\n".join(lines)


def _clip(line: bytes, limit: int = 160) -> str:
    text = escaped(line[:limit].decode("utf-8", "replace"))
    return text + ("..." if len(line) > limit else "")


def check_bot(argv: Sequence[str], engine: Engine, *, seat: str | None = None, seed: int = 1,
              options: dict[str, Any] | None = None, limits: Limits | None = None,
              max_decisions: int = 2000, log_dir: Path | None = None,
              quit_wait: float = QUIT_WAIT, sandbox: Sandbox | None = None,
              players: int | None = None) -> Report:
    """Run the scripted session; the report says which steps passed.

    The game has `players` seats (default: the ruleset's minimum); the bot
    plays `seat` (default: the first).
    """
    limits = limits or Limits()
    ruleset = engine.ruleset
    seats = game_seats(engine, int(ruleset.players["min"]) if players is None else players)
    seat = seat or seats[0]
    if seat not in seats:
        raise ValueError(f"{ruleset.id} has no seat {seat!r}{did_you_mean(seat, seats)} "
                         f"(seats: {', '.join(seats)})")
    options = ruleset.resolve_options(options or {})
    report = Report(" ".join(argv), seat, ruleset.ref)
    player = SubprocessPlayer(argv, log_dir=log_dir, label=seat, transcript=log_dir is not None,
                              sandbox=sandbox, lasting=True)
    try:
        _session(player, engine, seats, seat, seed, options, limits, max_decisions, report)
        if report.passed and player.ready is not None and wants(player.ready, NEWGAME):
            _newgame(player, engine, seats, seat, seed + 1, options, limits, max_decisions,
                     report)
        if report.passed:
            _finish(player, report, quit_wait)
    finally:
        player.close()
        report.exchanged = list(player.recent)
        report.infos = list(player.infos)
        report.stderr_tail = stderr_tail(player.log.getvalue(), SHOWN_LINES)
    return report


def _session(player: SubprocessPlayer, engine: Engine, seats: list[str], seat: str, seed: int,
             options: dict[str, Any], limits: Limits, max_decisions: int, report: Report) -> None:
    ruleset = engine.ruleset
    files = ruleset_hello(ruleset)[1]
    # the hello a real game sends (its `seed` and `teams` included): a bot that
    # passes here must not fail on the first line `agon play` sends it
    hello = hello_for(engine, seats, seat, seed, options, limits)
    began = time.monotonic()
    try:
        player.give(files)
        player.start(hello, limits)
    except BotFault as fault:
        late = time.monotonic() - began >= limits.handshake  # no `ready` in time
        report.add("handshake", False, _told(fault, "handshake"),
                   "timeout" if late else fault.reason)
        return
    assert player.ready is not None
    report.add("handshake", True, f"ready {player.ready.name!r} in {time.monotonic() - began:.3f} s")
    state = engine.new_game(seats, seed, options)
    try:
        player.event(PROBE_EVENT)
        asked, events = _play(player, state, seat, seed, limits, max_decisions)
    except BotFault as fault:
        report.add("asks", False, _told(fault, "asks"), fault.reason)
        return
    report.add("events", True, f"{events + 1} events sent, including one of an unknown type"
               if player.wants_events else "none sent: its ready skips events")
    forms = player.answers
    report.add("asks", asked > 0 or state.is_over(),
               f"{asked} answered legally ({forms['index']} by index, {forms['text']} by text), "
               f"slowest {player.slowest:.3f} s" if asked else "the bot's seat was never asked")
    _send_result(player, state)


def _newgame(player: SubprocessPlayer, engine: Engine, seats: list[str], seat: str, seed: int,
             options: dict[str, Any], limits: Limits, max_decisions: int,
             report: Report) -> None:
    """A second game, sent as `newgame` to the program still up from the first."""
    player.end_game()   # kept: it did well and asked for newgame
    hello = hello_for(engine, seats, seat, seed, options, limits)
    try:
        player.start(hello, limits)
    except BotFault as fault:
        report.add("newgame", False, _told(fault, "newgame"), fault.reason)
        return
    if player.starts > 1:   # it left, or did not answer `newgame` with `ready`
        said = [line.removeprefix("agon: the program ").replace(f" {UNSENT}", "") for line in
                player.log.getvalue().decode("utf-8", "replace").splitlines()
                if line.startswith("agon: ")]
        report.add("newgame", False, "its ready asked for newgame, but it "
                   + (said[-1].partition("; it is started again")[0] if said else
                      "did not take the next game")
                   + f": {NEWGAME_HINT}")
        return
    state = engine.new_game(seats, seed, options)
    try:
        asked, _ = _play(player, state, seat, seed, limits, max_decisions)
    except BotFault as fault:
        report.add("newgame", False, _told(fault, "newgame"), fault.reason)
        return
    report.add("newgame", True, f"a second game in the same process: {asked} asks "
                                "answered legally")
    _send_result(player, state)


def _told(fault: BotFault, step: str) -> str:
    """A fault's detail, after its reason unless the step's name says it already (and
    without the pointer to `agon check`: the report lists a timeout's causes)."""
    detail = fault.detail.replace(f" {UNSENT}", "")
    return detail if fault.reason == step else f"{fault.reason}: {detail}"


def _send_result(player: SubprocessPlayer, state: State) -> None:
    result = state.result()   # None for a game stopped after `max_decisions`
    player.finish({**(result.to_json() if result else STOPPED), "forfeits": {}})


def _play(player: SubprocessPlayer, state: State, seat: str, seed: int, limits: Limits,
          max_decisions: int) -> tuple[int, int]:
    """Play the game (or `max_decisions` of it); the asks and events the bot got."""
    others = stream(seed, "check")
    asked = events = 0
    for _ in range(max_decisions):
        decisions = state.pending()
        if not decisions:
            break
        for decision in decisions:
            if decision.seat == seat:
                asked += 1
                clock = {"move": limits.move, "remaining": limits.game}
                action = player.choose(asked, decision, state.view(seat), clock,
                                       limits.move + limits.grace)
            else:
                action = others.choice(list(decision.legal))
            for event in state.apply(decision.seat, action):
                if event.visible_to(seat):
                    events += 1
                    player.event(event.to_json())
    return asked, events


def _finish(player: SubprocessPlayer, report: Report, quit_wait: float) -> None:
    """Send quit; the bot must exit by itself within `quit_wait` seconds."""
    player.quit_wait = quit_wait
    began = time.monotonic()
    player.close()
    took = time.monotonic() - began
    status = player.exit_status
    if player.fault is not None:
        report.add("quit", False, f"{player.fault.reason}: {player.fault.detail}")
    elif status is not None and status < 0 and took >= quit_wait:
        report.add("quit", False, f"still running {quit_wait:g} s after 'quit' (killed)")
    else:
        report.add("quit", True, f"exited with status {status} {took:.3f} s after 'quit'")
