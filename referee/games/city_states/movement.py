"""Phases 6 and 9, movement (rule 9.6): groups, routes, carrying, capture on entering.

Steps `move` (pick a space to move a group from, by land or by sea, or done)
and `route` (a destination, or leave some units behind, or play a movement
card, or let the group stay).  A group starts as everything in the space that
has not moved yet this phase and can go along; "leave ..." takes units out.
Each unit moves once per move phase (`mv_*` count the units that arrived).

Land groups pay the terrain's move cost for each space entered; ships pay 1 per
sea zone and stop when they reach a city, fishing village or sandy coast.
Ships carry their cargo (rule 6): a fleet its rowers and 2 baggage, a transport
an army (or rowers) or 8 baggage.
"""

from __future__ import annotations

from .core import FREE, NOBODY, group_words, pieces_text, plural, positions
from .leaders import Leaders
from .tables import ALL_UNITS, ARMY, FLEET, ROWERS, TRANSPORT

# the group's field each "leave ..." word takes from ("all": all the baggage)
GROUP_FIELD = {"army": "g_arm", "rowers": "g_row", "fleet": "g_flt", "transport": "g_trn",
               "baggage": "g_bag", "all": "g_bag"}
LEAVE = {what: f"leave {what}" for what in GROUP_FIELD}
# how a moving group may enter a space (`Movement.entry`)
REFUSED, ENTER, CAPTURE = 0, 1, 2


UNREACHED = 1 << 30   # the cost of a space no way reaches: above any step's (C-07: any one)


def move_text(seat: str, by_sea: bool, group: tuple, origin: str, dest: str) -> str:
    """'Athens moves 2 armies, Kimon from Athens to Megara' (group: `group_parts()`)."""
    return f"{seat} {'sails' if by_sea else 'moves'} {group_words(*group)} from {origin} to {dest}"


