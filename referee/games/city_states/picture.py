"""City States' map for `agon map` and replay pages (see agon.referee.pictures).

The board comes from the ruleset's map: every space at its drawing position
(x, y), coloured by terrain, cities as squares, and its land borders, sea
lanes and coasts.  The position reads only the public parts of a view:
stacks, cities and their markers, leaders, gold, card counts, the battle
being fought; never a hand or a spied hand, and never the step or the seat to
act, which would tell during a reaction window that a card is held.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine import State
from ...mapdraw import (
    Board,
    Link,
    LinkKind,
    Marker,
    Piece,
    PieceKind,
    Position,
    Space,
    SpaceKind,
    counted,
    seat_sides,
)
from ...ruleset_model import Ruleset

# Fill colours by terrain id; a terrain a ruleset adds gets FALLBACK.
TERRAIN_FILL = {"clear": "#f3ecd2", "farms": "#e7e29a", "fishing-village": "#cfe3d6",
                "mountainous": "#a89b8c", "mountain-pass": "#c9b9a6", "forest": "#8fb98b",
                "swamp": "#a7c4a0", "hills": "#d8c08e", "sandy-coast": "#f2dfae",
                "rocky-coast": "#cdbfae"}
FALLBACK = "#e6e0d0"
UNITS = (("armies", "army", "square"), ("rowers", "rowers", "triangle"),
         ("fleets", "fleet", "disc"), ("transports", "transport", "diamond"),
         ("baggage", "baggage", "bar"))
PHASES = {"setup": "setup", "draw": "1 draw", "revenue": "2 revenue", "upkeep": "3 upkeep",
          "recruit": "4 recruit", "diplomacy": "5 diplomacy", "first_move": "6 first move",
          "sea_battle": "7 sea battle", "land_battle": "8 land battle",
          "second_move": "9 second move", "over": "game over"}


def kind_of(space: dict[str, Any], terrain: dict[str, Any]) -> str:
    if space.get("city"):
        return f"city-{space['city']}"
    if terrain.get(space["terrain"], {}).get("sea"):
        return "sea"
    return space["terrain"]


def space_kinds(spaces: list[dict[str, Any]], terrain: dict[str, Any]) -> tuple[SpaceKind, ...]:
    used = {kind_of(space, terrain) for space in spaces}
    kinds = [SpaceKind("sea", "sea zone", "circle", "#b9d6ec", "#5b8fb9", 15),
             SpaceKind("city-named", "named city", "box", "#fbf3df", "#3b2f1e", 9),
             SpaceKind("city-minor", "minor city", "box", "#fbf3df", "#6b5a3a", 7)]
    for key, spec in terrain.items():
        if key in used and key != "city" and not spec.get("sea"):
            kinds.append(SpaceKind(key, spec.get("name", key).lower(), "circle",
                                   TERRAIN_FILL.get(key, FALLBACK), "#6b5a3a", 7))
    return tuple(kind for kind in kinds if kind.id in used)


def board(ruleset: Ruleset) -> Board:
    spaces = ruleset.data["map"]["spaces"]
    terrain = ruleset.data.get("terrain", {})
    sea = {s["id"] for s in spaces if kind_of(s, terrain) == "sea"}
    known = {s["id"] for s in spaces}
    pairs: dict[tuple[str, str], str] = {}
    for space in spaces:
        for other in space.get("land", []) + space.get("sea", []):
            if other not in known or other == space["id"]:
                continue
            ends = tuple(sorted((space["id"], other)))
            inside = (space["id"] in sea) + (other in sea)
            pairs[ends] = ("sea-lane", "coast", "border")[2 - inside]
    links = [Link(a, b, kind) for (a, b), kind in sorted(pairs.items())]
    return Board(
        title=ruleset.name,
        spaces=tuple(Space(s["id"], s["name"], s["x"], s["y"], kind_of(s, terrain))
                     for s in spaces),
        links=tuple(links),
        space_kinds=space_kinds(spaces, terrain),
        link_kinds=(LinkKind("border", "land border", "#8a6d3b", 1.5),
                    LinkKind("coast", "coast (land to sea)", "#7fa7c9", 1, "2 3"),
                    LinkKind("sea-lane", "sea lane", "#4f86b5", 2, "7 4")),
        scale=1.5,   # the ruleset's positions are close together around Attica
        piece_kinds=(*(PieceKind(kind, kind, shape) for _key, kind, shape in UNITS),
                     PieceKind("leader", "leader (names on hover)", "pawn")),
    )


def position(ruleset: Ruleset, state: State, seats: Sequence[str]) -> Position:
    view = state.view(seats[0])
    out = Position(sides=seat_sides(seats))
    for stack in view["spaces"]:
        for key, kind, _shape in UNITS:
            if stack[key]:
                out.pieces.append(Piece(stack["id"], stack["player"], kind, stack[key]))
        if stack["starvation"]:
            out.markers.append(Marker(stack["id"], f"starving {stack['starvation']}",
                                      stack["player"]))
    leaders: dict[tuple[str, str], list[str]] = {}
    for leader in view["leaders"]:
        if leader["state"] == "free" and leader["space"]:
            leaders.setdefault((leader["space"], leader["player"]), []).append(leader["name"])
    for (space, player), names in sorted(leaders.items()):
        out.pieces.append(Piece(space, player, "leader", len(names), ", ".join(names)))
    for city in view["cities"]:
        if city["owner"]:
            out.control[city["id"]] = city["owner"]
        for flag, text in (("hostile", "hostile"), ("besieged", "besieged"),
                           ("no_income", "no income")):
            if city[flag]:
                out.markers.append(Marker(city["id"], text))
        if city["razed"]:
            out.markers.append(Marker(city["id"], f"razed {city['razed']}"))
    if view.get("battle"):
        battle = view["battle"]
        out.markers.append(Marker(battle["space"], "battle"))
    out.status = status(view)
    return out


def status(view: dict[str, Any]) -> list[str]:
    lines = [f"Turn {view['turn']} of {view['turns']}, phase "
             f"{PHASES.get(view['phase'], view['phase'])}"]
    if view["phase"] != "over":
        lines.append(f"{view['active']} is the active player; order "
                     f"{', '.join(view['order'])}")
    held: dict[str, int] = {}
    for city in view["cities"]:
        if city["owner"]:
            held[city["owner"]] = held.get(city["owner"], 0) + 1
    for seat, player in view["players"].items():
        notes = [f"{player['gold']} gold", counted(held.get(seat, 0), "city", "cities"),
                 counted(player["cards"], "card")]
        if player["home"]:
            notes.append(f"home {player['home']}" + ("" if player["holds_home"] else " (lost)"))
        if player["out"]:
            notes.append("out of the game")
        lines.append(f"{seat}: {', '.join(notes)}")
    off = [f"{ld['name']} ({ld['player']}, {ld['state']})" for ld in view["leaders"]
           if ld["state"] in ("exiled", "captive")]
    if off:
        lines.append(f"Leaders off the map: {', '.join(off)}")
    if view["truce"]:
        lines.append(f"Truce by {view['truce']['player']}")
    if view.get("battle"):
        b = view["battle"]
        lines.append(f"Battle at {b['space']}: {b['attacker']} attacks {b['defender']}")
    return lines
