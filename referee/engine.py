"""The interface every rules engine implements.

An `Engine` is built once from a ruleset and holds the immutable tables; a
`State` is one position of one game.  The referee only ever talks to these two
classes, so a new game plugs in by subclassing them and registering its id in
`referee.games`.

Contract, in short:

* ``state.pending()`` lists the seats that must act now, each with the complete
  list of legal actions as short strings.  Several decisions at once are
  simultaneous secret choices: the referee collects every answer before it
  applies any, and the engine reveals nothing until the last one is in.  An
  empty list means the game is over.
* ``state.apply(seat, action)`` validates the action (raising `IllegalAction`),
  applies it, resolves chance from named streams (`referee.rng.stream`) and
  returns the events it caused, each tagged with who may see it.
* Automata that are part of the rules (a solo opponent) are run inside
  ``apply``; they never appear as a seat.

Search bots apply thousands of actions a second on copies, so the hot path pays
only for what a bot may use: ``clone()`` copies plain data (no deep copies),
random streams are copied only when a copy rolls them (`referee.rng.Streams`),
legal lists are built once per step, and an event's ``text``, which only people
read, is written on first read from a template and its arguments, as its
``data`` may be (`Event`).
Bench: ``python bench/engine_speed.py``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .ruleset_model import Ruleset


class IllegalAction(ValueError):
    """Raised by `State.apply` for an action that is not legal now."""


def written(text: str | Callable[..., str], args: tuple) -> str:
    """A line for people from a template and its arguments (see `Event` and `Decision`)."""
    if not isinstance(text, str):
        return text(*args)
    return text.format(*args) if args else text


class Decision:
    """One seat that must act now, with every legal action spelled out.

    ``prompt`` says in words what is asked.  Like an event's text it may be
    given as a ``str.format`` template (or a function) with its ``args``, and is
    written the first time it is read: a search bot that asks thousands of
    questions of its sampled worlds never reads one.  ``Decision(seat, prompt,
    legal)`` with a plain string is the prompt itself.
    """

    __slots__ = ("seat", "legal", "offered", "_prompt", "_args")

    def __init__(self, seat: str, prompt: str | Callable[..., str], legal: Sequence[str],
                 args: tuple = ()) -> None:
        self.seat = seat
        self.legal = legal
        # what the engine checks an action against: `legal` is the caller's to read, and
        # a notebook that edits it (remove, append) must not change what is legal
        self.offered = tuple(legal)
        self._prompt = prompt
        self._args = args

    def offers(self, action: Any) -> bool:
        """Whether `action` is one of the legal actions this decision was made with."""
        return action in self.offered

    @property
    def prompt(self) -> str:
        prompt = self._prompt
        if self._args or not isinstance(prompt, str):
            prompt = self._prompt = written(prompt, self._args)
            self._args = ()
        return prompt

    def copy(self) -> Decision:
        """A copy with its own legal list, for a caller who may edit it (a bot's
        `choose`): the engine checks actions against its own list, which must not
        move.  The prompt stays unwritten until read."""
        copy = Decision.__new__(Decision)
        copy.seat, copy.legal, copy.offered = self.seat, list(self.offered), self.offered
        copy._prompt, copy._args = self._prompt, self._args
        return copy

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.seat, self.prompt, self.legal) == (other.seat, other.prompt, other.legal)

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat!r}, prompt={self.prompt!r}, legal={self.legal!r})"


class Event:
    """Something that happened, for the game log and for the bots.

    ``to`` names the seats that may see it; ``None`` means everyone.  ``data``
    is the machine-readable part.  ``text`` is one line in words for people,
    built the first time it is read: an engine may pass a ``str.format``
    template, or a function returning the line, together with its ``args``
    (values that do not change afterwards: str, int, tuples, the ruleset's
    tables), so that search bots, which apply thousands of actions and read no
    text, never pay for the wording, while the referee, records and people read
    the same line as ever.  A plain string without ``args`` is the line itself.

    ``data`` may be put off the same way: given as a function, it is called
    with the same ``args`` when first read, and returns the dict.  A game whose
    events are built at every step (a roll, its result) spares search bots the
    dict too.  With ``args``, ``text`` is always a template (one may leave some
    of them unused: ``"{} rolls"`` with ``(seat, table)``).
    """

    __slots__ = ("type", "to", "_text", "_data", "_args")

    def __init__(self, type: str, text: str | Callable[..., str],
                 data: dict[str, Any] | Callable[..., dict[str, Any]] | None = None,
                 to: frozenset[str] | None = None, args: tuple = ()) -> None:
        self.type = type
        self.to = to
        self._text = text
        self._data = data
        self._args = args

    @property
    def text(self) -> str:
        text = self._text
        if self._args or not isinstance(text, str):
            if callable(self._data):   # a put-off data needs the args too: build it first
                self._data = self._data(*self._args)
            text = self._text = written(text, self._args)
            self._args = ()
        return text

    @property
    def data(self) -> dict[str, Any]:
        data = self._data
        if data is None or callable(data):
            data = self._data = {} if data is None else data(*self._args)
        return data

    def visible_to(self, seat: str) -> bool:
        return self.to is None or seat in self.to

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.data, "text": self.text}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.type, self.text, self.data, self.to) == (other.type, other.text,
                                                              other.data, other.to)

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.text!r}, {self.data!r}, to={self.to!r})"


@dataclass(slots=True)
class Result:
    """How a finished game ended.

    ``scores`` are the game's own numbers (victory points, men/turns ...).
    ``ranks`` put seats in order, 1 best, equal ranks for a tie.  ``points``
    is each seat's share of the win in [0, 1] for tournament tables; left
    empty it is derived from the ranks.  Solo games, where one seat plays the
    rules themselves, must set ``points`` (1 win, 0.5 draw, 0 loss).
    ``teams`` maps a team name to its seats where seats play in teams.
    """

    scores: dict[str, float]
    ranks: dict[str, int]
    reason: str
    points: dict[str, float] = field(default_factory=dict)
    teams: dict[str, list[str]] | None = None

    def __post_init__(self) -> None:
        if not self.points:
            self.points = points_from_ranks(self.ranks, self.teams)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scores": self.scores,
            "ranks": self.ranks,
            "points": self.points,
            "reason": self.reason,
        }
        if self.teams:
            out["teams"] = self.teams
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        return cls(
            scores=dict(data["scores"]),
            ranks={k: int(v) for k, v in data["ranks"].items()},
            reason=data["reason"],
            points=dict(data.get("points") or {}),
            teams=data.get("teams"),
        )


def points_from_ranks(ranks: dict[str, int],
                      teams: dict[str, list[str]] | None = None) -> dict[str, float]:
    """Share of the win per seat: best 1, worst 0, linear in between.

    Each seat scores the fraction of other seats it beat, counting a tie as
    half a win, so two seats give 1 / 0.5 / 0 and four seats give 1, 2/3,
    1/3, 0.  With teams the sides are the teams, and every member of a team
    gets the team's share.
    """
    if teams:
        team_points = points_from_ranks({t: ranks[members[0]] for t, members in teams.items()})
        return {seat: team_points[t] for t, members in teams.items() for seat in members}
    seats = list(ranks)
    if len(seats) < 2:
        return {seat: 1.0 if ranks[seat] == 1 else 0.0 for seat in seats}
    others = len(seats) - 1
    points = {}
    for seat in seats:
        beaten = sum(1.0 if ranks[seat] < ranks[o] else 0.5 if ranks[seat] == ranks[o] else 0.0
                     for o in seats if o != seat)
        points[seat] = beaten / others
    return points


def ranks_from_scores(scores: dict[str, float], higher_is_better: bool = True) -> dict[str, int]:
    """Competition ranking (1, 2, 2, 4) of seats by score."""
    sign = -1 if higher_is_better else 1
    ordered = sorted(scores.values(), key=lambda s: sign * s)
    return {seat: 1 + ordered.index(score) for seat, score in scores.items()}


@dataclass(slots=True)
class Problem:
    """A semantic error in a ruleset's data: where (a JSON path) and what."""

    path: tuple[str | int, ...]
    message: str


