"""Land and naval movement, transport, Themistocles and the bridge choice.

Kinds of movement (`mv_kind`): "move" (a card played for movement: land or
sea), "land" (Evangelion, Cavalry, Great King, Molon Labe), "leonidas" (land,
exactly one army), "fleet" (Triremes: sea, no transport).
"""

from __future__ import annotations

from .core import Core, count_of
from .tables import GREECE, PERSIA, WHO


class Movement(Core):
    """Steps `origin`, `dest_land`, `dest_sea`, `themistocles`, `them_pay`,
    `them_origin`, `them_dest`, `bridge`."""

    def land_origins(self, side: int) -> list[int]:
        roads = self.t.has_roads[self.bridge]
        arm = self.arm[side]
        frozen = self.t.carneia_city if (side == GREECE and self.carneia) else -1
        return [c for c in range(self.t.ncity) if arm[c] and roads[c] and c != frozen]

    def can_march(self, side: int) -> bool:
        """Whether `land_origins(side)` is not empty (stops at the first one found)."""
        roads = self.t.has_roads[self.bridge]
        arm = self.arm[side]
        frozen = self.t.carneia_city if (side == GREECE and self.carneia) else -1
        for c, armies in enumerate(arm):
            if armies and roads[c] and c != frozen:
                return True
        return False

    def sea_origins(self, side: int) -> list[int]:
        flt = self.flt[side]
        return [c for c in self.t.ports if flt[c]]

    def can_move(self, side: int) -> bool:
        flt = self.flt[side]
        for c in self.t.ports:
            if flt[c]:
                return True
        return self.can_march(side)

    def reach(self, side: int, origin: int) -> list[int]:
        """Cities a land group from `origin` may stop in (depth-first flood)."""
        adj = self.t.adj[self.bridge]
        seen = {origin}
        todo = [origin]
        out = []
        while todo:
            city = todo.pop()
            for nxt in adj[city]:
                if nxt not in seen:
                    seen.add(nxt)
                    out.append(nxt)
                    if self.controls(side, nxt):
                        todo.append(nxt)
        return out

    # -- choosing a group -----------------------------------------------------------------

    def begin_move(self, side: int, kind: str) -> None:
        self.mv_side, self.mv_kind = side, kind
        self.mv_carried = 0
        # kept for the origin step (nothing moves until it is answered; not saved)
        self.origin_menu = self.legal_origin_for(side, kind)
        if not self.origin_menu:
            self.log("no_move", "{} has nothing that can move", (WHO[side],))
            self.resume()
            return
        self.step, self.actor = "origin", side

    def legal_origin_for(self, side: int, kind: str) -> list[str]:
        t = self.t
        out = []
        if kind != "fleet":
            out = [t.s_origin_land[c] for c in self.land_origins(side)]
        if kind in ("move", "fleet"):
            out += [t.s_origin_sea[c] for c in self.sea_origins(side)]
        return out

    def legal_origin(self) -> list[str]:
        if self.origin_menu is None:   # a position read back from JSON
            self.origin_menu = self.legal_origin_for(self.mv_side, self.mv_kind)
        return self.origin_menu[:]

    def do_origin(self, args: list[str]) -> None:
        city = self.t.index[args[1]]
        self.mv_origin = city
        if args[0] == "origin_land":
            self.mv_reach = self.reach(self.mv_side, city)
            self.step = "dest_land"
        else:
            self.step = "dest_sea"

    # -- land ---------------------------------------------------------------------------------

    def legal_dest_land(self) -> list[str]:
        s = self.t.s_move_land
        most = 1 if self.mv_kind == "leonidas" else self.arm[self.mv_side][self.mv_origin]
        out: list[str] = []
        for dest in self.mv_reach:
            out += s[dest][1:most + 1]
        return out

    def do_dest_land(self, args: list[str]) -> None:
        side, dest, count = self.mv_side, self.t.index[args[1]], int(args[2])
        self.arm[side][self.mv_origin] -= count
        self.arm[side][dest] += count
        self.mv_dest = dest
        origin = self.t.names[self.mv_origin]
        self.log("move", "{} marches {} from {} to {}",
                 (WHO[side], count_of(count, "army"), origin, args[1]),
                 data={"origin": origin, "dest": args[1], "armies": count})
        if self.arm[1 - side][dest]:
            self.stack.append("move_done")
            self.start_land_battle(side, dest, via_sea=False)
        else:
            self.k_move_done()

    # -- sea ----------------------------------------------------------------------------------

    def transport_limit(self, side: int, origin: int) -> int:
        if self.mv_kind == "fleet":
            return 0
        if side == GREECE and self.carneia and origin == self.t.carneia_city:
            return 0
        return min(self.t.max_transport, self.arm[side][origin])

    def legal_dest_sea(self) -> list[str]:
        side, origin = self.mv_side, self.mv_origin
        return self.t.sail_actions(origin, self.flt[side][origin],
                                   self.transport_limit(side, origin))[:]

    def do_dest_sea(self, args: list[str]) -> None:
        side, origin = self.mv_side, self.mv_origin
        dest, fleets, armies = self.t.index[args[1]], int(args[2]), int(args[3])
        self.flt[side][origin] -= fleets
        self.flt[side][dest] += fleets
        self.arm[side][origin] -= armies
        self.mv_carried = armies
        self.mv_dest = dest
        name = self.t.names[origin]
        self.log("sail", "{} sails {} carrying {} from {} to {}",
                 (WHO[side], count_of(fleets, "fleet"), count_of(armies, "army"), name, args[1]),
                 data={"origin": name, "dest": args[1], "fleets": fleets, "armies": armies})
        if side == PERSIA and self.themistocles_ok():
            self.step, self.actor = "themistocles", GREECE
        else:
            self.naval_arrive()

    def naval_arrive(self) -> None:
        side, dest = self.mv_side, self.mv_dest
        if self.flt[1 - side][dest]:
            self.stack.append("naval_done")
            self.start_naval_battle(side, dest, self.mv_origin, self.mv_carried)
        else:
            self.land_carried()

    def k_naval_done(self) -> None:
        side, dest = self.mv_side, self.mv_dest
        self.mv_carried = self.b_carried
        if self.b_result == "attacker_retreat":
            self.mv_carried = 0
            self.k_move_done()
        elif self.flt[side][dest]:
            self.land_carried()
        else:
            self.mv_carried = 0
            self.k_move_done()

    def land_carried(self) -> None:
        side, dest, armies = self.mv_side, self.mv_dest, self.mv_carried
        self.mv_carried = 0
        if armies:
            self.arm[side][dest] += armies
            self.log("land", "{} of {} land in {}",
                     (count_of(armies, "army"), WHO[side], self.t.names[dest]))
            if self.arm[1 - side][dest]:
                self.stack.append("move_done")
                self.start_land_battle(side, dest, via_sea=True)
                return
        self.k_move_done()

    def k_move_done(self) -> None:
        t = self.t
        dest = self.mv_dest
        if (self.mv_side == GREECE and self.bridge and dest == t.bridge_ends[0]
                and self.arm[GREECE][dest]):
            self.step, self.actor = "bridge", GREECE
        else:
            self.resume()

    def legal_bridge(self) -> list[str]:
        return ["destroy_bridge", "keep_bridge"]

    def do_bridge(self, args: list[str]) -> None:
        if args[0] == "destroy_bridge":
            self.bridge = False
            self.log("bridge", "Greece destroys the pontoon bridge")
        self.resume()

    # -- Themistocles ---------------------------------------------------------------------

    def themistocles_ok(self) -> bool:
        if "themistocles" in self.once_used or not self.may_hold(GREECE, "themistocles"):
            return False
        if not (self.res_arm[GREECE] or any(self.arm[GREECE])):
            return False
        gf, dest = self.flt[GREECE], self.mv_dest
        return any(gf[p] for p in self.t.ports if p != dest)

    def legal_themistocles(self) -> list[str]:
        return self.react_or_decline(GREECE, "themistocles")

    def do_themistocles(self, args: list[str]) -> None:
        if args[0] == "decline":
            self.log("decline", "Greece lets the fleet sail", to=GREECE)
            self.naval_arrive()
            return
        num = int(args[1])
        self.discard_card(GREECE, num)
        self.once_used.append("themistocles")
        self.no_naval_retreat = True
        self.log("react", "Greece plays {} Themistocles: no naval retreats this operation", (num,),
                 data={"card": num})
        if self.res_arm[GREECE]:
            self.res_arm[GREECE] -= 1
            self.step = "them_origin"
        else:
            self.step = "them_pay"

    def legal_them_pay(self) -> list[str]:
        return [self.t.s_sacrifice[c] for c in self.army_cities(GREECE)]

    def do_them_pay(self, args: list[str]) -> None:
        self.arm[GREECE][self.t.index[args[1]]] -= 1
        self.log("sacrifice", "Greece takes an army from {} for Themistocles", (args[1],))
        self.step = "them_origin"

    def legal_them_origin(self) -> list[str]:
        gf, dest = self.flt[GREECE], self.mv_dest
        return [self.t.s_origin_sea[p] for p in self.t.ports if gf[p] and p != dest]

    def do_them_origin(self, args: list[str]) -> None:
        self.th_origin = self.t.index[args[1]]
        self.step = "them_dest"

    def legal_them_dest(self) -> list[str]:
        origin = self.th_origin
        s = self.t.s_move_sea
        fleets = self.flt[GREECE][origin]
        return [s[p][f][0] for p in self.t.ports if p != origin for f in range(1, fleets + 1)]

    def do_them_dest(self, args: list[str]) -> None:
        dest, fleets = self.t.index[args[1]], int(args[2])
        self.flt[GREECE][self.th_origin] -= fleets
        self.flt[GREECE][dest] += fleets
        origin = self.t.names[self.th_origin]
        self.log("sail", "Greece sails {} from {} to {}",
                 (count_of(fleets, "fleet"), origin, args[1]),
                 data={"origin": origin, "dest": args[1], "fleets": fleets})
        if dest != self.mv_dest and self.flt[PERSIA][dest]:
            self.stack.append("them_side_done")
            self.start_naval_battle(GREECE, dest, self.th_origin, 0)
        else:
            self.naval_arrive()

    def k_them_side_done(self) -> None:
        self.naval_arrive()
