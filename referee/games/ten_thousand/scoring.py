"""Score = men / turns; ranks by score, then men, then earlier arrival (X-08)."""

from __future__ import annotations

from ...engine import Result
from .position import Position


def score(men: int, turns: int | None) -> float:
    if not men or not turns:
        return 0.0
    return round(men / turns, 3)


def result(state: Position) -> Result:
    scores = {}
    keys = {}
    for seat in state.seats:
        army = state.armies[seat]
        scores[seat] = score(army.men, army.arrived)
        late = army.arrival_seq if army.arrival_seq is not None else len(state.seats)
        keys[seat] = (scores[seat], army.men, -late)
    ordered = sorted(keys.values(), reverse=True)
    ranks = {seat: 1 + ordered.index(key) for seat, key in keys.items()}
    if len(state.seats) == 1:
        return solo_result(state, scores)
    if all(state.armies[s].arrived is None for s in state.seats):
        # nobody reached the sea: every army scores 0 and all share rank 1, a draw
        return Result(scores=scores, ranks=ranks,
                      reason="every army was destroyed: nobody reached the sea (all score 0)")
    best = [s for s in state.seats if ranks[s] == 1]
    reason = ("best score " + ", ".join(f"{s} {scores[s]:g}" for s in best) + " (men / turns)")
    return Result(scores=scores, ranks=ranks, reason=reason)


def solo_result(state: Position, scores: dict[str, float]) -> Result:
    """Alone, the score is set against the benchmark line (X-13)."""
    (seat,) = state.seats
    line = state.rules.solo
    value = scores[seat]
    if value >= line["great"]:
        verdict, points = "great victory", 1.0
    elif value >= line["win"]:
        verdict, points = "victory", 1.0
    else:
        verdict, points = "defeat", 0.0
    army = state.armies[seat]
    how = (f"{army.men} men in {army.arrived} turns" if army.arrived else "army destroyed")
    reason = f"{verdict}: score {value:g} ({how}; victory line {line['win']})"
    return Result(scores=scores, ranks={seat: 1}, reason=reason, points={seat: points})
