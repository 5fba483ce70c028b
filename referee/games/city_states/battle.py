"""What sea and land battles share (rules 9.7, 9.8 and C-10 of the reference).

Steps `attack` (pick a target, or done), `attack_with` (keep some adjacent
stacks out of the attack, or fight), `battle_card` (either side plays a battle
card or passes, attacker first, until both pass in a row) and `retreat` (the
beaten defender picks where each survivor goes, one unit at a time).

Totals: every unit rolls its die plus the trait, skill and card bonuses that
reach it; leaders with Heroism or Brilliance add a die per stack; battle-total
cards add or take dice; the defender adds terrain (land battles) and a city's
garrison.  The higher total wins, a tie goes to the defender, and the loser
rolls the casualty roll for each unit.
"""

from __future__ import annotations

from .core import NOBODY, pieces_text, plural
from .leaders import Leaders
from .tables import ARMY, BATTLE_CARDS, FLEET, ROWERS, TRANSPORT

ATTACKER, DEFENDER = 0, 1
SEA_UNITS, LAND_UNITS = FLEET | TRANSPORT, ARMY | ROWERS
ROLE = ("attack", "defence")
UNIT_WORDS = {"army": "an army", "rowers": "a rowers unit", "fleet": "a fleet",
              "transport": "a transport"}


