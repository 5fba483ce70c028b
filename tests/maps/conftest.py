"""What the map tests share: one signed record per shipped ruleset, and an SVG reader.

The reader knows only the drawing's published structure (docs/maps.md):
each space's group says its id and name, its slots (`agon-c<i>` control,
`agon-s<i>` pieces, `agon-m<i>` markers) say which space they belong to, and
each piece says its side, kind and count.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from agon.cli.main import app
from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset, shipped_rulesets

SHIPPED = [path.stem for path in shipped_rulesets()]
SVG = "{http://www.w3.org/2000/svg}"
# Seats per game played for the tests: enough to have sides meet, few for speed.
PLAYERS = {"earth-and-water": 2, "epireia": 3, "ten-thousand": 3, "city-states": 3}

runner = CliRunner()


def agon(*args: str) -> Any:
    return runner.invoke(app, list(args))


@dataclass
class Drawing:
    """What a map SVG shows, read back from its elements."""

    names: dict[str, str]                       # space id -> the name written on it
    pieces: dict[str, Counter[tuple[str, str]]]  # space id -> (side, kind) -> count
    control: dict[str, str]                     # space id -> side
    markers: dict[str, list[str]]               # space id -> texts
    texts: list[str]                            # every text of the picture


def read_svg(text: str) -> Drawing:
    root = ET.fromstring(text)
    names = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "space":
            label = [t.text for t in group.iter(f"{SVG}text")]
            names[group.get("data-space")] = label[0]
    pieces: dict[str, Counter[tuple[str, str]]] = {}
    control: dict[str, str] = {}
    markers: dict[str, list[str]] = {}
    for slot in root.iter(f"{SVG}g"):
        space = slot.get("data-space")
        if not (slot.get("id") or "").startswith("agon-") or space is None:
            continue
        for item in slot.iter(f"{SVG}g"):
            kind = item.get("class")
            if kind == "piece":
                count = pieces.setdefault(space, Counter())
                count[item.get("data-side"), item.get("data-kind")] += int(item.get("data-count"))
            elif kind == "control":
                control[space] = item.get("data-side")
            elif kind == "marker":
                markers.setdefault(space, []).append(item.find(f"{SVG}text").text)
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    return Drawing(names, pieces, control, markers, texts)


def seats_for(ruleset_id: str) -> list[str]:
    ruleset = load_ruleset(ruleset_id)
    count = min(ruleset.players["max"], PLAYERS.get(ruleset.engine, ruleset.players["min"]))
    return engine_class(ruleset.engine)(ruleset).seats(max(count, ruleset.players["min"]))


@pytest.fixture(scope="session")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Ruleset id -> a signed record of a random game of it."""
    folder = tmp_path_factory.mktemp("map-records")
    out = {}
    with pytest.MonkeyPatch.context() as patch:  # the key folder tests/conftest.py gives tests
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))
        for ruleset_id in SHIPPED:
            path = folder / f"{ruleset_id}.json"
            seats = [arg for seat in seats_for(ruleset_id) for arg in ("--seat", f"{seat}=random")]
            result = agon("play", ruleset_id, *seats, "--seed", "5", "--record", str(path),
                          "--quiet")
            assert result.exit_code == 0, result.output
            out[ruleset_id] = path
    return out


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def state_at(record: dict[str, Any], actions: int) -> Any:
    """The engine's position after the record's first `actions` actions, replayed here."""
    ruleset = load_ruleset(record["ruleset"]["id"])
    state = engine_class(ruleset.engine)(ruleset).new_game(
        list(record["seats"]), record["seed"], dict(record["options"]))
    for seat, action in record["actions"][:actions]:
        state.apply(seat, action)
    return state


def engine_pieces(engine: str, state: Any) -> tuple[dict[str, Counter], dict[str, str]]:
    """Pieces per space and control, read from the engine's own fields."""
    pieces: dict[str, Counter] = {}
    control: dict[str, str] = {}
    if engine == "earth-and-water":
        sides = ("persia", "greece")
        for c, name in enumerate(state.t.names):
            for s, side in enumerate(sides):
                for kind, field in (("army", state.arm), ("fleet", state.flt)):
                    if field[s][c]:
                        pieces.setdefault(name, Counter())[side, kind] += field[s][c]
                if state.controls(s, c):
                    control[name] = side
    elif engine == "city-states":
        t = state.t
        for s in range(t.n):
            if state.occ[s] >= 0:
                owner = state.seats[state.occ[s]]
                for kind, field in (("army", state.arm), ("rowers", state.row),
                                    ("fleet", state.flt), ("transport", state.trn),
                                    ("baggage", state.bag)):
                    if field[s]:
                        pieces.setdefault(t.ids[s], Counter())[owner, kind] += field[s]
        for i, space in enumerate(state.l_space):
            if space >= 0 and state.l_state[i] == 0:   # a free leader on the map
                pieces.setdefault(t.ids[space], Counter())[
                    state.seats[state.l_owner[i]], "leader"] += 1
        for s in t.cities:
            if state.owner[s] >= 0:
                control[t.ids[s]] = state.seats[state.owner[s]]
    elif engine == "epireia":
        g = state.g
        for seat in g["seats"]:
            player = g["players"][seat]
            if player["city"]:
                control[player["city"]] = seat
            for figure in player["figures"]:
                place = player["pos"][figure]
                place = player["city"] if place == "home" else place
                pieces.setdefault(place, Counter())[seat, "figure"] += 1
        if g["enemy"]:   # solo: the enemy cities' figures stand on the map too
            for figure, place in g["enemy"]["pos"].items():
                place = state.t.figures[figure]["city"] if place == "home" else place
                pieces.setdefault(place, Counter())["enemy", "figure"] += 1
            control.update(dict.fromkeys(g["enemy"]["cities"], "enemy"))
        for territory, spot in g["territories"].items():
            if spot["owner"]:
                control[territory] = spot["owner"]
    elif engine == "ten-thousand":
        finish = state.rules.data["tracks"]["distance"]["finish"] if hasattr(
            state.rules, "data") else None
        for seat, army in state.armies.items():
            if not army.destroyed:
                space = str(finish if army.arrived and finish else army.space)
                pieces.setdefault(space, Counter())[seat, "army"] += 1
    return pieces, control


@pytest.fixture(scope="session")
def kit() -> SimpleNamespace:
    """The helpers above for this folder's tests (a conftest cannot be imported)."""
    return SimpleNamespace(agon=agon, read_svg=read_svg, load=load, SVG=SVG, state_at=state_at,
                           engine_pieces=engine_pieces)
