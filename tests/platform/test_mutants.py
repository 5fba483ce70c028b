"""Mutated rulesets: every one either is refused by validation or plays to the end.

A ruleset is other people's data, and an engine trusts what validation let
through.  Each shipped ruleset is mutated systematically (a value swapped for
another type, negative, zero, huge, empty or removed; a name that no longer
names anything; a list item repeated) and each mutant that validates plays
random games: none may raise, reach a decision with no legal action, or hang.

The sample is deterministic: the same mutants every run, 90 per
ruleset, so new shipped rulesets (and new engines) are covered the day they land.
"""

from __future__ import annotations

import copy
import random
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset, shipped_rulesets, validate_value
from agon.referee.yamlsafe import MAX_INTEGER

MUTANTS_PER_RULESET = 90
MAX_ACTIONS = 6000  # every shipped game ends well before this with random play
SECONDS_PER_GAME = 20

Path_ = tuple[str | int, ...]


def _replacements(value: Any) -> Iterator[tuple[str, Any]]:
    """The values one value may be swapped for, each with a name for the report."""
    yield "a list", [value]
    yield "a mapping", {"x": value}
    yield "null", None
    yield "true", True
    yield "zero", 0
    yield "a half", 0.5
    yield "large", 1000
    yield "huge", MAX_INTEGER
    yield "negative", -value if isinstance(value, int | float) and value else -1
    if isinstance(value, str):
        yield "a dangling name", f"nowhere-{value}"
        yield "an empty string", ""
    else:
        yield "a word", "seven"
    if isinstance(value, list):
        yield "an empty list", []
        if value:
            yield "its first item repeated", [*value, copy.deepcopy(value[0])]
            yield "its last item dropped", value[:-1]
    if isinstance(value, dict):
        yield "an empty mapping", {}


def _paths(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _get(value: Any, path: Path_) -> Any:
    for part in path:
        value = value[part]
    return value


def mutants(raw: dict[str, Any], count: int, seed: str) -> list[tuple[str, dict[str, Any]]]:
    """`count` mutants of `raw`, the same ones every run: (what was changed, ruleset)."""
    base = {k: v for k, v in raw.items() if k != "extends"}  # already merged
    # Rule texts are not read by engines: mutate the data, players and options.
    paths = [p for p in _paths(base) if p and p[0] in ("data", "players", "options")]
    changes: list[tuple[Path_, str, Any]] = []
    for path in paths:
        parent = _get(base, path[:-1])
        if isinstance(parent, dict) or len(parent) > 1:
            changes.append((path, "removed", None))
        changes += [(path, name, new) for name, new in _replacements(_get(base, path))]
    chooser = random.Random(seed)
    out = []
    for path, name, new in chooser.sample(changes, min(count, len(changes))):
        mutant = copy.deepcopy(base)
        parent = _get(mutant, path[:-1])
        if name == "removed":
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(new)
        where = ".".join(map(str, path))
        out.append((f"{where} {name}", mutant))
    return out


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang(f"no end after {SECONDS_PER_GAME} s")


def play_random_game(ruleset: Any, seed: int) -> str | None:
    """Why a random game of `ruleset` failed, or None when it ran cleanly."""
    rng = random.Random(seed)
    engine = engine_class(ruleset.engine)(ruleset)
    low, high = ruleset.players["min"], ruleset.players["max"]
    seats = engine.seats(rng.choice([low, high]))
    state = engine.new_game(seats, seed, {})
    for _ in range(MAX_ACTIONS):
        decisions = state.pending()
        if not decisions:
            return None if state.result() is not None else "over without a result"
        for decision in decisions:
            if not decision.legal:
                return f"{decision.seat} must act with no legal action ({decision.prompt})"
            state.apply(decision.seat, rng.choice(list(decision.legal)))
    return None  # a long game is not a broken one


def mutant_failure(mutant: dict[str, Any], seed: int) -> str | None:
    """None when the mutant is refused or plays cleanly; else what went wrong."""
    try:
        ruleset, issues = validate_value(mutant, "mutant.yaml")
    except Exception as exc:  # noqa: BLE001 - validation must list issues, never raise
        return f"validation raised {type(exc).__name__}: {exc}"
    if ruleset is None:
        return None
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_GAME)
    try:
        return play_random_game(ruleset, seed)
    except Exception as exc:  # noqa: BLE001 - any exception is the failure reported
        return f"{type(exc).__name__}: {exc}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("ruleset_id", [p.stem for p in shipped_rulesets()])
