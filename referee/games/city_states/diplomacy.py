"""Phase 5, diplomacy (rule 9.5): rolls, cards against them, revolts and rebels.

Steps `deny` (at the start of the phase each opponent, in turn order, may play
cards taking a roll away), `diplomacy` (roll at a city, play a diplomacy card,
or done) and `executions` (the owner of a revolting city may cancel the
revolt with Executions).
"""

from __future__ import annotations

from .core import NOBODY, plural
from .leaders import Leaders


class Diplomacy(Leaders):
    """Diplomacy rolls and revolts."""

    def phase_diplomacy(self) -> None:
        p = self.active
        self.phase = "diplomacy"
        self.dip_left = self.diplomacy_rolls(p)
        self.deny_i = 0
        self.next_deny()

    # -- cards against the active player's rolls ------------------------------------------------

    def deny_ok(self, num: int) -> bool:
        return self.t.cards[num].kind == "deny_diplomacy"

    def next_deny(self) -> None:
        while self.dip_left > 0 and self.deny_i < self.np - 1:
            q = self.order[(self.cur + 1 + self.deny_i) % self.np]
            if not self.out[q] and self.window_opens(q, self.deny_ok):
                self.wait("deny", q)
                return
            self.deny_i += 1
        self.open_diplomacy()

    def legal_deny(self) -> list[str]:
        s = self.t.s_play
        return ["pass"] + [s[n] for n in sorted(self.hands[self.actor]) if self.deny_ok(n)]

    def do_deny(self, args: list[str]) -> None:
        if args[0] == "pass":
            self.deny_i += 1
        else:
            q, p = self.actor, self.active
            num = self.t.card_by_id[args[1]]
            card = self.t.cards[num]
            self.discard_card(q, num)
            self.dip_left = max(0, self.dip_left - card.amount)
            self.log("play", f"{self.seats[q]} plays {card.name}: {self.seats[p]} has "
                     f"{plural(self.dip_left, 'diplomacy roll')} left", seat=self.seats[q],
                     card=card.id)
        self.next_deny()

    # -- the active player's rolls and cards ------------------------------------------------------

    def revolt_targets(self, p: int) -> list[int]:
        """Cities another player controls, other than his own home."""
        owner, home = self.owner, self.home
        return [s for s in self.t.cities if owner[s] >= 0 and owner[s] != p
                and home[owner[s]] != s]

    def roll_targets(self, p: int) -> list[int]:
        """Neutral cities, p's own hostile ones, and other players' cities but their homes."""
        owner, hostile, home = self.owner, self.hostile, self.home
        return [s for s in self.t.cities if (o := owner[s]) == NOBODY
                or (hostile[s] if o == p else home[o] != s)]

    def open_diplomacy(self) -> None:
        legal = self.legal_diplomacy()
        if len(legal) > 1:
            self.ask("diplomacy", self.active, legal)
        else:
            self.phase_first_move()

    def k_diplomacy(self) -> None:
        self.open_diplomacy()

    def legal_diplomacy(self) -> list[str]:
        p, t = self.active, self.t
        out = ["done"]
        if self.dip_left > 0:
            out += [t.s_roll[s] for s in self.roll_targets(p)]
        out += [t.s_play[n] for n in sorted(self.hands[p]) if self.diplomacy_card_ok(p, n)]
        return self.any_time_cards(p, out)

    def do_diplomacy(self, args: list[str]) -> None:
        p = self.active
        if args[0] == "done":
            self.phase_first_move()
            return
        self.stack.append("diplomacy")
        if args[0] == "play":
            self.play_card(p, self.t.card_by_id[args[1]])
            return
        s = self.t.index[args[1]]
        self.dip_left -= 1
        bonus = self.t.hostile_diplomacy if self.hostile[s] else 0
        roll, result = self.roll_table("diplomacy", bonus)
        name = self.t.names[s]
        said = f"{self.seats[p]}'s diplomacy roll at {name}: " + (
            f"{roll - bonus} +{bonus} (hostile)" if bonus else str(roll))
        if result != "success":
            self.log("diplomacy", said + ", nothing happens", seat=self.seats[p], space=args[1],
                     roll=roll)
            self.resume()
        elif self.owner[s] == NOBODY:
            self.take_control(p, s, hostile=False)
            self.log("diplomacy", said + f": {name} joins {self.seats[p]}", seat=self.seats[p],
                     space=args[1], roll=roll)
            self.resume()
        elif self.owner[s] == p:
            self.hostile[s] = False
            self.log("diplomacy", said + f": {name} is no longer hostile", seat=self.seats[p],
                     space=args[1], roll=roll)
            self.resume()
        else:
            self.log("diplomacy", said + f": {name} rises against {self.seats[self.owner[s]]}",
                     seat=self.seats[p], space=args[1], roll=roll)
            self.start_revolt(p, s)

    # -- revolts ----------------------------------------------------------------------------------

    def start_revolt(self, p: int, s: int) -> None:
        """City s revolts against its owner (the caller pushed where to resume)."""
        self.rv_city = s
        victim = self.owner[s]
        if self.window_opens(victim, self.executions_ok):
            self.wait("executions", victim)
        else:
            self.rebels_rise()

    def executions_ok(self, num: int) -> bool:
        return self.t.cards[num].kind == "cancel_revolt"

    def legal_executions(self) -> list[str]:
        s = self.t.s_play
        return ["pass"] + [s[n] for n in sorted(self.hands[self.actor]) if self.executions_ok(n)]

    def do_executions(self, args: list[str]) -> None:
        if args[0] == "pass":
            self.rebels_rise()
            return
        q = self.actor
        num = self.t.card_by_id[args[1]]
        self.discard_card(q, num)
        self.log("play", f"{self.seats[q]} plays {self.card_name(num)}: the revolt in "
                 f"{self.t.names[self.rv_city]} is crushed before it starts", seat=self.seats[q],
                 card=args[1])
        self.rv_city = -1
        self.resume()

    def rebels_rise(self) -> None:
        s = self.rv_city
        q = self.owner[s]
        roll, rebels = self.roll_table("rebels")
        self.rv_rebels = rebels
        name = self.t.names[s]
        rise = "rises" if rebels == 1 else "rise"
        if not (self.occ[s] == q and self.combat_units(s)):
            self.log("revolt", f"{plural(rebels, 'rebel')} {rise} in {name}, which no army holds",
                     space=self.t.ids[s], rebels=rebels)
            self.city_turns_neutral(s)
            self.resume()
            return
        self.log("revolt", f"{plural(rebels, 'rebel')} {rise} in {name} against "
                 f"{self.seats[q]}'s garrison", space=self.t.ids[s], rebels=rebels)
        self.b_target, self.b_att, self.b_def = s, -1, q
        self.b_sea, self.b_rebels, self.b_neutral = False, True, False
        self.b_cards, self.b_origins, self.b_held = [], [], []
        attack, att_text = self.attack_total()
        defence, def_text = self.defence_total()
        won = attack > defence
        self.log("battle_result", f"Revolt in {name}: rebels {att_text} against {self.seats[q]} "
                 f"{def_text} - {'the rebels win' if won else self.seats[q] + ' holds'}",
                 space=self.t.ids[s], attack=attack, defence=defence,
                 winner="attacker" if won else "defender")
        if not won:
            self.end_revolt()
            return
        self.land_defender_casualties("after_revolt_retreat")

    def k_after_revolt_retreat(self) -> None:
        s = self.rv_city
        if not (self.occ[s] == self.owner[s] and self.combat_units(s)):
            self.city_turns_neutral(s)
        self.end_revolt()

    def end_revolt(self) -> None:
        self.b_rebels = False
        self.b_target = self.b_def = -1
        self.rv_city = self.rv_rebels = -1
        self.resume()

    def city_turns_neutral(self, s: int) -> None:
        q = self.owner[s]
        self.take_leftovers(s, q, -1)
        self.owner[s] = NOBODY
        self.hostile[s] = False
        self.noinc[s] = False   # the lost income was its master's (D20)
        self.log("neutral", f"{self.t.names[s]} throws off {self.seats[q]} and is neutral again",
                 space=self.t.ids[s])
