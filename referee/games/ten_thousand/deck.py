"""The shared action deck: drawing, and reshuffling the discards when it runs out."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...games.ten_thousand.state import TenThousandState


def draw(state: TenThousandState, seat: str, count: int) -> None:
    """Draw from the deck, reshuffling the discards into a new deck when it runs out."""
    hand = state.armies[seat].hand
    drawn = []
    for _ in range(count):
        if not state.deck:
            if not state.discard:
                break
            state.deck, state.discard = state.discard, []
            state.face_down = {}
            state.rngs["deck"].shuffle(state.deck)
            state.emit("reshuffle", "the discard pile is shuffled into a new deck")
        drawn.append(state.deck.pop())
    hand.extend(drawn)
    names = ", ".join(state.rules.cards[n].name for n in drawn)
    state.emit("draw", f"{seat} draws {names or 'nothing'}", frozenset([seat]),
               seat=seat, cards=drawn)
    others = frozenset(s for s in state.seats if s != seat)
    if others:
        state.emit("draw", f"{seat} draws {len(drawn)} cards", others, seat=seat, count=len(drawn))