def test_every_mutant_is_refused_or_plays_to_the_end(ruleset_id):
    raw = load_ruleset(ruleset_id).raw
    failures = []
    for number, (what, mutant) in enumerate(mutants(raw, MUTANTS_PER_RULESET, ruleset_id)):
        failure = mutant_failure(mutant, seed=number)
        if failure:
            failures.append(f"{what}: {failure}")
    assert not failures, f"{len(failures)} mutants of {ruleset_id} validate but break " \
                         "the engine:\n  " + "\n  ".join(failures)


def test_the_mutations_reach_the_engines():
    """The sample is not all refused by the checks: some mutants validate and play.

    Counted over two engines: the stricter an engine's checks, the fewer of its
    mutants survive them (3 of Earth & Water's 90 do, 17 of Epireia's)."""
    valid = 0
    for ruleset_id in ("earth-and-water", "epireia"):
        raw = load_ruleset(ruleset_id).raw
        valid += sum(validate_value(m, "m.yaml")[0] is not None
                     for _, m in mutants(raw, MUTANTS_PER_RULESET, ruleset_id))
    assert valid >= 10


# Mutants that validated and then crashed or hung an engine before its checks
# caught them: each must now be refused, with the place and the reason.
KNOWN = [
    ("epireia", ("data", "empires", 4, "reward", "token"), {"x": 1},
     "$.data.empires[4].reward.token", "is not of type 'string'"),
    ("epireia", ("data", "scenarios", 6, "objective", "tokens_per_city"), 0,
     "$.data.scenarios[6].objective.tokens_per_city", "is not of type 'object'"),
    ("epireia", ("data", "figures", 29, "ability", "collection"), {"copper": {"x": 1}},
     "$.data.figures[29].ability.collection.copper", "is not of type 'integer'"),
    ("epireia", ("data", "tokens", 5, "powers", "4"), MAX_INTEGER,
     "$.data.tokens[5].powers.4", "is greater than the maximum"),
    ("epireia", ("players", "max"), 5, "$.players.max", "no seating for 5 players"),
    ("epireia-solo", ("data", "solo", "scenarios", 0, "army"), {},
     "$.data.solo.scenarios[0].army", "no army for the center front"),
    ("epireia-solo", ("data", "solo", "augurs", 3, "effect", "collection"), [1],
     "$.data.solo.augurs[3].effect.collection", "is not of type 'object'"),
    ("epireia-solo", ("data", "solo", "scenarios", 1, "city"), "nowhere",
     "$.data.solo.scenarios[1].city", "unknown city 'nowhere'"),
    ("epireia-solo", ("options",), {}, "$.options", "declares a scenario option"),
    ("earth-and-water-solo", ("players", "seats"), None,
     "$.players.seats", "name the seats"),
    ("ten-thousand", ("data", "tables", "battle", "rows", 0, "lose_men", "dice"), MAX_INTEGER,
     "$.data.tables.battle.rows[0].lose_men.dice", "is greater than the maximum"),
]


@pytest.mark.parametrize("ruleset_id, path, value, where, message", KNOWN,
                         ids=[f"{k[0]}:{'.'.join(map(str, k[1]))}" for k in KNOWN])
def test_values_that_broke_an_engine_are_refused_where_they_are(ruleset_id, path, value,
                                                                 where, message):
    mutant = {k: v for k, v in copy.deepcopy(load_ruleset(ruleset_id).raw).items()
              if k != "extends"}
    parent = _get(mutant, path[:-1])
    if value is None:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    ruleset, issues = validate_value(mutant, "mutant.yaml")
    assert ruleset is None
    assert any(i.path == where and message in i.message for i in issues), \
        [f"{i.path}: {i.message}" for i in issues]
