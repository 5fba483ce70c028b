"""What every game's tests share: the shipped rulesets, their pages, random games surveyed.

A game is documented by docs/games/<engine>.md, its views by
schemas/views/<engine>.schema.json, its observations by the `observation`
module beside its engine.  The tests in this folder run over EVERY shipped
ruleset, so a new game is checked the day its ruleset ships, and fails with a
message naming what to add.

The page's machine-read parts (docs/games/README.md explains them to authors):

* ``## Decisions``: one ``###`` part per kind of decision, with ``Prompt:``
  lines holding the prompt in backquotes (``…`` stands for any text) and a
  table whose first column is the action forms (``move_land <city> <armies>``:
  each ``<...>`` is one word of the action);
* ``## View``: a table of key paths (``cities[].name``, ``armies.<seat>.men``),
  their JSON types and who sees them (empty: as the key above);
* ``## Events``: a table of event types and their data fields;
* ``## Observation``: a table of the encoder's groups, in order, and a table of
  the vector length and catalogue size per ruleset and player count.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from agon.referee.engine import State
from agon.referee.games import engine_class, load_encoder
from agon.referee.ruleset import load_ruleset, shipped_rulesets
from agon.referee.ruleset_model import Ruleset
from agon.referee.view_schema import view_validator

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
SHIPPED = [path.stem for path in shipped_rulesets()]
MAX_PLIES = 20000
SEED = 913572468
PLIES_PER_CONFIGURATION = 500   # seeds are played until this many plies (short games: more)
VALIDATE_EVERY = 40        # plies between the views validated against the schema
DETERMINIZE_EVERY = 100    # plies between the hidden-information checks


# -- the game's page ----------------------------------------------------------------------

@dataclass
class Decision:
    title: str
    prompts: list[re.Pattern[str]]
    forms: list[list[str]]


@dataclass
class ViewKey:
    path: tuple[str, ...]
    types: set[str]
    private: bool          # differs between seats (its own hand, its league's tokens ...)


@dataclass
class GameDoc:
    file: Path
    decisions: list[Decision]
    view: list[ViewKey]
    events: dict[str, set[str]]
    groups: list[str]
    sizes: dict[tuple[str, int], tuple[int, int]]   # (ruleset, players) -> (length, actions)

    def key(self, path: tuple[str, ...]) -> ViewKey | None:
        """The documented key a view path falls under (``<name>`` matches any dict key)."""
        return next((key for key in self.view if matches(path, key.path)), None)

    def decisions_for(self, prompt: str) -> list[Decision]:
        return [d for d in self.decisions if any(p.match(prompt) for p in d.prompts)]

    @staticmethod
    def forms_of(action: str, decisions: list[Decision]) -> list[tuple[str, ...]]:
        """The documented forms `action` fits (``<name>`` is any one word)."""
        words = action.split()
        return [tuple(form) for decision in decisions for form in decision.forms
                if len(form) == len(words) and all(
                    f == w or f.startswith("<") for f, w in zip(form, words, strict=True))]


def sections(text: str, level: str) -> dict[str, str]:
    """Heading text -> body, for the headings of one level ("## ")."""
    parts = re.split(rf"^{level}(.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def table_rows(body: str) -> list[list[str]]:
    """The rows of the tables in `body` whose first cell names something in backquotes."""
    rows = []
    for line in body.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and quoted(cells[0]):
            rows.append(cells)
    return rows


def quoted(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def prompt_pattern(text: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in text.split("…")) + r"\Z")


def key_path(text: str) -> tuple[str, ...]:
    return tuple(re.sub(r"\[\]", ".[]", text).replace("..", ".").split("."))


TYPE_WORDS = ("object", "array", "string", "integer", "number", "boolean", "null")


def parse_doc(path: Path) -> GameDoc:
    top = sections(path.read_text(encoding="utf-8"), "## ")
    missing = [s for s in ("Decisions", "View", "Events", "Observation") if s not in top]
    assert not missing, f"{path.name} has no section ## {', ## '.join(missing)}"
    decisions = []
    for title, body in sections(top["Decisions"], "### ").items():
        prompts = [prompt_pattern(p) for line in body.splitlines()
                   if line.startswith("Prompt") for p in quoted(line)]
        forms = [q.split() for row in table_rows(body) for q in quoted(row[0])]
        decisions.append(Decision(title, prompts, forms))
    view, private = [], {}
    for row in table_rows(top["View"]):
        keys = key_path(quoted(row[0])[0])
        inherited = private.get(keys[:-1], False)
        private[keys] = inherited if not row[3] else row[3].lower() != "everyone"
        types = {w for w in TYPE_WORDS if re.search(rf"\b{w}\b", row[1])}
        view.append(ViewKey(keys, types, private[keys]))
    events = {quoted(row[0])[0]: set(quoted(row[1])) for row in table_rows(top["Events"])}
    obs = top["Observation"]
    groups, sizes = [], {}
    for row in table_rows(obs):
        if len(row) == 4 and quoted(row[0]):     # | ruleset | players | length | actions |
            sizes[quoted(row[0])[0], int(row[1])] = (int(row[2]), int(row[3]))
        elif len(row) == 3 and quoted(row[0]):   # | group | features | encoding |
            groups.append(quoted(row[0])[0])
    return GameDoc(path, decisions, view, events, groups, sizes)


@cache
def game_doc(engine_id: str) -> GameDoc:
    path = DOCS / f"{engine_id}.md"
    assert path.is_file(), (f"engine {engine_id!r} has no page for bot authors: write "
                            f"docs/games/{engine_id}.md (see docs/games/README.md)")
    return parse_doc(path)


def matches(path: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    return len(path) == len(pattern) and all(
        p == q or (q.startswith("<") and p != "[]") for p, q in zip(path, pattern, strict=True))


# -- random games, surveyed -----------------------------------------------------------------

JSON_TYPES = {type(None): "null", bool: "boolean", int: "integer", float: "number",
              str: "string", list: "array", dict: "object"}


def shape(view: dict[str, Any]) -> set[tuple[tuple[str, ...], str]]:
    """(path, JSON type) of the view and everything in it; "[]" stands for a list item."""
    out = set()
    todo: list[tuple[tuple[str, ...], Any]] = [((), view)]
    while todo:
        path, value = todo.pop()
        out.add((path, JSON_TYPES[type(value)]))
        if type(value) is dict:
            todo += [((*path, key), item) for key, item in value.items()]
        elif type(value) is list:
            todo += [((*path, "[]"), item) for item in value]
    return out


def differences(a: Any, b: Any, path: tuple[str, ...] = ()):
    """The paths where two views differ (a key only one has; a list of another length)."""
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a.keys() | b.keys():
            if key not in a or key not in b:
                yield (*path, key)
            else:
                yield from differences(a[key], b[key], (*path, key))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):
            yield from differences(x, y, (*path, "[]"))
    elif a != b:
        yield path


def configurations(ruleset: Ruleset) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with the default options, then each other option value once."""
    low, high = int(ruleset.players["min"]), int(ruleset.players["max"])
    out: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in range(low, high + 1)]
    for name, spec in ruleset.options.items():
        values = [not spec.get("default")] if spec.get("type") == "boolean" else [
            c for c in spec.get("choices", []) if c != spec.get("default")]
        out += [(low if low > 1 or high == 1 else 2, {name: v}) for v in values]
    return out


