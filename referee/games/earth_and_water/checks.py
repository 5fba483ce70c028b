"""Semantic checks of an earth-and-water ruleset's `data` beyond its schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Problem
from .tables import EFFECTS, SIDES


def check_data(data: dict[str, Any]) -> Iterator[Problem]:
    """Yield every problem found (never stop at the first)."""
    cities = data.get("cities") or []
    names = [c.get("name") for c in cities]
    known = set(names)
    yield from _check_cities(cities, names)
    yield from _check_roads(data, known)
    yield from _check_bridge(data, known, cities)
    yield from _check_costs(data)
    yield from _check_setup(data, known, cities)
    yield from _check_cards(data, known)
    if data.get("automaton"):
        yield from _check_automaton(data["automaton"], known)


def _check_cities(cities: list[dict[str, Any]], names: list[str]) -> Iterator[Problem]:
    seen: set[str] = set()
    for i, city in enumerate(cities):
        if city.get("name") in seen:
            yield Problem(("cities", i, "name"), f"city {city.get('name')!r} appears twice")
        seen.add(city.get("name"))
        for key in ("amphorae", "value"):
            if int(city.get(key, 0)) < 0:
                yield Problem(("cities", i, key), f"{key} must not be negative")
    for side in SIDES:
        majors = [c for c in cities if c.get("major") == side]
        if not majors:
            yield Problem(("cities",), f"{side} has no major city")
        elif not any(c.get("port") for c in majors):
            yield Problem(("cities",), f"no major city of {side} has a port (sea supply needs one)")


def _check_roads(data: dict[str, Any], known: set[str]) -> Iterator[Problem]:
    roads = data.get("roads") or {}
    for city, ends in roads.items():
        if city not in known:
            yield Problem(("roads", city), f"road from unknown city {city!r}")
        for j, other in enumerate(ends):
            if other not in known:
                yield Problem(("roads", city, j), f"road to unknown city {other!r}")
            elif other == city:
                yield Problem(("roads", city, j), f"road from {city} to itself")
            elif city not in roads.get(other, []):
                yield Problem(("roads", city, j), f"road {city}-{other} is not listed back "
                              f"under {other} (roads must be symmetric)")


def _check_bridge(data: dict[str, Any], known: set[str], cities: list[dict]) -> Iterator[Problem]:
    bridge = data.get("bridge") or {}
    ends = bridge.get("between") or []
    for j, end in enumerate(ends):
        if end not in known:
            yield Problem(("bridge", "between", j), f"bridge end {end!r} is not a city")
    if len(ends) == 2 and all(e in known for e in ends):
        a, b = ends
        if a == b:
            yield Problem(("bridge", "between"), "the bridge must join two different cities")
        if b in (data.get("roads") or {}).get(a, []):
            yield Problem(("bridge", "between"), f"{a} and {b} already have a road; the bridge "
                          "road must exist only while the bridge stands")
        majors = {c["name"]: c.get("major") for c in cities}
        if majors.get(a) != "persia":
            yield Problem(("bridge", "between", 0), "the first bridge end must be a Persian "
                          "major city (it decides who may build)")
    if int(bridge.get("cost", 0)) < 0:
        yield Problem(("bridge", "cost"), "cost must not be negative")


def _check_costs(data: dict[str, Any]) -> Iterator[Problem]:
    for side, costs in (data.get("preparation") or {}).items():
        for key, value in costs.items():
            if isinstance(value, int) and value < 0:
                yield Problem(("preparation", side, key), f"{key} must not be negative")
    for side, pieces in (data.get("pieces") or {}).items():
        for key, value in pieces.items():
            if int(value) < 1:
                yield Problem(("pieces", side, key), f"{side} needs at least one of its {key}")


def _check_setup(data: dict[str, Any], known: set[str], cities: list[dict]) -> Iterator[Problem]:
    setup = data.get("setup") or {}
    campaigns, limit = data.get("campaigns"), data.get("score_limit")
    if isinstance(campaigns, int) and int(setup.get("campaign", 1)) > campaigns:
        yield Problem(("setup", "campaign"), f"the game starts in campaign "
                      f"{setup['campaign']} but lasts {campaigns}")
    if isinstance(limit, int) and abs(int(setup.get("score", 0))) > limit:
        yield Problem(("setup", "score"), f"score {setup['score']} is off the score track, "
                      f"which runs from Greece +{limit} to Persia +{limit}")
    ports = {c["name"] for c in cities if c.get("port")}
    pieces = data.get("pieces") or {}
    for side in SIDES:
        placed = setup.get(side) or {}
        for kind in ("armies", "fleets"):
            total = 0
            for city, count in (placed.get(kind) or {}).items():
                total += int(count)
                if city not in known:
                    yield Problem(("setup", side, kind, city), f"unknown city {city!r}")
                elif kind == "fleets" and city not in ports:
                    yield Problem(("setup", side, kind, city), f"{city} has no port")
            most = int((pieces.get(side) or {}).get(kind, 0))
            if total > most:
                yield Problem(("setup", side, kind), f"{total} {kind} set up but {side} has "
                              f"only {most}")


def _check_cards(data: dict[str, Any], known: set[str]) -> Iterator[Problem]:
    cards = data.get("cards") or []
    numbers = [c.get("number") for c in cards]
    for i, num in enumerate(numbers):
        if numbers.index(num) != i:
            yield Problem(("cards", i, "number"), f"card number {num} appears twice")
    if sorted(n for n in numbers if isinstance(n, int)) != list(range(1, len(cards) + 1)):
        yield Problem(("cards",), f"card numbers must run 1..{len(cards)} without gaps")
    for i, card in enumerate(cards):
        for side in SIDES:
            half = card.get(side) or {}
            effect = half.get("effect", "none")
            if effect not in EFFECTS:
                yield Problem(("cards", i, side, "effect"), f"unknown effect {effect!r}")
            city = (half.get("params") or {}).get("city")
            if city is not None and city not in known:
                yield Problem(("cards", i, side, "params", "city"), f"unknown city {city!r}")
    effects = [(c.get("persia") or {}).get("effect") for c in cards]
    if "sudden_death" in effects and effects.count("sudden_death") > 1:
        yield Problem(("cards",), "only one card may carry sudden_death")


def _check_automaton(spec: dict[str, Any], known: set[str]) -> Iterator[Problem]:
    """The automaton's rules are PERS.IA's, and every city its lists name must exist."""
    if spec.get("side", "persia") != "persia":
        yield Problem(("automaton", "side"), f"the automaton's rules (PERS.IA) play persia "
                      f"only, not {spec['side']}")
    places: list[tuple[tuple, Any]] = []
    for key, value in (spec.get("orders") or {}).items():
        places.append((("automaton", "orders", key), value))
    for key, value in (spec.get("preparation") or {}).items():
        if isinstance(value, dict):
            if "army_cycle" in value:
                places.append((("automaton", "preparation", key, "army_cycle"), value["army_cycle"]))
            if "armies_to" in value:
                places.append((("automaton", "preparation", key, "armies_to"), [value["armies_to"]]))
    move = spec.get("move") or {}
    places.append((("automaton", "move", "prefer"), move.get("prefer", [])))
    places.append((("automaton", "move", "nearer_to"), [move.get("nearer_to")]))
    for path, cities in places:
        for j, city in enumerate(cities or []):
            if city not in known:
                yield Problem((*path, j), f"unknown city {city!r}")


def check_players(players: dict[str, Any], data: dict[str, Any]) -> Iterator[Problem]:
    """The seats are the sides, and a side without a seat is played by the automaton."""
    seats = players.get("seats")
    if not seats:
        yield Problem(("players", "seats"), f"name the seats: {', '.join(SIDES)} (or one of "
                                            "them, with an automaton)")
        return
    for i, seat in enumerate(seats):
        if seat not in SIDES:
            yield Problem(("players", "seats", i), f"{seat!r} is not a side ({', '.join(SIDES)})")
    if not players["min"] == players["max"] == len(seats):
        yield Problem(("players",), f"min and max must both be {len(seats)}, the number of "
                                    "seats")
    automaton = data.get("automaton")
    if len(set(seats)) < len(SIDES) and not automaton:
        yield Problem(("players", "seats"), "a side without a seat needs data.automaton "
                                            "to play it")
    # With both sides seated too: the automaton's side would have a seat never asked.
    if automaton and automaton.get("side", "persia") in seats:
        yield Problem(("players", "seats"), f"the automaton plays "
                                            f"{automaton.get('side', 'persia')}, which "
                                            "also has a seat")
