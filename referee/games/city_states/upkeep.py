"""Phase 3, upkeep (rule 9.3): gold near friendly cities, then baggage, then hunger.

Starvation markers lie on a stack: all of one player's armies and rowers in a
space share them (a ruling: agon counts units, it does not name them).  A stack
whose every unit is paid or fed loses its markers; one where a hungry unit
survives its upkeep roll gains one.
"""

from __future__ import annotations

from .core import plural
from .leaders import Leaders


class Upkeep(Leaders):
    """Paying armies and rowers, eating baggage, the upkeep roll."""

    def supplied(self, p: int, s: int) -> bool:
        """Units here can be paid: in or next to a friendly city of p."""
        t = self.t
        if t.city[s] and self.friendly(p, s):
            return True
        return any(t.city[x] and self.friendly(p, x) for x in t.adj[s])

    def phase_upkeep(self) -> None:
        p = self.active
        self.phase = "upkeep"
        t = self.t
        cost_arm, cost_row = t.upkeep_cost["army"], t.upkeep_cost["rowers"]
        stacks = [s for s in range(t.n) if self.occ[s] == p and (self.arm[s] or self.row[s])]
        stacks.sort(key=lambda s: -self.starve[s])   # the hungriest are paid first
        paid = baggage = 0
        notes = []
        for s in stacks:
            # armies are paid before rowers; what gold cannot pay, baggage feeds
            hungry_arm, hungry_row = self.arm[s], self.row[s]
            if cost_arm == 0:
                hungry_arm = 0
            if cost_row == 0:
                hungry_row = 0
            if self.supplied(p, s):
                k = min(hungry_arm, self.gold[p] // cost_arm) if cost_arm else 0
                self.gold[p] -= k * cost_arm
                paid += k
                hungry_arm -= k
                k = min(hungry_row, self.gold[p] // cost_row) if cost_row else 0
                self.gold[p] -= k * cost_row
                paid += k
                hungry_row -= k
            eat = min(self.bag[s], hungry_arm + hungry_row)
            if eat:
                self.bag[s] -= eat
                baggage += eat
                k = min(eat, hungry_arm)
                hungry_arm -= k
                hungry_row -= eat - k
            if hungry_arm + hungry_row == 0:
                self.starve[s] = 0
                continue
            notes.append(self.hunger(s, hungry_arm, hungry_row, 0, "unfed"))
        text = f"{self.seats[p]} pays {paid} gold upkeep"
        if baggage:
            text += f", eats {plural(baggage, 'baggage', 'baggage')}"
        self.log("upkeep", "; ".join([text] + notes) + f"; treasury {self.gold[p]}",
                 seat=self.seats[p], paid=paid, baggage=baggage)
        self.phase_recruit()

    def hunger(self, s: int, armies: int, rowers: int, modifier: int, why: str) -> str:
        """Upkeep rolls for hungry units in s; returns what happened, in words."""
        p = self.occ[s]
        mod = modifier + self.starve[s] + self.upkeep_modifier(p, s)
        rolls = []
        lost_arm = lost_row = 0
        for kind in [0] * rowers + [1] * armies:
            roll, result = self.roll_table("upkeep", mod)
            rolls.append(str(roll))
            if result == "disband":
                if kind:
                    lost_arm += 1
                else:
                    lost_row += 1
        self.arm[s] -= lost_arm
        self.row[s] -= lost_row
        survivors = armies + rowers - lost_arm - lost_row
        if survivors:
            self.starve[s] += 1
        lost = [plural(lost_arm, "army")] if lost_arm else []
        lost += [plural(lost_row, "rowers", "rowers")] if lost_row else []
        text = (f"{why} in {self.t.names[s]}: upkeep rolls {', '.join(rolls)}"
                + (f" ({mod:+d})" if mod else "") + ": "
                + (" and ".join(lost) + (" disbands" if lost_arm + lost_row == 1 else " disband")
                   if lost else "none disbands"))
        if survivors:
            text += f", {plural(self.starve[s], 'starvation marker')} on the stack"
        self.refresh(s)
        return text

    def attrition_rolls(self, s: int, modifier: int, why: str) -> None:
        """Every army and rowers unit in s makes an upkeep roll (Plague, Desertions)."""
        text = self.hunger(s, self.arm[s], self.row[s], modifier, why)
        self.log("attrition", text[0].upper() + text[1:], space=self.t.ids[s])

    def upkeep_due(self, p: int) -> int:
        """Gold p's armies and rowers cost each upkeep phase."""
        t, occ = self.t, self.occ
        return sum(self.arm[s] * t.upkeep_cost["army"] + self.row[s] * t.upkeep_cost["rowers"]
                   for s in range(t.n) if occ[s] == p)
