"""Supply (cards in hand, attrition, lines of communication) and scoring."""

from __future__ import annotations

from .core import Core, count_of
from .tables import GREECE, PERSIA, WHO


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
        self.log("discard", "{} discards {}", (WHO[side], self.card_name(side, num)),
                 data={"card": num})
        if not self.hands[side]:
            self.start_attrition(side)

    # -- attrition ------------------------------------------------------------------------------

    def start_attrition(self, side: int) -> None:
        armies, food = self.armies_and_food(side)
        self.attr_left = max(0, armies - food)
        if self.attr_left:
            self.log("attrition", "{} has {} armies and {} amphorae: {} must go",
                     (WHO[side], armies, food, self.attr_left), data={"count": self.attr_left})
            self.step, self.actor = "attrit", side
        else:
            self.lines_of_communication(side)

    def armies_and_food(self, side: int) -> tuple[int, int]:
        """The armies of `side` that must be fed, and the amphorae of the cities it
        controls among theirs (home cities may be fed anyway: `fed_cities`)."""
        t = self.t
        mine, theirs, amphorae = self.arm[side], self.arm[1 - side], t.amphorae
        armies = food = 0
        for c in t.fed_cities[side]:   # a city it holds armies in feeds them (it controls it)
            if mine[c]:
                armies += mine[c]
                food += amphorae[c]
        for c in t.fed_majors[side]:   # and so does an empty major city of its own
            if not mine[c] and not theirs[c]:
                food += amphorae[c]
        return armies, food

    def legal_attrit(self) -> list[str]:
        side = self.actor
        arm, attrit = self.arm[side], self.t.s_attrit
        out = []
        for c in self.t.fed_cities[side]:   # a loop, not a comprehension: a call less
            if arm[c]:
                out.append(attrit[c])
        return out

    def do_attrit(self, args: list[str]) -> None:
        side = self.actor
        self.arm[side][self.t.index[args[1]]] -= 1
        self.res_arm[side] += 1
        self.attr_left -= 1
        self.log("attrit", "{} loses an army in {} to attrition", (WHO[side], args[1]))
        if not self.attr_left:
            self.lines_of_communication(side)

    # -- lines of communication ---------------------------------------------------------------

    def cut_off(self, side: int) -> list[int]:
        """The cities holding armies of `side` that are out of supply.

        Supply runs by road from a major city `side` controls, through no city
        the enemy controls; by sea to any port with its fleets, while one of its
        major ports it controls is free of enemy fleets.  The road search stops
        once it has reached every city holding its armies, as it mostly does
        early.  (Control is `controls()` inlined: this runs twice a campaign in
        every playout.)
        """
        t = self.t
        enemy = 1 - side
        mine, theirs, major = self.arm[side], self.arm[enemy], t.major
        unreached = t.ncity - mine.count(0)   # cities holding its armies, not reached yet
        ok = [False] * t.ncity
        todo = []
        sea = False
        eflt = self.flt[enemy]
        for c in t.majors[side]:   # supply starts from the major cities it controls
            if mine[c] or not theirs[c]:
                ok[c] = True
                todo.append(c)
                if mine[c]:
                    unreached -= 1
                if t.port[c] and not eflt[c]:
                    sea = True
        adj = t.adj[self.bridge]
        while todo and unreached:
            city = todo.pop()
            for nxt in adj[city]:
                if not ok[nxt] and not theirs[nxt] and (mine[nxt] or major[nxt] != enemy):
                    ok[nxt] = True
                    todo.append(nxt)
                    if mine[nxt]:
                        unreached -= 1
        if not unreached:
            return []
        if sea:
            flt = self.flt[side]
            for c in t.ports:
                if flt[c]:
                    ok[c] = True
        return [c for c, armies in enumerate(mine) if armies and not ok[c]]

    def lines_of_communication(self, side: int) -> None:
        arm = self.arm[side]
        for c in self.cut_off(side):
            name = self.t.names[c]
            self.log("cut_off", "{} of {} in {} are cut off and removed",
                     (count_of(arm[c], "army"), WHO[side], name), data={"city": name})
            self.res_arm[side] += arm[c]
            arm[c] = 0
        if side == PERSIA:
            self.supply_cards(GREECE)
        else:
            self.scoring()

    # -- scoring ---------------------------------------------------------------------------------

    def city_points(self) -> tuple[int, int]:
        """What the cities each side controls are worth now: (Persia's, Greece's).

        Both sides in one pass, control being `controls()` inlined; Athenai scores
        for nobody while the Acropolis burns.
        """
        t = self.t
        persia = greece = 0
        for persian, greek, owner, value in zip(*self.arm, t.major, t.value, strict=True):
            if persian or (not greek and owner == PERSIA):
                persia += value
            if greek or (not persian and owner == GREECE):
                greece += value
        burnt = t.acropolis_city
        if self.acropolis and burnt >= 0:   # take back what it was counted for
            if self.controls(PERSIA, burnt):
                persia -= t.value[burnt]
            if self.controls(GREECE, burnt):
                greece -= t.value[burnt]
        return persia, greece

    def scoring(self) -> None:
        t = self.t
        for side in (PERSIA, GREECE):
            if self.controls_all(side, t.majors[1 - side]):
                self.automatic_victory(side)
                return
        persia, greece = self.city_points()
        self.log("scoring", "Scoring: Persia {}, Greece {}", (persia, greece),
                 data={"persia": persia, "greece": greece})
        if persia != greece:
            lim = t.score_limit
            self.vp = max(-lim, min(lim, self.vp + persia - greece))
        self.log("score", "Score after campaign {}: {}", (self.campaign, self.score_text()),
                 data={"vp": self.vp})
        self.end_campaign()

    def automatic_victory(self, side: int) -> None:
        self.over = True
        self.winner = side
        self.step = ""
        self.reason = f"{WHO[side]} controls both enemy major cities"
        self.log("game_over", "Game over: {} wins at once ({})", (WHO[side], self.reason),
                 data={"vp": self.vp})
