"""Game records (JSON) and replay verification: records are proof.

A record holds the ruleset (id@version + sha256), who sat where, the seed,
every action in order, the forfeits and the result.  Re-running seed +
actions through the engine must reproduce the result exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Event, IllegalAction, Result, ranks_from_scores
from .ruleset import Ruleset

RECORD_FORMAT = "agon-record/1"


class RecordError(Exception):
    """A record that cannot be read or replayed; the message says why."""


@dataclass
class GameRecord:
    ruleset: Ruleset
    options: dict[str, Any]
    seed: int
    seats: dict[str, dict[str, Any]]
    teams: dict[str, list[str]] | None
    actions: list[list[str]]
    result: Result
    forfeits: dict[str, dict[str, Any]] = field(default_factory=dict)
    duration: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "ruleset": {"id": self.ruleset.id, "version": self.ruleset.version,
                        "sha256": self.ruleset.sha256, "source": self.ruleset.source},
            "engine": self.ruleset.engine,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "teams": self.teams,
            "actions": self.actions,
            "result": self.result.to_json(),
            "forfeits": self.forfeits,
            "duration": round(self.duration, 4),
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def sides_of(seats: list[str], teams: dict[str, list[str]] | None) -> list[list[str]]:
    """The competing sides: the teams where there are teams, else each seat."""
    return [list(members) for members in teams.values()] if teams else [[s] for s in seats]


def forfeit_result(seats: list[str], teams: dict[str, list[str]] | None,
                   engine_result: Result | None,
                   forfeits: dict[str, dict[str, Any]]) -> Result:
    """The result once forfeits are taken into account.

    With no forfeit it is the engine's.  With one or two sides the game was
    stopped at the forfeit: the other side wins.  With more sides the game
    was played out and the forfeiting seats rank last, tied.
    """
    if not forfeits:
        assert engine_result is not None, "a game without forfeits must finish"
        return engine_result
    why = "; ".join(f"{seat} forfeits ({f['reason']})" for seat, f in sorted(forfeits.items()))
    sides = sides_of(seats, teams)
    if engine_result is None:
        losers = {seat for side in sides if any(s in forfeits for s in side) for seat in side}
        scores = {seat: 0.0 if seat in losers else 1.0 for seat in seats}
        ranks = ranks_from_scores(scores)
        points = {seat: scores[seat] for seat in seats} if len(sides) == 1 else {}
        return Result(scores, ranks, why, points=points, teams=teams)
    finishers = {s: v for s, v in engine_result.ranks.items() if s not in forfeits}
    ranks = ranks_from_scores({s: -r for s, r in finishers.items()})
    last = len(finishers) + 1
    ranks.update({seat: last for seat in seats if seat in forfeits})
    return Result(dict(engine_result.scores), ranks, f"{engine_result.reason}; {why}",
                  teams=teams)


@dataclass
class Replay:
    """What re-running a record gave."""

    events: list[Event]
    result: Result | None
    problems: list[str]

    @property
    def verified(self) -> bool:
        return not self.problems


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: not a JSON game record ({exc})") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path}: not an {RECORD_FORMAT} game record")
    missing = [k for k in ("ruleset", "seed", "seats", "actions", "result") if k not in record]
    if missing:
        raise RecordError(f"{path}: record lacks {', '.join(missing)}")
    return record


def replay(record: dict[str, Any], ruleset: Ruleset) -> Replay:
    """Re-run the record's seed and actions and compare with its result."""
    from .games import engine_class  # engines import lazily

    problems: list[str] = []
    if ruleset.sha256 != record["ruleset"].get("sha256"):
        problems.append(f"ruleset {ruleset.ref} differs from the one the game was played "
                        f"with (sha256 {ruleset.sha256[:12]} vs "
                        f"{str(record['ruleset'].get('sha256'))[:12]})")
    engine = engine_class(ruleset.engine)(ruleset)
    seats = list(record["seats"])
    state = engine.new_game(seats, int(record["seed"]), dict(record.get("options") or {}))
    events: list[Event] = state.setup_events()
    for number, entry in enumerate(record["actions"], 1):
        seat, action = entry
        waiting = {d.seat for d in state.pending()}
        if seat not in waiting:
            problems.append(f"action {number}: {seat} was not asked to act ({action!r})")
            return Replay(events, None, problems)
        try:
            events.extend(state.apply(seat, action))
        except IllegalAction as exc:
            problems.append(f"action {number}: {seat} {action!r} is illegal here ({exc})")
            return Replay(events, None, problems)
    forfeits = record.get("forfeits") or {}
    over = not state.pending()
    if not forfeits and not over:
        problems.append("the actions stop before the game is over")
        return Replay(events, None, problems)
    decided = forfeits and len(sides_of(seats, engine.teams(seats))) <= 2
    result = forfeit_result(seats, engine.teams(seats),
                            None if decided else state.result(), forfeits)
    recorded = record["result"]
    for key, value in result.to_json().items():
        if json.dumps(value, sort_keys=True) != json.dumps(recorded.get(key), sort_keys=True):
            problems.append(f"result {key} differs: recorded {recorded.get(key)!r}, "
                            f"replay gives {value!r}")
    return Replay(events, result, problems)
