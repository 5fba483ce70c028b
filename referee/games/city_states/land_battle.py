"""Phase 8, land battles (rule 9.8): garrisons, neutral cities, taking cities.

Step `plunder`: the player who has just taken a city spares it, plunders it
(3D6 gold, 3 razed markers in all) or destroys it (the gold, 6 in all), and
may play Treasure first.  A beaten attacker stays where it attacked from; a
beaten defender retreats or is destroyed, and what it leaves without an army or
rowers goes to the winner.  A city left without defenders is taken: one unit
of the attacker moves in.  Armies aboard ships attack the landing places on
their sea zone's shore (D19): the only way into an island city.
"""

from __future__ import annotations

from .battle import ATTACKER, Battles
from .core import plural


class LandBattles(Battles):
    """The losers of land battles, taking cities, plunder."""

    def attacker_loses(self) -> None:
        if self.b_sea:
            self.sea_attacker_loses()
        else:
            self.land_attacker_loses()

    def defender_loses(self) -> None:
        if self.b_sea:
            self.sea_defender_loses()
        else:
            self.land_defender_loses()

    def land_attacker_loses(self) -> None:
        p, q = self.b_att, self.b_def
        mod = self.casualty_modifier(ATTACKER)
        rolls: list[str] = []
        lost = 0
        for o in self.fighting_origins():
            armies, rowers = self.land_fighters(o)
            lost_a = self.casualties(armies, mod, rolls)
            lost_r = self.casualties(rowers, mod, rolls)
            self.arm[o] -= lost_a
            self.row[o] -= lost_r
            lost += lost_a + lost_r
            self.mark_beaten(o, p)
            # (at sea the leaders stay aboard the ships, which do not fight on land)
            if not self.combat_units(o) and not (self.t.sea[o] and self.flt[o] + self.trn[o]):
                self.capture_leaders(self.leaders_at(o, p), q, f"beaten at {self.t.names[o]}")
            self.refresh(o)
        self.log("casualties", f"{self.seats[p]}'s casualty rolls {', '.join(rolls)}"
                 + (f" ({mod:+d})" if mod else "") + f": {plural(lost, 'unit')} lost, the rest hold their "
                 "ground", seat=self.seats[p], lost=lost)
        self.settle_captives("after_battle")

    def land_defender_loses(self) -> None:
        s, q = self.b_target, self.b_def
        if q < 0:
            self.log("casualties", f"The neutral army of {self.t.names[s]} is destroyed")
            self.take_city()
            return
        self.land_defender_casualties("after_land_retreat")

    def k_after_land_retreat(self) -> None:
        s, p, q = self.b_target, self.b_att, self.b_def
        self.take_leftovers(s, q, p)
        if self.t.city[s] and self.owner[s] != p and not (self.occ[s] == q and
                                                          self.combat_units(s)):
            self.take_city()
        else:
            self.settle_captives("after_battle")

    def take_city(self) -> None:
        """The attacker moves one unit in and takes control of the city."""
        s, p, t = self.b_target, self.b_att, self.t
        movers = [o for o in self.fighting_origins() if self.arm[o]] or \
            [o for o in self.fighting_origins() if self.land_fighters(o)[1]]
        if not movers:   # nobody left to walk in
            self.settle_captives("after_battle")
            return
        o = movers[0]
        army = 1 if self.arm[o] else 0
        self.transfer(o, s, army, 1 - army, 0, 0, 0)
        unit = "an army" if army else "a rowers unit"
        self.attacked[s] = True
        self.refresh(o)
        # only a minor city turns hostile: a city chosen as a home is never a minor city,
        # whoever takes it and from whom (its founder, a captor, or neutral after a revolt)
        hostile = s not in self.home   # D14
        self.take_control(p, s, hostile)
        self.sink_excess(s)
        self.log("take_city", f"{self.seats[p]} takes {t.names[s]} ({unit} moves in from "
                 f"{t.names[o]})" + (": it is hostile" if hostile else ""), seat=self.seats[p],
                 space=t.ids[s], hostile=hostile)
        self.p_city = s
        self.wait("plunder", p)

    def legal_plunder(self) -> list[str]:
        s = self.t.s_play
        cards = [s[n] for n in sorted(self.hands[self.actor])
                 if self.t.cards[n].kind == "capture_gold"]
        return ["spare", "plunder", "raze"] + cards

    def do_plunder(self, args: list[str]) -> None:
        p, s, t = self.actor, self.p_city, self.t
        name = t.names[s]
        if args[0] == "play":
            num = t.card_by_id[args[1]]
            card = t.cards[num]
            self.discard_card(p, num)
            gold = self.dice(card.count, card.die)
            self.gold[p] += gold
            self.log("play", f"{self.seats[p]} plays {card.name} in {name}: {gold} gold",
                     seat=self.seats[p], card=card.id, gold=gold)
            return
        if args[0] != "spare":
            gold = self.dice(*t.plunder_gold)
            self.gold[p] += gold
            # the city ends with that many markers in all, never fewer than it had (D14)
            razed = max(self.razed[s], t.plunder_razed if args[0] == "plunder"
                        else t.destroy_razed)
            self.razed[s] = razed
            verb = "plunders" if args[0] == "plunder" else "plunders and destroys"
            self.log("plunder", f"{self.seats[p]} {verb} {name}: {gold} gold, "
                     f"{plural(razed, 'razed marker')} in all", seat=self.seats[p],
                     space=t.ids[s], gold=gold, razed=razed)
        self.p_city = -1
        self.settle_captives("after_battle")
