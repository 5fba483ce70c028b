"""A toy game and helper bots for the protocol tests.

The players must work with any engine, so these tests use a tiny counting
game instead of a real one: seats take turns adding 1 to 3 to a running
total, and whoever reaches the target wins.  Each seat also holds a secret
number that only its own view and one private event show, so the tests can
check that nothing leaks to the other seat.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agon.referee import players
from agon.referee.engine import Decision, Engine, Event, IllegalAction, Result, State
from agon.referee.players import Limits
from agon.referee.rng import stream
from agon.referee.ruleset import Ruleset
from agon.referee.sandbox import Sandbox, bwrap_problem

HERE = Path(__file__).resolve().parent
FAULTY = HERE / "faulty_bot.py"
TINY = Limits(handshake=0.5, move=0.5, game=5.0, grace=0.1)


class CountState(State):
    def __init__(self, seats: list[str], target: int, secrets: dict[str, int]) -> None:
        self.seats = seats
        self.target = target
        self.secrets = secrets
        self.total = 0
        self.turn = 0
        self.winner: str | None = None

    def pending(self) -> list[Decision]:
        if self.winner:
            return []
        seat = self.seats[self.turn % len(self.seats)]
        steps = range(1, min(3, self.target - self.total) + 1)
        return [Decision(seat, f"total {self.total}, add how much?", [f"add {n}" for n in steps])]

    def apply(self, seat: str, action: str) -> list[Event]:
        decision = self.pending()[0]
        if seat != decision.seat or action not in decision.legal:
            raise IllegalAction(f"{seat} cannot {action!r} now")
        step = int(action.split()[1])
        self.total += step
        self.turn += 1
        events = [Event("add", f"{seat} adds {step}: total {self.total}",
                        {"seat": seat, "step": step, "total": self.total})]
        if self.turn == 1:  # a private event: each seat learns its own secret once
            events += [Event("secret", f"{s} holds secret {n}", {"secret": n},
                             to=frozenset([s])) for s, n in self.secrets.items()]
        if self.total >= self.target:
            self.winner = seat
        return events

    def view(self, seat: str) -> dict[str, Any]:
        return {"total": self.total, "target": self.target, "my_secret": self.secrets[seat],
                "padding": self.padding}

    padding = ""  # tests enlarge views with this to fill pipes

    def result(self) -> Result | None:
        if not self.winner:
            return None
        scores = {s: 1.0 if s == self.winner else 0.0 for s in self.seats}
        ranks = {s: 1 if s == self.winner else 2 for s in self.seats}
        points = {self.winner: 1.0} if len(self.seats) == 1 else {}
        return Result(scores, ranks, f"{self.winner} reached {self.target}", points)

    def clone(self) -> CountState:
        copy = CountState(list(self.seats), self.target, dict(self.secrets))
        copy.total, copy.turn, copy.winner = self.total, self.turn, self.winner
        return copy

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "target": self.target, "secrets": self.secrets,
                "total": self.total, "turn": self.turn, "winner": self.winner}


class CountEngine(Engine):
    id = "toy-count"

    def new_game(self, seats: Sequence[str], seed: int, options: dict[str, Any]) -> CountState:
        rng = stream(seed, "secrets")
        secrets = {s: rng.randrange(1000, 10000) for s in seats}
        return CountState(list(seats), int(options.get("target", 10)), secrets)

    def load(self, data: dict[str, Any]) -> CountState:
        state = CountState(data["seats"], data["target"], data["secrets"])
        state.total, state.turn, state.winner = data["total"], data["turn"], data["winner"]
        return state


TOY_RULESET = Ruleset(
    id="toy-count", name="Counting to a target", version="1", engine="toy-count",
    players={"min": 1, "max": 4}, options={"target": {"type": "integer", "default": 10}},
    rules=[], data={}, sha256="0" * 64, source="<tests/protocol>")


@pytest.fixture
def engine() -> CountEngine:
    return CountEngine(TOY_RULESET)


@pytest.fixture
def hello() -> dict[str, Any]:
    return {"game": "toy-count", "seat": "p1", "seats": ["p1", "p2"],
            "ruleset": {"id": "toy-count", "version": "1", "sha256": "0" * 64},
            "limits": TINY.to_json()}


def faulty(mode: str, *extra: str) -> list[str]:
    """The command line of the misbehaving test bot in `mode`."""
    return [sys.executable, str(FAULTY), mode, *extra]


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie waiting for its parent counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.fixture(autouse=True)
def _no_stray_children():
    """Every test must leave no process of ours behind."""
    before = set(_children())
    yield
    stray = [pid for pid in set(_children()) - before if alive(pid)]
    assert not stray, f"processes left running: {stray}"


def _children() -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[1] == me:
                found.append(int(entry.name))
    return found


@pytest.fixture(params=["bwrap", "none"])
def sandbox_mode(request, monkeypatch) -> str:
    """Every test of programs runs under both sandboxes (bwrap where it works here)."""
    if request.param == "bwrap" and bwrap_problem():
        pytest.skip(f"no bubblewrap sandbox here: {bwrap_problem()}")
    monkeypatch.setattr(players, "Sandbox", functools.partial(Sandbox, mode=request.param))
    return request.param


def running_with(marker: str) -> list[int]:
    """The processes (other than zombies) whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes() \
                    and alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


class Kit:
    """Helpers the tests reach through the `kit` fixture (conftest is not importable)."""

    limits = TINY
    sandbox = "auto"
    running_with = staticmethod(running_with)
    ruleset = TOY_RULESET
    faulty_path = FAULTY
    faulty = staticmethod(faulty)
    alive = staticmethod(alive)
    CountEngine = CountEngine


@pytest.fixture
def kit(sandbox_mode) -> type[Kit]:
    Kit.sandbox = sandbox_mode
    return Kit
