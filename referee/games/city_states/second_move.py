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
        sunk_f = sunk_t = 0
        for kind in [0] * self.flt[s] + [1] * self.trn[s]:
            roll, result = self.roll_table("navigation", mods[kind])
            rolls.append(str(roll))
            if result == "sunk":
                if kind:
                    sunk_t += 1
                else:
                    sunk_f += 1
        if t.sea[s]:
            self.sink(s, sunk_f, sunk_t)
            if not self.flt[s] + self.trn[s]:
                for i in self.leaders_at(s, q):
                    self.kill_leader(i, f"drowned in {t.names[s]}")
        else:   # in port the crews and armies are ashore
            self.flt[s] -= sunk_f
            self.trn[s] -= sunk_t
        lost = sunk_f + sunk_t
        self.log("navigation", f"Navigation rolls for {self.seats[q]}'s ships in {t.names[s]} "
                 f"({why}): {', '.join(rolls)}" + (f" ({said})" if said else "") + ": "
                 + (f"{plural(lost, 'ship')} sunk" if lost else "all safe"),
                 space=t.ids[s], sunk=lost)
        self.refresh(s)
