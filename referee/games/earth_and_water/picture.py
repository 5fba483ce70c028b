"""Earth & Water's map for `agon map` and replay pages (see agon.referee.pictures).

The board comes from the ruleset: each city's drawing position (x, y), port,
food and major-city owner, the roads and the pontoon bridge.  The position
reads only the public parts of a view (pieces, control, score, reserves,
card counts, the face-up discard, once-only effects): never a hand, and never
the step or the seat to act, which would tell during a reaction window that
a card is held.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine import State
from ...mapdraw import (
    Board,
    Link,
    LinkKind,
    Piece,
    PieceKind,
    Position,
    Space,
    SpaceKind,
    circle_positions,
    counted,
    seat_sides,
)
from ...ruleset_model import Ruleset
from .tables import SIDES

PREPARATION = ("buy", "build", "sd_sacrifice")
SUPPLY = ("sup_cards", "attrit")


def space_kinds() -> tuple[SpaceKind, ...]:
    blue, red = (side.colour for side in seat_sides(SIDES))
    return (SpaceKind("major-persia", "Persian major city (2 points)", "box", "#d6e6f5", blue, 15),
            SpaceKind("major-greece", "Greek major city (2 points)", "box", "#f8dfd0", red, 15),
            SpaceKind("city", "city (1 point)", "box", "#f1ead6", "#6b5a3a", 12))


def board(ruleset: Ruleset) -> Board:
    data = ruleset.data
    cities = data["cities"]
    places = circle_positions(len(cities))
    spaces = []
    for i, city in enumerate(cities):
        x, y = (city["x"], city["y"]) if "x" in city else places[i]
        food = f"food {city['amphorae']}"
        spaces.append(Space(city["name"], city["name"], x, y,
                            f"major-{city['major']}" if city.get("major") else "city",
                            f"port, {food}" if city["port"] else food))
    roads = {tuple(sorted((a, b))) for a, ends in data["roads"].items() for b in ends}
    links = [Link(a, b, "road") for a, b in sorted(roads)]
    bridge = data.get("bridge")
    if bridge:
        links.append(Link(*bridge["between"], "bridge-site"))
    return Board(
        title=ruleset.name,
        spaces=tuple(spaces),
        links=tuple(links),
        space_kinds=space_kinds(),
        link_kinds=(LinkKind("road", "road"),
                    LinkKind("bridge-site", "pontoon bridge site (road once built)", "#7d7d7d",
                             1.5, "2 5"),
                    LinkKind("bridge", "pontoon bridge, built", seat_sides(SIDES)[0].colour, 3,
                             "8 3")),
        piece_kinds=(PieceKind("army", "army", "square"), PieceKind("fleet", "fleet", "disc")),
    )


def position(ruleset: Ruleset, state: State, seats: Sequence[str]) -> Position:
    view = state.view(seats[0])
    data = ruleset.data
    out = Position(sides=seat_sides(SIDES, {s: s.capitalize() for s in SIDES}))
    for city in view["cities"]:
        for side in SIDES:
            for kind, key in (("army", "armies"), ("fleet", "fleets")):
                if city[f"{side}_{key}"]:
                    out.pieces.append(Piece(city["name"], side, kind, city[f"{side}_{key}"]))
        if city["control"]:
            out.control[city["name"]] = city["control"]
    if view["bridge"] and data.get("bridge"):
        out.links.append(Link(*data["bridge"]["between"], "bridge"))
    out.status = status(view, data, over=not state.pending())
    return out


def status(view: dict[str, Any], data: dict[str, Any], over: bool) -> list[str]:
    score = view["score"]
    lead = "even" if score == 0 else f"Persia +{score}" if score > 0 else f"Greece +{-score}"
    phase = ("game over" if over else "preparation" if view["step"] in PREPARATION
             else "supply" if view["step"] in SUPPLY else "operations")
    lines = [f"Campaign {view['campaign']} of {data['campaigns']}, {phase}",
             f"Score: {lead}",
             f"Bridge {'built' if view['bridge'] else 'not built'}"]
    if not over and phase == "operations":
        lines.append(f"{view['turn'].capitalize()}'s turn")
    for side in SIDES:
        reserve = view["reserve"][side]
        lines.append(f"{side.capitalize()}: {counted(view['hand_counts'][side], 'card')}; "
                     f"reserve {counted(reserve['armies'], 'army', 'armies')}, "
                     f"{counted(reserve['fleets'], 'fleet')}")
    lines.append(f"Draw pile {view['deck_count']}, discard pile {view['discard_count']}"
                 + (f" (card {view['discard_top']} on top)" if view["discard_top"] else ""))
    dead = [name for name, key in (("Darius", "darius_dead"), ("Xerxes", "xerxes_dead"))
            if view[key]]
    if dead:
        lines.append(f"Dead kings: {', '.join(dead)}")
    if view["used"]:   # leaders and Artemisia, on their portraits for good (6.2)
        lines.append(f"Used once: {', '.join(name.capitalize() for name in view['used'])}")
    if view["carneia"]:
        lines.append("Carneia: Sparta's cards are blocked")
    if view["acropolis"]:
        lines.append("The Acropolis burnt")
    return lines
