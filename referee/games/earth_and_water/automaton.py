"""PERS.IA, the solo-mode automaton that plays Persia inside `apply`.

Its behaviour is data (`data.automaton` of a solo ruleset): preparation
situations, the d6 operation table with its fallbacks, and every priority list.
It never plays Persian events, never retreats (the ruleset sets
`battle.may_retreat.persia: false`) and keeps no cards.  Battles it starts are
the engine's ordinary battles, so the Greek reactions and retreats work
unchanged.

Every roll and choice is logged for Greece with the reason and the solo rule it
applied, as ``[rule S5.3]``: the ids are the solo rulebook's section numbers,
which the solo ruleset's `rules` sections carry, so `rules S5.3` looks them up.
"""

from __future__ import annotations

from typing import Any

from .core import Core, count_of
from .tables import BIG, GREECE, PERSIA, SIDES

# what each result of the operation die does, as the log says it
RESULT_TEXT = {
    "pass": "pass",
    "move": "march half of its largest army",
    "destroy_army": "destroy a Greek army, and Greece discards a card",
    "destroy_fleet": "destroy a Greek fleet and put a Persian fleet in its place",
    "place": "place a fleet and an army",
}
VERB = {
    "move": "march",
    "destroy_army": "destroy a Greek army",
    "destroy_fleet": "destroy a Greek fleet",
    "place": "place a fleet and an army",
}
# preparation situations in the order they are checked: key in the data, letter in the rules
SITUATIONS = (("major_occupied", "A"), ("persia_ahead", "B"), ("even", "C"), ("greece_ahead", "D"))


def auto_line(name: str, rule: str, text: str, args: tuple, data: dict[str, Any]) -> str:
    """'PERS.IA rolls 4: march half of its largest army [rule S5.3]', written when read."""
    return f"{name} {text.format(*args)} [rule {rule}]"


def auto_data(name: str, rule: str, text: str, args: tuple, data: dict[str, Any]
              ) -> dict[str, Any]:
    """The machine-readable part of the same line, put together when read."""
    return {"rule": rule, **data}


def cut_off_after_loss(cut: list[int], city: int, left: int) -> list[int] | None:
    """The cut-off cities once an army is lost in `city`, `left` armies remaining, when
    known without a new search (None otherwise).  Supply reads only which cities hold
    armies: while `city` keeps some, nothing changes; a cut-off city emptied was on no
    supply path, so only it leaves the list; any other city emptied may change control
    on the way, so the search must be made again."""
    if left:
        return cut
    if city in cut:
        return [c for c in cut if c != city]
    return None


