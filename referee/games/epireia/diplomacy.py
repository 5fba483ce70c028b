"""Diplomacy phase: sending influential figures to empires, territories and
unplayed Greek cities (one figure chosen, then its destination)."""

from __future__ import annotations

from collections.abc import Iterator

from ...engine import Decision
from . import registry
from .position import Position
from .resolution import start_resolution
from .setup import actor, league_order
from .solo import move_enemies


def start_diplomacy(st: Position) -> None:
    st.g["step"] = "diplomacy"
    st.g["order"] = league_order(st, st.t.data["diplomacy_order"])
    st.g["idx"] = 0
    st.g["moved"] = []
    st.g["selected"] = None


def played_cities(st: Position) -> set[str]:
    cities = {p["city"] for p in st.g["players"].values()}
    if st.g["enemy"]:
        cities |= set(st.g["enemy"]["cities"])
    return cities


def sea_open(st: Position) -> bool:
    return not st.augur_effect().get("sea_closed")


def places(st: Position, seat: str, figure: str) -> Iterator[str]:
    """Where `figure` may go, in order, lazily (`movable` needs only to know there is one)."""
    g, t = st.g, st.t
    players = g["players"]
    p = players[seat]
    here = p["pos"][figure]
    sea = t.figures[figure]["sea"] and sea_open(st)
    league = p["league"]
    rules = st.all_constraints()
    closed = rules.get("closed_empires", ())
    taken = {pos for s in st.members(league) for pos in players[s]["pos"].values()}
    for empire, by_sea in t.empires_by_sea:
        if empire == here or empire in closed or empire in taken or (by_sea and not sea):
            continue
        yield empire
    spots = g["territories"]
    for territory, maritime in t.territories_by_sea:
        if territory == here or (maritime and not sea):
            continue
        owner = spots[territory]["owner"]
        if owner in players and owner != seat and players[owner]["league"] == league:
            continue
        yield territory
    if not g["solo"] and not rules.get("no_city_moves"):
        played = played_cities(st)
        mine = p["pos"].values()
        integrated = g["integrated"]
        for city in t.city_order:
            if city == here or city in played or city in mine:
                continue
            held = integrated.get(city)
            if held and held["league"] == league:
                continue
            yield city
    if here != "home":
        yield "home"


def movable(st: Position, seat: str) -> Iterator[str]:
    """The figures `seat` may still send somewhere, lazily (`settle` needs only the first);
    one away from home may always go back."""
    moved = st.g["moved"]
    pos = st.player(seat)["pos"]
    return (f for f in st.player(seat)["figures"]
            if f not in moved and (pos[f] != "home" or next(places(st, seat, f), None) is not None))


def legal(st: Position, seat: str) -> list[str]:
    """The moves of `seat`: where the selected figure may go, else which to send."""
    selected = st.g["selected"]
    if selected:
        return ["to " + place for place in places(st, seat, selected)] + ["back"]
    return ["send " + figure for figure in movable(st, seat)] + ["done"]


def allows(st: Position, seat: str, action: str) -> bool:
    return seat == actor(st) and action in legal(st, seat)


def decisions(st: Position) -> list[Decision]:
    seat, selected = actor(st), st.g["selected"]
    if selected:
        return [Decision(seat, "Diplomacy: where does {} go?", legal(st, seat), args=(selected,))]
    return [Decision(seat, "Diplomacy: choose a figure to move, or done", legal(st, seat))]


def apply(st: Position, seat: str, action: str) -> None:
    verb, _, arg = action.partition(" ")
    if verb == "send":
        st.g["selected"] = arg
    elif verb == "back":
        st.g["selected"] = None
    elif verb == "to":
        figure = st.g["selected"]
        st.player(seat)["pos"][figure] = arg
        st.g["moved"].append(figure)
        st.g["selected"] = None
        st.emit("move", "{} sends {} to {}", {"seat": seat, "figure": figure, "to": arg},
                args=(st.name(seat), st.t.figures[figure]["name"], place_name(st, arg)))
    else:
        finish(st)


def place_name(st: Position, place: str) -> str:
    for table in (st.t.empires, st.t.territories, st.t.cities):
        if place in table:
            return table[place]["name"]
    return "their city" if place == "home" else place


def finish(st: Position) -> None:
    st.g["selected"] = None
    st.g["idx"] += 1
    if st.g["idx"] >= len(st.g["order"]):
        if st.g["solo"]:
            move_enemies(st)
        start_resolution(st)


def settle(st: Position) -> bool:
    if not st.g["selected"] and next(movable(st, actor(st)), None) is None:
        finish(st)
        return True
    return False


registry.step("diplomacy", decisions, apply, settle, allows)
