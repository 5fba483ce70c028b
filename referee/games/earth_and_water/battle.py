"""Land and naval battles, retreats and the battle reaction cards.

Reactions: Miltiades, 300 Spartans, Pausanias (before a land battle), The
Immortals (after a land round that empties the city of Persians), Artemisia
(after a naval round in which Persia lost a fleet and kept one).
"""

from __future__ import annotations

from .core import Core, count_of, losers_text
from .tables import GREECE, PERSIA, SIDES, WHO


class Battles(Core):
    """Steps `land_react`, `milt_pay`, `immortals`, `l_att_retreat`, `l_def_retreat`,
    `artemisia`, `n_att_retreat`, `n_def_retreat`."""

    # -- land battle -----------------------------------------------------------------------

    def start_land_battle(self, att: int, city: int, via_sea: bool) -> None:
        self.b_city, self.b_att, self.b_via_sea = city, att, via_sea
        self.b_origin = self.mv_origin
        self.b_pstart = self.arm[PERSIA][city]
        self.b_bonus = "leonidas" if (att == GREECE and self.mv_kind == "leonidas") else ""
        self.b_scored = False
        self.b_result = ""
        name = self.t.names[city]
        self.log("battle", "Land battle in {}: {} attacks ({} Persian, {} Greek){}",
                 (name, WHO[att], self.arm[PERSIA][city], self.arm[GREECE][city],
                  self.t.retreat_note), data={"city": name, "naval": False})
        self.open_land_window()

    def land_reaction_effects(self) -> list[str]:
        """Battle cards the situation allows before the first round (held or not)."""
        t, out = self.t, []

        def allowed(effect: str) -> bool:
            num = t.card_of[GREECE].get(effect)
            return num is not None and not (self.carneia and t.cards[num][GREECE].sparta)

        if (not self.b_bonus and "miltiades" not in self.once_used and allowed("miltiades")
                and self.miltiades_payable()):
            out.append("miltiades")
        if self.b_att == PERSIA:
            if not self.b_bonus and allowed("three_hundred"):
                out.append("three_hundred")
            if self.cavalry and allowed("pausanias"):
                out.append("pausanias")
        return out

    def land_reactions(self) -> list[int]:
        """The allowed battle cards Greece really holds."""
        held = (self.holds(GREECE, e) for e in self.land_reaction_effects())
        return sorted(num for num in held if num)

    def miltiades_payable(self) -> bool:
        if self.res_arm[GREECE]:
            return True
        arm, city = self.arm[GREECE], self.b_city
        return arm[city] >= 2 or any(arm[c] for c in range(self.t.ncity) if c != city)

    def open_land_window(self) -> None:
        if self.hands[GREECE] and any(self.may_hold(GREECE, e) for e in self.land_reaction_effects()):
            self.step, self.actor = "land_react", GREECE
        else:
            self.land_round()

    def legal_land_react(self) -> list[str]:
        s = self.t.s_react
        return [s[n] for n in sorted(self.land_reactions())] + ["decline"]

    def do_land_react(self, args: list[str]) -> None:
        if args[0] == "decline":
            self.log("decline", "Greece plays no battle card", to=GREECE)
            self.land_round()
            return
        num = int(args[1])
        half = self.t.cards[num][GREECE]
        self.discard_card(GREECE, num)
        self.log("react", "Greece plays {} {}", (num, half.name), data={"card": num})
        if half.effect == "pausanias":
            self.cavalry = False
        elif half.effect == "three_hundred":
            self.b_bonus = "three_hundred"
        else:
            self.b_bonus = "miltiades"
            self.once_used.append("miltiades")
            if not self.res_arm[GREECE]:
                self.step = "milt_pay"
                return
            self.res_arm[GREECE] -= 1
        self.open_land_window()

    def legal_milt_pay(self) -> list[str]:
        arm, city = self.arm[GREECE], self.b_city
        return [self.t.s_sacrifice[c] for c in range(self.t.ncity)
                if arm[c] and (c != city or arm[c] >= 2)]

    def do_milt_pay(self, args: list[str]) -> None:
        self.arm[GREECE][self.t.index[args[1]]] -= 1
        self.log("sacrifice", "Greece takes an army from {} for Miltiades", (args[1],))
        self.open_land_window()

    def greek_dice(self) -> int:
        bonus = self.b_bonus
        if bonus:
            return self.t.param(GREECE, bonus, "dice", 3)
        return min(self.t.max_dice, self.arm[GREECE][self.b_city])

    def land_round(self) -> None:
        city = self.b_city
        arm_p, arm_g = self.arm[PERSIA], self.arm[GREECE]
        cap = 6 if self.cavalry else self.t.cap[PERSIA][city]
        p_best, p_faces = self.roll(min(self.t.max_dice, arm_p[city]), cap)
        g_best, g_faces = self.roll(self.greek_dice(), self.t.cap[GREECE][city])
        lost = []
        if p_best <= g_best:
            arm_p[city] -= 1
            self.res_arm[PERSIA] += 1
            lost.append("Persia")
        if g_best <= p_best:
            arm_g[city] -= 1
            self.res_arm[GREECE] += 1
            lost.append("Greece")
        self.log("round", "Persia rolls {} ({}), Greece rolls {} ({}): {} an army in {}",
                 (p_faces, p_best, g_faces, g_best, losers_text(lost), self.t.names[city]),
                 data={"persia": p_faces, "greece": g_faces, "losers": lost})
        if not arm_p[city]:
            self.settle_event_score()
            if self.immortals_ok():
                self.step, self.actor = "immortals", PERSIA
                return
        self.land_after_round()

    def land_after_round(self) -> None:
        city = self.b_city
        if not self.arm[PERSIA][city] or not self.arm[GREECE][city]:
            self.end_land_battle()
        elif self.land_att_retreats():
            self.step, self.actor = "l_att_retreat", self.b_att
        else:
            self.land_defender_choice()

    def land_defender_choice(self) -> None:
        if self.land_def_retreats():
            self.step, self.actor = "l_def_retreat", 1 - self.b_att
        else:
            self.land_round()

    def end_land_battle(self) -> None:
        self.settle_event_score()
        self.b_bonus = ""
        self.resume()

    def settle_event_score(self) -> None:
        """Evangelion / The Great King: scored once, when the battle is decided."""
        if self.b_scored or not self.op_event:
            return
        self.b_scored = True
        city = self.b_city
        if self.op_event == "evangelion":
            if not self.arm[PERSIA][city]:
                self.add_vp(-1, "Evangelion")
            if not self.controls(GREECE, city):
                self.add_vp(1, "Evangelion failed")
        elif self.op_event == "great_king":
            if not self.arm[GREECE][city]:
                self.add_vp(1, "The Great King")
            if not self.controls(PERSIA, city):
                self.add_vp(-1, "The Great King failed")

    # -- The Immortals ---------------------------------------------------------------------

    def immortals_ok(self) -> bool:
        return (not self.xerxes_dead and self.b_pstart > 0 and self.res_arm[PERSIA] > 0
                and self.may_hold(PERSIA, "immortals"))

    def legal_immortals(self) -> list[str]:
        return self.react_or_decline(PERSIA, "immortals")

    def do_immortals(self, args: list[str]) -> None:
        if args[0] == "decline":
            self.log("decline", "Persia plays no card", to=PERSIA)
            self.land_after_round()
            return
        num = int(args[1])
        self.discard_card(PERSIA, num)
        city = self.b_city
        most = self.t.param(PERSIA, "immortals", "max_restore", 3)
        back = min(most, self.b_pstart, self.res_arm[PERSIA])
        self.res_arm[PERSIA] -= back
        self.arm[PERSIA][city] += back
        self.log("react", "Persia plays {} The Immortals: {} return to {}",
                 (num, count_of(back, "army"), self.t.names[city]),
                 data={"card": num, "armies": back})
        if not self.arm[GREECE][city]:
            self.end_land_battle()
            return
        self.b_pstart = back
        self.b_bonus = ""
        self.log("battle", "The land battle in {} starts again", (self.t.names[city],))
        self.open_land_window()

    # -- land retreats -----------------------------------------------------------------------

    def land_att_retreats(self) -> list[str]:
        t, city, att = self.t, self.b_city, self.b_att
        if not t.may_retreat[att]:
            return []
        if self.b_via_sea:
            return [t.s_retreat_sea[self.b_origin]]
        adj = t.adj[self.bridge][city]
        if self.b_origin in adj:
            return [t.s_retreat[self.b_origin]]
        reach = self.mv_reach
        return [t.s_retreat[c] for c in adj if c in reach and self.controls(att, c)]

    def land_def_retreats(self) -> list[str]:
        t, city = self.t, self.b_city
        side = 1 - self.b_att
        if not t.may_retreat[side]:
            return []
        out = [t.s_retreat[c] for c in t.adj[self.bridge][city] if self.controls(side, c)]
        fleets = self.flt[side][city]
        if fleets and fleets >= self.arm[side][city]:
            enemy = self.flt[self.b_att]
            out += [t.s_retreat_sea[p] for p in t.ports
                    if p != city and not enemy[p] and self.controls(side, p)]
        return out

    def legal_l_att_retreat(self) -> list[str]:
        return self.land_att_retreats() + ["continue"]

    def legal_l_def_retreat(self) -> list[str]:
        return self.land_def_retreats() + ["continue"]

    def do_l_att_retreat(self, args: list[str]) -> None:
        if args[0] == "continue":
            self.land_defender_choice()
            return
        self.retreat_land_group(self.b_att, self.t.index[args[1]], args[0] == "retreat_sea")

    def do_l_def_retreat(self, args: list[str]) -> None:
        if args[0] == "continue":
            self.land_round()
            return
        self.retreat_land_group(1 - self.b_att, self.t.index[args[1]], args[0] == "retreat_sea")

    def retreat_land_group(self, side: int, dest: int, by_sea: bool) -> None:
        city = self.b_city
        armies = self.arm[side][city]
        self.arm[side][city] = 0
        self.arm[side][dest] += armies
        name = self.t.names[dest]
        if by_sea:
            fleets = self.flt[side][city]
            self.flt[side][city] = 0
            self.flt[side][dest] += fleets
            self.log("retreat", "{} retreats {} to {} with {}",
                     (WHO[side], count_of(armies, "army"), name, count_of(fleets, "fleet")),
                     data={"side": SIDES[side], "dest": name})
        else:
            self.log("retreat", "{} retreats {} to {}", (WHO[side], count_of(armies, "army"), name),
                     data={"side": SIDES[side], "dest": name})
        self.b_result = "attacker_retreat" if side == self.b_att else "defender_retreat"
        self.end_land_battle()

    # -- naval battle ------------------------------------------------------------------------

    def start_naval_battle(self, att: int, port: int, origin: int, carried: int) -> None:
        self.b_city, self.b_att, self.b_origin, self.b_carried = port, att, origin, carried
        self.b_result = ""
        name = self.t.names[port]
        self.log("battle", "Naval battle at {}: {} attacks ({} Persian, {} Greek){}",
                 (name, WHO[att], self.flt[PERSIA][port], self.flt[GREECE][port],
                  self.t.retreat_note), data={"city": name, "naval": True})
        self.naval_round()

    def naval_round(self) -> None:
        port, t = self.b_city, self.t
        flt_p, flt_g = self.flt[PERSIA], self.flt[GREECE]
        p_best, p_faces = self.roll(min(t.max_dice, flt_p[port]), t.cap[PERSIA][port])
        g_best, g_faces = self.roll(min(t.max_dice, flt_g[port]), t.cap[GREECE][port])
        lost = []
        if p_best <= g_best:
            flt_p[port] -= 1
            self.res_flt[PERSIA] += 1
            lost.append("Persia")
            self.sink_cargo(PERSIA)
        if g_best <= p_best:
            flt_g[port] -= 1
            self.res_flt[GREECE] += 1
            lost.append("Greece")
            self.sink_cargo(GREECE)
        self.log("round", "Persia rolls {} ({}), Greece rolls {} ({}): {} a fleet at {}",
                 (p_faces, p_best, g_faces, g_best, losers_text(lost), t.names[port]),
                 data={"persia": p_faces, "greece": g_faces, "losers": lost})
        if (p_best <= g_best and flt_p[port] and "artemisia" not in self.once_used
                and self.may_hold(GREECE, "artemisia")):
            self.step, self.actor = "artemisia", GREECE
            return
        self.naval_after_round()

    def sink_cargo(self, side: int) -> None:
        """Empty fleets sink first: lose an army only when fleets < carried armies."""
        if side == self.b_att and self.flt[side][self.b_city] < self.b_carried:
            self.b_carried -= 1
            self.res_arm[side] += 1
            self.log("cargo", "A carried {} army is lost at sea", (WHO[side],))

    def naval_after_round(self) -> None:
        port = self.b_city
        if not self.flt[PERSIA][port] or not self.flt[GREECE][port]:
            self.resume()
        elif self.no_naval_retreat:
            self.naval_round()
        elif self.t.may_retreat[self.b_att]:
            self.step, self.actor = "n_att_retreat", self.b_att
        else:
            self.naval_defender_choice()

    def naval_defender_choice(self) -> None:
        if self.naval_def_retreats():
            self.step, self.actor = "n_def_retreat", 1 - self.b_att
        else:
            self.naval_round()

    def legal_artemisia(self) -> list[str]:
        return self.react_or_decline(GREECE, "artemisia")

    def do_artemisia(self, args: list[str]) -> None:
        if args[0] == "react":
            num = int(args[1])
            self.discard_card(GREECE, num)
            self.once_used.append("artemisia")
            self.flt[PERSIA][self.b_city] -= 1   # onto her portrait: gone for good
            self.log("react", "Greece plays {} Artemisia I: another Persian fleet is sunk for good",
                     (num,), data={"card": num})
            self.sink_cargo(PERSIA)
        else:
            self.log("decline", "Greece plays no card", to=GREECE)
        self.naval_after_round()

    def naval_def_retreats(self) -> list[str]:
        t, port, side = self.t, self.b_city, 1 - self.b_att
        if not t.may_retreat[side]:
            return []
        enemy = self.flt[self.b_att]
        return [t.s_retreat[p] for p in t.ports
                if p != port and not enemy[p] and self.controls(side, p)]

    def legal_n_att_retreat(self) -> list[str]:
        return [self.t.s_retreat[self.b_origin], "continue"]

    def do_n_att_retreat(self, args: list[str]) -> None:
        if args[0] == "continue":
            self.naval_defender_choice()
            return
        side, port, origin = self.b_att, self.b_city, self.b_origin
        fleets = self.flt[side][port]
        self.flt[side][port] = 0
        self.flt[side][origin] += fleets
        self.arm[side][origin] += self.b_carried
        self.log("retreat", "{} sails back to {} with {} and {}",
                 (WHO[side], self.t.names[origin], count_of(fleets, "fleet"),
                  count_of(self.b_carried, "army")))
        self.b_carried = 0
        self.b_result = "attacker_retreat"
        self.resume()

    def legal_n_def_retreat(self) -> list[str]:
        return self.naval_def_retreats() + ["continue"]

    def do_n_def_retreat(self, args: list[str]) -> None:
        if args[0] == "continue":
            self.naval_round()
            return
        side, port, dest = 1 - self.b_att, self.b_city, self.t.index[args[1]]
        fleets = self.flt[side][port]
        self.flt[side][port] = 0
        self.flt[side][dest] += fleets
        self.log("retreat", "{} fleets retreat to {}", (WHO[side], args[1]))
        self.b_result = "defender_retreat"
        self.resume()
