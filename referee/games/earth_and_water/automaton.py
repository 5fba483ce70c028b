"""PERS.IA, the solo-mode automaton that plays Persia inside `apply`.

Its behaviour is data (`data.automaton` of a solo ruleset): preparation
situations, the d6 operation table with its fallbacks, and every priority list.
It never plays Persian events, never retreats (the ruleset sets
`battle.may_retreat.persia: false`) and keeps no cards.  Each roll and choice is
logged with the rule it applied.  Battles it starts are the engine's ordinary
battles, so the Greek reactions and retreats work unchanged.
"""

from __future__ import annotations

from typing import Any

from .core import Core, count_of
from .tables import GREECE, PERSIA, SIDES

BIG = 99


class Automaton:
    """The tables of one automaton and the code that reads them."""

    def __init__(self, spec: dict[str, Any], t: Any) -> None:
        self.side = SIDES.index(spec.get("side", "persia"))
        self.name = spec.get("name", "PERS.IA")
        self.budget = int(spec["budget"])
        idx = t.index
        prep = spec["preparation"]
        self.prep_a = prep["major_occupied"]
        self.prep_b = prep["persia_ahead"]
        self.prep_c = prep["even"]
        self.prep_d = prep["greece_ahead"]
        self.cycle_b = [idx[c] for c in self.prep_b["army_cycle"]]
        self.cycle_c = [idx[c] for c in self.prep_c["army_cycle"]]
        self.armies_to_d = idx[self.prep_d["armies_to"]]
        self.die = {int(k): v for k, v in spec["operation_die"].items()}
        self.fallback: dict[str, str] = dict(spec["fallback"])
        orders = spec["orders"]
        self.activation = [idx[c] for c in orders["activation"]]
        self.destroy_army = [idx[c] for c in orders["destroy_army"]]
        self.destroy_fleet = [idx[c] for c in orders["destroy_fleet"]]
        self.place = [idx[c] for c in orders["place"]]
        self.attrition = [idx[c] for c in orders["attrition"]]
        move = spec["move"]
        self.keep_home = int(move["keep_at_home"])
        self.bias = idx[move["nearer_to"]]
        self.prefer = [idx[c] for c in move["prefer"]]
        self.defence_divisor = int(spec["defence"]["divisor"])
        self.pass_ends_phase = bool(spec.get("pass_ends_phase", True))

    def run(self, s: Any) -> None:
        """Play every step that is the automaton's until a seat must decide."""
        guard = 0
        while not s.over and s.actor == self.side and s.step:
            guard += 1
            if guard > 1000:
                raise RuntimeError(f"{self.name} is stuck in step {s.step}")
            s._pending = None
            s.auto_step(self)
            s._pending = None
            s.check_instant_victory()


