"""Game records (JSON) and replay verification: records are proof.

A record holds the ruleset (id@version + sha256), who sat where, the seed,
every action in order, the forfeits and the result, a digest of the final
position (SHA-256 of the state's canonical JSON, and the action count) and
the referee's signature (`referee.signing`).  Verifying a record re-runs
seed + actions through the engine, which must reproduce the digest and the
result exactly; what replay cannot check (the bots named, the forfeits) only
a valid signature proves.

A game stopped before its end (saved, or interrupted with Ctrl-C) is written
as an *unfinished* record: ``"status": "unfinished"``, ``"result": null``, and
under ``resume`` what `agon play --resume` needs to seat the same players
again.  Its actions replay legally and reach its digest, but it proves no
result; tournaments never accept one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Engine, Event, IllegalAction, Result, State, ranks_from_scores
from .ruleset import Ruleset
from .ruleset_model import RulesetError
from .signing import Check, Keyring, check_signature, digest, parse_json

RECORD_FORMAT = "agon-record/1"
# what a record's digest covers: "position" (`State.position_json`) since the
# digest says so; the whole `to_json`, random streams included, in older records
DIGEST_COVERS = "position"
UNFINISHED = "unfinished"  # the `status` of a record of a game stopped before its end


class RecordError(Exception):
    """A record that cannot be read or replayed; the message says why."""


def _copied(value: Any) -> Any:
    """A JSON value's copy, nested objects and arrays copied too."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


@dataclass
class GameRecord:
    ruleset: Ruleset
    options: dict[str, Any]
    seed: int
    seats: dict[str, dict[str, Any]]
    teams: dict[str, list[str]] | None
    actions: list[list[str]]
    result: Result | None  # None: the game is unfinished
    forfeits: dict[str, dict[str, Any]] = field(default_factory=dict)
    duration: float = 0.0
    state_sha256: str = ""  # digest of the final position (of the last one, if unfinished)
    resume: dict[str, Any] | None = None  # unfinished: how to seat the players again

    @property
    def unfinished(self) -> bool:
        return self.result is None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON, sharing nothing with it: editing one leaves the other."""
        unfinished = {"status": UNFINISHED, "resume": self.resume or {}} if self.unfinished else {}
        return {
            "format": RECORD_FORMAT,
            "ruleset": {"id": self.ruleset.id, "version": self.ruleset.version,
                        "sha256": self.ruleset.sha256, "source": self.ruleset.source},
            "engine": self.ruleset.engine,
            "options": dict(self.options),
            "seed": self.seed,
            "seats": _copied(self.seats),
            "teams": {team: list(seats) for team, seats in self.teams.items()}
            if self.teams else self.teams,
            "actions": [list(action) for action in self.actions],
            "result": self.result.to_json() if self.result else None,
            "forfeits": _copied(self.forfeits),
            "duration": round(self.duration, 4),
            "digest": {"state_sha256": self.state_sha256, "actions": len(self.actions),
                       "covers": DIGEST_COVERS},
            **unfinished,
        }

    def signed(self, keyring: Keyring) -> dict[str, Any]:
        """The record with the referee's signature."""
        return keyring.sign(self.to_json())

    def save(self, path: str | Path, keyring: Keyring | None) -> None:
        """Write the record, signed when a keyring is given."""
        data = self.signed(keyring) if keyring else self.to_json()
        Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


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
    state_sha256: str | None = None  # digest of the position the actions reach

    @property
    def verified(self) -> bool:
        return not self.problems


MAX_RECORD_BYTES = 64 * 1024 * 1024


def is_unfinished(record: dict[str, Any]) -> bool:
    return record.get("status") == UNFINISHED


