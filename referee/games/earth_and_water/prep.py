"""Preparation: buying cards, Sudden Death of the Great King, raising forces."""

from __future__ import annotations

from .core import Core
from .tables import GREECE, PERSIA, WHO


class Preparation(Core):
    """Steps `buy`, `build` and `sd_sacrifice`; campaign start and end."""

    def start_campaign(self) -> None:
        self.carneia = False
        self.log("campaign", "Campaign {} begins", (self.campaign,),
                 data={"campaign": self.campaign})
        budget = self.t.budget_kept if self.hands[PERSIA] else self.t.budget[PERSIA]
        self.start_buy(PERSIA, budget)

    def start_buy(self, side: int, budget: int, mines: bool = False) -> None:
        self.talents = budget
        self.bought = self.fleets_built = 0
        self.mines = mines
        self.step, self.actor = "buy", side
        self.log("budget", "{} has {} talents", (WHO[side], budget), data={"budget": budget})

    def legal_buy(self) -> list[str]:
        side, t = self.actor, self.t
        if (self.bought < t.max_cards[side] and self.talents >= t.card_cost[side]
                and len(self.deck) + len(self.discard) > self.bought):
            return ["buy_card", "done"]
        return ["done"]

    def do_buy(self, args: list[str]) -> None:
        side = self.actor
        if args[0] == "buy_card":
            self.talents -= self.t.card_cost[side]
            self.bought += 1
            return
        drawn = self.draw(side, self.bought) if self.bought else []
        death = self.t.card_of[PERSIA].get("sudden_death")
        if side == PERSIA and death in drawn and not self.xerxes_dead:
            self.kill_king("prep")
        else:
            self.start_build()

    # -- Sudden Death of the Great King ---------------------------------------------

    def kill_king(self, then: str) -> None:
        king = "Xerxes" if self.darius_dead else "Darius"
        if self.darius_dead:
            self.xerxes_dead = True
        self.darius_dead = True
        self.sd_then = then
        self.log("sudden_death", "Sudden Death of the Great King: {} dies", (king,),
                 data={"king": king})
        if self.res_arm[PERSIA] or not any(self.arm[PERSIA]):
            self.res_arm[PERSIA] = max(0, self.res_arm[PERSIA] - 1)
            self.after_sudden_death()
        else:
            self.step, self.actor = "sd_sacrifice", PERSIA

    def legal_sd_sacrifice(self) -> list[str]:
        return [self.t.s_sacrifice[c] for c in self.army_cities(PERSIA)]

    def do_sd_sacrifice(self, args: list[str]) -> None:
        city = self.t.index[args[1]]
        self.arm[PERSIA][city] -= 1
        self.log("sacrifice", "Persia puts the army from {} on the king's portrait", (args[1],))
        self.after_sudden_death()

    def after_sudden_death(self) -> None:
        hand = self.hands[PERSIA]
        self.discard[0:0] = hand   # under the pile, so its top card reveals nothing
        self.unseen[GREECE].extend(hand)
        self.log("discard", "Persia discards its whole hand ({} cards)", (len(hand),),
                 data={"count": len(hand)})
        hand.clear()
        if self.sd_then == "prep":
            self.deck.extend(self.discard)
            self.discard = []
            self.unseen = [[], []]
            self.acropolis = False   # the Greek preparation it would cut never happens
            self.log("campaign_end", "Campaign {} ends at once: no scoring", (self.campaign,))
            self.end_campaign()
        else:
            self.stack.clear()
            self.log("operations_end", "The king's death ends the operations")
            self.start_supply()

    # -- raising forces ------------------------------------------------------------------

    def start_build(self) -> None:
        self.step, self.actor = "build", self.actor
        self.build_options = None

    def list_build_options(self, side: int) -> tuple[list[str], list[str]]:
        """Where `side` may raise armies and fleets, worked out once a build step.

        Raising forces changes no city's control, and the other side does not
        move while one builds, so the lists hold until the step ends.
        """
        t = self.t
        mine, theirs, major = self.arm[side], self.arm[1 - side], t.major
        enemy_fleets, port = self.flt[1 - side], t.port
        raise_army, raise_fleet = t.s_raise_army, t.s_raise_fleet
        armies, fleets = [], []
        for c in range(t.ncity):
            if mine[c] or (not theirs[c] and major[c] == side):   # controls(side, c)
                armies.append(raise_army[c])
                if port[c] and not enemy_fleets[c]:
                    fleets.append(raise_fleet[c])
        self.build_options = (armies, fleets)
        return self.build_options

    def legal_build(self) -> list[str]:
        side, t = self.actor, self.t
        out: list[str] = []
        talents = self.talents
        can_army = self.res_arm[side] and talents >= t.army_cost[side]
        can_fleet = (self.res_flt[side] and talents >= t.fleet_cost[side]
                     and (self.mines or self.fleets_built < t.max_fleets[side]))
        if can_army or can_fleet:
            armies, fleets = self.build_options or self.list_build_options(side)
            out = armies + fleets if can_army and can_fleet else (armies if can_army else fleets)[:]
        if (side == PERSIA and not self.bridge and talents >= t.bridge_cost
                and self.controls(PERSIA, t.bridge_ends[0])):
            out.append("build_bridge")
        if not out or not t.forced_spend:
            out.append("done")
        return out

    def do_build(self, args: list[str]) -> None:
        side, t, verb = self.actor, self.t, args[0]
        if verb == "raise_army":
            city = t.index[args[1]]
            self.talents -= t.army_cost[side]
            self.res_arm[side] -= 1
            self.arm[side][city] += 1
            self.log("raise", "{} raises an army in {}", (WHO[side], args[1]))
        elif verb == "raise_fleet":
            city = t.index[args[1]]
            self.talents -= t.fleet_cost[side]
            self.res_flt[side] -= 1
            self.flt[side][city] += 1
            self.fleets_built += 1
            self.log("raise", "{} raises a fleet at {}", (WHO[side], args[1]))
        elif verb == "build_bridge":
            self.talents -= t.bridge_cost
            self.bridge = True
            self.log("bridge", "Persia builds the pontoon bridge")
        else:
            self.end_build(side)

    def end_build(self, side: int) -> None:
        self.build_options = None
        if side == PERSIA:
            penalty = self.t.param(PERSIA, "acropolis", "budget_penalty", 1) if self.acropolis else 0
            self.start_buy(GREECE, self.t.budget[GREECE] - penalty)
        elif self.mines:
            self.mines = False
            self.discard.append(self.held_card)
            self.held_card = 0
            self.finish_action()
        else:
            self.acropolis = False
            self.start_operations()

    def end_campaign(self) -> None:
        self.carneia = False
        if self.campaign >= self.t.campaigns:
            self.game_over("after the last campaign")
            return
        self.campaign += 1
        self.start_campaign()

    def game_over(self, why: str) -> None:
        self.over = True
        self.winner = PERSIA if self.vp > 0 else GREECE if self.vp < 0 else -1
        who = "a draw" if self.winner < 0 else f"{WHO[self.winner]} wins"
        self.reason = f"score {self.score_text()} {why}"
        self.step = ""
        self.log("game_over", "Game over: {} ({})", (who, self.reason), data={"vp": self.vp})
