"""Setup: cities, leagues, administrators and the secret, simultaneous choice
of each starting influential figure (the starting position is `start`)."""

from __future__ import annotations

from typing import Any

from ...engine import Decision
from . import registry
from .position import Position
from .solo import place_enemies


def league_order(st: Position, leagues: list[str]) -> list[str]:
    return [s for league in leagues for s in st.ordered(league)]


def actor(st: Position) -> str:
    return st.g["order"][st.g["idx"]]


def next_actor(st: Position, then: str) -> None:
    st.g["idx"] += 1
    if st.g["idx"] >= len(st.g["order"]):
        st.g["idx"] = 0
        st.g["step"] = then


# ---------------------------------------------------------------- cities
def city_choices(st: Position, seat: str) -> list[str]:
    taken = {p["city"] for p in st.g["players"].values()}
    league = st.player(seat)["league"]
    fixed = solo_spec(st).get("city") if st.g["solo"] else None
    out = []
    for city, spec in st.t.cities.items():
        if city in taken or (fixed and city != fixed):
            continue
        if league and spec.get("league") not in (None, league):
            continue
        out.append(f"city {city}")
    return out


def solo_spec(st: Position) -> dict[str, Any]:
    return st.t.solo_scenarios[st.g["solo"]["scenario"]]


def city_decisions(st: Position) -> list[Decision]:
    seat = actor(st)
    return [Decision(seat, "Choose your city", city_choices(st, seat))]


def city_apply(st: Position, seat: str, action: str) -> None:
    city = action.split()[1]
    st.player(seat)["city"] = city
    st.emit("city", f"{seat} ({st.player(seat)['league'] or 'solo'}) takes "
            f"{st.t.cities[city]['name']}", {"seat": seat, "city": city})
    next_actor(st, "pick-league" if st.g["solo"] else "pick-admin")


def city_settle(st: Position) -> bool:
    seat = actor(st)
    choices = city_choices(st, seat)
    if len(choices) == 1 and st.g["solo"]:
        city_apply(st, seat, choices[0])
        return True
    return False


# ---------------------------------------------------------------- solo league
def league_choices(st: Position, seat: str) -> list[str]:
    fixed = solo_spec(st).get("league") or st.t.cities[st.player(seat)["city"]].get("league")
    return [f"league {lg}" for lg in st.t.leagues if not fixed or lg == fixed]


def league_decisions(st: Position) -> list[Decision]:
    seat = actor(st)
    return [Decision(seat, "Choose your league", league_choices(st, seat))]


def league_apply(st: Position, seat: str, action: str) -> None:
    league = action.split()[1]
    st.join_league(seat, league)
    st.emit("league", f"{st.name(seat)} joins the {league} league", {"seat": seat, "league": league})
    place_enemies(st, league)
    next_actor(st, "pick-admin")


def league_settle(st: Position) -> bool:
    seat = actor(st)
    choices = league_choices(st, seat)
    if len(choices) == 1:
        league_apply(st, seat, choices[0])
        return True
    return False


# ---------------------------------------------------------------- administrators
def admin_decisions(st: Position) -> list[Decision]:
    seat = actor(st)
    taken = {p["admin"] for p in st.g["players"].values()}
    legal = [f"admin {a}" for a in st.t.admins if a not in taken]
    return [Decision(seat, "Choose your administrator", legal)]


def admin_apply(st: Position, seat: str, action: str) -> None:
    admin = action.split()[1]
    st.player(seat)["admin"] = admin
    st.emit("admin", f"{st.name(seat)} takes the {st.t.admins[admin]['name']}",
            {"seat": seat, "admin": admin})
    next_actor(st, "pick-figure")


# ---------------------------------------------------------------- starting figure (secret)
def figure_decisions(st: Position) -> list[Decision]:
    out = []
    for seat in st.g["seats"]:
        if seat not in st.g["secret"]:
            city = st.player(seat)["city"]
            legal = [f"figure {f}" for f in st.t.city_figures(city)]
            out.append(Decision(seat, "Secretly choose your starting influential figure", legal))
    return out


def figure_apply(st: Position, seat: str, action: str) -> None:
    figure = action.split()[1]
    st.g["secret"][seat] = figure
    st.emit("figure-chosen", f"You secretly choose {st.t.figures[figure]['name']}",
            {"seat": seat, "figure": figure}, to=frozenset({seat}))
    st.emit("figure-waiting", f"{seat} has chosen a starting figure", {"seat": seat})
    if len(st.g["secret"]) == len(st.g["seats"]):
        for s in st.g["seats"]:
            fig = st.g["secret"][s]
            st.player(s)["figures"].append(fig)
            st.player(s)["pos"][fig] = "home"
            st.emit("figure", f"{st.name(s)} reveals {st.t.figures[fig]['name']}",
                    {"seat": s, "figure": fig})
        st.g["secret"] = {}
        st.g["step"] = "turn-start"


registry.step("pick-city", city_decisions, city_apply, city_settle)
registry.step("pick-league", league_decisions, league_apply, league_settle)
registry.step("pick-admin", admin_decisions, admin_apply)
registry.step("pick-figure", figure_decisions, figure_apply)
