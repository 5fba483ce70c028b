"""Observations for learning agents: a view as a fixed-length vector, actions as a catalogue.

Each engine package keeps, beside its `view`, a module ``observation`` with a
class ``Encoder`` (a subclass of `ObservationEncoder`), which
`referee.games.load_encoder` finds for a ruleset.  An encoder is built
from the ruleset, the seats and the options, which fix every size; then

* ``encoder.actions`` is the action catalogue: every action text a seat of this
  ruleset could ever be offered, in a fixed order, so that index *i* always
  means the same action (an agent's output *i* keeps its meaning from one
  decision to the next, which an index into the current legal list would not);
* ``encoder.encode(view)`` turns the view of one seat into a list of floats in
  [-1, 1] of length ``encoder.size``: one-hot codes for names, counts divided
  by a documented cap (and clipped), flags as 0/1.  It reads nothing but the
  view, so it can encode no more than the seat may know.

The vector is made of named groups (`layout`); docs/games/<game>.md lists them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .ruleset_model import Ruleset

View = dict[str, Any]


class NoEncoder(LookupError):
    """An engine without an observation encoder."""


class UnknownValue(ValueError):
    """A view holds a value the encoder has no code for (the encoder is behind the view)."""


@dataclass(frozen=True, slots=True)
class Group:
    """`width` consecutive features computed by `encode` from one view.

    `encode` returns None for a part the view does not have (no battle yet):
    the group is then all zeros.
    """

    name: str
    width: int
    encode: Callable[[View], list[float] | None]


class ObservationEncoder(ABC):
    """One ruleset's views as vectors and its actions as a catalogue."""

    def __init__(self, ruleset: Ruleset, seats: Sequence[str], options: dict[str, Any]) -> None:
        self.ruleset = ruleset
        self.seats = list(seats)
        self.options = dict(options)
        self.groups = self.build_groups()
        self.size = sum(group.width for group in self.groups)
        self.actions = self.catalogue()
        if len(set(self.actions)) != len(self.actions):
            raise ValueError(f"the action catalogue of {ruleset.id} lists an action twice")

    @abstractmethod
    def build_groups(self) -> list[Group]:
        """The feature groups, in vector order."""

    @abstractmethod
    def catalogue(self) -> list[str]:
        """Every action a seat of this ruleset may be offered, each once."""

    def layout(self) -> list[tuple[str, int]]:
        return [(group.name, group.width) for group in self.groups]

    def encode(self, view: View) -> list[float]:
        out: list[float] = []
        for group in self.groups:
            values = group.encode(view)
            if values is None:
                values = [0.0] * group.width
            elif len(values) != group.width:
                raise AssertionError(f"{group.name} gave {len(values)} features, not {group.width}")
            out += values
        return out

    def others(self, seat: str) -> list[str]:
        """The seats after `seat` in seat order, wrapping round: "me first" orderings."""
        i = self.seats.index(seat)
        return self.seats[i + 1:] + self.seats[:i]


# -- the pieces encoders are built from ------------------------------------------------------

def one_hot(value: Any, vocabulary: Sequence[Any]) -> list[float]:
    """1 at the value's place in `vocabulary`, 0 elsewhere."""
    out = [0.0] * len(vocabulary)
    out[_place(value, vocabulary)] = 1.0
    return out


def multi_hot(values: Iterable[Any], vocabulary: Sequence[Any]) -> list[float]:
    """1 at the place of every value present."""
    out = [0.0] * len(vocabulary)
    for value in values:
        out[_place(value, vocabulary)] = 1.0
    return out


def counts(values: Iterable[Any], vocabulary: Sequence[Any], cap: int) -> list[float]:
    """How many times each vocabulary entry occurs, divided by `cap`."""
    out = [0] * len(vocabulary)
    for value in values:
        out[_place(value, vocabulary)] += 1
    return [scaled(n, cap) for n in out]


def scaled(number: float | None, cap: float) -> float:
    """`number / cap`, clipped to [-1, 1]; None counts as 0."""
    if not number:
        return 0.0
    return max(-1.0, min(1.0, number / cap))


def flag(value: Any) -> float:
    return 1.0 if value else 0.0


def _place(value: Any, vocabulary: Sequence[Any]) -> int:
    try:
        return vocabulary.index(value)
    except ValueError:
        raise UnknownValue(f"{value!r} is not one of {list(vocabulary)}") from None
