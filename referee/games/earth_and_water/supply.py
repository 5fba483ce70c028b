"""Supply (cards in hand, attrition, lines of communication) and scoring."""

from __future__ import annotations

from .core import Core, count_of
from .tables import GREECE, PERSIA, SIDES


class Supply(Core):
    """Steps `sup_cards` and `attrit`; automatic lines of communication and scoring."""

    def start_supply(self) -> None:
        self.op_event = ""
        self.cavalry = self.no_naval_retreat = False
        self.supply_cards(PERSIA)

    def supply_cards(self, side: int) -> None:
        if self.campaign >= self.t.campaigns or not self.hands[side]:
            self.start_attrition(side)
        else:
            self.step, self.actor = "sup_cards", side

    def legal_sup_cards(self) -> list[str]:
        side = self.actor
        hand = self.hands[side]
        out = [self.t.s_discard[n] for n in sorted(hand)]
        if len(hand) <= self.t.hand_limit[side]:
            out.append("done")
        return out

    def do_sup_cards(self, args: list[str]) -> None:
        side = self.actor
        if args[0] == "done":
            self.start_attrition(side)
            return
        num = int(args[1])
        self.discard_card(side, num)
        self.log("discard", f"{SIDES[side].capitalize()} discards {self.card_name(side, num)}",
                 card=num)
        if not self.hands[side]:
            self.start_attrition(side)

    # -- attrition ------------------------------------------------------------------------------

    def fed_cities(self, side: int) -> list[int]:
        """Cities whose armies count for attrition (Persia: not its home cities)."""
        t = self.t
        if t.home_fed[side]:
            return [c for c in range(t.ncity) if t.major[c] != side]
        return list(range(t.ncity))

    def start_attrition(self, side: int) -> None:
        t = self.t
        cities = self.fed_cities(side)
        arm = self.arm[side]
        armies = sum(arm[c] for c in cities)
        food = sum(t.amphorae[c] for c in cities if self.controls(side, c))
        self.attr_left = max(0, armies - food)
        if self.attr_left:
            self.log("attrition", f"{SIDES[side].capitalize()} has {armies} armies and {food} "
                     f"amphorae: {self.attr_left} must go", count=self.attr_left)
            self.step, self.actor = "attrit", side
        else:
            self.lines_of_communication(side)

    def legal_attrit(self) -> list[str]:
        side = self.actor
        arm = self.arm[side]
        return [self.t.s_attrit[c] for c in self.fed_cities(side) if arm[c]]

    def do_attrit(self, args: list[str]) -> None:
        side = self.actor
        self.arm[side][self.t.index[args[1]]] -= 1
        self.res_arm[side] += 1
        self.attr_left -= 1
        self.log("attrit", f"{SIDES[side].capitalize()} loses an army in {args[1]} to attrition")
        if not self.attr_left:
            self.lines_of_communication(side)

    # -- lines of communication ---------------------------------------------------------------

    def supplied(self, side: int) -> list[bool]:
        t = self.t
        adj = t.adj[self.bridge]
        ok = [False] * t.ncity
        todo = [c for c in t.majors[side] if self.controls(side, c)]
        for c in todo:
            ok[c] = True
        enemy = 1 - side
        while todo:
            city = todo.pop()
            for nxt in adj[city]:
                if not ok[nxt] and not self.controls(enemy, nxt):
                    ok[nxt] = True
                    todo.append(nxt)
        eflt = self.flt[enemy]
        if any(not eflt[c] and t.port[c] and self.controls(side, c) for c in t.majors[side]):
            flt = self.flt[side]
            for c in t.ports:
                if flt[c]:
                    ok[c] = True
        return ok

    def lines_of_communication(self, side: int) -> None:
        ok = self.supplied(side)
        arm = self.arm[side]
        for c in range(self.t.ncity):
            if arm[c] and not ok[c]:
                self.log("cut_off", f"{count_of(arm[c], 'army')} of {SIDES[side].capitalize()} in "
                         f"{self.t.names[c]} are cut off and removed", city=self.t.names[c])
                self.res_arm[side] += arm[c]
                arm[c] = 0
        if side == PERSIA:
            self.supply_cards(GREECE)
        else:
            self.scoring()

    # -- scoring ---------------------------------------------------------------------------------

    def city_points(self, side: int) -> int:
        t = self.t
        skip = t.acropolis_city if self.acropolis else -1
        return sum(t.value[c] for c in range(t.ncity) if c != skip and self.controls(side, c))

    def scoring(self) -> None:
        t = self.t
        for side in (PERSIA, GREECE):
            if all(self.controls(side, c) for c in t.majors[1 - side]):
                self.automatic_victory(side)
                return
        persia, greece = self.city_points(PERSIA), self.city_points(GREECE)
        self.log("scoring", f"Scoring: Persia {persia}, Greece {greece}", persia=persia,
                 greece=greece)
        if persia != greece:
            lim = t.score_limit
            self.vp = max(-lim, min(lim, self.vp + persia - greece))
        self.log("score", f"Score after campaign {self.campaign}: {self.score_text()}", vp=self.vp)
        self.end_campaign()

    def automatic_victory(self, side: int) -> None:
        self.over = True
        self.winner = side
        self.step = ""
        self.reason = f"{SIDES[side]} controls both enemy major cities"
        self.log("game_over", f"Game over: {SIDES[side].capitalize()} wins at once "
                 f"({self.reason})", vp=self.vp)
