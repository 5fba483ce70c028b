"""Semantic checks of an Epireia ruleset's data, beyond its JSON Schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Problem

FIGURE_ABILITIES = {"territory_attack", "battle_bonus", "on_take", "integration_bonus",
                    "token_discount", "brigand_attack", "reroll", "empire_bonus", "collection",
                    "wins_ties", "donate_prestige", "prestige_on_take"}
ADMIN_ABILITIES = {"free_token", "extra_actions", "prestige", "exchange", "gain",
                   "free_build_discount"}


def unique(items: list[dict[str, Any]], path: str, key: str = "id") -> Iterator[Problem]:
    seen = set()
    for i, item in enumerate(items):
        if item[key] in seen:
            yield Problem((path, i, key), f"duplicate {key} {item[key]!r}")
        seen.add(item[key])


def amounts(values: dict[str, Any], resources: set[str], path: tuple,
            extra: frozenset[str] = frozenset()) -> Iterator[Problem]:
    for key, n in values.items():
        if key not in resources and key not in extra:
            yield Problem(path + (key,), f"unknown resource {key!r}")
        elif isinstance(n, int) and n < 0:
            yield Problem(path + (key,), "amounts may not be negative")


def problems(data: dict[str, Any]) -> Iterator[Problem]:
    resources = set(data["resources"])
    leagues = set(data["leagues"])
    cities = {c["id"] for c in data["cities"]}
    decks = {t["id"]: t for t in data["tokens"]}
    buildings = {b["id"] for b in data["buildings"]}
    territories = {t["id"] for t in data["territories"]}
    empires = {e["id"] for e in data["empires"]}
    kinds = {t["type"] for t in data["tokens"]}
    for name in ("cities", "buildings", "figures", "tokens", "empires", "territories", "administrators"):
        yield from unique(data[name], name)
    if sorted(data["city_order"]) != sorted(cities):
        yield Problem(("city_order",), "must list every city exactly once")
    for n, seating in data["seating"].items():
        if len(seating) != int(n) or not set(seating) <= leagues:
            yield Problem(("seating", n), f"needs {n} league names from {sorted(leagues)}")
    for key in ("development_order", "diplomacy_order", "empire_roll_order"):
        if sorted(data[key]) != sorted(leagues):
            yield Problem((key,), "must list both leagues")
    for i, city in enumerate(data["cities"]):
        if city.get("league") and city["league"] not in leagues:
            yield Problem(("cities", i, "league"), f"unknown league {city['league']!r}")
        if city["integration"]["token"] not in decks:
            yield Problem(("cities", i, "integration", "token"), "unknown token deck")
        if not any(f["city"] == city["id"] for f in data["figures"]):
            yield Problem(("cities", i), f"city {city['id']} has no influential figures")
    for i, fig in enumerate(data["figures"]):
        if fig["city"] not in cities:
            yield Problem(("figures", i, "city"), f"unknown city {fig['city']!r}")
        for key in fig.get("ability", {}):
            if key not in FIGURE_ABILITIES:
                yield Problem(("figures", i, "ability", key), f"unknown figure ability {key!r}")
        discount = fig.get("ability", {}).get("token_discount")
        if discount and discount["type"] not in kinds:
            yield Problem(("figures", i, "ability", "token_discount"), "unknown token type")
    for i, admin in enumerate(data["administrators"]):
        if len(admin["ability"]) != 1 or not set(admin["ability"]) <= ADMIN_ABILITIES:
            yield Problem(("administrators", i, "ability"), f"one of {sorted(ADMIN_ABILITIES)}")
    for i, b in enumerate(data["buildings"]):
        yield from amounts(b["cost"], resources, ("buildings", i, "cost"))
        if b["effect"].get("unlocks") and b["effect"]["unlocks"] not in decks:
            yield Problem(("buildings", i, "effect", "unlocks"), "unknown token deck")
    for i, t in enumerate(data["tokens"]):
        yield from amounts(t["cost"], resources, ("tokens", i, "cost"))
        if t.get("needs") and t["needs"] not in buildings:
            yield Problem(("tokens", i, "needs"), f"unknown building {t['needs']!r}")
    for i, front in enumerate(data["battlefield"]["fronts"]):
        for r, row in enumerate(front["rows"]):
            for kind in row:
                if kind not in kinds:
                    yield Problem(("battlefield", "fronts", i, "rows", r), f"unknown token type {kind!r}")
    fronts = {f["id"] for f in data["battlefield"]["fronts"]}
    if data["battlefield"]["tiebreak_front"] not in fronts:
        yield Problem(("battlefield", "tiebreak_front"), "unknown front")
    if data["battlefield"]["tiebreak_resource"] not in resources:
        yield Problem(("battlefield", "tiebreak_resource"), "unknown resource")
    for i, city in enumerate(data["cities"]):
        yield from amounts(city["integration"]["gain"], resources, ("cities", i, "integration", "gain"))
    for i, e in enumerate(data["empires"]):
        yield from amounts(e["reward"], resources, ("empires", i, "reward"), frozenset({"prestige", "token"}))
        if e["reward"].get("token") and e["reward"]["token"] not in decks:
            yield Problem(("empires", i, "reward", "token"), "unknown token deck")
        if len(e["targets"]) != 2:
            yield Problem(("empires", i, "targets"), "needs the 1-figure and 2-figure numbers")
    for i, t in enumerate(data["territories"]):
        yield from amounts(t["tax"], resources, ("territories", i, "tax"))
    top = data["prestige_track"]["max"]
    for i, bonus in enumerate(data["prestige_track"]["bonuses"]):
        if not 0 < bonus["level"] <= top:
            yield Problem(("prestige_track", "bonuses", i, "level"), f"must be within 1..{top}")
    for i, s in enumerate(data["scenarios"]):
        if s["reward"] not in decks:
            yield Problem(("scenarios", i, "reward"), "unknown token deck")
        for t in s.get("constraint", {}).get("brigands", []):
            if t not in territories:
                yield Problem(("scenarios", i, "constraint", "brigands"), f"unknown territory {t!r}")
    for act in (1, 2, 3):
        if not any(s["act"] == act for s in data["scenarios"]):
            yield Problem(("scenarios",), f"act {act} has no scenario card")
    yield from solo_problems(data, decks, cities, territories | empires, fronts)


def solo_problems(data: dict[str, Any], decks: dict, cities: set[str], places: set[str],
                  fronts: set[str]) -> Iterator[Problem]:
    solo = data.get("solo")
    if not solo:
        return
    if len(solo["d12"]) != data["die"]:
        yield Problem(("solo", "d12"), f"needs one entry per face of the d{data['die']}")
    for j, place in enumerate(solo["d12"]):
        if place not in places:
            yield Problem(("solo", "d12", j), f"unknown empire or territory {place!r}")
    for city, figure in solo["enemy_figures"].items():
        if city not in cities or not any(f["id"] == figure for f in data["figures"]):
            yield Problem(("solo", "enemy_figures", city), "unknown city or figure")
    columns = data["battlefield"]["columns"]
    for i, s in enumerate(solo["scenarios"]):
        for front, rows in s["army"].items():
            if front not in fronts:
                yield Problem(("solo", "scenarios", i, "army", front), "unknown front")
            for r, row in enumerate(rows):
                if len(row) != columns or not set(row) <= set(decks):
                    yield Problem(("solo", "scenarios", i, "army", front, r),
                                  f"needs {columns} token decks")
    numbers = [a["number"] for a in solo["augurs"]]
    if len(set(numbers)) != len(numbers):
        yield Problem(("solo", "augurs"), "augur numbers must be unique")
    for i, s in enumerate(solo["scenarios"]):
        if s["turns"] > len(numbers):
            yield Problem(("solo", "scenarios", i, "turns"), "more turns than augur cards")