class Automaton:
    """The tables of one automaton and the code that reads them."""

    def __init__(self, spec: dict[str, Any], t: Any) -> None:
        self.side = SIDES.index(spec.get("side", "persia"))
        self.name = spec.get("name", "PERS.IA")
        self.budget = int(spec["budget"])
        idx = t.index
        prep = spec["preparation"]
        self.prep = {key: prep[key] for key, _ in SITUATIONS}
        self.cycle = {key: [idx[c] for c in prep[key].get("army_cycle", ())] for key, _ in SITUATIONS}
        self.armies_to = {key: idx[prep[key]["armies_to"]] for key, _ in SITUATIONS
                          if "armies_to" in prep[key]}
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

    def auto_log(self, a: Automaton, rule: str, text: str, *args: Any, kind: str = "auto",
                 **data: Any) -> None:
        """One line of the automaton's doings, naming the rule it applied.

        `text` is a str.format template for `args`, filled in only when the line is
        read (search bots replaying solo games never read it); so is the data.
        """
        if not self.silent:
            self.log(kind, auto_line, (a.name, rule, text, args, data), data=auto_data)

    def auto_step(self, a: Automaton) -> None:
        step = self.step
        if step == "buy":
            self.auto_preparation(a)
        elif step == "turn":
            self.auto_operation(a)
        elif step == "sup_cards":
            hand = self.hands[PERSIA]
            self.auto_log(a, "S6", "discards its {}: it keeps none", count_of(len(hand), "card"))
            self.unseen[GREECE].extend(hand[:-1])   # unnamed: only the last, on top, shows
            for num in list(hand):
                self.discard_card(PERSIA, num)
            self.start_attrition(PERSIA)
        elif step == "attrit":
            self.auto_attrition(a)
        else:   # a step the automaton never meets in the shipped rules: take the first choice
            legal = self.pending()[0].legal
            self._pending = None
            self.log("auto", "{} takes {}", (a.name, legal[0]))
            getattr(self, "do_" + step)(legal[0].split())

    # -- preparation ------------------------------------------------------------------

    def auto_situation(self, a: Automaton) -> tuple[str, str, str]:
        """(data key, letter, why) of the first preparation situation that applies."""
        names = self.t.names
        occupied = [names[c] for c in self.t.majors[PERSIA] if self.arm[GREECE][c]]
        if occupied:
            return "major_occupied", "A", f"Greek armies stand in {' and '.join(occupied)}"
        if self.vp > 0:
            return "persia_ahead", "B", f"Persia leads by {self.vp}"
        if self.vp == 0:
            return "even", "C", "the score is even"
        return "greece_ahead", "D", f"Greece leads by {-self.vp}"

    def auto_plan(self, a: Automaton, key: str) -> str:
        spec = a.prep[key]
        parts = [count_of(int(spec["cards"]), "card")]
        if spec.get("bridge"):
            parts.append("the bridge if down")
        if spec.get("fleets_in_occupied_ports"):
            parts.append("a fleet in each occupied port lacking one")
        if "armies" in spec:
            parts.append(f"{spec['armies']} armies in its major city free of Greeks")
        elif key in a.armies_to:
            parts.append(f"every talent left on armies in {self.t.names[a.armies_to[key]]}")
        else:
            parts.append("armies round its list")
        return ", ".join(parts)

    def auto_preparation(self, a: Automaton) -> None:
        t = self.t
        self.talents = a.budget
        key, letter, why = self.auto_situation(a)
        spec, rule = a.prep[key], f"S4.{letter}"
        self.auto_log(a, rule, "prepares with {} talents. Situation {}, {}: {}", a.budget, letter,
                      why, self.auto_plan(a, key), kind="auto_prep", situation=letter)
        cards = min(int(spec["cards"]), len(self.deck) + len(self.discard), self.talents)
        self.talents -= cards
        drawn = self.draw(PERSIA, cards)
        death = t.card_of[PERSIA].get("sudden_death")
        if death in drawn and not self.xerxes_dead:
            self.kill_king("prep")
            return
        if "armies" in spec:
            free = [c for c in t.majors[PERSIA] if not self.arm[GREECE][c]]
            if free:
                count = self.auto_raise(free[0], int(spec["armies"]))
                self.auto_log(a, rule, "raises {} in {}, its major city free of Greeks",
                              count_of(count, "army"), t.names[free[0]], kind="raise",
                              cities=[t.names[free[0]]] * count, piece="army")
        else:
            if spec.get("bridge") and not self.bridge:
                self.auto_bridge(a, rule)
            if spec.get("fleets_in_occupied_ports"):
                self.auto_fleets(a, rule)
            if key in a.armies_to:
                city = a.armies_to[key]
                count = self.auto_raise(city, self.talents)
                self.auto_log(a, rule, "raises {} in {} with the talents left",
                              count_of(count, "army"), t.names[city], kind="raise",
                              cities=[t.names[city]] * count, piece="army")
            else:
                self.auto_army_cycle(a, a.cycle[key], int(spec.get("minor_cap", BIG)), rule)
        if self.talents:
            self.auto_log(a, rule, "leaves {} unspent: nothing on its list can take more",
                          count_of(self.talents, "talent"))
        self.end_build(PERSIA)

    def auto_bridge(self, a: Automaton, rule: str) -> None:
        t = self.t
        if not self.controls(PERSIA, t.bridge_ends[0]):
            self.auto_log(a, "S-bridge", "cannot rebuild the bridge: it does not control {}",
                          t.names[t.bridge_ends[0]])
        elif self.talents < t.bridge_cost:
            self.auto_log(a, rule, "cannot afford the bridge")
        else:
            self.talents -= t.bridge_cost
            self.bridge = True
            self.auto_log(a, rule, "rebuilds the pontoon bridge for {} talents", t.bridge_cost,
                          kind="bridge")

    def auto_raise(self, city: int, count: int) -> int:
        """Put up to `count` reserve armies in `city` as talents allow; returns how many."""
        cost = self.t.army_cost[PERSIA]
        count = min(count, self.talents // cost if cost else count, self.res_arm[PERSIA])
        self.talents -= count * cost
        self.res_arm[PERSIA] -= count
        self.arm[PERSIA][city] += count
        return count

    def auto_fleets(self, a: Automaton, rule: str) -> None:
        t = self.t
        cost = t.fleet_cost[PERSIA]
        for c in t.ports:
            if (self.arm[PERSIA][c] and not self.flt[PERSIA][c] and not self.flt[GREECE][c]
                    and self.talents >= cost and self.res_flt[PERSIA]):
                self.talents -= cost
                self.res_flt[PERSIA] -= 1
                self.flt[PERSIA][c] += 1
                self.auto_log(a, rule, "raises a fleet at {} ({}): its armies hold the city and "
                              "its port has no Persian fleet", t.names[c], count_of(cost, "talent"),
                              kind="raise", cities=[t.names[c]], piece="fleet")

    def auto_army_cycle(self, a: Automaton, cycle: list[int], minor_cap: int, rule: str) -> None:
        t = self.t
        cost = t.army_cost[PERSIA]
        order: list[str] = []
        while self.talents >= cost and self.res_arm[PERSIA]:
            placed = False
            for c in cycle:
                if self.talents < cost or not self.res_arm[PERSIA]:
                    break
                if not self.controls(PERSIA, c):
                    continue
                if t.major[c] < 0 and self.arm[PERSIA][c] >= minor_cap:
                    continue
                self.auto_raise(c, 1)
                order.append(t.names[c])
                placed = True
            if not placed:
                break
        if order:
            cap = f"; {minor_cap} at most in a minor city" if minor_cap < BIG else ""
            self.auto_log(a, rule, "raises {} one at a time round its list (cities it "
                          "controls{}): {}", count_of(len(order), "army"), cap, ", ".join(order),
                          kind="raise", cities=order, piece="army")

    # -- operations ---------------------------------------------------------------------

    def auto_operation(self, a: Automaton) -> None:
        if self.auto_out or not self.hands[PERSIA]:
            self.passed[PERSIA] = True
            if self.auto_out:
                self.auto_log(a, "S5.3", "passes again: it sits out the rest of this phase "
                              "since it rolled a pass", kind="pass")
            else:
                self.auto_log(a, "S5.1", "has no cards left and passes", kind="pass")
            self.after_turn()
            return
        self.passed[PERSIA] = False
        self.stack.append("auto_end")
        if self.auto_defence(a):
            return
        face = int(self.rngs["automaton"].random() * 6) + 1
        result = a.die[face]
        self.auto_log(a, "S5.3", "rolls {}: {}", face, RESULT_TEXT[result], kind="auto_roll",
                      die=face, result=result)
        tried: list[str] = []
        while result not in tried:
            tried.append(result)
            if result == "pass":
                self.auto_pass(a)
                return
            why = getattr(self, "auto_" + result)(a)
            if not why:
                return
            nxt = a.fallback[result]
            if nxt in tried:
                self.auto_log(a, "S-loop-guard", "cannot {} either ({}); it has tried every "
                              "result, so it passes", VERB[result], why, kind="auto_fallback",
                              failed=result, then="pass")
                break
            self.auto_log(a, "S5.3", "cannot {} ({}), so it will {} instead", VERB[result], why,
                          VERB.get(nxt, nxt), kind="auto_fallback", failed=result, then=nxt)
            result = nxt
        self.auto_pass(a)

    def auto_pass(self, a: Automaton) -> None:
        self.passed[PERSIA] = True
        self.auto_out = a.pass_ends_phase
        self.auto_log(a, "S5.3", "passes and sits out the rest of this operations phase"
                      if self.auto_out else "passes", kind="pass")
        self.resume()

    def k_auto_end(self) -> None:
        a = self.t.automaton
        hand = self.hands[PERSIA]
        if hand:
            num = hand[0]   # the card it has held longest (see the ruling S-discard)
            self.discard_card(PERSIA, num)
            self.auto_log(a, "S5.4", "discards {}, face up and with no effect",
                          self.card_name(PERSIA, num), kind="discard", card=num)
        self.after_turn()

    def most_armies(self, cities: list[int]) -> int:
        """The city with the most Persian armies; ties go to the earlier city in the list."""
        best, most = -1, 0
        for c in cities:
            if self.arm[PERSIA][c] > most:
                best, most = c, self.arm[PERSIA][c]
        return best

    def auto_march(self, origin: int, count: int, dest: int) -> None:
        """An ordinary Persian land movement (and battle), chosen by the automaton."""
        self.mv_side, self.mv_kind, self.mv_origin = PERSIA, "land", origin
        self.mv_reach = self.reach(PERSIA, origin)
        self.do_dest_land(["move_land", self.t.names[dest], str(count)])

    def auto_defence(self, a: Automaton) -> bool:
        t = self.t
        for major in t.majors[PERSIA]:
            if not self.arm[GREECE][major]:
                continue
            name = t.names[major]
            sources = [c for c in a.activation if self.arm[PERSIA][c] and c != major
                       and major in self.reach(PERSIA, c)]
            origin = self.most_armies(sources)
            if origin < 0:
                self.auto_log(a, "S5.2", "cannot defend {}: no Persian army can reach it, so it "
                              "rolls as if it were free", name, kind="auto_defence",
                              origin=None, dest=name, armies=0)
                continue
            here = self.arm[PERSIA][origin]
            count = -(-here // a.defence_divisor)
            self.auto_log(a, "S5.2", "defends {}, held by Greek armies, instead of rolling: {} "
                          "has its largest army that can reach it and sends 1/{} of its {}, "
                          "rounded up: {}", name, t.names[origin], a.defence_divisor, here,
                          count_of(count, "army"), kind="auto_defence",
                          origin=t.names[origin], dest=name, armies=count)
            self.auto_march(origin, count, major)
            return True
        return False

    def auto_move(self, a: Automaton) -> str:
        """March, or say why it cannot (the empty string when done)."""
        t = self.t
        origin = self.most_armies(a.activation)
        if origin < 0:
            return "it has no army in a city on its activation list"
        name = t.names[origin]
        here = self.arm[PERSIA][origin]
        count = here // 2
        keep = ""
        if t.major[origin] == PERSIA and here - count < a.keep_home:
            count = here - a.keep_home
            keep = f", keeping {a.keep_home} at home"
        if count < 1:
            if t.major[origin] == PERSIA and here <= a.keep_home:
                return f"its largest army, in {name}, must keep its {here} at home"
            return f"its largest army, in {name}, is a single army"
        reach = self.reach(PERSIA, origin)
        if not reach:
            return f"no road leads out of {name}"
        dist = t.road_distances(origin, self.bridge)
        to_bias = t.road_distances(a.bias, self.bridge)
        pa, ga = self.arm

        def rank(c: int) -> tuple[int, int, int, int]:
            pref = a.prefer.index(c) if c in a.prefer else len(a.prefer)
            return (dist[c], to_bias[c], pref, c)

        empty = [c for c in reach if not pa[c] and not ga[c] and not self.controls(PERSIA, c)]
        enemy = [c for c in reach if ga[c]]
        if empty:
            dest, what = min(empty, key=rank), "the nearest city with no army"
        elif enemy:
            dest, what = min(enemy, key=rank), "the nearest Greek army, as no empty city is in reach"
        else:
            return f"no empty city and no Greek army is in reach of {name}"
        self.auto_log(a, "S5.3", "activates {} (its largest army) and marches half of its {}, "
                      "rounded down{}: {} to {}, {}", name, here, keep, count_of(count, "army"),
                      t.names[dest], what, kind="auto_move", origin=name, dest=t.names[dest],
                      armies=count)
        self.auto_march(origin, count, dest)
        return ""

    def auto_destroy_army(self, a: Automaton) -> str:
        ga, names = self.arm[GREECE], self.t.names
        held = [c for c in a.destroy_army if ga[c]]
        if not held:
            return "Greece has no army on its list of cities"
        lone = [c for c in held if ga[c] == 1]
        city = (lone or held)[0]
        ga[city] -= 1
        self.res_arm[GREECE] += 1
        if lone:
            text = "destroys the isolated Greek army in {}, the first lone Greek army on its list"
        else:
            text = ("destroys a Greek army in {}: no Greek army stands alone, so it strikes the "
                    "first Greek city on its list")
        self.auto_log(a, "S5.3", text, names[city], kind="auto_destroy", city=names[city],
                      isolated=bool(lone))
        if self.hands[GREECE]:
            self.step, self.actor = "auto_discard", GREECE
        else:
            self.auto_log(a, "S5.3", "finds no card in the Greek hand to discard")
            self.resume()
        return ""

    def legal_auto_discard(self) -> list[str]:
        return [self.t.s_discard[n] for n in sorted(self.hands[GREECE])]

    def do_auto_discard(self, args: list[str]) -> None:
        num = int(args[1])
        self.discard_card(GREECE, num)
        self.log("discard", "Greece discards {}", (self.card_name(GREECE, num),),
                 data={"card": num})
        self.resume()

    def auto_destroy_fleet(self, a: Automaton) -> str:
        gf, names = self.flt[GREECE], self.t.names
        ports = [c for c in a.destroy_fleet if gf[c]]
        if not ports:
            return "Greece has no fleet in a port on its list"
        port = ports[0]
        gf[port] -= 1
        self.res_flt[GREECE] += 1
        if self.res_flt[PERSIA]:
            self.res_flt[PERSIA] -= 1
            self.flt[PERSIA][port] += 1
        rest = (f"; {count_of(gf[port], 'Greek fleet')} still there: a naval battle, in which "
                "Persia never retreats" if gf[port] and self.flt[PERSIA][port] else "")
        self.auto_log(a, "S5.3", "destroys a Greek fleet at {}, the first Greek port on its list, "
                      "and puts a Persian fleet there{}", names[port], rest, kind="auto_destroy",
                      city=names[port])
        if gf[port] and self.flt[PERSIA][port]:
            self.start_naval_battle(PERSIA, port, port, 0)
        else:
            self.resume()
        return ""

    def auto_place(self, a: Automaton) -> str:
        t = self.t
        pa, ga = self.arm
        if not self.res_arm[PERSIA]:
            return "it has no army in reserve"
        for c in a.place if self.res_flt[PERSIA] else ():
            if not ga[c] and not self.flt[GREECE][c]:
                self.res_flt[PERSIA] -= 1
                self.flt[PERSIA][c] += 1
                self.res_arm[PERSIA] -= 1
                pa[c] += 1
                self.auto_log(a, "S5.3", "places a fleet and an army at {}, the first port on "
                              "its list free of Greek units", t.names[c], kind="auto_place",
                              city=t.names[c])
                self.resume()
                return ""
        for c in a.place:
            if self.flt[PERSIA][c] and t.major[c] < 0 and not pa[c] and not ga[c]:
                self.res_arm[PERSIA] -= 1
                pa[c] += 1
                self.auto_log(a, "S5.3", "lands an army at {}: every port on its list holds "
                              "Greeks, but its fleet lies at this minor city with no army",
                              t.names[c], kind="auto_place", city=t.names[c])
                self.resume()
                return ""
        return ("every port on its list holds Greek units and no Persian fleet lies at a "
                "minor city without armies")

    # -- supply -----------------------------------------------------------------------------

    def auto_attrition(self, a: Automaton) -> None:
        names = self.t.names
        city, why = self.attrition_choice(a)
        if city < 0:   # an edited list may leave a city out: any city that must lose an army
            city, why = self.t.index[self.legal_attrit()[0].split()[1]], "no listed city has one"
        self.auto_log(a, "S6", "takes the attrition loss in {}: {}", names[city], why,
                      city=names[city])
        cut = self.auto_cut
        self.auto_cut = None
        self.do_attrit(["attrit", names[city]])
        if self.step == "attrit" and self.actor == PERSIA and cut is not None:
            self.auto_cut = cut_off_after_loss(cut, city, self.arm[PERSIA][city])

    def attrition_choice(self, a: Automaton) -> tuple[int, str]:
        """The first city on the attrition list whose armies are cut off, else the first
        keeping another army after the loss, else the first with an army (-1 if none);
        with the reason.  One pass each, stopping at the first found: this runs at every
        army the automaton loses."""
        pa, order = self.arm[PERSIA], a.attrition
        cut = self.auto_cut
        if cut is None:
            cut = self.auto_cut = self.cut_off(PERSIA)
        if cut:
            for c in order:
                if c in cut:
                    return c, "cut off from supply, it would be removed anyway"
        for c in order:
            if pa[c] >= 2:
                return c, "it keeps another army there, so no point is lost"
        for c in order:
            if pa[c]:
                return c, "the first city on its attrition list"
        return -1, ""