class Battles(Leaders):
    """Declaring attacks, the card windows, totals, casualties and retreats."""

    def begin_attacks(self, sea: bool) -> None:
        self.phase = "sea_battle" if sea else "land_battle"
        self.b_sea = sea
        self.stack.append("after_sea_battles" if sea else "after_land_battles")
        self.attacked = [False] * self.t.n
        if not self.may_attack():
            self.resume()
            return
        self.next_attack()

    def next_attack(self) -> None:
        self.b_target = -1
        legal = self.legal_attack()
        if len(legal) > 1:
            self.ask("attack", self.active, legal)
        else:
            self.resume()

    # -- who attacks what ----------------------------------------------------------------------

    def attack_origins(self) -> list[int]:
        p, t = self.active, self.t
        hes = self.hesitant[p]
        occ, attacked = self.occ, self.attacked
        out = []
        for s in range(t.n):
            if occ[s] != p or attacked[s] or s in hes:
                continue
            if self.b_sea:
                if t.sea[s] and self.ships_fighting(s):
                    out.append(s)
            elif self.arm[s] or self.row[s] and not t.sea[s]:
                out.append(s)   # at sea, the armies aboard (D19); crews stay with the ships
        return out

    def land_fighters(self, o: int) -> tuple[int, int]:
        """The armies and rowers of stack o that fight a land battle (at sea only the armies
        aboard: the rowers there are crews)."""
        return self.arm[o], 0 if self.t.sea[o] else self.row[o]

    def ships_fighting(self, s: int) -> int:
        """Ships that roll in a sea battle: manned fleets and transports with an army."""
        return self.manned(self.flt[s], self.row[s]) + min(self.trn[s], self.arm[s])

    def reaches(self, o: int, target: int) -> bool:
        t = self.t
        return target in (t.adj[o] if self.b_sea else t.assault_adj[o])

    def target_ok(self, target: int) -> bool:
        t, p = self.t, self.active
        q = self.occ[target]
        if self.b_sea:
            return t.ships_enter[target] and q >= 0 and q != p and \
                self.flt[target] + self.trn[target] > 0
        if t.sea[target] or t.impassable[target]:
            return False
        if q >= 0:
            return q != p
        return t.city[target] and self.owner[target] != p

    def attack_targets(self) -> list[int]:
        t = self.t
        found = set()
        for o in self.attack_origins():
            for target in (t.adj[o] if self.b_sea else t.assault_adj[o]):
                if target not in found and self.target_ok(target):
                    found.add(target)
        return sorted(found)

    def legal_attack(self) -> list[str]:
        s = self.t.s_attack
        return self.any_time_cards(self.active, ["done"] + [s[x] for x in self.attack_targets()])

    def do_attack(self, args: list[str]) -> None:
        if args[0] == "done":
            self.resume()
            return
        if args[0] == "play":
            self.stack.append("after_battle")
            self.play_card(self.actor, self.t.card_by_id[args[1]])
            return
        target = self.t.index[args[1]]
        self.b_target = target
        self.b_origins = [o for o in self.attack_origins() if self.reaches(o, target)]
        self.b_held = []
        if len(self.b_origins) > 1:
            self.wait("attack_with", self.actor)
        else:
            self.fight()

    def legal_attack_with(self) -> list[str]:
        s = self.t.s_hold
        return ["fight"] + [s[o] for o in self.fighting_origins()]

    def do_attack_with(self, args: list[str]) -> None:
        if args[0] == "hold":
            self.b_held.append(self.t.index[args[1]])
        if args[0] == "fight" or len(self.fighting_origins()) == 1:
            self.fight()

    def fighting_origins(self) -> list[int]:
        return [o for o in self.b_origins if o not in self.b_held]

    # -- the battle ------------------------------------------------------------------------------

    def fight(self) -> None:
        p, t, target = self.active, self.t, self.b_target
        q = self.occ[target] if self.occ[target] >= 0 else self.owner[target]
        self.b_att, self.b_def = p, q
        self.b_neutral = q < 0
        self.b_rebels = False
        self.b_cards = []
        self.b_turn, self.b_passes = ATTACKER, 0
        origins = self.fighting_origins()
        for o in origins:
            self.attacked[o] = True
        froms = ", ".join(t.names[o] for o in origins)
        against = "the neutral city" if q < 0 else self.seats[q]
        self.log("battle", f"{self.seats[p]} attacks {t.names[target]} ({against}) from {froms}",
                 attacker=self.seats[p], defender=self.seats[q] if q >= 0 else "neutral",
                 space=t.ids[target], sea=self.b_sea)
        self.next_window()

    def battle_card_ok(self, num: int, side: int) -> bool:
        card = self.t.cards[num]
        if card.kind not in BATTLE_CARDS:
            return False
        if card.role and card.role != ROLE[side]:
            return False
        if card.battle and (card.battle == "sea") != self.b_sea:
            return False
        if card.kind == "battle_roll" and not card.units & (SEA_UNITS if self.b_sea else LAND_UNITS):
            return False   # a bonus for fleets in a land battle (or armies at sea) does nothing
        target = self.b_target
        if card.at == "city" and (self.b_sea or not self.t.city[target]):
            return False
        if card.at == "ships" and not self.flt[target] + self.trn[target]:
            return False
        return True

    def window_opens(self, p: int, test) -> bool:
        """Ask p about a reaction card: when he holds one (held) or any card (always)."""
        hand = self.hands[p]
        if not hand:
            return False
        if self.t.always_ask:
            return True
        return any(test(num) for num in hand)

    def next_window(self) -> None:
        while self.b_passes < 2:
            side = self.b_turn
            p = self.b_att if side == ATTACKER else self.b_def
            if p >= 0 and self.window_opens(p, lambda n, side=side: self.battle_card_ok(n, side)):
                self.wait("battle_card", p)
                return
            self.b_passes += 1
            self.b_turn = 1 - side
        self.resolve_battle()

    def legal_battle_card(self) -> list[str]:
        side = self.b_turn
        s = self.t.s_play
        return ["pass"] + [s[n] for n in sorted(self.hands[self.actor])
                           if self.battle_card_ok(n, side)]

    def do_battle_card(self, args: list[str]) -> None:
        side = self.b_turn
        if args[0] == "pass":
            self.b_passes += 1
        else:
            p = self.actor
            num = self.t.card_by_id[args[1]]
            self.discard_card(p, num)
            self.b_cards.append(num if side == ATTACKER else -num)
            self.b_passes = 0
            self.log("play", f"{self.seats[p]} plays {self.card_name(num)} in the battle for "
                     f"{self.t.names[self.b_target]}", seat=self.seats[p], card=args[1])
        self.b_turn = 1 - side
        self.next_window()

    # -- totals -----------------------------------------------------------------------------------

    def unit_bonus(self, p: int, stack: int, bit: int, side: int, at_city: bool,
                   at_home: bool) -> int:
        """Bonus to each roll of p's units of kind `bit` in `stack` (traits, skills, cards)."""
        role = ROLE[side]
        bonus = 0
        for fx in self.realm_traits(p) + self.stack_skills(stack, p):
            for roll, amount, mask, where in fx.rolls:
                if (roll == "battle" or roll == role) and mask & bit and (
                        not where or where == "city" and at_city or where == "home" and at_home):
                    bonus += amount
        for signed in self.b_cards:
            if (signed > 0) == (side == ATTACKER):
                card = self.t.cards[abs(signed)]
                if card.kind == "battle_roll" and card.units & bit:
                    bonus += card.amount
        return bonus

    def stack_dice(self, p: int, stack: int, faces: list[int]) -> int:
        """Dice the leaders of a stack add to its total (Heroism, Brilliance)."""
        total = 0
        for fx in self.stack_skills(stack, p):
            for count, die in fx.battle_dice:
                for _ in range(count):
                    face = self.d(die)
                    faces.append(face)
                    total += face
        return total

    def roll_units(self, count: int, die: int, bonus: int, faces: list[int]) -> int:
        total = 0
        for _ in range(count):
            face = self.d(die)
            faces.append(face)
            total += face + bonus
        return total

    def attack_total(self) -> tuple[int, str]:
        t, target, p = self.t, self.b_target, self.b_att
        faces: list[int] = []
        total = 0
        if self.b_rebels:
            total = self.roll_units(self.rv_rebels, t.die["army"], 0, faces)
            return total, self.total_text(total, faces, [plural(self.rv_rebels, "rebel")])
        at_city = t.city[target] and not self.b_sea
        hostile = t.hostile_attack if at_city and self.hostile[target] else 0
        for o in self.fighting_origins():
            if self.b_sea:
                fleets = self.manned(self.flt[o], self.row[o])
                armed = min(self.trn[o], self.arm[o])
                total += self.roll_units(fleets, t.die["fleet"],
                                         self.unit_bonus(p, o, FLEET, ATTACKER, False, False), faces)
                total += self.roll_units(armed, t.die["transport"],
                                         self.unit_bonus(p, o, TRANSPORT, ATTACKER, False, False),
                                         faces)
            else:
                armies, rowers = self.land_fighters(o)
                total += self.roll_units(armies, t.die["army"], hostile + self.unit_bonus(
                    p, o, ARMY, ATTACKER, at_city, False), faces)
                total += self.roll_units(rowers, t.die["rowers"], hostile + self.unit_bonus(
                    p, o, ROWERS, ATTACKER, at_city, False), faces)
            total += self.stack_dice(p, o, faces)
        return total, self.total_text(total, faces, [])

    def total_text(self, total: int, faces: list[int], notes: list[str]) -> str:
        """'23 (dice 4, 6, 2; bonuses +11; garrison 3)'."""
        rolled = sum(faces)
        parts = [f"dice {', '.join(map(str, faces))}" if faces else "no dice"]
        extra = total - rolled
        if extra:
            parts.append(f"bonuses {extra:+d}")
        return f"{total} ({'; '.join(parts + notes)})"

    def defence_total(self) -> tuple[int, str]:
        t, target, q = self.t, self.b_target, self.b_def
        faces: list[int] = []
        total = 0
        notes = []
        at_city = t.city[target] and not self.b_sea
        if q < 0:   # a neutral city: its army and its garrison
            total += self.roll_units(t.neutral_armies, t.die["army"], t.defence[target], faces)
            notes.append(plural(t.neutral_armies, "neutral army", "neutral armies"))
        elif self.b_sea:
            fleets = self.manned(self.flt[target], self.row[target])
            # in a landing place the armies are ashore: no transport there is armed (D12)
            armed = min(self.trn[target], self.arm[target]) if t.sea[target] else 0
            total += self.roll_units(fleets, t.die["fleet"], self.unit_bonus(
                q, target, FLEET, DEFENDER, False, False), faces)
            total += self.roll_units(armed, t.die["transport"], self.unit_bonus(
                q, target, TRANSPORT, DEFENDER, False, False), faces)
            total += self.stack_dice(q, target, faces)
        else:
            home = self.is_home(target)
            terrain = t.defence[target]
            total += self.roll_units(self.arm[target], t.die["army"], terrain + self.unit_bonus(
                q, target, ARMY, DEFENDER, at_city, home), faces)
            total += self.roll_units(self.row[target], t.die["rowers"], terrain + self.unit_bonus(
                q, target, ROWERS, DEFENDER, at_city, home), faces)
            total += self.stack_dice(q, target, faces)
        if at_city and not self.b_rebels:
            count, die = t.garrison
            total += self.roll_units(count, die, 0, faces)
            if self.is_home(target):
                total += t.home_defence
            notes.append("with the garrison" + (" of a home city" if self.is_home(target) else ""))
        return total, self.total_text(total, faces, notes)

    def card_totals(self, totals: list[int]) -> list[str]:
        """Battle-total cards: dice added to one's own total or taken from the other's."""
        said = []
        for signed in self.b_cards:
            card = self.t.cards[abs(signed)]
            if card.kind != "battle_total":
                continue
            side = ATTACKER if signed > 0 else DEFENDER
            roll = self.dice(card.count, card.die)
            if card.whom == "opponent":
                totals[1 - side] -= roll
                said.append(f"{card.name} -{roll}")
            else:
                totals[side] += roll
                said.append(f"{card.name} +{roll}")
        return said

    def resolve_battle(self) -> None:
        t = self.t
        attack, att_text = self.attack_total()
        defence, def_text = self.defence_total()
        totals = [attack, defence]
        cards = self.card_totals(totals)
        winner = ATTACKER if totals[0] > totals[1] else DEFENDER
        who = "rebels" if self.b_rebels else self.seats[self.b_att]
        other = "the neutral city" if self.b_def < 0 else self.seats[self.b_def]
        won = who if winner == ATTACKER else other
        self.log("battle_result", f"Battle for {t.names[self.b_target]}: {who} {totals[0]}, "
                 f"{other} {totals[1]} - {won} wins. Attack {att_text}; defence {def_text}"
                 + (f"; cards {', '.join(cards)}" if cards else ""),
                 space=t.ids[self.b_target], attack=totals[0], defence=totals[1],
                 winner="attacker" if winner == ATTACKER else "defender")
        if winner == ATTACKER:
            self.defender_loses()
        else:
            self.attacker_loses()

    # -- casualties -----------------------------------------------------------------------------

    def casualty_modifier(self, side: int) -> int:
        """Cards and Cavalry acting on the casualty rolls of `side`."""
        mod = 0
        for signed in self.b_cards:
            card = self.t.cards[abs(signed)]
            if card.kind != "casualty":
                continue
            played_by = ATTACKER if signed > 0 else DEFENDER
            if (card.whom == "opponent") != (played_by == side):
                mod += card.amount
        enemy = self.b_def if side == ATTACKER else self.b_att
        if enemy >= 0 and not self.b_rebels:
            mod += self.casualty_against(enemy)
        return mod

    def casualties(self, count: int, mod: int, rolls: list[str]) -> int:
        """Casualty rolls for `count` units: how many are lost (the others retreat)."""
        lost = 0
        for _ in range(count):
            roll, result = self.roll_table("casualty", mod)
            rolls.append(str(roll))
            if result == "lost":
                lost += 1
        return lost

    def land_defender_casualties(self, then: str) -> None:
        """The beaten armies and rowers in the target roll; survivors retreat; then `then`."""
        s, q = self.b_target, self.b_def
        mod = self.casualty_modifier(DEFENDER)
        rolls: list[str] = []
        lost_a = self.casualties(self.arm[s], mod, rolls)
        lost_r = self.casualties(self.row[s], mod, rolls)
        self.arm[s] -= lost_a
        self.row[s] -= lost_r
        self.mark_beaten(s, q)
        if rolls:
            self.log("casualties", f"{self.seats[q]}'s casualty rolls {', '.join(rolls)}"
                     + (f" ({mod:+d})" if mod else "") + f": {plural(lost_a + lost_r, 'unit')} lost",
                     seat=self.seats[q], lost=lost_a + lost_r)
        if self.combat_units(s):
            self.start_retreat(s, q, False, then)
        else:
            getattr(self, "k_" + then)()

    def mark_beaten(self, s: int, p: int) -> None:
        for i in self.leaders_at(s, p):
            self.l_lost[i] = True

    def k_after_battle(self) -> None:
        self.next_attack()

    # -- retreats ------------------------------------------------------------------------------
    #
    # Each surviving unit retreats on its own (rule 9.8, table T6, reference C-08 and C-10):
    # on land the armies first, then the rowers; afloat the fleets first (each with one
    # crew and its baggage), then the transports (each with an army, else a rowers unit,
    # else baggage).  The owner picks a space for each one; with a single space open the
    # unit goes there unasked, with none it is destroyed.  Leaders go with the first unit.

    def retreat_kind(self) -> str:
        """The kind of the next unit to retreat from the retreat space ('' when none is left)."""
        s = self.rt_space
        if self.rt_sea:
            return "fleet" if self.flt[s] else "transport" if self.trn[s] else ""
        return "army" if self.arm[s] else "rowers" if self.row[s] else ""

    def retreat_cargo(self, kind: str) -> tuple[int, int, int]:
        """What the next ship takes along: (armies, rowers, baggage)."""
        s, t = self.rt_space, self.t
        if kind == "fleet":
            return 0, min(self.row[s], t.fleet_rowers), min(self.bag[s], t.fleet_baggage)
        per = t.transport_army or 1
        if self.arm[s]:
            return min(self.arm[s], per), 0, 0
        if self.row[s]:
            return 0, min(self.row[s], per), 0
        return 0, 0, min(self.bag[s], t.transport_baggage)

    def retreat_need(self, kind: str, x: int) -> int:
        """Stacking room the next unit needs in x (rowers need none; a transport landing
        its army needs room for both)."""
        if kind == "rowers":
            return 0
        if kind == "transport" and not self.t.sea[x]:
            return 1 + self.retreat_cargo(kind)[0]
        return 1

    def retreat_options(self, s: int, p: int, sea: bool) -> list[int]:
        """Next spaces free of enemies with room for the next unit to retreat from s."""
        t = self.t
        kind = self.retreat_kind()
        out = []
        for x in (t.adj[s] if sea else t.land_adj[s]):
            if sea and not t.ships_enter[x] or not sea and (t.sea[x] or t.impassable[x]):
                continue
            if self.occ[x] not in (NOBODY, p) or t.city[x] and self.owner[x] != p:
                continue
            if self.stacked(x) + self.retreat_need(kind, x) > t.stack[x]:
                continue
            out.append(x)
        out.sort()
        return out

    def start_retreat(self, s: int, p: int, sea: bool, then: str) -> None:
        """p's surviving units in s retreat one by one where he chooses, then `then`."""
        self.stack.append(then)
        self.rt_space, self.rt_player, self.rt_sea = s, p, sea
        self.next_retreat()

    def next_retreat(self) -> None:
        """Move on the units with one way out or none; ask about the next one with a choice."""
        s, p = self.rt_space, self.rt_player
        while True:
            kind = self.retreat_kind()
            if not kind:
                break
            if kind == "fleet" and self.row[s] < self.t.fleet_rowers:
                self.retreat_unmanned()
                continue
            options = self.retreat_options(s, p, self.rt_sea)
            if len(options) > 1:
                self.wait("retreat", p)
                return
            if options:
                self.retreat_one(kind, options[0])
            else:
                self.retreat_blocked(kind)
        self.end_retreat()

    def retreat_unmanned(self) -> None:
        """The fleets still to leave have no rowers left to row them: a fleet without its
        crew cannot move (rule 9.6), so it cannot retreat and is destroyed (D11)."""
        s, p, t = self.rt_space, self.rt_player, self.t
        lost = self.flt[s]
        self.flt[s] = 0
        self.log("no_retreat", f"{self.seats[p]}'s {plural(lost, 'unmanned fleet')} in "
                 f"{t.names[s]} cannot retreat without rowers and "
                 f"{'are' if lost > 1 else 'is'} destroyed", space=t.ids[s])

    def retreat_blocked(self, kind: str) -> None:
        """No space has room for the next unit: it is destroyed, and the others of its kind
        with it (they would need the same room); afloat, so is everything still aboard."""
        s, p, t = self.rt_space, self.rt_player, self.t
        if self.rt_sea:
            lost = self.units_text(s)
            many = self.units_at(s) > 1
            self.flt[s] = self.trn[s] = self.arm[s] = self.row[s] = self.bag[s] = 0
        elif kind == "army":
            lost = plural(self.arm[s], "army")
            many = self.arm[s] > 1
            self.arm[s] = 0
        else:
            lost = plural(self.row[s], "rowers", "rowers")
            many = self.row[s] > 1
            self.row[s] = 0
        self.log("no_retreat", f"{self.seats[p]}'s {lost} in {t.names[s]} cannot retreat and "
                 f"{'are' if many else 'is'} destroyed", space=t.ids[s])

    def legal_retreat(self) -> list[str]:
        s = self.t.s_retreat
        return [s[x] for x in self.retreat_options(self.rt_space, self.rt_player, self.rt_sea)]

    def do_retreat(self, args: list[str]) -> None:
        self.retreat_one(self.retreat_kind(), self.t.index[args[1]])
        self.next_retreat()

    def retreat_one(self, kind: str, x: int) -> None:
        """The next unit retreats from the retreat space to x with what it carries."""
        s, p, t = self.rt_space, self.rt_player, self.t
        flt = trn = 0
        if kind == "army":
            arm, row, bag = 1, 0, min(self.bag[s], t.army_baggage)
        elif kind == "rowers":
            arm, row, bag = 0, 1, 0
        else:
            arm, row, bag = self.retreat_cargo(kind)
            flt, trn = (1, 0) if kind == "fleet" else (0, 1)
        leaders = self.leaders_at(s, p)
        self.transfer(s, x, arm, row, flt, trn, bag)
        for i in leaders:
            self.l_space[i] = x
        with_ = pieces_text(arm, row, 0, 0, bag) if kind in ("fleet", "transport") else \
            pieces_text(0, 0, 0, 0, bag)
        with_ = ", ".join(([with_] if with_ else []) + [self.l_name[i] for i in leaders])
        self.log("retreat", f"{UNIT_WORDS[kind].capitalize()} of {self.seats[p]} retreats from {t.names[s]} to "
                 f"{t.names[x]}" + (f" with {with_}" if with_ else ""),
                 seat=self.seats[p], origin=t.ids[s], dest=t.ids[x])

    def end_retreat(self) -> None:
        s = self.rt_space
        if self.rt_sea and not self.flt[s] + self.trn[s]:   # what no ship took drowns
            self.arm[s] = self.row[s] = self.bag[s] = 0
        self.refresh(s)
        self.rt_space = self.rt_player = -1
        self.resume()

    def retreat_values(self) -> tuple:
        """The prompt's details: the unit to place, where from, and what is left to place."""
        s = self.rt_space
        kind = self.retreat_kind()
        left = self.units_text(s) if self.rt_sea else \
            pieces_text(self.arm[s], self.row[s], 0, 0, 0)
        return UNIT_WORDS[kind], self.t.names[s], left

    def take_leftovers(self, s: int, loser: int, winner: int) -> None:
        """A beaten stack left with no army or rowers loses what remains to the winner."""
        if self.occ[s] != loser or self.combat_units(s):
            return
        leaders = self.leaders_at(s, loser)
        taken = self.units_text(s)
        if winner < 0:
            self.flt[s] = self.trn[s] = self.bag[s] = 0
            if taken:
                self.log("destroyed", f"{self.seats[loser]}'s {taken} in {self.t.names[s]} "
                         "are destroyed", space=self.t.ids[s])
        elif taken:
            self.log("capture", f"{self.seats[winner]} captures {self.seats[loser]}'s {taken} "
                     f"in {self.t.names[s]}", space=self.t.ids[s])
        self.capture_leaders(leaders, winner, f"beaten in {self.t.names[s]}")
        if self.units_at(s):
            self.occ[s] = winner if winner >= 0 else NOBODY
            self.starve[s] = 0
            self.sink_excess(s)
        self.refresh(s)