@dataclass(frozen=True)
class OptionRule:
    """How an engine reads one option: its `type`, and for a text option the
    `values` it knows (any other reads as the default behaviour, silently), for a
    whole number the `least` it can play."""

    type: str
    values: tuple[str, ...] = ()
    least: int | None = None


def seat_index(seats: Sequence[str], seat: str) -> int:
    """`seat`'s place in `seats`, for the methods that take a seat from their caller
    (a view, a sample): ValueError naming the seats when it is not one of them."""
    try:
        return seats.index(seat)
    except ValueError:
        raise ValueError(f"unknown seat {str(seat)[:60]!r} (seats: {', '.join(seats)})"
                         ) from None


def random_source(rng: random.Random | int) -> random.Random:
    """`State.determinize`'s generator: the one given, or one seeded by a whole number
    (a researcher's ``determinize(seat, 5)``); TypeError for anything else."""
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return random.Random(rng)
    raise TypeError("determinize takes a random.Random or a whole number to seed one, "
                    f"not {type(rng).__name__}")


class State(ABC):
    """One position of one game."""

    @abstractmethod
    def pending(self) -> list[Decision]:
        """Seats that must act now; empty when the game is over."""

    @abstractmethod
    def apply(self, seat: str, action: str) -> list[Event]:
        """Apply one legal action of `seat`; raise IllegalAction otherwise.

        The events carry their `text` as a template filled in when first read,
        so an engine should log with
        ``Event(kind, "{} raises an army in {}", data, to, (who, city))``
        rather than format the line itself; `data` is a dict, or a function of
        the same args where the dict would cost a search bot too much.
        """

    @abstractmethod
    def view(self, seat: str) -> dict[str, Any]:
        """JSON-ready observation: what `seat` may know and nothing more."""

    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: used by search bots thousands of times a second).

        Copy the position's plain data, share what never changes (tables,
        options), and copy random streams with `Streams.copy` (copy on write).
        """

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole position, JSON-ready; `Engine.load` reads it back."""

    silent = False  # a search bot's copy: no events are built (see `silence`)

    def silence(self) -> State:
        """Build no events on this position, nor on the copies made from it: `apply`
        returns an empty list.  The referee hands search bots their sampled worlds so
        (nobody reads the events of a world that is only imagined); an engine that
        cannot skip them keeps building them."""
        self.silent = True
        return self

    # where `to_json` keeps the random streams (referee.rng.Streams.to_json)
    streams_keys: tuple[str, ...] = ("rng", "rngs")

    def position_json(self) -> dict[str, Any]:
        """`to_json` without the random streams: what a game record's digest covers.

        The streams follow from the seed and the actions the record holds
        already, and their state (a few kilobytes of numbers per stream) would
        cost most of the digest's time, game after game in a tournament.
        """
        data = self.to_json()
        for key in self.streams_keys:
            data.pop(key, None)
        return data

    def setup_events(self) -> list[Event]:
        """What happened while the game was set up, before anyone acted.

        Opening draws, an automaton's first moves: the referee relays these
        once, right after `Engine.new_game`.  Empty once an action was applied.
        """
        return []

    def determinize(self, seat: str, rng: random.Random | int) -> State:
        """A copy where what `seat` cannot see is resampled with `rng` (or a generator
        seeded by it: `random_source`).

        Search bots are handed ``determinize(seat, rng).to_json()`` and may read
        all of it, so the copy must:

        1. give `seat` exactly the same ``view(seat)`` as the real state, and the
           same pending decisions (prompts and legal actions) for `seat`;
        2. resample everything `seat` cannot see (other hands, deck order,
           face-down tokens and discards, secret picks, future draws and cards),
           consistently with what `seat` has seen (counts, cards known to be
           held, a decision another seat is taking listed from its new hand);
        3. reseed EVERY random stream (deck, dice, automaton, augur ...) from
           `rng`, so future chance cannot be predicted from the real game;
        4. keep nothing in ``to_json()`` from which the real seed or the real
           hidden information could be recovered: a stored seed is replaced by
           a value drawn from `rng`, test hooks (rigged dice) and cached copies
           of hidden lists are dropped or rebuilt;
        5. still be a valid state: it plays to the end with random legal
           actions, and ``engine.load(d.to_json())`` round-trips.

        The real state is left untouched.  Games without hidden information
        or chance may return a plain clone.
        """
        return self.clone()

    def describe(self, seat: str) -> str:
        """The position as text for a person playing `seat` in a terminal."""
        return json.dumps(self.view(seat), indent=1, sort_keys=True)

    def notes(self, decision: Decision) -> dict[str, str]:
        """A few words for a person beside some of `decision`'s actions.

        What a menu should say that the action's text does not: a cost, a
        reward, a figure's strength.  Shown to people beside the numbered
        actions, never sent to bots; built only when a person decides, so it
        may take its time.  By default there are none.
        """
        return {}

    def is_over(self) -> bool:
        return not self.pending()


