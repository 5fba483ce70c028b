"""Which cards a seat may play in a roll window, and what option a label names.

Timing (reference X-06/X-07): every table roll opens a window after the dice
show.  Penalising cards (every effect hurts) are played by the engine at their
first chance; everything else is offered to the seats that can use it.  Which
options fit which window is worked out once per ruleset (`GameRules.window_options`).
"""

from __future__ import annotations

from .position import Position
from .rules import Card, CardOption


def card_actions(state: Position, seat: str, roll: str, roller: str) -> list[str]:
    """Every `play N LABEL` action `seat` may take in the window of `roller`'s `roll`."""
    fits = state.rules.window_options[(roll, seat == roller)]
    army = state.armies[seat]
    if fits.keys().isdisjoint(army.hand):   # most often nothing in hand fits this roll
        return []
    actions = []
    seen = set()
    for number in army.hand:
        opts = fits.get(number)
        if opts is None or number in seen:
            continue
        seen.add(number)
        for opt in opts:
            if opt.effect == "tokens" and not all(n > 0 or army.tokens[t] > 0
                                                  for t, n in opt.tokens):
                continue   # nothing to remove
            actions.append(f"play {number} {opt.label}")
    return actions


def find_option(card: Card, label: str) -> CardOption:
    for opt in card.options:
        if opt.label == label:
            return opt
    raise KeyError(label)
