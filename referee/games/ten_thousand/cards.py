"""Which cards a seat may play in a roll window.

Timing (reference X-06/X-07): every table roll opens a window after the dice
show.  Penalising cards (every effect hurts) are played by the engine at their
first chance; everything else is offered to the seats that can use it.  Which
options fit which window is worked out once per ruleset (`GameRules.roll_cards`).
"""

from __future__ import annotations

from .army import Army


def card_actions(army: Army, fits: dict[int, tuple[tuple[tuple[str, ...], str], ...]]
                 ) -> list[str]:
    """Every `play N LABEL` action of `army`'s hand among `fits` (`RollCards.own` or `.others`)."""
    hand = army.hand
    if fits.keys().isdisjoint(hand):   # most often nothing in hand fits this roll
        return []
    actions = []
    tokens = army.tokens
    for number in hand:   # each card number is in the deck once, so once in a hand
        if number in fits:
            for removes, action in fits[number]:
                if removes and not holds_all(tokens, removes):
                    continue   # nothing to remove
                actions.append(action)
    return actions


def holds_all(tokens: dict[str, int], names: tuple[str, ...]) -> bool:
    """Does the army hold at least one of each of these tokens?"""
    for name in names:
        if tokens[name] <= 0:
            return False
    return True

