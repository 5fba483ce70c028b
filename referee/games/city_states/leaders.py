"""Leaders: new leaders and their skills, capture, ransom and execution, exile.

Steps `captive` (the captor executes a prisoner or asks a ransom) and `ransom`
(the owner pays it or lets him die).
"""

from __future__ import annotations

from .core import CAPTIVE, DEAD, EXILED, FREE
from .realm import Realm


class Leaders(Realm):
    """New leaders, the prisoners' fate and returning exiles."""

    def new_leader(self, p: int, s: int) -> int:
        """A new leader of p in space s, with skills rolled on the leader tables."""
        names = self.t.leader_names
        k = self.next_name
        self.next_name += 1
        name = names[k % len(names)]
        if k >= len(names):
            name = f"{name}-{k // len(names) + 1}"
        roll, count = self.roll_table("leader_roll")
        count = min(count, len(self.t.skill_pool))   # never more skills than the table holds
        skills: list[str] = []
        while len(skills) < count:
            _, skill = self.roll_table("leader_skills")
            if skill not in skills:   # a skill he has already is rolled again (rule 10)
                skills.append(skill)
        i = len(self.l_owner)
        self.l_owner.append(p)
        self.l_space.append(s)
        self.l_state.append(FREE)
        self.l_name.append(name)
        self.l_skills.append(skills)
        self.l_back.append(0)
        self.l_lost.append(False)
        self.l_moved.append(True)
        self.occ[s] = p
        where = self.t.names[s]
        said = ", ".join(self.t.skills[k].name for k in skills)
        self.log("leader", f"{self.seats[p]} gains the leader {name} in {where} "
                 f"(leader roll {roll}: {said})", seat=self.seats[p], leader=name,
                 skills=list(skills), space=self.t.ids[s])
        return i

    def leader_text(self, i: int) -> str:
        skills = ", ".join(self.t.skills[k].name for k in self.l_skills[i])
        return f"{self.l_name[i]} ({skills})"

    def kill_leader(self, i: int, why: str) -> None:
        s = self.l_space[i]
        self.l_state[i] = DEAD
        self.l_space[i] = -1
        if s >= 0:
            self.refresh(s)
        self.log("leader_dies", f"{self.seats[self.l_owner[i]]}'s leader {self.l_name[i]} "
                 f"dies ({why})", leader=self.l_name[i])

    def leader_index(self, name: str) -> int:
        return self.l_name.index(name)

    def home_or_city(self, p: int) -> int:
        """Where a leader of p comes home: his home city, else his first city, else -1."""
        if self.holds_home(p):
            return self.home[p]
        cities = self.cities_of(p)
        return cities[0] if cities else -1

    def place_leader(self, i: int, s: int) -> None:
        self.l_state[i] = FREE
        self.l_space[i] = s
        self.l_moved[i] = True
        self.occ[s] = self.l_owner[i]

    # -- capture -----------------------------------------------------------------------

    def capture_leaders(self, leaders: list[int], captor: int, why: str) -> None:
        """The leaders are taken prisoner (or die, when no player took them)."""
        for i in leaders:
            if captor < 0:
                self.kill_leader(i, why)
                continue
            s = self.l_space[i]
            self.l_state[i] = CAPTIVE
            self.l_space[i] = -1
            if s >= 0:
                self.refresh(s)
            self.captives.append(i)
            self.captors.append(captor)
            self.log("captured", f"{self.seats[captor]} captures {self.seats[self.l_owner[i]]}'s "
                     f"leader {self.l_name[i]} ({why})", leader=self.l_name[i],
                     captor=self.seats[captor])

    def settle_captives(self, then: str) -> None:
        """Decide the fate of every prisoner taken, then continue with `then`."""
        self.stack.append(then)
        self.next_captive()

    def next_captive(self) -> None:
        if self.captives:
            self.wait("captive", self.captors[0])
        else:
            self.resume()

    def legal_captive(self) -> list[str]:
        name = self.l_name[self.captives[0]]
        return [f"execute {name}", f"ransom {name}"]

    def do_captive(self, args: list[str]) -> None:
        i = self.captives.pop(0)
        captor = self.captors.pop(0)
        owner = self.l_owner[i]
        if args[0] == "execute":
            self.kill_leader(i, f"executed by {self.seats[captor]}")
            self.next_captive()
            return
        price = self.dice(*self.t.ransom)
        self.log("ransom", f"{self.seats[captor]} asks {self.seats[owner]} a ransom of {price} "
                 f"gold for {self.l_name[i]}", leader=self.l_name[i], price=price)
        if self.gold[owner] < price or self.home_or_city(owner) < 0 or self.out[owner]:
            self.kill_leader(i, f"{self.seats[owner]} cannot pay the ransom")
            self.next_captive()
            return
        self.r_leader, self.r_price, self.r_captor = i, price, captor
        self.wait("ransom", owner)

    def legal_ransom(self) -> list[str]:
        return [f"pay {self.r_price}", "refuse"]

    def do_ransom(self, args: list[str]) -> None:
        i, price, captor = self.r_leader, self.r_price, self.r_captor
        owner = self.l_owner[i]
        self.r_leader = self.r_price = self.r_captor = -1
        if args[0] == "refuse":
            self.kill_leader(i, f"{self.seats[owner]} refuses the ransom")
        else:
            self.gold[owner] -= price
            self.gold[captor] += price
            s = self.home_or_city(owner)
            self.place_leader(i, s)
            self.log("ransomed", f"{self.seats[owner]} pays {price} gold to {self.seats[captor]}; "
                     f"{self.l_name[i]} returns to {self.t.names[s]}", leader=self.l_name[i])
        self.next_captive()

    # -- exile -------------------------------------------------------------------------

    def exile(self, i: int, turns: int) -> None:
        s = self.l_space[i]
        self.l_state[i] = EXILED
        self.l_space[i] = -1
        self.l_back[i] = self.turn + turns
        if s >= 0:
            self.refresh(s)

    def return_exiles(self, p: int) -> None:
        for i in range(len(self.l_owner)):
            if self.l_owner[i] == p and self.l_state[i] == EXILED and self.turn >= self.l_back[i]:
                s = self.home_or_city(p)
                if s >= 0:
                    self.place_leader(i, s)
                    self.log("exile_ends", f"{self.l_name[i]} returns from exile to "
                             f"{self.t.names[s]}", leader=self.l_name[i])
