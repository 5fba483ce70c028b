"""The shared action deck: drawing, and reshuffling the discards when it runs out."""

from __future__ import annotations

from typing import Any

from .position import Position


def draw(state: Position, seat: str, count: int) -> None:
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
            state.emit("reshuffle", "the discard pile is shuffled into a new deck", (), {})
        drawn.append(state.deck.pop())
    hand.extend(drawn)
    # `drawn` is shared by the event, never changed afterwards
    state.emit("draw", drawn_text, (seat, state.rules, drawn), drawn_data, state.seat_only[seat])
    others = state.seat_others[seat]
    if others:
        state.emit("draw", "{} draws {} cards", (seat, len(drawn)), count_data, others)


def drawn_text(seat: str, rules, drawn: list[int]) -> str:
    names = ", ".join(rules.cards[n].name for n in drawn)
    return f"{seat} draws {names or 'nothing'}"


def drawn_data(seat: str, rules, drawn: list[int]) -> dict[str, Any]:
    return {"seat": seat, "cards": drawn}


def count_data(seat: str, count: int) -> dict[str, Any]:
    return {"seat": seat, "count": count}
