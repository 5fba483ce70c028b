"""Recruiting a new influential figure into a free slot (Agora, Prestige 5)."""

from __future__ import annotations

from typing import Any

from . import registry
from .position import Position
from .resources import can_pay, fmt, pay


def unused_figures(st: Position, seat: str) -> list[str]:
    p = st.player(seat)
    return [f for f in st.t.city_figures(p["city"]) if f not in p["figures"]]


def offer_recruit(st: Position, seat: str, cost: dict[str, int], why: str) -> None:
    p = st.player(seat)
    if len(p["figures"]) >= st.t.start["figure_slots"] or not unused_figures(st, seat):
        st.emit("forfeit", f"{st.name(seat)} has no free figure slot: {why} gives nothing",
                {"seat": seat})
        return
    if not can_pay(p["res"], cost):
        st.emit("forfeit", f"{st.name(seat)} cannot pay {fmt(cost)}: {why} is lost", {"seat": seat})
        return
    st.push({"kind": "recruit", "seat": seat, "cost": cost, "why": why})


def recruit_legal(st: Position, item: dict[str, Any]) -> list[str]:
    out = [f"recruit {f}" for f in unused_figures(st, item["seat"])]
    return out + (["decline"] if item["cost"] else [])


def recruit_apply(st: Position, item: dict[str, Any], action: str) -> None:
    st.g["queue"].pop(0)
    seat = item["seat"]
    if action == "decline":
        st.emit("forfeit", f"{st.name(seat)} declines to recruit a figure", {"seat": seat})
        return
    figure = action.split()[1]
    p = st.player(seat)
    pay(p["res"], item["cost"])
    p["figures"].append(figure)
    p["pos"][figure] = "home"
    st.emit("recruit", f"{st.name(seat)} recruits {st.t.figures[figure]['name']} ({item['why']})",
            {"seat": seat, "figure": figure})


registry.interrupt("recruit", lambda st, item: f"Recruit a new influential figure ({item['why']})",
                   recruit_legal, recruit_apply)
