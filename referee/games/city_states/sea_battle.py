"""Phase 7, sea battles (rule 9.7): ships at sea attack ships next to them.

A beaten stack afloat loses ships on the casualty roll and retreats with the
rest; ships destroyed take their crews and the armies aboard with them, and
with no ship left whatever they carried drowns.  In a landing place everyone
is ashore (D12, as with Storms): the fleets there fight when the rowers there
man them, transports never roll (their armies are not aboard), and a lost ship
goes down alone; the survivors stay on the beach.
"""

from __future__ import annotations

from .battle import ATTACKER, DEFENDER, Battles


class SeaBattles(Battles):
    """The losers of sea battles."""

    def sink(self, s: int, fleets: int, transports: int) -> None:
        """Lose fleets (the manned ones first, with their crews) and transports (the armed
        ones first, with their armies); afloat, cargo that no longer fits drowns.  In a
        landing place only the ships are lost: crews and armies are ashore."""
        t = self.t
        if not t.sea[s]:
            self.flt[s] -= fleets
            self.trn[s] -= transports
            return
        crews = min(fleets, self.manned(self.flt[s], self.row[s])) * t.fleet_rowers
        armies = min(transports, self.trn[s], self.arm[s]) * (t.transport_army or 1)
        self.flt[s] -= fleets
        self.trn[s] -= transports
        self.row[s] -= min(self.row[s], crews)
        self.arm[s] -= min(self.arm[s], armies)
        self.fit_cargo(s)

    def sea_attacker_loses(self) -> None:
        p, q = self.b_att, self.b_def
        mod = self.casualty_modifier(ATTACKER)
        rolls: list[str] = []
        lost = 0
        for o in self.fighting_origins():
            fleets = self.manned(self.flt[o], self.row[o])
            armed = min(self.trn[o], self.arm[o])
            lost_f = self.casualties(fleets, mod, rolls)
            lost_t = self.casualties(armed, mod, rolls)
            lost += lost_f + lost_t
            self.sink(o, lost_f, lost_t)
            self.mark_beaten(o, p)
            if not self.flt[o] + self.trn[o]:
                self.capture_leaders(self.leaders_at(o, p), q, f"ships lost off {self.t.names[o]}")
            self.refresh(o)
        self.log("casualties", f"{self.seats[p]}'s casualty rolls {', '.join(rolls)}"
                 + (f" ({mod:+d})" if mod else "") + f": {lost} ships lost, the rest fall back",
                 seat=self.seats[p], lost=lost)
        self.settle_captives("after_battle")

    def sea_defender_loses(self) -> None:
        q, s = self.b_def, self.b_target
        mod = self.casualty_modifier(DEFENDER)
        rolls: list[str] = []
        lost_f = self.casualties(self.flt[s], mod, rolls)
        lost_t = self.casualties(self.trn[s], mod, rolls)
        self.sink(s, lost_f, lost_t)
        self.mark_beaten(s, q)
        afloat = self.t.sea[s]
        self.log("casualties", f"{self.seats[q]}'s casualty rolls {', '.join(rolls)}"
                 + (f" ({mod:+d})" if mod else "") + f": {lost_f + lost_t} ships lost"
                 + ("" if afloat else ", the rest stay beached"), seat=self.seats[q],
                 lost=lost_f + lost_t)
        if afloat and self.flt[s] + self.trn[s]:
            self.start_retreat(s, q, True, "after_sea_retreat")
        else:
            self.k_after_sea_retreat()

    def k_after_sea_retreat(self) -> None:
        s = self.b_target
        if self.t.sea[s] and self.occ[s] == self.b_def:
            self.fit_cargo(s)
            self.capture_leaders(self.leaders_at(s, self.b_def), self.b_att,
                                 f"ships lost in {self.t.names[s]}")
        self.refresh(s)
        self.settle_captives("after_battle")
