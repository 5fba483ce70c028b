"""Resources: gaining, paying and what a price leaves to choose."""

from __future__ import annotations

from .position import Position

Cost = dict[str, int]


def fmt(amounts: dict[str, int]) -> str:
    parts = [f"{n} {r}" for r, n in amounts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def worded(template: str, *args: object) -> str:
    """`template` filled in with `args`, amounts of resources (dicts) put in words: an
    event's text, written only when someone reads it."""
    return template.format(*(fmt(a) if isinstance(a, dict) else a for a in args))


def gain(st: Position, seat: str, amounts: dict[str, int]) -> None:
    """Add resources to a player, each capped (the excess is lost)."""
    res = st.player(seat)["res"]
    cap = st.t.caps["player"]
    for r, n in amounts.items():
        if r in res:
            res[r] = max(0, min(cap, res[r] + n))


def can_pay(have: dict[str, int], cost: Cost) -> bool:
    for r, n in cost.items():
        if have.get(r, 0) < n:
            return False
    return True


def pay(have: dict[str, int], cost: Cost) -> None:
    for r, n in cost.items():
        have[r] -= n


def shortage(have: dict[str, int], cost: Cost) -> int:
    return sum(max(0, n - have.get(r, 0)) for r, n in cost.items())


def feasible(have: dict[str, int], cost: Cost, discount: int, surcharge: int) -> bool:
    """Can `cost` be paid after removing `discount` units and adding `surcharge` units?"""
    return affordable(have, sum(have.values()), cost, discount, surcharge)


def affordable(have: dict[str, int], wealth: int, cost: Cost, discount: int,
               surcharge: int) -> bool:
    """`feasible`, given the sum of `have` (`wealth`) worked out once for many prices."""
    short = total = 0
    for r, n in cost.items():
        total += n
        lack = n - have.get(r, 0)
        if lack > 0:
            short += lack
    return short <= discount and wealth >= total - min(discount, total) + surcharge