def load_record(path: str | Path) -> dict[str, Any]:
    """A record's JSON, finished or not, checked for the shape replay relies on."""
    raw = b""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: larger than {MAX_RECORD_BYTES:,} bytes; not a record")
        if not raw:   # what `agon play` leaves when it is killed before any save
            raise RecordError(f"{path}: empty; nothing of its game was saved")
        record = parse_json(raw.decode("utf-8-sig"))   # a BOM, as a journal may have
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: a folder, not a game record file") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not a JSON game record (not UTF-8 text: byte "
                          f"{exc.start})") from None
    except OSError as exc:   # Python's "[Errno 13] ..." says less than the reason alone
        raise RecordError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"{path}: not a JSON game record ({exc})"
                          f"{_lines_note(path, raw)}") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path}: not an {RECORD_FORMAT} game record")
    problem = record_problem(record, unfinished_ok=True)
    if problem:
        raise RecordError(f"{path}: {problem}")
    return record


def _lines_note(path: str | Path, raw: bytes) -> str:
    """What to say of a file of several JSON lines (a journal), read as a record.

    A journal is told from a record by its first line, which only a regular
    file can be read again after: on a pipe (`agon replay <(cat FILE)`) or
    with its header moved from the top, it reaches the record reader.
    """
    first = raw.split(b"\n", 1)[0]
    try:
        head = json.loads(first) if len(first) < len(raw.rstrip()) else None
    except ValueError:
        return ""
    if not isinstance(head, dict):
        return ""
    where = "" if Path(path).is_file() else \
        "; a tournament journal is read only from a regular file, not a pipe or a device"
    return f": it holds one JSON value a line, as a tournament journal does{where}"


def record_problem(record: dict[str, Any], unfinished_ok: bool = False) -> str | None:
    """What makes a record unreadable for replay, if anything.

    An unfinished record is one only where `unfinished_ok` (never in a tournament).
    """
    if is_unfinished(record):
        if not unfinished_ok:
            return "it is the record of an unfinished game"
        if record.get("result") is not None or not isinstance(record.get("resume"), dict):
            return "an unfinished record has a null result and a resume mapping"
    missing = [k for k in ("ruleset", "seed", "seats", "actions", "result") if k not in record]
    if missing:
        return f"record lacks {', '.join(missing)}"
    if not isinstance(record["ruleset"], dict):
        return "its ruleset is not a mapping"
    if not isinstance(record["seed"], int) or isinstance(record["seed"], bool):
        return "its seed is not a whole number"
    if not isinstance(record["seats"], dict) or not all(isinstance(s, str)
                                                        for s in record["seats"]):
        return "its seats are not a mapping of seat names"
    if not isinstance(record.get("options") or {}, dict):
        return "its options are not a mapping"
    if not isinstance(record.get("forfeits") or {}, dict) or not all(
            isinstance(f, dict) for f in (record.get("forfeits") or {}).values()):
        return "its forfeits are not a mapping of seat to forfeit"
    actions = record["actions"]
    if not isinstance(actions, list) or not all(
            isinstance(a, list) and len(a) == 2 and all(isinstance(x, str) for x in a)
            for a in actions):
        return "its actions are not a list of [seat, action] pairs"
    if not isinstance(record["result"], dict) and not is_unfinished(record):
        return "its result is not a mapping"
    return None


@dataclass
class Step:
    """One position of a re-run record: after `number` actions (0: the start)."""

    number: int
    seat: str | None        # who acted to reach it (None at the start)
    events: list[Event]     # what that action caused (at the start: the setup)
    state: State            # the position (one object, changed in place by the next step)


def played_seats(record: dict[str, Any], engine: Engine) -> list[str]:
    """The record's seats in the order its game was played: the engine's.

    Every game agon plays seats its players in `engine.seats` order, and a
    record keeps them as a mapping whose key order no signature covers (it
    signs sorted keys): a tool that rewrites the JSON may reorder them, and a
    forger may, and neither may change the game that replays.  Seats that are
    not the engine's for their count keep the record's order, and the game
    says what is wrong with them.
    """
    named = list(record["seats"])
    try:
        ordered = engine.seats(len(named))
    except ValueError:   # a count the ruleset is not played by
        return named
    return ordered if sorted(ordered) == sorted(named) else named


