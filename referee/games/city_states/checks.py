"""Semantic checks of a city-states ruleset's `data`: the mistakes a map editor makes.

Each check yields a `Problem` at the JSON path of the bad value, so `agon
validate` can point at its file and line.  Nothing here stops at the first error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Problem
from .tables import CARD_EFFECTS, CARD_NEEDS, FACES, TRAIT_EFFECTS, TRAIT_NEEDS

SPACES = ("map", "spaces")


def check_data(data: dict[str, Any]) -> Iterator[Problem]:
    spaces = data["map"]["spaces"]
    terrain = data["terrain"]
    yield from _check_terrain(terrain)
    index: dict[str, int] = {}
    for i, space in enumerate(spaces):
        if space["id"] in index:
            yield Problem((*SPACES, i, "id"), f"space id {space['id']!r} is used twice")
        else:
            index[space["id"]] = i
    yield from _check_spaces(spaces, terrain, index)
    sea = [bool(terrain.get(s["terrain"], {}).get("sea")) for s in spaces]
    yield from _check_adjacency(spaces, index, sea)
    yield from _check_connected(spaces, terrain, index, sea)
    yield from _check_named_cities(spaces, index)
    yield from _check_tables(data)
    yield from _check_effects(data)
    yield from _check_cards(data)
    names = data["leader_names"]
    for i, name in enumerate(names):
        if names.index(name) != i:
            yield Problem(("leader_names", i), f"leader name {name!r} is used twice")


def _check_terrain(terrain: dict[str, Any]) -> Iterator[Problem]:
    for key, kind in terrain.items():
        if kind.get("sea") and (kind.get("impassable") or kind.get("ships")):
            yield Problem(("terrain", key), "a sea terrain is neither impassable nor a landing "
                          "place: ships always enter it")
        if kind.get("impassable") and kind.get("ships"):
            yield Problem(("terrain", key, "ships"), "ships cannot land on impassable terrain")
        if not kind.get("impassable") and kind.get("move", 0) < 1:
            yield Problem(("terrain", key, "move"), "a passable terrain costs at least 1 to enter")
    if not any(k.get("sea") for k in terrain.values()):
        yield Problem(("terrain",), "no terrain is marked sea: true")


def _check_spaces(spaces: list[dict[str, Any]], terrain: dict[str, Any],
                  index: dict[str, int]) -> Iterator[Problem]:
    for i, space in enumerate(spaces):
        kind = terrain.get(space["terrain"])
        if kind is None:
            yield Problem((*SPACES, i, "terrain"), f"unknown terrain {space['terrain']!r} "
                          f"(known: {', '.join(terrain)})")
            continue
        if "city" in space and (kind.get("sea") or kind.get("impassable") or not kind.get("ships")):
            yield Problem((*SPACES, i, "city"), f"{space['id']} is a city on {space['terrain']} "
                          "terrain: cities stand on a terrain ships may dock at")
        if "city" in space and "income" not in space:
            yield Problem((*SPACES, i), f"city {space['id']} has no printed income "
                          "(needed by the option incomes=printed)")
        # ships only where they may enter: a landing place must touch a sea zone
        if kind.get("ships") and "city" not in space and not space["sea"]:
            yield Problem((*SPACES, i, "terrain"), f"{space['id']} is {space['terrain']}, where "
                          "ships land, but touches no sea zone")


def _check_adjacency(spaces: list[dict[str, Any]], index: dict[str, int],
                     sea: list[bool]) -> Iterator[Problem]:
    for i, space in enumerate(spaces):
        me = space["id"]
        for key, want_sea in (("sea", True), ("land", False)):
            seen: set[str] = set()
            for j, other in enumerate(space[key]):
                path = (*SPACES, i, key, j)
                if other in seen:
                    yield Problem(path, f"{other!r} is listed twice")
                    continue
                seen.add(other)
                k = index.get(other)
                if k is None:
                    yield Problem(path, f"unknown space {other!r}")
                elif k == i:
                    yield Problem(path, f"{me} lists itself")
                elif sea[k] != want_sea:
                    kind = "sea zone" if sea[k] else "land space"
                    yield Problem(path, f"{other} is a {kind}; list it under "
                                  f"{'sea' if sea[k] else 'land'}")
                else:
                    back = "sea" if sea[i] else "land"
                    if me not in spaces[k][back]:
                        yield Problem(path, f"{me} borders {other} but {other} does not list "
                                      f"{me} under {back} (adjacency must be symmetric)")


def _components(nodes: list[int], neighbours) -> list[list[int]]:
    """Connected components of `nodes` under `neighbours(node)` (restricted to nodes)."""
    inside = set(nodes)
    seen: set[int] = set()
    out = []
    for start in nodes:
        if start in seen:
            continue
        part, todo = [], [start]
        seen.add(start)
        while todo:
            node = todo.pop()
            part.append(node)
            for nxt in neighbours(node):
                if nxt in inside and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out.append(sorted(part))
    return out


def _check_connected(spaces: list[dict[str, Any]], terrain: dict[str, Any],
                     index: dict[str, int], sea: list[bool]) -> Iterator[Problem]:
    def land_of(i: int) -> list[int]:
        return [index[x] for x in spaces[i]["land"] if x in index]

    def sea_of(i: int) -> list[int]:
        return [index[x] for x in spaces[i]["sea"] if x in index]

    impassable = [bool(terrain.get(s["terrain"], {}).get("impassable")) for s in spaces]
    land = [i for i in range(len(spaces)) if not sea[i]]
    for i in land:
        if not spaces[i]["land"] and not spaces[i]["sea"]:
            yield Problem((*SPACES, i), f"{spaces[i]['id']} is isolated: it borders no space")
        elif not impassable[i] and not spaces[i]["sea"] and all(impassable[k] for k in land_of(i)):
            yield Problem((*SPACES, i), f"{spaces[i]['id']} can be neither entered nor left: "
                          "every neighbour is impassable and it touches no sea")
    for mass in _components(land, land_of):
        passable = [i for i in mass if not impassable[i]]
        parts = _components(passable, land_of)
        if len(parts) > 1:
            cut = ", ".join(spaces[i]["id"] for i in parts[1])
            yield Problem((*SPACES, parts[1][0]), f"the land mass of {spaces[parts[0][0]]['id']} "
                          f"is cut in two by impassable spaces ({cut} cannot be reached by land)")
    zones = [i for i in range(len(spaces)) if sea[i]]
    parts = _components(zones, sea_of)
    for part in parts[1:]:
        cut = ", ".join(spaces[i]["id"] for i in part)
        yield Problem((*SPACES, part[0]), f"sea zones {cut} are not connected to "
                      f"{spaces[parts[0][0]]['id']}")


def check_players(players: dict[str, Any], data: dict[str, Any]) -> Iterator[Problem]:
    """Each player needs a home among the named city states, and a rival."""
    if players["min"] < 2:
        yield Problem(("players", "min"), "City States needs at least 2 players (alone, a "
                                          "player is the last one left and wins at once)")
    named = sum(1 for s in data["map"]["spaces"] if s.get("city") == "named")
    if players["max"] > named:
        yield Problem(("players", "max"), f"{players['max']} players need a home each but "
                                          f"data.map has {named} named city states")


def _check_named_cities(spaces: list[dict[str, Any]], index: dict[str, int]) -> Iterator[Problem]:
    named = {s["id"] for s in spaces if s.get("city") == "named"}
    if len(named) < 2:
        yield Problem(SPACES, "at least two named city states are needed (one home per player)")
    for i, space in enumerate(spaces):
        if space["id"] not in named:
            continue
        for j, other in enumerate(space["land"]):
            if other in named:
                yield Problem((*SPACES, i, "land", j), f"named city states {space['id']} and "
                              f"{other} are adjacent")


def _check_tables(data: dict[str, Any]) -> Iterator[Problem]:
    for key, table in data["tables"].items():
        faces = FACES[table["die"]]
        hits = dict.fromkeys(faces, 0)
        for j, row in enumerate(table["rows"]):
            lo, hi = row["roll"]
            path = ("tables", key, "rows", j, "roll")
            if lo > hi:
                yield Problem(path, f"roll {lo}-{hi} runs backwards")
            covered = [f for f in faces if lo <= f <= hi]
            if not covered:
                yield Problem(path, f"roll {lo}-{hi} is no face of a {table['die']}")
            for face in covered:
                hits[face] += 1
        missing = [f for f, n in hits.items() if n == 0]
        twice = [f for f, n in hits.items() if n > 1]
        if missing:
            yield Problem(("tables", key, "rows"), f"{table['die']} faces not covered: "
                          f"{_ranges(missing)}")
        if twice:
            yield Problem(("tables", key, "rows"), f"{table['die']} faces covered more than "
                          f"once: {_ranges(twice)}")
    for key, known, extra in (("leader_skills", data["skills"], ()),
                              ("city_traits", data["traits"], ("reroll",))):
        for j, row in enumerate(data["tables"][key]["rows"]):
            if row["result"] not in known and row["result"] not in extra:
                yield Problem(("tables", key, "rows", j, "result"),
                              f"unknown {key.split('_')[1][:-1]} {row['result']!r}")


def _ranges(faces: list[int]) -> str:
    out, start, prev = [], faces[0], faces[0]
    for face in faces[1:] + [None]:
        if face is not None and face == prev + 1:
            prev = face
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if face is not None:
            start = prev = face
    return ", ".join(out)


def _check_effects(data: dict[str, Any]) -> Iterator[Problem]:
    for group in ("skills", "traits"):
        for key, spec in data[group].items():
            for j, effect in enumerate(spec["effects"]):
                path = (group, key, "effects", j)
                kind = effect["kind"]
                if kind not in TRAIT_EFFECTS:
                    yield Problem((*path, "kind"), f"unknown effect kind {kind!r} "
                                  f"(known: {', '.join(TRAIT_EFFECTS)})")
                    continue
                for need in TRAIT_NEEDS[kind]:
                    if need not in effect:
                        yield Problem(path, f"effect {kind} needs {need}")


def _check_cards(data: dict[str, Any]) -> Iterator[Problem]:
    cards = data["cards"]
    numbers = [c["number"] for c in cards]
    ids = [c["id"] for c in cards]
    for i, card in enumerate(cards):
        if numbers.index(card["number"]) != i:
            yield Problem(("cards", i, "number"), f"card number {card['number']} is used twice")
        if ids.index(card["id"]) != i:
            yield Problem(("cards", i, "id"), f"card id {card['id']!r} is used twice")
        effect = card["effect"]
        kind = effect["kind"]
        if kind not in CARD_EFFECTS:
            yield Problem(("cards", i, "effect", "kind"), f"unknown card effect kind {kind!r} "
                          f"(known: {', '.join(CARD_EFFECTS)})")
            continue
        for need in CARD_NEEDS.get(kind, ()):
            if need not in effect:
                yield Problem(("cards", i, "effect"), f"card effect {kind} needs {need}")
    if sorted(numbers) != list(range(1, len(cards) + 1)):
        yield Problem(("cards",), f"card numbers must run 1..{len(cards)} without gaps")
