"""Who may play which card when, and what a played card does.

Timing (reference X-06/X-07): every table roll opens a window after the dice
show.  Penalising cards (every effect hurts) are played by the engine at their
first chance; everything else is offered to the seats that can use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.ten_thousand.rules import Card, CardOption

if TYPE_CHECKING:
    from ...games.ten_thousand.state import TenThousandState


def option_fits_roll(opt: CardOption, roll: str, own: bool) -> bool:
    """May a (non-penalising) card option be played in the window of `roll`?

    `own` is true for the roller, who is always the player whose turn it is
    (only the marching player rolls), so own-turn cards need `own` as well.
    Whether there is a token to remove is checked at play time.
    """
    effect = opt.effect
    if effect == "modify":
        if opt.roll != roll:
            return False
        return own if opt.target == "self" else (not own if opt.target == "opponent" else True)
    if effect == "reroll":
        if opt.roll not in (roll, "any"):
            return False
        return own if opt.target == "self" else True
    if effect == "extra_roll":
        return own and opt.roll == roll
    if effect == "tokens":
        return own and opt.target == "self"   # gifts to yourself, any time in your own turn
    if effect == "draw":
        return own
    return False


def card_actions(state: TenThousandState, seat: str, roll: str, roller: str) -> list[str]:
    """Every `play N LABEL` action `seat` may take in the window of `roller`'s `roll`."""
    fits = state.rules.window_options[(roll, seat == roller)]
    army = state.armies[seat]
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
