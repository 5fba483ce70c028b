"""Resolution phase: empires, territories, Greek cities and collection, one task
at a time in the rulebook's order, so choices can interrupt between tasks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import questions, registry
from .cities import resolve_city
from .contests import can_reroll, side_of
from .economy import add_prestige
from .empires import resolve_empire
from .position import Position
from .questions import run_task
from .resources import fmt, gain, worded
from .territories import resolve_territory


def start_resolution(st: Position) -> None:
    t = st.t
    tasks = [["empire", e] for e in t.empire_order]
    tasks += [["territory", x] for x in t.territory_order]
    if not st.g["solo"]:
        tasks += [["city", c] for c in t.city_order]
    tasks += [["collect"], ["end"]]
    st.g.update(step="resolution", tasks=tasks, task=0)


def settle(st: Position) -> bool:
    """Run the next task; it may stop for a question and be replayed after the answer.

    Tasks on a space where nobody stands change nothing, so they are passed over
    at once (no objective check between them could see a difference).
    """
    g = st.g
    tasks = g["tasks"]
    occupied = st.occupied()
    while tasks[g["task"]][0] in PLACE_TASKS and tasks[g["task"]][1] not in occupied:
        g["task"] += 1
    kind, *args = tasks[g["task"]]
    if not run_task(st, lambda: TASKS[kind](st, *args), may_ask(st, kind, args)):
        return False
    st.g["task"] += 1
    return True


def may_ask(st: Position, kind: str, args: list[str]) -> bool:
    """Whether the task might stop for a question (then it is snapshotted first)."""
    if kind == "collect":
        return bool(st.constraint().get("upkeep"))
    if not args:
        return False
    # a reroll may be offered after any roll: on a territory there is one only against
    # brigands or in a conflict
    place = args[0]
    present = st.occupants(place)
    rolls = kind != "territory" or st.g["territories"][place]["brigand"] or contested(st, present)
    for seat, _ in present:
        if seat == "enemy":
            continue
        if (rolls and can_reroll(st, seat)) or (kind == "territory"
                                                and may_give_up(st, seat, place)):
            return True
    return False


def may_give_up(st: Position, seat: str, territory: str) -> bool:
    """Whether taking `territory` may ask `seat` which territory to give up (`territories.take`):
    only a seat without a city token left, whose league does not hold it already, and that
    holds other than exactly one other territory (that one is given up without asking)."""
    if st.player(seat)["posts"] > 0 or held_by_league(st, territory, seat):
        return False
    spots = st.g["territories"]
    return sum(1 for t, spot in spots.items() if spot["owner"] == seat and t != territory) != 1


def contested(st: Position, present: list[tuple[str, str]]) -> bool:
    """Whether figures of more than one side stand together (`contests.by_side`)."""
    return len({side_of(st, seat) for seat, _ in present}) > 1


def held_by_league(st: Position, territory: str, seat: str) -> bool:
    players = st.g["players"]
    owner = st.g["territories"][territory]["owner"]
    return owner in players and players[owner]["league"] == players[seat]["league"]


def collect(st: Position) -> None:
    t = st.t
    augur = st.augur_effect()
    upkeep = st.constraint().get("upkeep")
    no_income = augur.get("no_income", ())
    base = {r: n for r, n in t.income.items() if r not in no_income}
    augur_extra = augur.get("collection")
    for seat in st.g["seats"]:
        p = st.player(seat)
        # the resolution phase ends with the adding of the turn's resources (rulebook,
        # resolution 4), so an upkeep due at collection is paid out of what was held before
        if upkeep:
            pay_upkeep(st, seat, upkeep)
        income = dict(base)
        extras = [t.building_income[b] for b in p["buildings"] if b in t.building_income]
        extras += [t.figure_collection[f] for f in p["figures"] if f in t.figure_collection]
        if augur_extra:
            extras.append(augur_extra)
        for extra in extras:
            for r, n in extra.items():
                income[r] = income.get(r, 0) + n
        gain(st, seat, income)
        st.emit("collect", worded, {"seat": seat, "income": income},
                args=("{} collects {}", st.name(seat), income))
        sacred = sum(t.collection_prestige.get(b, 0) for b in p["buildings"])
        if sacred:
            add_prestige(st, seat, sacred, "sanctuary")


def pay_upkeep(st: Position, seat: str, upkeep: dict[str, Any]) -> None:
    """Pay the upkeep if you can, otherwise lose Prestige instead."""
    res = st.player(seat)["res"]
    can_pay = all(res[r] >= n for r, n in upkeep["pay"].items())
    if can_pay and questions.ask(
            st, seat, f"Upkeep: pay {fmt(upkeep['pay'])} or lose {upkeep['else_prestige']} Prestige?",
            ["pay", "lose prestige"]) == "pay":
        for r, n in upkeep["pay"].items():
            res[r] -= n
        st.emit("upkeep", f"{st.name(seat)} pays {fmt(upkeep['pay'])} in upkeep", {"seat": seat})
    else:
        add_prestige(st, seat, -upkeep["else_prestige"], "upkeep unpaid")


def end(st: Position) -> None:
    if st.g["enemy"]:
        for figure in st.g["enemy"]["pos"]:
            st.g["enemy"]["pos"][figure] = "home"
    st.g["step"] = "turn-end"


PLACE_TASKS = frozenset({"empire", "territory", "city"})   # resolved where figures stand
TASKS: dict[str, Callable] = {"empire": resolve_empire, "territory": resolve_territory,
                              "city": resolve_city, "collect": collect, "end": end}


registry.step("resolution", settle=settle)
