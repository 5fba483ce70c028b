"""Dice and conflicts shared by the resolution steps: who rolls, rerolls, and
the d12-plus-attack contest between two sides on one space."""

from __future__ import annotations

from collections.abc import Callable

from . import questions
from .position import Position

Pairs = list[tuple[str, str]]


def attack(st: Position, figure: str) -> int:
    return st.t.figures[figure]["attack"]


def ability(st: Position, seat: str, figure: str) -> dict:
    """A figure's ability in play: a solo enemy's card lies face down beside the map, not on
    a player board, so it has none (D3, D10)."""
    return {} if seat == "enemy" else st.t.ability(figure)


def side_of(st: Position, seat: str) -> str:
    return "enemy" if seat == "enemy" else st.league_of(seat)


def strongest(st: Position, pairs: Pairs) -> str:
    """Who rolls (and takes) for a side: the strongest figure's player, then seat order."""
    if len(pairs) == 1:
        return pairs[0][0]
    order = st.g["seats"] + ["enemy"]
    return min(pairs, key=lambda sf: (-attack(st, sf[1]), order.index(sf[0])))[0]


def can_reroll(st: Position, seat: str) -> bool:
    if seat == "enemy":
        return False
    p = st.player(seat)
    return not p["reroll_used"] and not st.t.rerollers.isdisjoint(p["figures"])


def die(st: Position, seat: str) -> int:
    """One d12 for a seat; the solo enemy fights with the automaton's fight stream (its moves
    have their own, `solo.move_enemies`)."""
    if seat == "enemy":
        return questions.die(st, "automaton-fights")
    return questions.die(st, "dice") + st.augur_effect().get("roll_modifier", 0)


def wants_reroll(st: Position, seat: str, value: int, why: str) -> bool:
    """Ask a reroll figure's owner whether to roll again."""
    choice = questions.ask(st, seat, f"You rolled {value} ({why}): reroll?", ["reroll", "keep"])
    if choice == "reroll":
        st.player(seat)["reroll_used"] = True
        st.emit("reroll", f"{st.name(seat)} rerolls a {value} ({why})", {"seat": seat, "roll": value})
    return choice == "reroll"


def single_roll(st: Position, seat: str, succeeds: Callable[[int], bool], why: str) -> int:
    """A roll that a reroll figure may repeat, once per turn, when it fails."""
    value = die(st, seat)
    if not succeeds(value) and can_reroll(st, seat) and wants_reroll(st, seat, value, why):
        value = die(st, seat)
    return value


def send_home(st: Position, pairs: Pairs) -> None:
    for seat, figure in pairs:
        if seat == "enemy":
            st.g["enemy"]["pos"][figure] = "home"
        else:
            st.player(seat)["pos"][figure] = "home"


def by_side(st: Position, pairs: Pairs) -> dict[str, Pairs]:
    sides: dict[str, Pairs] = {}
    for seat, figure in pairs:
        sides.setdefault(side_of(st, seat), []).append((seat, figure))
    return sides


def conflict_strength(st: Position, pairs: Pairs, territory: str | None) -> int:
    total = 0
    for seat, figure in pairs:
        total += attack(st, figure)
        bonus = ability(st, seat, figure).get("territory_attack") if territory else None
        if bonus and (bonus.get("kind") != "maritime" or st.t.territories[territory]["maritime"]):
            total += bonus["amount"]
    return total


def conflict(st: Position, sides: dict[str, Pairs], place: str, territory: str | None) -> str | None:
    """Two sides on one space: d12 + attack each; the winner side, or None on a tie."""
    names = list(sides)
    rollers = {side: strongest(st, sides[side]) for side in names}
    strength = {side: conflict_strength(st, sides[side], territory) for side in names}
    rolls = {side: die(st, rollers[side]) for side in names}

    def winner() -> str | None:
        a, b = names
        ta, tb = rolls[a] + strength[a], rolls[b] + strength[b]
        if ta != tb:
            return a if ta > tb else b
        if territory is None:   # Xenoclea's tie ability holds on Territories only (D3)
            return None
        tie_winners = [s for s in names if any(ability(st, p, f).get("wins_ties") for p, f in sides[s])]
        return tie_winners[0] if len(tie_winners) == 1 else None

    asked: set[str] = set()
    for _ in range(len(names)):
        won = winner()
        losers = [s for s in names if s != won and s not in asked and can_reroll(st, rollers[s])]
        if not losers:
            break
        side = losers[0]
        asked.add(side)
        # both dice are rolled in the open: the owner decides knowing where the sides stand
        standing = " against ".join(f"{s} {rolls[s]} + {strength[s]} = {rolls[s] + strength[s]}"
                                    for s in [side, *(n for n in names if n != side)])
        if wants_reroll(st, rollers[side], rolls[side], f"conflict at {place}: {standing}"):
            rolls[side] = die(st, rollers[side])
    won = winner()
    detail = "; ".join(f"{s} rolls {rolls[s]} + {strength[s]} = {rolls[s] + strength[s]}" for s in names)
    outcome = f"{won} wins" if won else "a tie, everyone goes home"
    st.emit("conflict", f"Conflict at {place}: {detail}: {outcome}",
            {"place": place, "rolls": rolls, "strength": strength, "winner": won})
    for side in names:
        if side != won:
            send_home(st, sides[side])
    return won
