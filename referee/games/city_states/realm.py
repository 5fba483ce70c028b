"""What a player owns and what it adds up to: control, sieges, traits and skills.

"Friendly city" (rule C-14 of the reference): a city you control that is
neither razed, besieged nor hostile.  Traits count for a player from his home
city while he holds it and from every minor city he controls; realm skills
(diplomacy, Statecraft, Economics, Organization, Historian) from every free
leader of his, combat skills only in the leader's own stack.
"""

from __future__ import annotations

from .core import FREE, NOBODY, Core, positions
from .tables import FLEET, Fx


class Realm(Core):
    """Control, sieges and the sums of traits and skills."""

    # -- occupancy -------------------------------------------------------------------

    def units_at(self, s: int) -> int:
        return self.arm[s] + self.row[s] + self.flt[s] + self.trn[s] + self.bag[s]

    def leaders_at(self, s: int, p: int) -> list[int]:
        owner, state = self.l_owner, self.l_state
        return [i for i in positions(self.l_space, s) if owner[i] == p and state[i] == FREE]

    def spaces_of(self, p: int) -> list[int]:
        """The spaces p's units or leaders occupy, in order."""
        return positions(self.occ, p)

    def refresh(self, s: int) -> None:
        """Clear the occupant of a space nothing is left in, and the starvation markers and
        Hesitation of a stack whose armies and rowers are gone (units arriving later are
        neither hungry nor hesitant: D2, D7)."""
        if not (self.arm[s] or self.row[s]):
            self.starve[s] = 0
            for hesitant in self.hesitant:
                if s in hesitant:
                    hesitant.remove(s)
        if self.units_at(s) == 0 and self.occ[s] >= 0 and not self.leaders_at(s, self.occ[s]):
            self.occ[s] = NOBODY

    def transfer(self, s: int, x: int, arm: int, row: int, flt: int, trn: int, bag: int) -> None:
        """Units of s's occupant go to x; starving units bring their markers along, and a
        stack that may not attack (Hesitation) stays unable to wherever it goes."""
        p = self.occ[s]
        hunger = self.starve[s] if arm or row else 0
        self.starve[x] = max(self.starve[x], hunger) if self.occ[x] == p else hunger
        hesitant = self.hesitant[p]
        if s in hesitant and x not in hesitant:
            hesitant.append(x)
        self.arm[s] -= arm
        self.row[s] -= row
        self.flt[s] -= flt
        self.trn[s] -= trn
        self.bag[s] -= bag
        self.arm[x] += arm
        self.row[x] += row
        self.flt[x] += flt
        self.trn[x] += trn
        self.bag[x] += bag
        self.occ[x] = p

    def stacked(self, s: int) -> int:
        """Units counting for the stacking limit (at sea only ships: armies are aboard)."""
        if self.t.sea[s]:
            return self.flt[s] + self.trn[s]
        return self.arm[s] + self.flt[s] + self.trn[s]

    def combat_units(self, s: int) -> int:
        return self.arm[s] + self.row[s]

    # -- cities ------------------------------------------------------------------------

    def besieged(self, s: int) -> bool:
        """An enemy army or rowers unit (manned fleets included) stands next to the city."""
        o = self.owner[s]
        if o < 0:
            return False
        occ, arm, row = self.occ, self.arm, self.row
        for nb in self.t.adj[s]:
            q = occ[nb]
            if q >= 0 and q != o and (arm[nb] or row[nb]):
                return True
        return False

    def friendly(self, p: int, s: int) -> bool:
        return (self.owner[s] == p and not self.razed[s] and not self.hostile[s]
                and not self.besieged(s))

    def cities_of(self, p: int) -> list[int]:
        return positions(self.owner, p)   # only a city ever has an owner

    def holds_home(self, p: int) -> bool:
        return self.home[p] >= 0 and self.owner[self.home[p]] == p

    def is_home(self, s: int) -> bool:
        """A home city held by the player who founded it."""
        o = self.owner[s]
        return o >= 0 and self.home[o] == s

    # -- traits and skills ---------------------------------------------------------------

    def realm_traits(self, p: int) -> list[Fx]:
        """The traits p enjoys, each once: his home city "also gets" a minor city's trait,
        which adds nothing when it has that trait already (decision D16)."""
        t = self.t
        keys = list(self.traits[p]) if self.holds_home(p) else []
        mtrait = self.mtrait
        for s in self.cities_of(p):
            key = mtrait[s]
            if key and key not in keys:
                keys.append(key)
        return [t.traits[k] for k in keys]

    def enjoys(self, p: int, key: str) -> bool:
        """Whether trait `key` is one of p's `realm_traits`."""
        if key in self.traits[p] and self.holds_home(p):
            return True
        owner = self.owner
        return any(owner[s] == p for s in positions(self.mtrait, key))

    def free_leaders(self, p: int) -> list[int]:
        state = self.l_state
        return [i for i in positions(self.l_owner, p) if state[i] == FREE]

    def realm_skills(self, p: int) -> list[Fx]:
        skills = self.t.skills
        return [skills[k] for i in self.free_leaders(p) for k in self.l_skills[i]]

    def stack_skills(self, s: int, p: int) -> list[Fx]:
        skills = self.t.skills
        return [skills[k] for i in self.leaders_at(s, p) for k in self.l_skills[i]]

    def diplomacy_rolls(self, p: int) -> int:
        return (self.t.free_rolls + sum(fx.diplomacy for fx in self.realm_traits(p))
                + sum(fx.diplomacy for fx in self.realm_skills(p)))

    def hand_limit(self, p: int) -> int:
        return self.t.hand_limit + sum(fx.hand_limit for fx in self.realm_skills(p))

    def home_income(self, p: int) -> int:
        return (self.t.home_income + sum(fx.income for fx in self.realm_traits(p))
                + sum(fx.income for fx in self.realm_skills(p)))

    def upkeep_modifier(self, p: int, s: int) -> int:
        """Added to the upkeep rolls of p's units in space s (terrain, traits, Logistics)."""
        return (self.t.forage[s] + sum(fx.upkeep for fx in self.realm_traits(p))
                + sum(fx.upkeep for fx in self.stack_skills(s, p)))

    def navigation_modifier(self, p: int, bit: int = FLEET) -> int:
        """Added to the navigation rolls of p's ships of kind `bit` (Sea Worthy: fleets)."""
        return sum(amount for fx in self.realm_traits(p) for amount, units in fx.navigation
                   if units & bit)

    def casualty_against(self, p: int) -> int:
        """What p's traits (Cavalry) add to the casualty rolls of his opponents."""
        return sum(fx.casualty_opp for fx in self.realm_traits(p))

    def victory_points(self, p: int) -> int:
        return len(self.cities_of(p)) + sum(fx.victory for fx in self.realm_skills(p))

    def base_income_total(self, p: int) -> int:
        return sum(self.income[s] for s in self.cities_of(p))

    def nearest_friendly_city(self, p: int, s: int) -> int:
        """The friendly city nearest to space s, counted in spaces (-1: none)."""
        adj = self.t.adj
        seen = {s}
        ring = [s]
        while ring:
            found = [x for x in ring if self.t.city[x] and self.friendly(p, x)]
            if found:
                return min(found)
            nxt = []
            for x in ring:
                for y in adj[x]:
                    if y not in seen:
                        seen.add(y)
                        nxt.append(y)
            ring = nxt
        return -1

    def is_out(self, p: int) -> bool:
        """No city, no unit, no free leader: out of the game (rule 14)."""
        if self.cities_of(p) or self.free_leaders(p):
            return False
        return p not in self.occ
