"""A toy game and helpers for the tournament tests.

"Three picks": for `rounds` rounds every seat in turn picks high (3), mid (2)
or low (1) and adds a die (0 or 1) from the seed's "dice" stream.  Highest
total ranks first.  "high" is always listed first, so a bot that takes the
first legal action never does worse than anyone else.  With ``data.teams`` the
odd and even seats form two teams; with one seat it is a solo game won by
reaching `target`.  The `engine_bug` fixture makes it raise on even seeds.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from agon.cli import tournament as cli_tournament
from agon.cli.tournament import tournament
from agon.referee import tournament as tournament_module
from agon.referee import tournament_setup
from agon.referee import worker as worker_module
from agon.referee.engine import (
    Decision,
    Engine,
    Event,
    IllegalAction,
    Result,
    State,
    ranks_from_scores,
)
from agon.referee.games import register
from agon.referee.rng import stream
from agon.referee.ruleset import Ruleset

PICKS = {"high": 3, "mid": 2, "low": 1}


class PicksState(State):
    def __init__(self, engine: PicksEngine, seats: list[str], seed: int,
                 options: dict[str, Any]) -> None:
        self.engine, self.seats, self.seed, self.options = engine, seats, seed, options
        self.totals = dict.fromkeys(seats, 0)
        self.moves = 0

    def pending(self) -> list[Decision]:
        if self.moves >= self.options["rounds"] * len(self.seats):
            return []
        seat = self.seats[self.moves % len(self.seats)]
        return [Decision(seat, "pick", list(PICKS))]

    def apply(self, seat: str, action: str) -> list[Event]:
        if [d.seat for d in self.pending()] != [seat] or action not in PICKS:
            raise IllegalAction(f"{seat} cannot {action!r} now")
        if self.engine.bug_on_even_seeds and self.seed % 2 == 0:
            raise RuntimeError("the engine broke")
        die = stream(self.seed, f"dice:{self.moves}").randint(0, 1)
        self.totals[seat] += PICKS[action] + die
        self.moves += 1
        return [Event("pick", f"{seat} picks {action} and rolls {die}", {"seat": seat})]

    def view(self, seat: str) -> dict[str, Any]:
        return {"totals": self.totals}

    def result(self) -> Result | None:
        if self.pending():
            return None
        scores = {s: float(v) for s, v in self.totals.items()}
        teams = self.engine.teams(self.seats)
        if len(self.seats) == 1:
            seat = self.seats[0]
            won = scores[seat] >= self.options["target"]
            return Result(scores, {seat: 1}, "solo", points={seat: 1.0 if won else 0.0})
        if teams:
            sums = {t: sum(scores[s] for s in members) for t, members in teams.items()}
            team_rank = ranks_from_scores(sums)
            ranks = {s: team_rank[t] for t, members in teams.items() for s in members}
            return Result(scores, ranks, "teams", teams=teams)
        return Result(scores, ranks_from_scores(scores), "totals")

    def clone(self) -> PicksState:
        return self.engine.load(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "seed": self.seed, "options": self.options,
                "totals": self.totals, "moves": self.moves}


class PicksEngine(Engine):
    id = "test-three-picks"
    bug_on_even_seeds = False

    def teams(self, seats: Sequence[str]) -> dict[str, list[str]] | None:
        if not self.ruleset.data.get("teams") or len(seats) < 2:
            return None
        return {"odd": list(seats[0::2]), "even": list(seats[1::2])}

    def new_game(self, seats, seed, options) -> PicksState:
        return PicksState(self, list(seats), seed, self.ruleset.resolve_options(options))

    def load(self, data) -> PicksState:
        state = PicksState(self, data["seats"], data["seed"], data["options"])
        state.totals, state.moves = dict(data["totals"]), data["moves"]
        return state


register(PicksEngine)


def picks_ruleset(ref: str) -> Ruleset:
    players = {"picks-solo": {"min": 1, "max": 1}}.get(ref, {"min": 2, "max": 6})
    options = {"rounds": {"type": "integer", "default": 3, "text": "rounds"},
               "target": {"type": "integer", "default": 8, "text": "solo target"}}
    return Ruleset(id=ref, name="Three picks", version="1", engine=PicksEngine.id,
                   players=players, options=options, rules=[],
                   data={"teams": ref == "picks-teams"}, sha256="1" * 64, source=ref)


@pytest.fixture
def picks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `picks`, `picks-teams` and `picks-solo` loadable by the tournament.

    Worker processes are forked, so they inherit the patch and the engine.
    """
    real = tournament_module.load_ruleset

    def load(ref: str, rulesets_path: tuple = ()) -> Ruleset:
        return picks_ruleset(ref) if str(ref).startswith("picks") else real(ref, rulesets_path)

    monkeypatch.setattr(tournament_module, "load_ruleset", load)   # a resume's check
    monkeypatch.setattr(tournament_setup, "load_ruleset", load)
    monkeypatch.setattr(worker_module, "_ENGINES", {})