class Movement(Leaders):
    """Choosing a group, its route, and what happens where it stops."""

    def begin_moves(self, phase: str, then: str) -> None:
        p = self.active
        self.phase = phase
        self.stack.append(then)
        n = self.t.n
        self.mv_arm = [0] * n
        self.mv_row = [0] * n
        self.mv_flt = [0] * n
        self.mv_trn = [0] * n
        for i in range(len(self.l_owner)):
            if self.l_owner[i] == p:
                self.l_moved[i] = False
        if not self.may_move():
            self.log("no_moves", f"{self.seats[p]} may not move this turn "
                     f"({phase.replace('_', ' ')})", seat=self.seats[p])
            self.resume()
            return
        self.next_move()

    # -- what may move ---------------------------------------------------------------------

    def fresh_leaders(self, s: int, p: int) -> list[int]:
        return [i for i in self.leaders_at(s, p) if not self.l_moved[i]]

    def manned(self, fleets: int, rowers: int) -> int:
        per = self.t.fleet_rowers
        return min(fleets, rowers // per) if per else fleets

    def next_move(self) -> None:
        legal = self.legal_move()
        if len(legal) > 1:
            self.ask("move", self.active, legal)
        else:
            self.resume()

    def legal_move(self) -> list[str]:
        p, t = self.active, self.t
        out = ["done"]
        sea, ships_enter = t.sea, t.ships_enter
        arm, row, flt, trn = self.arm, self.row, self.flt, self.trn
        mv_arm, mv_row, mv_flt, mv_trn = self.mv_arm, self.mv_row, self.mv_flt, self.mv_trn
        l_space, l_state, l_moved = self.l_space, self.l_state, self.l_moved
        with_leaders = {l_space[i] for i in positions(self.l_owner, p)
                        if l_state[i] == FREE and not l_moved[i]}
        per = t.fleet_rowers
        s_move, s_sail = t.s_move, t.s_sail
        for s in self.spaces_of(p):
            fresh_row = row[s] - mv_row[s]
            if not sea[s] and (arm[s] - mv_arm[s] or fresh_row or s in with_leaders):
                out.append(s_move[s])
            if not ships_enter[s]:
                continue
            fleets = flt[s] - mv_flt[s]
            crews = fresh_row // per if per else 99
            if trn[s] - mv_trn[s] or (fleets if fleets < crews else crews):   # min(), inline
                out.append(s_sail[s])
        return self.any_time_cards(p, out)

    def do_move(self, args: list[str]) -> None:
        if args[0] == "done":
            self.resume()
            return
        if args[0] == "play":
            self.stack.append("next_move")
            self.play_card(self.actor, self.t.card_by_id[args[1]])
            return
        s = self.t.index[args[1]]
        if args[0] == "move":
            self.form_land_group(s)
        else:
            self.form_sea_group(s)
        self.wait("route", self.actor)

    # -- forming groups ----------------------------------------------------------------------

    def form_land_group(self, s: int) -> None:
        p = self.active
        self.g_from, self.g_sea = s, False
        self.g_arm = self.arm[s] - self.mv_arm[s]
        self.g_row = self.row[s] - self.mv_row[s]
        self.g_flt = self.g_trn = 0
        self.g_ldr = self.fresh_leaders(s, p)
        self.g_bonus = self.g_relief = self.g_keep = 0
        self.g_left_rowers = False
        self.fill_baggage()

    def form_sea_group(self, s: int) -> None:
        p, t = self.active, self.t
        self.g_from, self.g_sea = s, True
        fresh_flt = self.flt[s] - self.mv_flt[s]
        fresh_row = self.row[s] - self.mv_row[s]
        fresh_arm = self.arm[s] - self.mv_arm[s]
        self.g_flt = self.manned(fresh_flt, fresh_row)
        self.g_trn = self.trn[s] - self.mv_trn[s]
        if t.sea[s]:
            # afloat, every fresh unit is aboard one of the fresh ships
            self.g_row = fresh_row
            self.g_arm = fresh_arm
        else:
            self.g_row = self.g_flt * t.fleet_rowers
            self.g_arm = min(fresh_arm, self.g_trn * t.transport_army)
        self.g_ldr = self.fresh_leaders(s, p)
        self.g_bonus = self.g_relief = self.g_keep = 0
        self.g_left_rowers = False
        self.fill_baggage()

    def bag_room(self, flt: int, trn: int, arm: int, row: int) -> int:
        """Baggage room left on these ships with this cargo aboard; -1 if the cargo does not fit."""
        t = self.t
        crews = min(row, flt * t.fleet_rowers)
        slots = arm + (row - crews)
        per = t.transport_army or 1
        needed = -(-slots // per)
        if needed > trn:
            return -1
        return flt * t.fleet_baggage + (trn - needed) * t.transport_baggage

    def fit_cargo(self, s: int) -> None:
        """Afloat, drop what the ships there cannot carry."""
        t = self.t
        if not self.flt[s] + self.trn[s]:
            self.arm[s] = self.row[s] = self.bag[s] = 0
            return
        while self.bag_room(self.flt[s], self.trn[s], self.arm[s], self.row[s]) < 0:
            if self.row[s] > self.flt[s] * t.fleet_rowers:
                self.row[s] -= 1
            else:
                self.arm[s] -= 1
        self.bag[s] = min(self.bag[s], self.bag_room(self.flt[s], self.trn[s], self.arm[s],
                                                      self.row[s]))

    def fill_baggage(self) -> None:
        """The group carries all the baggage it has room for, less what the player left.

        Afloat, baggage the ships staying behind cannot hold must go along.
        """
        s = self.g_from
        self.g_bag = max(0, min(self.bag[s] - self.g_keep, self.group_bag_room()))
        if self.t.sea[s]:
            rest = self.bag_room(self.flt[s] - self.g_flt, self.trn[s] - self.g_trn,
                                 self.arm[s] - self.g_arm, self.row[s] - self.g_row)
            if rest >= 0:
                self.g_bag = max(self.g_bag, self.bag[s] - rest)

    def group_ok(self) -> bool:
        """The group can go: it moves someone, its cargo fits and what stays behind fits."""
        if not self.g_sea:
            return bool(self.g_arm or self.g_row or self.g_ldr) and \
                self.g_bag <= self.g_arm * self.t.army_baggage
        if self.g_flt + self.g_trn == 0:
            return False
        if self.manned(self.g_flt, self.g_row) < self.g_flt:
            return False
        room = self.bag_room(self.g_flt, self.g_trn, self.g_arm, self.g_row)
        if room < 0 or self.g_bag > room or self.g_bag > self.bag[self.g_from]:
            return False
        s = self.g_from
        if self.t.sea[s]:
            flt, trn = self.flt[s] - self.g_flt, self.trn[s] - self.g_trn
            rest = self.bag_room(flt, trn, self.arm[s] - self.g_arm, self.row[s] - self.g_row)
            if rest < 0 or self.bag[s] - self.g_bag > rest:
                return False
            if flt + trn == 0 and len(self.leaders_at(s, self.active)) > len(self.g_ldr):
                return False   # a leader cannot stay afloat without a ship
        return True

    # -- the route step ---------------------------------------------------------------------

    def legal_route(self) -> list[str]:
        t = self.t
        out = ["stay"]
        if self.group_ok():
            out += [t.s_to[d] for d in self.destinations()]
        out += self.leave_options()
        out += self.move_cards()
        return out

    def leave_options(self) -> list[str]:
        out = []
        for what in ("army", "rowers", "fleet", "transport", "baggage"):
            if self.would_move("leave", what):
                out.append(LEAVE[what])
        if self.g_bag > 1 and self.would_move("leave", "all"):
            out.append("leave all baggage")
        s = self.g_from
        afloat_rest = self.flt[s] - self.g_flt + self.trn[s] - self.g_trn
        for i in self.g_ldr:
            if self.g_sea and (afloat_rest or not self.t.sea[s]) \
                    or not self.g_sea and (len(self.g_ldr) > 1 or self.g_arm or self.g_row):
                out.append(f"leave {self.l_name[i]}")
        if self.g_sea and not self.t.sea[self.g_from]:
            fresh = self.row[self.g_from] - self.mv_row[self.g_from]
            # rowers once left stay left: else leave and take would go round for ever
            if fresh > self.g_row and not self.g_left_rowers \
                    and self.would_move("take", "rowers"):
                out.append("take rowers")
        return out

    def would_move(self, verb: str, what: str) -> bool:
        """Whether `verb what` changes the group and it could still go after (tried,
        then undone).  One that changes nothing (baggage afloat that the ships staying
        behind could not hold) is not offered: it could be chosen for ever."""
        if not self.t.sea[self.g_from] and verb == "leave":
            return self.may_leave_ashore(what)
        if verb == "leave" and getattr(self, GROUP_FIELD[what]) <= 0:
            return False
        if what == "rowers" and verb == "leave" and self.g_sea \
                and self.g_row <= self.g_flt * self.t.fleet_rowers:
            return False   # only rowers carried as cargo may be left; crews stay with fleets
        saved = self.g_arm, self.g_row, self.g_flt, self.g_trn, self.g_bag, self.g_keep
        if verb == "take":
            self.take_rowers()
        else:
            self.leave(what)
        changed = (self.g_arm, self.g_row, self.g_flt, self.g_trn, self.g_bag) != saved[:5]
        ok = changed and self.group_ok()
        self.g_arm, self.g_row, self.g_flt, self.g_trn, self.g_bag, self.g_keep = saved
        return ok

    def do_route(self, args: list[str]) -> None:
        verb = args[0]
        if verb == "to":
            self.move_group(self.t.index[args[1]])
        elif verb == "stay":
            self.hold_group()
        elif verb == "play":
            self.play_move_card(self.t.card_by_id[args[1]])
        elif verb == "take":
            self.take_rowers()
        else:
            self.leave(args[1])

    def group_bag_room(self) -> int:
        if not self.g_sea:
            return self.g_arm * self.t.army_baggage
        return self.bag_room(self.g_flt, self.g_trn, self.g_arm, self.g_row)

    def may_leave_ashore(self, what: str) -> bool:
        """Leaving units on land: the group must keep someone who moves (and crews its fleets)."""
        if what in ("baggage", "all"):
            return self.g_bag > 0
        if not self.g_sea:
            if what == "army":
                return self.g_arm > 0 and (self.g_arm - 1 + self.g_row + len(self.g_ldr)) > 0
            return what == "rowers" and self.g_row > 0 and (self.g_arm + self.g_row - 1
                                                            + len(self.g_ldr)) > 0
        if what in ("fleet", "transport"):
            count = self.g_flt if what == "fleet" else self.g_trn
            return count > 0 and self.g_flt + self.g_trn > 1
        if what == "army":
            return self.g_arm > 0
        return self.g_row > self.g_flt * self.t.fleet_rowers   # cargo rowers only

    def take_rowers(self) -> None:
        self.g_row += 1
        self.fill_baggage()

    def leave(self, what: str) -> None:
        """Take units out of the group (they stay where they are)."""
        t = self.t
        if what == "all":
            self.g_keep = self.bag[self.g_from]
        elif what == "baggage":
            self.g_keep = self.bag[self.g_from] - self.g_bag + 1
        elif what in ("army", "rowers", "fleet", "transport"):
            field = GROUP_FIELD[what]
            setattr(self, field, getattr(self, field) - 1)
            self.g_left_rowers = self.g_left_rowers or what == "rowers"
            if what == "fleet":   # its crew stays with it
                self.g_row = max(0, self.g_row - t.fleet_rowers)
            if self.g_sea:
                # cargo that no longer fits stays behind
                while self.g_arm + self.g_row and \
                        self.bag_room(self.g_flt, self.g_trn, self.g_arm, self.g_row) < 0:
                    if self.g_arm:
                        self.g_arm -= 1
                    else:
                        self.g_row -= 1
        else:
            self.g_ldr.remove(self.l_name.index(what))
        self.fill_baggage()

    def hold_group(self) -> None:
        """The group stays where it is; its units count as moved this phase."""
        s = self.g_from
        self.mv_arm[s] += self.g_arm
        self.mv_row[s] += self.g_row
        self.mv_flt[s] += self.g_flt
        self.mv_trn[s] += self.g_trn
        for i in self.g_ldr:
            self.l_moved[i] = True
        self.g_from = -1
        self.next_move()

    # -- routes ---------------------------------------------------------------------------------

    def group_moves(self) -> int:
        """Move points of the group: its slowest member, with traits, Logistics and cards."""
        t = self.t
        kinds = []
        if self.g_sea:
            if self.g_flt:
                kinds.append(("fleet", FLEET))
            if self.g_trn:
                kinds.append(("transport", TRANSPORT))
        else:
            if self.g_arm:
                kinds.append(("army", ARMY))
            if self.g_row:
                kinds.append(("rowers", ROWERS))
            if self.g_ldr:
                kinds.append(("leader", ALL_UNITS))
        p = self.active
        effects = [moves for key in t.move_traits if self.enjoys(p, key)
                   for moves in t.traits[key].moves]
        effects += [moves for i in self.g_ldr for k in self.l_skills[i]
                    for moves in t.skills[k].moves]   # Logistics: the leaders in the group
        if not effects:   # the usual case: no bonus to sum
            return min([t.moves[k] for k, _ in kinds]) + self.g_bonus
        return min(t.moves[k] + sum(amount for amount, units in effects if units & mask == mask)
                   for k, mask in kinds) + self.g_bonus

    def destinations(self) -> list[int]:
        """Every space the group may stop in (see `walk_costs` and `sail_costs`)."""
        p, mp = self.active, self.group_moves()
        if self.g_sea:
            # armies, rowers (crews or cargo) and manned fleets capture (rule 9.6)
            best = self.sail_costs(mp, bool(self.g_flt or self.g_arm or self.g_row))
        else:
            best = self.walk_costs(mp, bool(self.g_arm or self.g_row))
        fits = self.with_room(sorted(best))
        relief = self.g_relief   # moves that may only bring the group to relieve a city
        if relief:
            base = mp - relief
            return [y for y in fits if best[y] <= base or self.relieves(y, p)]
        return fits

    def entry(self, y: int, capture: bool) -> int:
        """How the moving group may enter space y: ENTER (and go on), CAPTURE (unguarded
        enemy units: take them and stop there) or REFUSED (a neutral or enemy city, or
        enemy units it cannot take)."""
        p = self.active
        if self.t.city[y] and self.owner[y] != p:
            return REFUSED
        q = self.occ[y]
        if q == NOBODY or q == p:
            return ENTER
        if capture and not self.arm[y] and not self.row[y]:
            return CAPTURE
        return REFUSED

    def walk_costs(self, mp: int, capture: bool) -> dict[int, int]:
        """By land: each space reached and its cost, cheapest first.  Costs are small
        integers, so the frontier is a list of buckets, one per cost."""
        origin = self.g_from
        steps, entry = self.t.walk_steps, self.entry
        far = UNREACHED
        best = [far] * self.t.n
        best[origin] = 0
        reached: list[int] = []   # every space given a cost, once (never the origin)
        buckets: list[list[int]] = [[] for _ in range(mp + 1)]
        buckets[0].append(origin)
        for cost in range(mp + 1):
            for x in buckets[cost]:
                if best[x] != cost:
                    continue   # a shorter way was found
                limit = far if x == origin else mp   # a full allowance buys one space (C-07)
                for y, step in steps[x]:
                    total = cost + step
                    if total >= best[y] or total > limit:
                        continue
                    how = entry(y, capture)
                    if how == REFUSED:
                        continue
                    if how == ENTER and total <= mp:
                        buckets[total].append(y)
                    if best[y] == far:
                        reached.append(y)
                    best[y] = total
        return {y: best[y] for y in reached}

    def sail_costs(self, mp: int, capture: bool) -> dict[int, int]:
        """By sea: each space reached and its cost.  Every step costs 1, so a search
        zone by zone; ships stop where they land (the origin aside)."""
        origin = self.g_from
        ship_next, dock, entry = self.t.ship_next, self.t.dock, self.entry
        best: dict[int, int] = {}
        seen = {origin}   # spaces given a cost or refused (refusal does not depend on the way)
        layer = [origin]
        cost = 0
        while layer and (cost == 0 or cost < mp):   # a full allowance buys one space (C-07)
            cost += 1
            ahead = []
            for x in layer:
                if x != origin and dock[x]:
                    continue
                for y in ship_next[x] - seen:
                    seen.add(y)
                    how = entry(y, capture)
                    if how != REFUSED:
                        best[y] = cost
                        if how == ENTER:
                            ahead.append(y)
            layer = ahead
        return best

    def with_room(self, spaces: list[int]) -> list[int]:
        """Those of `spaces` where the group fits the stacking limit (captured ships never
        block: they sink).  At sea only ships count, as in `stacked`."""
        t, p = self.t, self.active
        sea, stack, occ, arm, flt, trn = t.sea, t.stack, self.occ, self.arm, self.flt, self.trn
        ships = self.g_flt + self.g_trn
        ashore = self.g_arm + ships
        out = []
        for y in spaces:
            if sea[y]:
                arriving, present = ships, flt[y] + trn[y]
            else:
                arriving, present = ashore, arm[y] + flt[y] + trn[y]
            if not arriving or (present if occ[y] == p else 0) + arriving <= stack[y]:
                out.append(y)
        return out

    def relieves(self, y: int, p: int) -> bool:
        """In or next to a city of p under siege (Relieving Force)."""
        t = self.t
        return any(t.city[x] and self.owner[x] == p and self.besieged(x) for x in [y] + t.adj[y])

    # -- moving -----------------------------------------------------------------------------------

    def move_group(self, d: int) -> None:
        p, t, s = self.active, self.t, self.g_from
        captured = self.occ[d] not in (NOBODY, p)
        if captured:
            self.capture_in(d, p)
            taken = (self.flt[d], self.trn[d])   # only these may be scuttled, never the movers
        self.transfer(s, d, self.g_arm, self.g_row, self.g_flt, self.g_trn, self.g_bag)
        self.mv_arm[d] += self.g_arm
        self.mv_row[d] += self.g_row
        self.mv_flt[d] += self.g_flt
        self.mv_trn[d] += self.g_trn
        for i in self.g_ldr:
            self.l_space[i] = d
            self.l_moved[i] = True
        self.occ[d] = p
        self.refresh(s)
        self.log_later("move", move_text, (self.seats[p], self.g_sea, self.group_parts(),
                                           t.names[s], t.names[d]),
                       seat=self.seats[p], origin=t.ids[s], dest=t.ids[d])
        if captured:
            self.sink_excess(d, *taken)
        self.g_from = -1
        self.settle_captives("next_move")

    def k_next_move(self) -> None:
        self.next_move()

    def capture_in(self, d: int, p: int) -> None:
        """p's group enters a space of unguarded enemy units and takes them."""
        q = self.occ[d]
        t = self.t
        taken = self.units_text(d)
        self.occ[d] = p
        self.starve[d] = 0
        if taken:
            self.log("capture", f"{self.seats[p]} captures {self.seats[q]}'s {taken} in "
                     f"{t.names[d]}", seat=self.seats[p], space=t.ids[d])
        self.capture_leaders(self.leaders_at(d, q), p, f"caught in {t.names[d]}")

    def sink_excess(self, s: int, fleets: int = 99, transports: int = 99) -> None:
        """Captured ships beyond the stacking limit are scuttled (at most these many)."""
        over = self.stacked(s) - self.t.stack[s]
        sunk = 0
        while over > 0 and (self.trn[s] and transports or self.flt[s] and fleets):
            if self.trn[s] and transports:
                self.trn[s] -= 1
                transports -= 1
            else:
                self.flt[s] -= 1
                fleets -= 1
            sunk += 1
            over -= 1
        if sunk:
            self.log("scuttle", f"{plural(sunk, 'captured ship')} beyond the stacking limit "
                     f"scuttled in {self.t.names[s]}", space=self.t.ids[s], sunk=sunk)
            if self.t.sea[s]:
                self.fit_cargo(s)   # afloat, what the scuttled ships carried goes down

    def group_parts(self) -> tuple:
        """The moving group's counts and leaders' names, as `group_words` takes them."""
        return (self.g_arm, self.g_row, self.g_flt, self.g_trn, self.g_bag,
                tuple(self.l_name[i] for i in self.g_ldr))

    def group_text(self) -> str:
        return group_words(*self.group_parts())

    def units_text(self, s: int) -> str:
        return pieces_text(self.arm[s], self.row[s], self.flt[s], self.trn[s], self.bag[s])

    # -- movement cards ----------------------------------------------------------------------------

    def move_cards(self) -> list[str]:
        """Movement cards the group may use: those naming a unit kind (Forced March,
        Marathon: armies) need one moving in the group (cargo at sea does not count);
        Relieving Force serves any stack."""
        if self.g_sea:
            group = (FLEET if self.g_flt else 0) | (TRANSPORT if self.g_trn else 0)
        else:
            group = (ARMY if self.g_arm else 0) | (ROWERS if self.g_row else 0)
        if not group:
            return []
        s = self.t.s_play
        out = []
        for num in sorted(self.hands[self.active]):
            card = self.t.cards[num]
            if card.kind == "move_bonus" and card.units & group:
                out.append(s[num])
        return out

    def play_move_card(self, num: int) -> None:
        p = self.active
        card = self.t.cards[num]
        self.discard_card(p, num)
        self.g_bonus += card.amount
        if card.relief:
            self.g_relief += card.amount
        self.log("play", f"{self.seats[p]} plays {card.name}: +{card.amount} move points for "
                 f"the group in {self.t.names[self.g_from]}", seat=self.seats[p], card=card.id)

