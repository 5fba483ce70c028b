"""Phase 4, recruit (rule 9.4): the experience roll, then units bought city by city.

Steps `recruit` (pick a city, or done) and `recruit_in` (buy one unit and up to
six baggage there, or done).  Only friendly cities recruit; fleets and
transports only where the city touches the sea; new units respect the city's
stacking limit.  A leader with Organization adds one unit to the friendly city
nearest him.
"""

from __future__ import annotations

from .leaders import Leaders

KINDS = ("army", "rowers", "fleet", "transport")


def recruit_text(seat: str, kind: str, count: int, place: str, gold: int) -> str:
    """'Athens recruits an army in Athens (3 gold left)'."""
    if kind == "baggage":
        what = f"{count} baggage"
    elif kind == "rowers":
        what = "a rowers unit"
    else:
        what = f"{'an' if kind == 'army' else 'a'} {kind}"
    return f"{seat} recruits {what} in {place} ({gold} gold left)"


class Recruit(Leaders):
    """Experience and recruiting."""

    def phase_recruit(self) -> None:
        p = self.active
        self.phase = "recruit"
        if self.holds_home(p):
            self.experience_roll(p)
        t = self.t
        cities = [s for s in self.cities_of(p) if self.friendly(p, s)]
        units = [t.units_per_city] * len(cities)
        for leader in self.free_leaders(p):
            extra = sum(t.skills[k].recruits for k in self.l_skills[leader])
            if extra:
                near = self.nearest_friendly_city(p, self.l_space[leader])
                if near in cities:
                    units[cities.index(near)] += extra
        self.rc_cities = cities
        self.rc_left = units
        self.rc_bags = [t.baggage_per_city] * len(cities)
        self.rc_city = -1
        self.next_recruit()

    def experience_roll(self, p: int) -> None:
        roll, result = self.roll_table("experience")
        if result != "gain":
            self.log("experience", f"{self.seats[p]}'s experience roll: {roll}, nothing",
                     seat=self.seats[p], roll=roll)
            return
        roll2, gain = self.roll_table("experience_gain")
        self.log("experience", f"{self.seats[p]}'s experience roll: {roll}, a gain ({roll2}: "
                 f"{'a new leader' if gain == 'leader' else 'a city trait'})",
                 seat=self.seats[p], roll=roll)
        if gain == "leader":
            self.new_leader(p, self.home[p])
        else:
            self.gain_trait(p)

    def buyable(self, p: int, s: int, left: int, bags: int) -> list[str]:
        """What city s may still recruit: unit kinds and baggage amounts."""
        units = self.unit_kinds(p, s) if left > 0 else []
        return units + self.t.s_baggage[:self.baggage_most(p, bags)]

    def may_recruit(self, p: int, s: int, left: int, bags: int) -> bool:
        """Whether city s may still recruit anything (`buyable` is not empty)."""
        return self.baggage_most(p, bags) > 0 or left > 0 and bool(self.unit_kinds(p, s))

    def unit_kinds(self, p: int, s: int) -> list[str]:
        """The unit kinds p can pay for in city s and that it may raise there."""
        t = self.t
        gold, cost = self.gold[p], t.unit_cost
        room = self.stacked(s) < t.stack[s]
        return [kind for kind in KINDS if gold >= cost[kind]
                and (t.coastal[s] or kind not in ("fleet", "transport"))
                and (room or kind == "rowers")]

    def baggage_most(self, p: int, bags: int) -> int:
        """The most baggage p may still buy in a city allowed `bags` more (at most the
        ruleset's baggage per city, the length of `t.s_baggage`)."""
        cost = self.t.unit_cost["baggage"]
        return max(0, min(bags, self.gold[p] // cost if cost else bags))

    def next_recruit(self) -> None:
        legal = self.legal_recruit()
        if len(legal) > 1:
            self.ask("recruit", self.active, legal)
        else:
            self.phase_diplomacy()

    def legal_recruit(self) -> list[str]:
        p, s_recruit = self.active, self.t.s_recruit
        legal = ["done"] + [s_recruit[s] for i, s in enumerate(self.rc_cities)
                            if self.may_recruit(p, s, self.rc_left[i], self.rc_bags[i])]
        if len(legal) == 1 and (any(self.rc_left) or any(self.rc_bags)):
            return legal + self.gold_cards(p)   # cities short of gold: a card may pay for them
        return self.any_time_cards(p, legal)

    def do_recruit(self, args: list[str]) -> None:
        if args[0] == "done":
            self.phase_diplomacy()
            return
        if args[0] == "play":
            self.stack.append("next_recruit")
            self.play_card(self.actor, self.t.card_by_id[args[1]])
            return
        self.rc_city = self.t.index[args[1]]
        self.wait("recruit_in", self.actor)

    def legal_recruit_in(self) -> list[str]:
        i = self.rc_cities.index(self.rc_city)
        return self.any_time_cards(self.active, ["done"] + self.buyable(
            self.active, self.rc_city, self.rc_left[i], self.rc_bags[i]))

    def k_next_recruit(self) -> None:
        self.next_recruit()

    def k_recruit_in(self) -> None:
        self.wait("recruit_in", self.active)

    def do_recruit_in(self, args: list[str]) -> None:
        p, s, t = self.active, self.rc_city, self.t
        i = self.rc_cities.index(s)
        if args[0] == "done":
            self.rc_left[i] = self.rc_bags[i] = 0
            self.next_recruit()
            return
        if args[0] == "play":
            self.stack.append("recruit_in")
            self.play_card(p, t.card_by_id[args[1]])
            return
        kind = args[0]
        count = int(args[1]) if kind == "baggage" else 1
        self.gold[p] -= t.unit_cost[kind] * count
        if kind == "baggage":
            self.bag[s] += count
            self.rc_bags[i] -= count
        else:
            self.rc_left[i] -= 1
            if kind == "army":
                self.arm[s] += 1
            elif kind == "rowers":
                self.row[s] += 1
            elif kind == "fleet":
                self.flt[s] += 1
            else:
                self.trn[s] += 1
        self.occ[s] = p
        self.log_later("recruit", recruit_text, (self.seats[p], kind, count, t.names[s],
                                                 self.gold[p]),
                       seat=self.seats[p], space=t.ids[s], unit=kind, count=count)
        if not self.may_recruit(p, s, self.rc_left[i], self.rc_bags[i]):
            self.next_recruit()

