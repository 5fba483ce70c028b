"""Phase 7, sea battles (rule 9.7): ships at sea attack ships next to them.

A beaten stack afloat rolls the casualty roll for each ship and retreats with
the rest; a ship destroyed takes down what it carries (a crew, an army) and no
more, and with no ship left whatever they carried drowns.  In a landing place everyone
is ashore (D12, as with Storms): the fleets there fight when the rowers there
man them, transports never roll (their armies are not aboard), and a lost ship
goes down alone; the survivors stay on the beach.
"""

from __future__ import annotations

from .battle import ATTACKER, DEFENDER, Battles
from .core import plural


class SeaBattles(Battles):
    """The losers of sea battles."""

    def ship_classes(self, s: int) -> tuple[int, int, int, int, int]:
        """The ships in s by what each carries, in the order their casualty and navigation
        dice are rolled (D12: every ship rolls for itself, and a lost ship takes down only
        what it carries): manned fleets, unmanned fleets, transports carrying an army,
        transports carrying rowers, the other transports.  In a landing place nobody is
        aboard: fleets, then transports."""
        t = self.t
        flt, trn = self.flt[s], self.trn[s]
        if not t.sea[s]:
            return flt, 0, 0, 0, trn
        per = t.transport_army or 1
        manned = self.manned(flt, self.row[s])
        armed = min(trn, -(-self.arm[s] // per))
        cargo_rowers = self.row[s] - manned * t.fleet_rowers
        rowed = min(trn - armed, -(-cargo_rowers // per))
        return manned, flt - manned, armed, rowed, trn - armed - rowed

    def sink(self, s: int, lost: list[int]) -> None:
        """Lose ships of each of the `ship_classes`, `lost` of each: afloat a manned fleet
        takes its crew down and a transport its army or rowers, and cargo that no longer
        fits drowns.  In a landing place only the ships are lost: crews and armies are
        ashore."""
        t = self.t
        self.flt[s] -= lost[0] + lost[1]
        self.trn[s] -= lost[2] + lost[3] + lost[4]
        if not t.sea[s]:
            return
        per = t.transport_army or 1
        self.row[s] -= min(self.row[s], lost[0] * t.fleet_rowers + lost[3] * per)
        self.arm[s] -= min(self.arm[s], lost[2] * per)
        self.fit_cargo(s)

    def sea_attacker_loses(self) -> None:
        p, q = self.b_att, self.b_def
        mod = self.casualty_modifier(ATTACKER)
        rolls: list[str] = []
        lost = 0
        for o in self.fighting_origins():
            manned, _, armed, _, _ = self.ship_classes(o)   # the ships that fought roll
            lost_ships = [self.casualties(manned, mod, rolls), 0,
                          self.casualties(armed, mod, rolls), 0, 0]
            lost += sum(lost_ships)
            self.sink(o, lost_ships)
            self.mark_beaten(o, p)
            if not self.flt[o] + self.trn[o]:
                self.capture_leaders(self.leaders_at(o, p), q, f"ships lost off {self.t.names[o]}")
            self.refresh(o)
        self.log("casualties", f"{self.seats[p]}'s casualty rolls {', '.join(rolls)}"
                 + (f" ({mod:+d})" if mod else "") + f": {plural(lost, 'ship')} lost, the rest fall back",
                 seat=self.seats[p], lost=lost)
        self.settle_captives("after_battle")

    def sea_defender_loses(self) -> None:
        q, s = self.b_def, self.b_target
        mod = self.casualty_modifier(DEFENDER)
        rolls: list[str] = []
        lost = [self.casualties(count, mod, rolls) for count in self.ship_classes(s)]
        self.sink(s, lost)
        self.mark_beaten(s, q)
        afloat = self.t.sea[s]
        self.log("casualties", f"{self.seats[q]}'s casualty rolls {', '.join(rolls)}"
                 + (f" ({mod:+d})" if mod else "") + f": {plural(sum(lost), 'ship')} lost"
                 + ("" if afloat else ", the rest stay beached"), seat=self.seats[q],
                 lost=sum(lost))
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