def replay_steps(record: dict[str, Any], engine: Engine) -> Iterator[Step]:
    """The record's game position by position, from the start to its last action.

    Raises RecordError naming the first action that was not asked for or is
    illegal.  The state is the same object at every step: clone it to keep it.
    """
    seats = played_seats(record, engine)
    try:
        state = engine.new_game(seats, int(record["seed"]), dict(record.get("options") or {}))
    except (RulesetError, ValueError) as exc:   # seats or options this game cannot start with
        raise RecordError(f"the game cannot start with the record's seats and options: "
                          f"{exc}") from None
    yield Step(0, None, state.setup_events(), state)
    for number, (seat, action) in enumerate(record["actions"], 1):
        waiting = {d.seat for d in state.pending()}
        if seat not in waiting:
            raise RecordError(f"action {number}: {seat} was not asked to act ({action!r})")
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            raise RecordError(f"action {number}: {seat} {action!r} is illegal here "
                              f"({exc})") from None
        yield Step(number, seat, events, state)


def ruleset_problem(record: dict[str, Any], ruleset: Ruleset) -> str | None:
    """Why `ruleset` is not the one the record's game was played with, if it is not."""
    if ruleset.sha256 == record["ruleset"].get("sha256"):
        return None
    return (f"ruleset {ruleset.ref} differs from the one the game was played with (sha256 "
            f"{ruleset.sha256[:12]} vs {str(record['ruleset'].get('sha256'))[:12]})")


def replay(record: dict[str, Any], ruleset: Ruleset) -> Replay:
    """Re-run the record's seed and actions and compare with its result."""
    from .games import engine_class  # engines import lazily

    differs = ruleset_problem(record, ruleset)
    problems = [differs] if differs else []
    engine = engine_class(ruleset.engine)(ruleset)
    events: list[Event] = []
    try:
        for step in replay_steps(record, engine):
            events.extend(step.events)
            state = step.state
    except RecordError as exc:
        return Replay(events, None, [*problems, str(exc)])
    seats = played_seats(record, engine)
    reached = state_digest(state, _covers(record))
    forfeits = record.get("forfeits") or {}
    over = not state.pending()
    if is_unfinished(record):
        return Replay(events, None, _unfinished_problems(record, engine, seats, over), reached)
    if not forfeits and not over:
        problems.append("the actions stop before the game is over")
        return Replay(events, None, problems, reached)
    decided = forfeits and len(sides_of(seats, engine.teams(seats))) <= 2
    if decided:
        problems += _forfeit_problems(forfeits, len(record["actions"]))
    result = forfeit_result(seats, engine.teams(seats),
                            None if decided else state.result(), forfeits)
    recorded = record["result"]
    for key, value in result.to_json().items():
        if json.dumps(value, sort_keys=True) != json.dumps(recorded.get(key), sort_keys=True):
            problems.append(f"result {key} differs: recorded {recorded.get(key)!r}, "
                            f"replay gives {value!r}")
    return Replay(events, result, problems, reached)


def state_digest(state: State, covers: str = DIGEST_COVERS) -> str:
    """The sha256 a record keeps of its final position (see DIGEST_COVERS)."""
    return digest(state.position_json() if covers == DIGEST_COVERS else state.to_json())


def _covers(record: dict[str, Any]) -> str:
    recorded = record.get("digest")
    return recorded.get("covers", "state") if isinstance(recorded, dict) else DIGEST_COVERS


def _unfinished_problems(record: dict[str, Any], engine: Any, seats: list[str],
                         over: bool) -> list[str]:
    """An unfinished game has not ended: neither by its moves nor by a deciding forfeit."""
    if over:
        return ["the record says the game is unfinished, but its actions end it"]
    if record.get("forfeits") and len(sides_of(seats, engine.teams(seats))) <= 2:
        return ["the record says the game is unfinished, but a forfeit decided it"]
    return []


def _forfeit_problems(forfeits: dict[str, dict[str, Any]], actions: int) -> list[str]:
    """A forfeit that ends a two-sided game comes after the last action."""
    return [f"{seat}'s forfeit is recorded after {f.get('after_actions')} actions, but the "
            f"game goes on to {actions}"
            for seat, f in sorted(forfeits.items()) if f.get("after_actions") != actions]


# -- verification: what a record proves ----------------------------------------

