"""Paying for buildings and tokens: discounts and surcharges chosen resource by
resource, then the building's effects."""

from __future__ import annotations

from typing import Any

from . import registry
from .economy import add_prestige, give_token
from .position import Position
from .recruit import offer_recruit
from .resources import affordable, feasible, pay, worded
from .tables import Tables


def building_surcharge(st: Position) -> int:
    return st.augur_effect().get("building_surcharge", 0)


def buildable(st: Position, seat: str, discount: int = 0) -> list[str]:
    """The buildings `seat` may construct now, `discount` units off, in the table's order."""
    p = st.player(seat)
    built = p["buildings"]
    return [b for b in affordable_buildings(st.t, p["res"], discount, building_surcharge(st))
            if b not in built]


def affordable_buildings(t: Tables, have: dict[str, int], discount: int,
                         surcharge: int) -> list[str]:
    """The buildings `have` pays for, `discount` units off, in the table's order (a list
    shared by every call on the same terms: do not change it)."""
    # the answer depends only on the amounts held and the terms: worked out once for each
    terms = (*map(have.__getitem__, t.resources), discount, surcharge)
    found = t.affordable_buildings.get(terms)
    if found is None:
        if discount or surcharge:
            wealth = sum(have.values())
            found = [b for b, cost, _ in t.building_costs
                     if affordable(have, wealth, cost, discount, surcharge)]
        else:   # the full price: as `can_pay`
            found = [b for b, _, pairs in t.building_costs if all(have[r] >= n for r, n in pairs)]
        t.affordable_buildings[terms] = found
    return found


def start_payment(st: Position, item: dict[str, Any]) -> None:
    """Pay at once when no discount or surcharge choice is left, else ask for it."""
    item["auto_single"] = True
    if not normalise_payment(item):
        st.g["queue"].insert(0, item)
    else:
        finish_payment(st, item)


def normalise_payment(item: dict[str, Any]) -> bool:
    """True when nothing is left to choose."""
    if sum(item["cost"].values()) == 0:
        item["discount"] = 0
    return item["discount"] == 0 and item["surcharge"] == 0


def payment_legal(st: Position, item: dict[str, Any]) -> list[str]:
    have, cost = st.player(item["seat"])["res"], item["cost"]
    out = []
    if item["discount"]:
        for r, n in cost.items():
            if n and feasible(have, {**cost, r: n - 1}, item["discount"] - 1, item["surcharge"]):
                out.append(f"discount {r}")
        return out
    for r in st.t.resources:
        if have[r] >= cost.get(r, 0) + 1:
            out.append(f"extra {r}")
    return out


def payment_apply(st: Position, item: dict[str, Any], action: str) -> None:
    verb, resource = action.split()
    if verb == "discount":
        item["cost"][resource] -= 1
        item["discount"] -= 1
    else:
        item["cost"][resource] = item["cost"].get(resource, 0) + 1
        item["surcharge"] -= 1
    if normalise_payment(item):
        st.g["queue"].pop(0)
        finish_payment(st, item)


def finish_payment(st: Position, item: dict[str, Any]) -> None:
    seat, then = item["seat"], item["then"]
    pay(st.player(seat)["res"], item["cost"])
    if "build" in then:
        complete_building(st, seat, then["build"], item["cost"])
    else:
        st.emit("produce", worded, {"seat": seat, "deck": then["produce"]},
                args=("{} pays {} for a {} token", st.name(seat), dict(item["cost"]), then["produce"]))
        give_token(st, st.league_of(seat), then["produce"], seat, "Prestige bonus")


def complete_building(st: Position, seat: str, building: str, paid: dict[str, int]) -> None:
    p = st.player(seat)
    spec = st.t.buildings[building]
    p["buildings"].append(building)
    st.g["leagues"][p["league"]]["counters"]["buildings"] += 1
    st.emit("build", worded, {"seat": seat, "building": building},
            args=("{} builds the {} for {}", st.name(seat), spec["name"], dict(paid)))
    effect = spec["effect"]
    if effect.get("prestige"):
        add_prestige(st, seat, effect["prestige"], spec["name"])
    if effect.get("recruit_figure"):
        offer_recruit(st, seat, {}, spec["name"])


registry.interrupt("pay", lambda st, item: "Choose how the discount or surcharge applies",
                   payment_legal, payment_apply)