class AutomatonSteps(Core):
    """What the automaton does in each Persian step, as methods of the position."""

    def auto_step(self, a: Automaton) -> None:
        step = self.step
        if step == "buy":
            self.auto_preparation(a)
        elif step == "turn":
            self.auto_operation(a)
        elif step == "sup_cards":
            for num in list(self.hands[PERSIA]):
                self.discard_card(PERSIA, num)
            self.log("discard", f"{a.name} keeps no cards")
            self.start_attrition(PERSIA)
        elif step == "attrit":
            self.auto_attrition(a)
        else:   # a step the automaton never meets in the shipped rules: take the first choice
            legal = self.pending()[0].legal
            self._pending = None
            self.log("auto", f"{a.name} takes {legal[0]}")
            getattr(self, "do_" + step)(legal[0].split())

    # -- preparation ------------------------------------------------------------------

    def auto_preparation(self, a: Automaton) -> None:
        t = self.t
        self.talents = a.budget
        occupied = [c for c in t.majors[PERSIA] if self.arm[GREECE][c]]
        if occupied:
            spec, why = a.prep_a, "a Persian major city holds Greek armies"
        elif self.vp > 0:
            spec, why = a.prep_b, "Persia leads"
        elif self.vp == 0:
            spec, why = a.prep_c, "the score is even"
        else:
            spec, why = a.prep_d, "Greece leads"
        self.log("auto", f"{a.name} prepares ({why})")
        cards = min(int(spec["cards"]), len(self.deck) + len(self.discard), self.talents)
        self.talents -= cards
        drawn = self.draw(PERSIA, cards)
        death = t.card_of[PERSIA].get("sudden_death")
        if death in drawn and not self.xerxes_dead:
            self.kill_king("prep")
            return
        if occupied:
            free = [c for c in t.majors[PERSIA] if not self.arm[GREECE][c]]
            if free:
                self.auto_raise_armies(free[0], int(spec["armies"]))
        else:
            if spec.get("bridge") and not self.bridge and self.talents >= t.bridge_cost:
                if self.controls(PERSIA, t.bridge_ends[0]):
                    self.talents -= t.bridge_cost
                    self.bridge = True
                    self.log("bridge", f"{a.name} builds the pontoon bridge")
            if spec.get("fleets_in_occupied_ports"):
                self.auto_fleets()
            if spec is a.prep_d:
                self.auto_raise_armies(a.armies_to_d, self.talents)
            else:
                cycle = a.cycle_b if spec is a.prep_b else a.cycle_c
                self.auto_army_cycle(cycle, int(spec.get("minor_cap", BIG)))
        self.end_build(PERSIA)

    def auto_raise_armies(self, city: int, count: int) -> None:
        cost = self.t.army_cost[PERSIA]
        count = min(count, self.talents // cost if cost else count, self.res_arm[PERSIA])
        self.talents -= count * cost
        self.res_arm[PERSIA] -= count
        self.arm[PERSIA][city] += count
        if count:
            self.log("raise", f"Persia raises {count_of(count, 'army')} in {self.t.names[city]}")

    def auto_fleets(self) -> None:
        t = self.t
        cost = t.fleet_cost[PERSIA]
        for c in t.ports:
            if (self.arm[PERSIA][c] and not self.flt[PERSIA][c] and not self.flt[GREECE][c]
                    and self.talents >= cost and self.res_flt[PERSIA]):
                self.talents -= cost
                self.res_flt[PERSIA] -= 1
                self.flt[PERSIA][c] += 1
                self.log("raise", f"Persia raises a fleet at {t.names[c]}")

    def auto_army_cycle(self, cycle: list[int], minor_cap: int) -> None:
        t = self.t
        cost = t.army_cost[PERSIA]
        while self.talents >= cost and self.res_arm[PERSIA]:
            placed = False
            for c in cycle:
                if self.talents < cost or not self.res_arm[PERSIA]:
                    break
                if not self.controls(PERSIA, c):
                    continue
                if t.major[c] < 0 and self.arm[PERSIA][c] >= minor_cap:
                    continue
                self.auto_raise_armies(c, 1)
                placed = True
            if not placed:
                break

    # -- operations ---------------------------------------------------------------------

    def auto_operation(self, a: Automaton) -> None:
        if self.auto_out or not self.hands[PERSIA]:
            self.passed[PERSIA] = True
            why = "has passed for this phase" if self.auto_out else "has no cards"
            self.log("pass", f"{a.name} {why} and passes")
            self.after_turn()
            return
        self.passed[PERSIA] = False
        self.stack.append("auto_end")
        if self.auto_defence(a):
            return
        face = int(self.auto_rng.random() * 6) + 1
        result = a.die[face]
        self.log("auto_roll", f"{a.name} rolls {face}: {result.replace('_', ' ')}", die=face,
                 result=result)
        tried: list[str] = []
        while result not in tried:
            tried.append(result)
            if result == "pass":
                self.auto_pass(a)
                return
            if getattr(self, "auto_" + result)(a):
                return
            result = a.fallback[result]
            if result not in tried:
                self.log("auto", f"{a.name} cannot do that: {result.replace('_', ' ')} instead")
        self.log("auto", f"{a.name} finds nothing to do and passes")
        self.auto_pass(a)

    def auto_pass(self, a: Automaton) -> None:
        self.passed[PERSIA] = True
        self.auto_out = a.pass_ends_phase
        self.log("pass", f"{a.name} passes" + (" for the rest of the phase" if self.auto_out else ""))
        self.resume()

    def k_auto_end(self) -> None:
        hand = self.hands[PERSIA]
        if hand:
            num = hand[0]
            self.discard_card(PERSIA, num)
            self.log("discard", f"PERS.IA discards {self.card_name(PERSIA, num)}", card=num)
        self.after_turn()

    def road_distances(self, start: int) -> list[int]:
        adj = self.t.adj[self.bridge]
        dist = [BIG] * self.t.ncity
        dist[start] = 0
        todo = [start]
        for city in todo:
            for nxt in adj[city]:
                if dist[nxt] == BIG:
                    dist[nxt] = dist[city] + 1
                    todo.append(nxt)
        return dist

    def most_armies(self, cities: list[int]) -> int:
        """The city with the most Persian armies; ties go to the earlier city in the list."""
        best, most = -1, 0
        for c in cities:
            if self.arm[PERSIA][c] > most:
                best, most = c, self.arm[PERSIA][c]
        return best

    def auto_march(self, origin: int, count: int, dest: int, why: str) -> None:
        names = self.t.names
        self.log("auto", f"PERS.IA {why}: {count_of(count, 'army')} from {names[origin]} "
                 f"to {names[dest]}")
        self.mv_side, self.mv_kind, self.mv_origin = PERSIA, "land", origin
        self.mv_reach = self.reach(PERSIA, origin)
        self.do_dest_land(["move_land", names[dest], str(count)])

    def auto_defence(self, a: Automaton) -> bool:
        t = self.t
        for major in t.majors[PERSIA]:
            if not self.arm[GREECE][major]:
                continue
            sources = [c for c in a.activation if self.arm[PERSIA][c] and c != major
                       and major in self.reach(PERSIA, c)]
            origin = self.most_armies(sources)
            if origin >= 0:
                count = -(-self.arm[PERSIA][origin] // a.defence_divisor)
                self.auto_march(origin, count, major, f"defends {t.names[major]}")
                return True
        return False

    def auto_move(self, a: Automaton) -> bool:
        t = self.t
        origin = self.most_armies(a.activation)
        if origin < 0:
            return False
        here = self.arm[PERSIA][origin]
        count = here // 2
        if t.major[origin] == PERSIA:
            count = min(count, here - a.keep_home)
        reach = self.reach(PERSIA, origin)
        if count < 1 or not reach:
            return False
        dist = self.road_distances(origin)
        to_bias = self.road_distances(a.bias)
        pa, ga = self.arm

        def rank(c: int) -> tuple[int, int, int, int]:
            pref = a.prefer.index(c) if c in a.prefer else len(a.prefer)
            return (dist[c], to_bias[c], pref, c)

        empty = [c for c in reach if not pa[c] and not ga[c] and not self.controls(PERSIA, c)]
        if empty:
            self.auto_march(origin, count, min(empty, key=rank), "advances")
            return True
        enemy = [c for c in reach if ga[c]]
        if enemy:
            self.auto_march(origin, count, min(enemy, key=rank), "attacks")
            return True
        return False

    def auto_destroy_army(self, a: Automaton) -> bool:
        ga = self.arm[GREECE]
        lone = [c for c in a.destroy_army if ga[c] == 1]
        held = [c for c in a.destroy_army if ga[c]]
        if not held:
            return False
        city = (lone or held)[0]
        ga[city] -= 1
        self.res_arm[GREECE] += 1
        kind = "isolated " if lone else ""
        self.log("auto", f"PERS.IA destroys the {kind}Greek army in {self.t.names[city]}",
                 city=self.t.names[city])
        if self.hands[GREECE]:
            self.step, self.actor = "auto_discard", GREECE
        else:
            self.resume()
        return True

    def legal_auto_discard(self) -> list[str]:
        return [self.t.s_discard[n] for n in sorted(self.hands[GREECE])]

    def do_auto_discard(self, args: list[str]) -> None:
        num = int(args[1])
        self.discard_card(GREECE, num)
        self.log("discard", f"Greece discards {self.card_name(GREECE, num)}", card=num)
        self.resume()

    def auto_destroy_fleet(self, a: Automaton) -> bool:
        gf = self.flt[GREECE]
        ports = [c for c in a.destroy_fleet if gf[c]]
        if not ports:
            return False
        port = ports[0]
        gf[port] -= 1
        self.res_flt[GREECE] += 1
        if self.res_flt[PERSIA]:
            self.res_flt[PERSIA] -= 1
            self.flt[PERSIA][port] += 1
        self.log("auto", f"PERS.IA destroys a Greek fleet at {self.t.names[port]} and puts a "
                 "Persian fleet there", city=self.t.names[port])
        if gf[port] and self.flt[PERSIA][port]:
            self.start_naval_battle(PERSIA, port, port, 0)
        else:
            self.resume()
        return True

    def auto_place(self, a: Automaton) -> bool:
        t = self.t
        pa, ga = self.arm
        if not self.res_arm[PERSIA]:
            return False
        for c in a.place if self.res_flt[PERSIA] else ():
            if not ga[c] and not self.flt[GREECE][c]:
                self.res_flt[PERSIA] -= 1
                self.flt[PERSIA][c] += 1
                self.res_arm[PERSIA] -= 1
                pa[c] += 1
                self.log("auto", f"PERS.IA places a fleet and an army at {t.names[c]}")
                self.resume()
                return True
        for c in a.place:
            if self.flt[PERSIA][c] and t.major[c] < 0 and not pa[c] and not ga[c]:
                self.res_arm[PERSIA] -= 1
                pa[c] += 1
                self.log("auto", f"PERS.IA lands an army at {t.names[c]}")
                self.resume()
                return True
        return False

    # -- supply -----------------------------------------------------------------------------

    def auto_attrition(self, a: Automaton) -> None:
        pa = self.arm[PERSIA]
        ok = self.supplied(PERSIA)
        doomed = [c for c in a.attrition if pa[c] and not ok[c]]
        spare = [c for c in a.attrition if pa[c] >= 2]
        any_army = [c for c in a.attrition if pa[c]]
        city = (doomed or spare or any_army)[0]
        self.do_attrit(["attrit", self.t.names[city]])
