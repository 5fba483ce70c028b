"""Phase 2, revenue (rule 9.2): gold from every city, then razed markers fade."""

from __future__ import annotations

from .leaders import Leaders


class Revenue(Leaders):
    """The income of a player's cities."""

    def city_revenue(self, p: int, s: int) -> tuple[int, str]:
        """What city s would earn p now, and why when it is not its full income."""
        if self.noinc[s]:
            return 0, "no income this turn"
        if self.razed[s]:
            return 0, "razed"
        if self.besieged(s):
            return 0, "besieged"
        income = self.home_income(p) if self.is_home(s) else self.income[s]
        if self.hostile[s]:
            div = self.t.hostile_divisor
            return (income + div - 1) // div, "hostile"
        return income, ""

    def phase_revenue(self) -> None:
        p = self.active
        self.phase = "revenue"
        total = 0
        parts = []
        names = self.t.names
        for s in self.cities_of(p):
            gold, why = self.city_revenue(p, s)
            self.noinc[s] = False
            total += gold
            parts.append(f"{names[s]} {gold}" + (f" ({why})" if why else ""))
        self.gold[p] += total
        self.log("revenue", f"{self.seats[p]} collects {total} gold: " + (", ".join(parts) or
                 "no city") + f"; treasury {self.gold[p]}", seat=self.seats[p], gold=total)
        shed = self.t.razed_per_turn
        for s in self.cities_of(p):
            if self.razed[s]:
                self.razed[s] = max(0, self.razed[s] - shed)
        self.phase_upkeep()

    def expected_income(self, p: int) -> int:
        return sum(self.city_revenue(p, s)[0] for s in self.cities_of(p))