class Engine(ABC):
    """A game's rules, built once from a ruleset."""

    id: ClassVar[str]
    # The options this engine reads by name; a ruleset may leave any out, but one it
    # declares must have the type (and values) the engine reads it as.
    options_read: ClassVar[dict[str, OptionRule]] = {}

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    @classmethod
    def check(cls, data: dict[str, Any]) -> Iterable[Problem]:
        """Semantic checks of a ruleset's `data` beyond its JSON Schema.

        Called only on data that passed the schema.  Yield one Problem per
        error found; never stop at the first.
        """
        return ()

    @classmethod
    def check_setup(cls, players: dict[str, Any], options: dict[str, Any],
                    data: dict[str, Any]) -> Iterable[Problem]:
        """Checks of the envelope's `players` and `options` against the engine.

        Called only once `data` passed its schema and `check`; paths start at
        the ruleset's root (``("players", "max")``).  Every player count from
        `min` to `max` must be one the engine can start a game with, and every
        option value the ruleset allows one it can play.  By default: fixed
        seat names only when their number is the only count.
        """
        seats = players.get("seats")
        if seats and not players["min"] == players["max"] == len(seats):
            return [Problem(("players",), f"with fixed seats, min and max must both be "
                                          f"{len(seats)}")]
        return ()

    @classmethod
    def option_problems(cls, options: dict[str, Any]) -> Iterable[Problem]:
        """The declared options this engine reads with another type or values.

        `cheap_fleets: {type: string, default: "false"}` would read as true, and
        a text option's unknown value (`incomes: Printed`) as the default.
        """
        for name, rule in cls.options_read.items():
            spec = options.get(name)
            if not isinstance(spec, dict):
                continue
            kind = spec.get("type", "string")
            if kind != rule.type:
                yield Problem(("options", name, "type"),
                              f"the {cls.id} engine reads option {name} as {rule.type}, "
                              f"not {kind}")
            elif rule.values:
                known = ", ".join(rule.values)
                choices = spec.get("choices")
                if not choices:
                    yield Problem(("options", name),
                                  f"option {name} needs choices, among those the {cls.id} "
                                  f"engine knows: {known}")
                for i, choice in enumerate(choices or ()):
                    if str(choice) not in rule.values:
                        yield Problem(("options", name, "choices", i),
                                      f"the {cls.id} engine knows no {name} {choice!r} "
                                      f"(it knows {known})")
            elif rule.least is not None and spec.get("min", rule.least - 1) < rule.least:
                yield Problem(("options", name, "min"),
                              f"option {name} needs a min of at least {rule.least}: the "
                              f"{cls.id} engine plays no smaller value")

    def seats(self, count: int) -> list[str]:
        """Seat names for a game of `count` players."""
        fixed = self.ruleset.players.get("seats")
        if fixed:
            if count != len(fixed):
                raise ValueError(f"{self.ruleset.id} is played by exactly {len(fixed)} seats")
            return list(fixed)
        return [f"p{i}" for i in range(1, count + 1)]

    def teams(self, seats: Sequence[str]) -> dict[str, list[str]] | None:
        """Team name -> seats for team games; None where everyone plays alone."""
        return None

    @abstractmethod
    def new_game(self, seats: Sequence[str], seed: int, options: dict[str, Any]) -> State:
        """The starting position (chance at setup comes from `seed`)."""

    @abstractmethod
    def load(self, data: dict[str, Any]) -> State:
        """Read back a position written by `State.to_json`."""

    def position(self, data: Any, *keys: str) -> dict[str, Any]:
        """`load`'s argument, checked before it is read: a dict with `keys`, as a game of
        this engine writes it; ValueError otherwise (a caller's None, or another game's
        position, was a KeyError or an AttributeError deep in the engine)."""
        if isinstance(data, dict) and all(key in data for key in keys):
            return data
        given = type(data).__name__ if not isinstance(data, dict) else \
            f"a dict without {', '.join(key for key in keys if key not in data)}"
        raise ValueError(f"not a position of {self.ruleset.id} (load takes what State.to_json "
                         f"of one of its games wrote), but {given}")
