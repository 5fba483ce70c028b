"""Taking moves back: which actions revealed a secret to a person, and so cannot be undone.

A person at the table may take back their last action (`undo`, and with it
whatever the bots answered) or their last choice inside a compound move
(`back`).  The match does it by replaying the record without those actions
(`Match.rewind`).  Rally the Troops' rule holds: nothing is taken back across
a revealed secret, or the person would play again knowing a die, a card or
another seat's hidden choice.

What counts as a revealed secret needs no help from the engine: an action
reveals a secret to `viewer` when what `viewer` sees of its outcome (the
events shown to them and their view afterwards) depends on something they
could not see before it.  To find out, the same action is applied in a few
worlds drawn by ``state.determinize(viewer, rng)``, which resamples exactly
what `viewer` cannot see (dice to come, deck order, other hands, secret
picks): if the viewer sees anything different in one of them, or the action
is not even legal there (it played a card the viewer did not know of), it
revealed a secret.  A die roll, a card drawn into your hand, a secret pick
shown at last, an opponent's card played: all are caught; your own choices
in a compound move, a card you play from your hand, an opponent's move on
an open board: none are.

It is a test by sampling: with `SAMPLES` worlds a secret is missed only when
every world happened to draw the same outcome (a single six-sided die: about
one time in 1.7 million).  An engine whose `determinize` is a plain clone
reveals no secret this way, as its contract says it has none to hide.
"""

from __future__ import annotations

import random
from typing import Any

from .engine import Event, IllegalAction, State

SAMPLES = 8  # worlds drawn per action and per person watching


class Refused(Exception):
    """A take-back that cannot be made; the message says why, for the person."""


class Rewind(Exception):  # noqa: N818 (a signal to the match, not an error)
    """Raised by a person's player to set the game back to its first `to` actions."""

    def __init__(self, to: int) -> None:
        super().__init__(f"back to move {to}")
        self.to = to


def seen(events: list[Event], state: State, viewer: str) -> tuple[Any, ...]:
    """What `viewer` sees of an action's outcome: its events and their view afterwards."""
    shown = [(e.type, e.text, e.data) for e in events if e.visible_to(viewer)]
    return (shown, state.view(viewer))


class SecretWatch:
    """Draws the worlds before an action, and judges the outcome after it."""

    def __init__(self, rng: random.Random, samples: int = SAMPLES) -> None:
        self.rng = rng
        self.samples = samples

    def worlds(self, state: State, viewer: str) -> list[State]:
        """Copies of `state` with what `viewer` cannot see drawn anew (before the action)."""
        return [state.determinize(viewer, self.rng) for _ in range(self.samples)]

    @staticmethod
    def revealed(worlds: list[State], seat: str, action: str, outcome: tuple[Any, ...],
                 viewer: str) -> bool:
        """Whether `seat` playing `action` showed `viewer` something they could not know."""
        for world in worlds:
            try:
                events = world.apply(seat, action)
            except IllegalAction:   # legal only given what the viewer could not see
                return True
            if seen(events, world, viewer) != outcome:
                return True
        return False