@pytest.fixture
def engine_bug(monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], None]:
    """Switch on (or off) a bug that makes the engine raise on even seeds."""

    def switch(on: bool) -> None:
        monkeypatch.setattr(PicksEngine, "bug_on_even_seeds", on)

    return switch


FIRST_LEGAL_BOT = """
import sys
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "agon":
        print("ready first", flush=True)
    elif words and words[0] == "ask":
        print("act", words[1], 0, flush=True)
    elif words and words[0] == "quit":
        break
"""


@pytest.fixture
def first_legal_bot(tmp_path: Path) -> str:
    """A command line for an external bot that always takes the first legal action."""
    script = tmp_path / "first_bot.py"
    script.write_text(FIRST_LEGAL_BOT)
    return f"{sys.executable} {script}"


@pytest.fixture
def last_legal_bot(tmp_path: Path) -> str:
    """An external bot that always takes the last legal action ("low" in three picks:
    it loses every game against the first-legal bot, 3 x 1 + dice < 3 x 3)."""
    script = tmp_path / "last_bot.py"
    script.write_text(FIRST_LEGAL_BOT.replace('words[1], 0,', 'words[1], int(words[2]) - 1,'))
    return f"{sys.executable} {script}"


def cli_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(tournament)

    @app.command()
    def other() -> None:  # a second command, so `tournament` is addressed by name
        pass

    return app


@pytest.fixture
def agon_drawn_seed(tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """Run `agon tournament ARGS` in this process; returns click's Result.  A run
    without --out keeps its temporary journal (and the logs of its notable games,
    which outlive it) in a folder of the test's, not in the machine's /tmp."""
    app = cli_app()
    folder = tmp_path_factory.mktemp("journals")

    def temporary_journal() -> Path:
        handle, name = tempfile.mkstemp(prefix="agon-tournament-", suffix=".jsonl", dir=folder)
        os.close(handle)
        return Path(name)

    monkeypatch.setattr(cli_tournament, "_temporary_journal", temporary_journal)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["tournament", *args])

    return run


@pytest.fixture
def agon(agon_drawn_seed: Callable[..., Any]) -> Callable[..., Any]:
    """`agon_drawn_seed` with master seed 1 unless ARGS give one (or resume): a test's
    games are the same at every run, not drawn at random as a user's are."""

    def run(*args: str) -> Any:
        given = any(arg.startswith(("--seed", "--resume")) for arg in args)
        return agon_drawn_seed(*args, *(() if given else ("--seed", "1")))

    return run


@pytest.fixture
def agon_json(agon: Callable[..., Any]) -> Callable[..., dict[str, Any]]:
    """Run a tournament with --format json and return the parsed standings."""

    def run(*args: str) -> dict[str, Any]:
        result = agon(*args, "--format", "json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    return run


@pytest.fixture
def as_old_journal() -> Callable[..., None]:
    """Rewrite a journal as a referee wrote it before lines named their header
    (agon-tournament/1), after `edit(lines)`: every line signed again by this key."""
    from agon.referee.signing import Keyring

    def rewrite(path: Path, edit: Callable[[list[dict[str, Any]]], Any] = lambda lines: None
                ) -> None:
        keyring = Keyring.load()
        lines = [{k: v for k, v in json.loads(text).items()
                  if k not in ("run", "header_sha256", "signature")}
                 for text in path.read_text().splitlines()]
        lines[0]["format"] = "agon-tournament/1"
        edit(lines)
        path.write_text("".join(json.dumps(keyring.sign(line)) + "\n" for line in lines))

    return rewrite
