"""Setup (rule 3): turn order, home cities, starting forces, traits and cards.

Step `home`: in turn order each player picks a named city state as his home,
never one next to a home already chosen.
"""

from __future__ import annotations

from .leaders import Leaders


class Setup(Leaders):
    """The d10 turn order, the home choices and everything dealt afterwards."""

    def start_setup(self) -> None:
        self.roll_turn_order()
        self.phase = "setup"
        self.setup_i = 0
        self.wait("home", self.order[0])

    def roll_turn_order(self) -> None:
        """Everyone rolls; ties for the highest roll again; then play follows seat order."""
        die = self.t.order_die
        rolling = list(range(self.np))
        said = []
        while True:
            rolls = {p: self.d(die) for p in rolling}
            said.append(", ".join(f"{self.seats[p]} {r}" for p, r in rolls.items()))
            best = max(rolls.values())
            rolling = [p for p, r in rolls.items() if r == best]
            if len(rolling) == 1:
                break
        first = rolling[0]
        self.order = [(first + k) % self.np for k in range(self.np)]
        self.log("turn_order", f"Turn order rolls: {'; rerolled: '.join(said)}. Order: "
                 + ", ".join(self.seats[p] for p in self.order),
                 order=[self.seats[p] for p in self.order])

    def legal_home(self) -> list[str]:
        t = self.t
        taken = [h for h in self.home if h >= 0]
        out = []
        for s in t.named_cities:
            if s in taken or any(h in t.land_adj[s] for h in taken):
                continue
            out.append(t.s_home[s])
        return out

    def do_home(self, args: list[str]) -> None:
        p = self.actor
        s = self.t.index[args[1]]
        self.home[p] = s
        self.owner[s] = p
        self.log("home", f"{self.seats[p]} chooses {self.t.names[s]} as home city",
                 seat=self.seats[p], space=args[1])
        self.setup_i += 1
        if self.setup_i < self.np:
            self.wait("home", self.order[self.setup_i])
        else:
            self.finish_setup()

    def finish_setup(self) -> None:
        t = self.t
        for p in self.order:
            s = self.home[p]
            self.gold[p] = t.home_gold
            self.income[s] = t.home_income
            units = t.coastal_units if t.coastal[s] else t.landlocked_units
            self.arm[s] = units.get("army", 0)
            self.row[s] = units.get("rowers", 0)
            self.flt[s] = units.get("fleet", 0)
            self.trn[s] = units.get("transport", 0)
            self.bag[s] = units.get("baggage", 0)
            self.occ[s] = p
            for _ in range(t.home_leaders):
                self.new_leader(p, s)
            for _ in range(t.home_traits):
                self.gain_trait(p)
        for p in self.order:
            self.draw(p, t.start_cards)
        for s in t.cities:
            if self.owner[s] >= 0:
                continue
            if t.printed_incomes:
                self.income[s] = t.printed[s]
            else:
                self.income[s] = self.dice(*t.minor_income)
            for _ in range(t.minor_traits):
                self.mtrait[s] = self.roll_trait([])
        minors = [s for s in t.cities if self.owner[s] < 0]
        self.log("minors", "Minor cities: " + "; ".join(
            f"{t.names[s]} {self.income[s]} gold, {t.traits[self.mtrait[s]].name}"
            for s in minors), incomes={t.ids[s]: self.income[s] for s in minors},
            traits={t.ids[s]: self.mtrait[s] for s in minors})
        self.begin_game_turn()

    def roll_trait(self, held: list[str]) -> str:
        """A trait from the D66 table: a blank (reroll) or one already held is rolled again."""
        while True:
            _, trait = self.roll_table("city_traits")
            if trait != "reroll" and trait not in held:
                return trait

    def gain_trait(self, p: int) -> None:
        if self.t.trait_pool <= set(self.traits[p]):
            return   # the home city has every trait the table gives: there is none to gain
        trait = self.roll_trait(self.traits[p])
        self.traits[p].append(trait)
        fx = self.t.traits[trait]
        self.log("trait", f"{self.seats[p]}'s home city gains the trait {fx.name}",
                 seat=self.seats[p], trait=trait)
        if fx.gold_once:
            self.pay_silver(p, fx.gold_once, f"{fx.name} of {self.t.names[self.home[p]]}")

    def pay_silver(self, p: int, dice: tuple[int, int], why: str) -> None:
        gold = self.dice(*dice)
        self.gold[p] += gold
        self.log("gold", f"{self.seats[p]} gains {gold} gold ({why})", seat=self.seats[p],
                 gold=gold)

    def take_control(self, p: int, s: int, hostile: bool) -> None:
        """p now controls city s; a minor city's one-off trait pays its first controller.
        A Raids or Economic Blockade on the city struck its former master only (D20)."""
        self.owner[s] = p
        self.hostile[s] = hostile
        self.noinc[s] = False
        trait = self.mtrait[s]
        if trait and not self.silver[s]:
            fx = self.t.traits[trait]
            if fx.gold_once:
                self.silver[s] = True
                self.pay_silver(p, fx.gold_once, f"{fx.name} of {self.t.names[s]}")
