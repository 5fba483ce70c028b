"""Choices that interrupt a turn: Prestige bonuses, the Trapezites' exchange,
Civil Strife's loss."""

from __future__ import annotations

from typing import Any

from . import registry
from .development import build, production_blocked
from .economy import give_token, may_produce, token_cost
from .payment import buildable, start_payment
from .position import Position
from .resources import feasible, gain


def exchange_legal(st: Position, item: dict[str, Any]) -> list[str]:
    res = st.player(item["seat"])["res"]
    out = [f"trade {a} {b}" for a in st.t.resources if res[a] > 0
           for b in st.t.resources if b != a]
    return out + ["done"]


def exchange_apply(st: Position, item: dict[str, Any], action: str) -> None:
    if action == "done":
        st.g["queue"].pop(0)
        return
    _, give, take = action.split()
    res = st.player(item["seat"])["res"]
    res[give] -= 1
    gain(st, item["seat"], {take: 1})
    st.emit("exchange", f"{st.name(item['seat'])} exchanges 1 {give} for 1 {take}",
            {"seat": item["seat"], "give": give, "take": take})
    item["left"] -= 1
    if item["left"] <= 0:
        st.g["queue"].pop(0)


registry.interrupt("exchange", lambda st, item: f"Exchange resources ({item['left']} left)",
                   exchange_legal, exchange_apply)


def bonus_build_legal(st: Position, item: dict[str, Any]) -> list[str]:
    discount = item["spec"]["discount"]
    return [f"build {b}" for b in buildable(st, item["seat"], discount)] + ["forfeit"]


def bonus_build_apply(st: Position, item: dict[str, Any], action: str) -> None:
    st.g["queue"].pop(0)
    if action == "forfeit":
        st.emit("forfeit", f"{st.name(item['seat'])} forgoes the bonus building", {})
        return
    build(st, item["seat"], action.split()[1:], discount=item["spec"]["discount"])


def free_token_legal(st: Position, item: dict[str, Any]) -> list[str]:
    level = item["spec"]["level"]
    return [f"take {d}" for d, spec in st.t.tokens.items()
            if spec["level"] == level and st.g["decks"][d]]


def free_token_apply(st: Position, item: dict[str, Any], action: str) -> None:
    st.g["queue"].pop(0)
    seat = item["seat"]
    give_token(st, st.league_of(seat), action.split()[1], seat, f"Prestige {item['level']}")


def bonus_produce_legal(st: Position, item: dict[str, Any]) -> list[str]:
    seat, spec = item["seat"], item["spec"]
    if production_blocked(st):
        return ["forfeit"]
    have = st.player(seat)["res"]
    out = [f"produce {d}" for d, tok in st.t.tokens.items()
           if tok["level"] == spec["level"] and may_produce(st, seat, d)
           and feasible(have, token_cost(st, seat, d), spec["discount"], 0)]
    return out + ["forfeit"]


def bonus_produce_apply(st: Position, item: dict[str, Any], action: str) -> None:
    st.g["queue"].pop(0)
    seat = item["seat"]
    if action == "forfeit":
        st.emit("forfeit", f"{st.name(seat)} forgoes the bonus token", {})
        return
    deck = action.split()[1]
    start_payment(st, {"kind": "pay", "seat": seat, "cost": token_cost(st, seat, deck),
                       "discount": item["spec"]["discount"], "surcharge": 0,
                       "then": {"produce": deck}})


def choose_legal(st: Position, item: dict[str, Any]) -> list[str]:
    return [f"gain {r}" for r in st.t.resources]


def choose_apply(st: Position, item: dict[str, Any], action: str) -> None:
    resource = action.split()[1]
    gain(st, item["seat"], {resource: 1})
    st.emit("bonus", "{} takes 1 {}", {"seat": item["seat"]}, args=(st.name(item["seat"]), resource))
    item["left"] = item.get("left", item["spec"]) - 1
    if item["left"] <= 0:
        st.g["queue"].pop(0)


def strife_legal(st: Position, item: dict[str, Any]) -> list[str]:
    res = st.player(item["seat"])["res"]
    return [f"lose {r}" for r in st.t.resources if res[r] > 0]


def strife_apply(st: Position, item: dict[str, Any], action: str) -> None:
    resource = action.split()[1]
    st.player(item["seat"])["res"][resource] -= 1
    st.emit("strife", f"{st.name(item['seat'])} loses 1 {resource}", {"seat": item["seat"]})
    item["left"] = item.get("left", item["spec"]) - 1
    if item["left"] <= 0:
        st.g["queue"].pop(0)


def level_prompt(text: str):
    return lambda st, item: f"Prestige {item.get('level', '')}: {text}"


registry.interrupt("bonus_build", level_prompt("construct a building at a discount, or forfeit"),
                   bonus_build_legal, bonus_build_apply)
registry.interrupt("free_token", level_prompt("take a free military token"),
                   free_token_legal, free_token_apply)
registry.interrupt("bonus_produce", level_prompt("produce a token at a discount, or forfeit"),
                   bonus_produce_legal, bonus_produce_apply)
registry.interrupt("choose_resources", level_prompt("choose resources"), choose_legal, choose_apply)
registry.interrupt("strife", lambda st, item: "Civil strife: choose a resource to lose",
                   strife_legal, strife_apply)