@dataclass(frozen=True)
class Finding:
    """One thing checked about a record, and whether it holds."""

    ok: bool
    text: str


@dataclass
class Verification:
    replay: Replay
    replayed: list[Finding]  # the actions replay to the result, or what stops them
    digest: Finding  # the final position matches the record's digest
    signature: Finding  # the referee's signature holds

    @property
    def findings(self) -> list[Finding]:
        return [*self.replayed, self.digest, self.signature]

    @property
    def verified(self) -> bool:
        return all(f.ok for f in self.findings)


def verify(record: dict[str, Any], ruleset: Ruleset, keyring: Keyring | None) -> Verification:
    """Replay, digest and signature: each said in words, proven or not."""
    outcome = replay(record, ruleset)
    count = len(record["actions"])
    said = ("and stop in a game not over yet (unfinished: no result)"
            if is_unfinished(record) else "and give the recorded result")
    replayed = [Finding(False, problem) for problem in outcome.problems] or [
        Finding(True, f"the {count} actions replay legally from seed {record['seed']} {said}")]
    return Verification(outcome, replayed,
                        _digest_finding(record.get("digest"), outcome.state_sha256, count),
                        _signature_finding(record, keyring))


def _digest_finding(recorded: Any, reached: str | None, count: int) -> Finding:
    if not isinstance(recorded, dict) or "state_sha256" not in recorded:
        return Finding(False, "the record carries no digest of its final position")
    if recorded.get("actions") != count:
        return Finding(False, f"the digest counts {recorded.get('actions')} actions but the "
                              f"record holds {count}: actions were added or removed")
    if reached is None:
        return Finding(False, "the final position cannot be compared with the digest: "
                              "the actions do not replay")
    if recorded["state_sha256"] != reached:
        return Finding(False, f"the final position differs from the digest (recorded "
                              f"{str(recorded['state_sha256'])[:12]}, replay gives "
                              f"{reached[:12]})")
    return Finding(True, f"the final position matches the digest (sha256 {reached[:12]})")


def _signature_finding(record: dict[str, Any], keyring: Keyring | None) -> Finding:
    check = check_signature(record, keyring)
    signature = record.get("signature")
    key = signature.get("key") if isinstance(signature, dict) else None
    if check.proven:
        return Finding(True, f"{check.value} ({key}): the bots named, the forfeits and "
                             "the timings are the referee's")
    forfeits = ", ".join(f"{seat}: {f.get('reason')}"
                         for seat, f in sorted((record.get("forfeits") or {}).items()))
    unproven = f"the bots named, the forfeits ({forfeits})" if forfeits else "the bots named"
    why = f"{check.value} ({key})" if check == Check.UNKNOWN_KEY else check.value
    return Finding(False, f"{why}: {unproven} and the timings are not proven")


def drawing_warnings(record: dict[str, Any], ruleset: Ruleset,
                     keyring: Keyring | None) -> list[str]:
    """Check that a record's moves may be shown as the game's; what is only not proven.

    A picture or a replay page shows the moves, so the moves must be the
    game's: RecordError when an action does not replay, the result or the
    final position differs from the record's, or its signature is broken.
    What leaves the moves proven but the record not (a ruleset that differs
    from the one played with, no digest, no signature this referee can check)
    comes back as warnings.
    """
    outcome = replay(record, ruleset)
    differs = ruleset_problem(record, ruleset)
    problems = [p for p in outcome.problems if p != differs]
    warnings = [differs] if differs else []
    recorded = record.get("digest")
    if outcome.state_sha256 is None:
        pass   # the actions do not replay: said already
    elif isinstance(recorded, dict) and "state_sha256" in recorded:
        finding = _digest_finding(recorded, outcome.state_sha256, len(record["actions"]))
        if not finding.ok:
            problems.append(finding.text)
    else:
        warnings.append("the record carries no digest of its final position")
    check = check_signature(record, keyring)
    if check == Check.BROKEN:
        problems.append(check.value)
    elif not check.proven:
        warnings.append(f"{check.value}: who played is not proven")
    if problems:
        raise RecordError("; ".join(problems))
    return warnings