@dataclass
class Survey:
    """What random games of one ruleset showed."""

    ruleset: Ruleset
    games: int = 0
    plies: int = 0
    validated: int = 0
    decisions: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    paths: dict[tuple[str, ...], set[str]] = field(default_factory=lambda: defaultdict(set))
    events: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    schema_errors: list[str] = field(default_factory=list)
    seat_differences: dict[tuple[str, ...], str] = field(default_factory=dict)
    encoding_errors: list[str] = field(default_factory=list)
    uncatalogued: set[str] = field(default_factory=set)
    determinized: int = 0
    view_changed: list[str] = field(default_factory=list)
    hidden_resampled: int = 0
    dead_ends: list[str] = field(default_factory=list)


class Surveyor:
    """Plays seeded random games of a ruleset and records what they show."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.engine = engine_class(ruleset.engine)(ruleset)
        self.validator = view_validator(ruleset.engine)
        self.out = Survey(ruleset)

    def run(self) -> Survey:
        for players, options in configurations(self.ruleset):
            seats = self.engine.seats(players)
            encoder = load_encoder(self.ruleset, seats, options)
            start = self.out.plies
            for seed in range(SEED, SEED + 10):
                self.game(seats, seed, self.ruleset.resolve_options(options), encoder)
                if self.out.plies - start >= PLIES_PER_CONFIGURATION:
                    break
        return self.out

    def game(self, seats: list[str], seed: int, options: dict[str, Any], encoder) -> None:
        state = self.engine.new_game(seats, seed, options)
        chooser = random.Random(seed)
        catalogue = set(encoder.actions)
        events = state.setup_events()
        for ply in range(MAX_PLIES):
            self.note_events(events)
            views = {seat: state.view(seat) for seat in seats}
            pending = state.pending()
            self.note_views(views, encoder, ply % VALIDATE_EVERY == 0 or not pending)
            if not pending:
                break
            if ply % DETERMINIZE_EVERY == 0:
                self.note_determinized(state, views, ply)
            for decision in pending:
                self.out.decisions[decision.prompt].update(decision.legal)
                self.out.uncatalogued.update(set(decision.legal) - catalogue)
            decision = pending[0]
            events = state.apply(decision.seat, chooser.choice(decision.legal))
            self.out.plies += 1
        else:
            self.out.dead_ends.append(f"seed {seed}: no end after {MAX_PLIES} plies")
        if state.result() is None:
            self.out.dead_ends.append(f"seed {seed}: over without a result")
        self.out.games += 1

    def note_events(self, events) -> None:
        for event in events:
            self.out.events[event.type].update(event.data)

    def note_views(self, views: dict[str, dict], encoder, check_schema: bool) -> None:
        first = None
        for seat, view in views.items():
            for path, kind in shape(view):
                self.out.paths[path].add(kind)
            if check_schema:   # a sample: validating is slow (milliseconds a view)
                self.out.validated += 1
                for error in self.validator.iter_errors(view):
                    where = "/".join(map(str, error.absolute_path))
                    self.out.schema_errors.append(f"{seat}'s view at {where}: {error.message}")
            try:
                vector = encoder.encode(view)
                if len(vector) != encoder.size or not -1 <= min(vector) <= max(vector) <= 1:
                    self.out.encoding_errors.append(f"{seat}: a vector out of shape or bounds")
            except Exception as exc:   # noqa: BLE001 - recorded, the test shows it
                self.out.encoding_errors.append(f"{seat}: {type(exc).__name__}: {exc}")
            if first is None:
                first = view
            else:
                for path in differences(first, view):
                    self.out.seat_differences.setdefault(path, seat)

    def note_determinized(self, state: State, views: dict[str, dict], ply: int) -> None:
        """Resampling what a seat cannot see must leave its view as it is."""
        for k, seat in enumerate(views):
            world = state.determinize(seat, random.Random(ply * 7 + k))
            self.out.determinized += 1
            if world.view(seat) != views[seat]:
                self.out.view_changed.append(f"{seat} at ply {ply}")
            if any(world.view(other) != views[other] for other in views if other != seat):
                self.out.hidden_resampled += 1


@cache
def survey_of(ruleset_id: str) -> Survey:
    return Surveyor(load_ruleset(ruleset_id)).run()


@pytest.fixture(params=SHIPPED)
def ruleset_id(request) -> str:
    return request.param


@pytest.fixture
def survey(ruleset_id) -> Survey:
    return survey_of(ruleset_id)


@pytest.fixture
def doc(ruleset_id) -> GameDoc:
    return game_doc(load_ruleset(ruleset_id).engine)
