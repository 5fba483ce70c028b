"""Epireia's map of Greece for `agon map` and replay pages (see agon.referee.pictures).

The board comes from the ruleset: the Greek cities, the land and maritime
Territories with their taxes and the Empires with their negotiation targets,
each at its drawing position (x, y).  Figures go anywhere, so the map has no
roads.  The position reads only what the rules show everyone: where the
figures stand, who holds each Territory and city, brigands, treasuries,
Prestige and resources, the act card and the Augur; never a league's token
powers or a starting figure still being chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine import State
from ...mapdraw import (
    SEAT_COLOURS,
    Board,
    Marker,
    Piece,
    PieceKind,
    Position,
    Side,
    Space,
    SpaceKind,
    circle_positions,
    counted,
    seat_sides,
)
from ...ruleset_model import Ruleset

ENEMY = "enemy"


def amounts(goods: dict[str, int]) -> str:
    """{'wood': 2, 'wheat': 1} -> '2 wood, 1 wheat'."""
    return ", ".join(f"{n} {what}" for what, n in goods.items())


def board(ruleset: Ruleset) -> Board:
    data = ruleset.data
    places = [*(("city", c) for c in data["cities"]),
              *(("territory", t) for t in data["territories"]),
              *(("empire", e) for e in data["empires"])]
    fallback = circle_positions(len(places))
    spaces = []
    for i, (what, place) in enumerate(places):
        x, y = (place["x"], place["y"]) if "x" in place else fallback[i]
        if what == "city":
            kind, note = "city", f"integrate on {place['integration']['target']}+"
        elif what == "territory":
            kind = "sea-territory" if place["maritime"] else "territory"
            note = f"tax {amounts(place['tax'])}"
        else:
            kind = "sea-empire" if place["sea"] else "empire"
            alone, shared = place["targets"]
            note = f"{alone}+ alone, {shared}+ shared"
        spaces.append(Space(place["id"], place["name"], x, y, kind, note))
    return Board(
        title=ruleset.name,
        spaces=tuple(spaces),
        space_kinds=(
            SpaceKind("city", "Greek city", "box", "#fbf3df", "#3b2f1e", 14),
            SpaceKind("territory", "land Territory", "circle", "#e7e29a", "#6b5a3a", 13),
            SpaceKind("sea-territory", "maritime Territory (figures with sea only)", "circle",
                      "#b9d6ec", "#4f86b5", 13),
            SpaceKind("empire", "Empire", "hexagon", "#e8d3e8", "#6b4a6b", 17),
            SpaceKind("sea-empire", "Empire by sea (figures with sea only)", "hexagon",
                      "#cfd8f0", "#4a5a8b", 17)),
        piece_kinds=(PieceKind("figure", "influential figure (names on hover)", "pawn"),),
    )


def sides(view: dict[str, Any], seats: Sequence[str]) -> list[Side]:
    labels = {}
    for seat in seats:
        player = view["players"][seat]
        city = (player["city"] or "no city yet").capitalize()
        labels[seat] = f"{seat} {city}" + (f" ({player['league']})" if player["league"] else "")
    out = seat_sides(seats, labels)
    if view.get("enemy"):
        enemy = view["enemy"]
        cities = ", ".join(c.capitalize() for c in enemy["cities"])
        out.append(Side(ENEMY, f"enemy: {cities} ({enemy['league']})",
                        SEAT_COLOURS[len(seats) % len(SEAT_COLOURS)]))
    return out


def position(ruleset: Ruleset, state: State, seats: Sequence[str]) -> Position:
    view = state.view(seats[0])
    data = ruleset.data
    figure_names = {f["id"]: f["name"] for f in data["figures"]}
    figure_city = {f["id"]: f["city"] for f in data["figures"]}
    out = Position(sides=sides(view, seats))
    standing: dict[tuple[str, str], list[str]] = {}
    for seat in seats:
        player = view["players"][seat]
        if player["city"]:
            out.control[player["city"]] = seat
        for figure in player["figures"]:
            place = player["positions"].get(figure, "home")
            place = player["city"] if place == "home" else place
            if place:
                standing.setdefault((place, seat), []).append(figure_names.get(figure, figure))
    if view.get("enemy"):
        for figure, place in view["enemy"]["positions"].items():
            place = figure_city.get(figure) if place == "home" else place
            if place:
                standing.setdefault((place, ENEMY), []).append(figure_names.get(figure, figure))
        for city in view["enemy"]["cities"]:
            out.control[city] = ENEMY
    for (place, side), names in standing.items():
        out.pieces.append(Piece(place, side, "figure", len(names), ", ".join(names)))
    for territory, spot in view["territories"].items():
        if spot["owner"]:
            out.control[territory] = spot["owner"]
        if spot["brigand"]:
            out.markers.append(Marker(territory, "brigands"))
    for city, held in view["integrated"].items():
        out.markers.append(Marker(city, f"{held['league']} league"))
    out.status = status(view, data)
    return out


def status(view: dict[str, Any], data: dict[str, Any]) -> list[str]:
    lines = [f"Turn {view['turn']}, {view['step'].replace('-', ' ')}"]
    if view["scenario"]:
        act = view["scenario"]
        done = f" (met by the {act['winner']} league)" if act["done"] else ""
        lines.append(f"Act {act['act']}: {act['name']}{done}")
    if view.get("solo"):
        solo = view["solo"]
        augurs = {a["number"]: a["name"] for a in data.get("solo", {}).get("augurs", [])}
        augur = (f"Augur {solo['augur']} {augurs.get(solo['augur'], '')}".rstrip()
                 if solo["augur"] else "no Augur card")
        lines.append(f"Solo {solo['scenario']}: {augur}; {solo['augurs_left']} turns left")
    for name, league in view["leagues"].items():
        if league["seats"]:
            lines.append(f"{name} league ({', '.join(league['seats'])}): treasury "
                         f"{amounts(league['treasury']) or 'empty'}; "
                         f"{counted(len(league['reserve']), 'military token')}")
    for seat, player in view["players"].items():
        lines.append(f"{seat}: Prestige {player['prestige']}; "
                     f"{amounts(player['resources']) or 'no resources'}; "
                     f"{counted(len(player['buildings']), 'building')}")
    if view["battle"]:
        fronts = ", ".join(f"{front} {winner or 'drawn'}"
                           for front, winner in view["battle"]["fronts"].items())
        lines.append(f"Great battle: {fronts or 'begun'}")
    return lines
