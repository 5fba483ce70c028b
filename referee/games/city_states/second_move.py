"""Phase 9, second move (rule 9.9): every unit moves again (see `movement`), then
ships still at sea face the navigation roll.  Storms (a card) call the same roll."""

from __future__ import annotations

from .core import plural
from .leaders import Leaders
from .tables import FLEET, TRANSPORT


class SecondMove(Leaders):
    """The navigation roll."""

    def navigation_rolls(self) -> None:
        p, t = self.active, self.t
        for s in range(t.n):
            if t.sea[s] and self.occ[s] == p and self.flt[s] + self.trn[s]:
                self.navigation_roll(s, "still at sea")

    def navigation_roll(self, s: int, why: str) -> None:
        """Every ship in s rolls; on a sinking result it goes down with what it carries."""
        q, t = self.occ[s], self.t
        mods = (self.navigation_modifier(q, FLEET), self.navigation_modifier(q, TRANSPORT))
        said = ", ".join(f"{word} {mod:+d}" for word, mod, ships in
                         (("fleets", mods[0], self.flt[s]), ("transports", mods[1], self.trn[s]))
                         if mod and ships)
        rolls = []
        sunk = [0] * 5
        for k, count in enumerate(self.ship_classes(s)):   # fleets first (D12)
            for _ in range(count):
                roll, result = self.roll_table("navigation", mods[0 if k < 2 else 1])
                rolls.append(str(roll))
                if result == "sunk":
                    sunk[k] += 1
        self.sink(s, sunk)   # in port the crews and armies are ashore: ships alone
        if t.sea[s] and not self.flt[s] + self.trn[s]:
            for i in self.leaders_at(s, q):
                self.kill_leader(i, f"drowned in {t.names[s]}")
        lost = sum(sunk)
        self.log("navigation", f"Navigation rolls for {self.seats[q]}'s ships in {t.names[s]} "
                 f"({why}): {', '.join(rolls)}" + (f" ({said})" if said else "") + ": "
                 + (f"{plural(lost, 'ship')} sunk" if lost else "all safe"),
                 space=t.ids[s], sunk=lost)
        self.refresh(s)
