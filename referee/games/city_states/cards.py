"""Cards played by their owner (rule 12): on his own turn and in his diplomacy phase.

Step `target`: the card just played names its target.  Each effect kind has a
target list (`targets_<kind>`, None when it needs none) and an effect
(`ev_<kind>`) that ends by resuming whoever played the card.  Battle cards are
in `battle`, cards against an opponent's diplomacy and Executions in
`diplomacy`, movement cards in `movement`, Treasure in `land_battle`.
"""

from __future__ import annotations

from .core import DEAD, FREE, plural
from .leaders import Leaders
from .tables import DIPLOMACY_CARDS, TURN_CARDS, Card


class Cards(Leaders):
    """Playing a card, choosing its target, and the effects of the own-turn cards."""

    def turn_card_ok(self, p: int, num: int) -> bool:
        card = self.t.cards[num]
        if card.kind not in TURN_CARDS:
            return False
        return self.card_targets(p, card) != []

    def diplomacy_card_ok(self, p: int, num: int) -> bool:
        card = self.t.cards[num]
        if card.kind not in DIPLOMACY_CARDS:
            return False
        return self.card_targets(p, card) != []

    def card_targets(self, p: int, card: Card) -> list[str] | None:
        lister = getattr(self, "targets_" + card.kind, None)
        return None if lister is None else lister(p, card)

    def play_card(self, p: int, num: int) -> None:
        """p plays card `num` (the caller pushed where to resume afterwards)."""
        card = self.t.cards[num]
        self.discard_card(p, num)
        self.log("play", f"{self.seats[p]} plays {card.name}", seat=self.seats[p], card=card.id)
        if self.card_targets(p, card) is None:
            getattr(self, "ev_" + card.kind)(p, card, "")
        else:
            self.c_card = num
            self.wait("target", p)

    def legal_target(self) -> list[str]:
        return self.card_targets(self.actor, self.t.cards[self.c_card]) or []

    def do_target(self, args: list[str]) -> None:
        card = self.t.cards[self.c_card]
        self.c_card = 0
        getattr(self, "ev_" + card.kind)(self.actor, card, args[1])

    # -- who may be targeted -----------------------------------------------------------------

    def opponents(self, p: int) -> list[int]:
        return [q for q in self.order if q != p and not self.out[q]]

    def enemy_spaces(self, p: int, test) -> list[str]:
        ids, occ = self.t.ids, self.occ
        return [f"target {ids[s]}" for s in range(self.t.n) if occ[s] >= 0 and occ[s] != p
                and test(s)]

    def enemy_leaders(self, p: int, test=None) -> list[str]:
        return [f"target {self.l_name[i]}" for i in range(len(self.l_owner))
                if self.l_owner[i] != p and self.l_state[i] == FREE and (test is None or test(i))]

    def targets_starvation(self, p: int, card: Card) -> list[str]:
        t = self.t
        return self.enemy_spaces(p, lambda s: t.city[s] and self.owner[s] == self.occ[s]
                                 and self.combat_units(s) > 0 and self.besieged(s))

    def targets_short_supplies(self, p: int, card: Card) -> list[str]:
        return self.enemy_spaces(p, lambda s: self.bag[s] > 0)

    def targets_attrition(self, p: int, card: Card) -> list[str]:
        city = card.target == "city"
        return self.enemy_spaces(p, lambda s: self.combat_units(s) > 0
                                 and (not city or self.t.city[s]))

    def targets_no_attack(self, p: int, card: Card) -> list[str]:
        return self.enemy_spaces(p, lambda s: self.combat_units(s) > 0)

    def targets_storm(self, p: int, card: Card) -> list[str]:
        return self.enemy_spaces(p, lambda s: self.flt[s] + self.trn[s] > 0)

    def targets_no_income(self, p: int, card: Card) -> list[str]:
        ids = self.t.ids
        return [f"target {ids[s]}" for s in self.t.cities
                if self.owner[s] >= 0 and self.owner[s] != p and not self.noinc[s]]

    def targets_no_move(self, p: int, card: Card) -> list[str]:
        return [f"target {self.seats[q]}" for q in self.opponents(p) if not self.frozen[q]]

    def targets_lose_gold(self, p: int, card: Card) -> list[str]:
        return [f"target {self.seats[q]}" for q in self.opponents(p) if self.gold[q]]

    def targets_spy(self, p: int, card: Card) -> list[str]:
        return [f"target {self.seats[q]}" for q in self.opponents(p) if self.hands[q]]

    def targets_raze_home(self, p: int, card: Card) -> list[str]:
        return [f"target {self.seats[q]}" for q in self.opponents(p) if self.holds_home(q)]

    def targets_leader_failure(self, p: int, card: Card) -> list[str]:
        return self.enemy_leaders(p, lambda i: self.l_lost[i])

    def targets_leader_exile(self, p: int, card: Card) -> list[str]:
        return self.enemy_leaders(p)

    def targets_leader_kill(self, p: int, card: Card) -> list[str]:
        return self.enemy_leaders(p)

    def targets_leader_election(self, p: int, card: Card) -> list[str]:
        if not self.holds_home(p):
            return []
        return [f"target {self.l_name[i]}" for i in self.free_leaders(p)]

    def targets_draw_cards(self, p: int, card: Card) -> list[str] | None:
        return None if self.deck or self.discard else []

    def targets_truce(self, p: int, card: Card) -> list[str] | None:
        return None if not self.truce_left else []

    def targets_take_neutral(self, p: int, card: Card) -> list[str]:
        ids = self.t.ids
        return [f"target {ids[s]}" for s in self.t.cities if self.owner[s] < 0]

    def targets_revolt(self, p: int, card: Card) -> list[str]:
        ids = self.t.ids
        return [f"target {ids[s]}" for s in self.revolt_targets(p)]

    def targets_diplomacy_roll(self, p: int, card: Card) -> list[str] | None:
        """An extra roll names no target, but is worth playing only while some city may be
        rolled at (a card that could change nothing is not offered)."""
        return None if self.roll_targets(p) else []

    # -- effects ---------------------------------------------------------------------------------

    def ev_diplomacy_roll(self, p: int, card: Card, target: str) -> None:
        self.dip_left += card.amount
        self.log("diplomacy_roll", f"{self.seats[p]} gains {plural(card.amount, 'diplomacy roll')}"
                 f" ({self.dip_left} left)", seat=self.seats[p])
        self.resume()

    def ev_take_neutral(self, p: int, card: Card, target: str) -> None:
        s = self.t.index[target]
        self.take_control(p, s, hostile=False)
        self.log("control", f"{self.t.names[s]} joins {self.seats[p]}", seat=self.seats[p],
                 space=target)
        self.resume()

    def ev_revolt(self, p: int, card: Card, target: str) -> None:
        self.start_revolt(p, self.t.index[target])

    def ev_starvation(self, p: int, card: Card, target: str) -> None:
        s = self.t.index[target]
        self.starve[s] += 1
        self.log("starvation", f"Hunger in {self.t.names[s]}: {self.seats[self.occ[s]]}'s units "
                 f"there now carry {plural(self.starve[s], 'starvation marker')}", space=target)
        self.resume()

    def ev_short_supplies(self, p: int, card: Card, target: str) -> None:
        s = self.t.index[target]
        lost = min(self.bag[s], self.dice(card.count, card.die))
        self.bag[s] -= lost
        self.log("baggage_lost", f"{self.seats[self.occ[s]]} loses "
                 f"{plural(lost, 'baggage', 'baggage')} in {self.t.names[s]}", space=target,
                 lost=lost)
        self.refresh(s)
        self.resume()

    def ev_attrition(self, p: int, card: Card, target: str) -> None:
        s = self.t.index[target]
        self.attrition_rolls(s, card.modifier, card.name)
        self.resume()

    def ev_no_attack(self, p: int, card: Card, target: str) -> None:
        s = self.t.index[target]
        q = self.occ[s]
        self.hesitant[q].append(s)
        self.log("hesitation", f"{self.seats[q]}'s stack in {self.t.names[s]} may not attack "
                 "until the end of its next turn", space=target)
        self.resume()

    def ev_no_move(self, p: int, card: Card, target: str) -> None:
        q = self.seats.index(target)
        self.frozen[q] = True
        self.log("frozen", f"{target} may neither move nor attack in the next turn", seat=target)
        self.resume()

    def ev_truce(self, p: int, card: Card, target: str) -> None:
        self.truce_owner, self.truce_left = p, 2
        self.log("truce", f"Truce: nobody may attack until the end of {self.seats[p]}'s next turn",
                 seat=self.seats[p])
        self.resume()

    def ev_leader_failure(self, p: int, card: Card, target: str) -> None:
        self.kill_leader(self.leader_index(target), f"{card.name}: a failure after a lost battle")
        self.resume()

    def ev_leader_kill(self, p: int, card: Card, target: str) -> None:
        self.kill_leader(self.leader_index(target), card.name)
        self.resume()

    def ev_leader_exile(self, p: int, card: Card, target: str) -> None:
        i = self.leader_index(target)
        turns = self.dice(card.count, card.die)
        self.exile(i, turns)
        self.log("exile", f"{target} is exiled for {turns} turns (back in turn "
                 f"{self.l_back[i]})", leader=target, turns=turns)
        self.resume()

    def ev_leader_election(self, p: int, card: Card, target: str) -> None:
        i = self.leader_index(target)
        s = self.l_space[i]
        self.l_state[i] = DEAD   # retired: gone for good
        self.l_space[i] = -1
        self.refresh(s)
        self.log("retire", f"{target} retires", leader=target)
        self.new_leader(p, self.home[p])
        self.resume()

    def ev_no_income(self, p: int, card: Card, target: str) -> None:
        s = self.t.index[target]
        self.noinc[s] = True
        self.log("no_income", f"{self.t.names[s]} will earn nothing in its next revenue phase",
                 space=target)
        self.resume()

    def ev_lose_gold(self, p: int, card: Card, target: str) -> None:
        q = self.seats.index(target)
        lost = min(self.gold[q], self.dice(card.count, card.die))
        self.gold[q] -= lost
        self.log("gold", f"{target} loses {lost} gold", seat=target, gold=-lost)
        self.resume()

    def ev_gain_gold(self, p: int, card: Card, target: str) -> None:
        gain = self.dice(card.count, card.die)
        self.gold[p] += gain
        self.log("gold", f"{self.seats[p]} gains {gain} gold", seat=self.seats[p], gold=gain)
        self.resume()

    def ev_storm(self, p: int, card: Card, target: str) -> None:
        self.navigation_roll(self.t.index[target], card.name)
        self.resume()

    def ev_draw_cards(self, p: int, card: Card, target: str) -> None:
        self.draw(p, self.dice(card.count, card.die))
        self.keep_hand_limit(p)

    def ev_spy(self, p: int, card: Card, target: str) -> None:
        q = self.seats.index(target)
        hand = sorted(self.hands[q])
        self.known[p * self.np + q] = list(hand)
        names = ", ".join(self.card_name(n) for n in hand)
        self.log("spy", f"{target}'s hand: {names}", p, seat=target,
                 cards=[self.t.cards[n].id for n in hand])
        self.resume()

    def ev_raze_home(self, p: int, card: Card, target: str) -> None:
        q = self.seats.index(target)
        s = self.home[q]
        razed = self.dice(card.count, card.die)
        self.razed[s] += razed
        self.log("razed", f"A coup in {self.t.names[s]}: {plural(razed, 'razed marker')}",
                 space=self.t.ids[s], razed=razed)
        self.resume()
