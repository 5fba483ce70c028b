"""`agon map`: every shipped map is drawn where its ruleset says, and a record's pieces where the
record put them, with nothing secret on it."""

from __future__ import annotations

import dataclasses
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

from agon.referee.games import engine_class
from agon.referee.mapdraw import (
    Board,
    Canvas,
    PictureError,
    Piece,
    Position,
    Side,
    Space,
    SpaceKind,
)
from agon.referee.pictures import board_of, map_svg, position_of
from agon.referee.records import replay_steps
from agon.referee.ruleset import load_ruleset, shipped_rulesets

SHIPPED = [path.stem for path in shipped_rulesets()]
SVG = "{http://www.w3.org/2000/svg}"


def printed_spaces(ruleset: Any) -> dict[str, str]:
    """Space id -> name, as the ruleset's map data holds them."""
    data = ruleset.data
    if ruleset.engine == "earth-and-water":
        return {c["name"]: c["name"] for c in data["cities"]}
    if ruleset.engine == "epireia":
        return {p["id"]: p["name"] for key in ("cities", "territories", "empires")
                for p in data[key]}
    if ruleset.engine == "city-states":
        return {s["id"]: s["name"] for s in data["map"]["spaces"]}
    if ruleset.engine == "ten-thousand":
        return {str(n): str(n) for n in range(1, data["tracks"]["distance"]["spaces"] + 1)}
    raise AssertionError(f"a new engine: say here where {ruleset.engine}'s map data is")


def drawn_centres(svg: str) -> dict[str, tuple[float, float]]:
    """Space id -> the centre of its shape in the picture."""
    out = {}
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if group.get("class") != "space":
            continue
        shape = next(el for el in group if el.tag != f"{SVG}title")
        if shape.tag == f"{SVG}circle":
            out[group.get("data-space")] = (float(shape.get("cx")), float(shape.get("cy")))
        elif shape.tag == f"{SVG}rect":
            out[group.get("data-space")] = (float(shape.get("x")) + float(shape.get("width")) / 2,
                                            float(shape.get("y")) + float(shape.get("height")) / 2)
        else:   # a polygon: the mean of its corners
            points = [tuple(map(float, p.split(","))) for p in shape.get("points").split()]
            out[group.get("data-space")] = (sum(p[0] for p in points) / len(points),
                                            sum(p[1] for p in points) / len(points))
    return out


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_shipped_map_parses_and_names_every_space(ruleset_id, kit):
    result = kit.agon("map", ruleset_id)
    assert result.exit_code == 0, result.output
    drawing = kit.read_svg(result.stdout)
    assert drawing.names == printed_spaces(load_ruleset(ruleset_id))
    assert "Legend" in drawing.texts


@pytest.mark.parametrize("ruleset_id", ["earth-and-water", "epireia", "city-states"])
def test_spaces_are_drawn_at_the_rulesets_positions(ruleset_id):
    """The picture is the ruleset's x, y moved and scaled, the same for every space."""
    ruleset = load_ruleset(ruleset_id)
    data = ruleset.data
    places = (data["map"]["spaces"] if ruleset.engine == "city-states" else
              data["cities"] + data.get("territories", []) + data.get("empires", []))
    written = {p.get("id", p.get("name")): (p["x"], p["y"]) for p in places}
    drawn = drawn_centres(map_svg(ruleset))
    first, second = sorted(written, key=lambda k: written[k])[0], max(written,
                                                                      key=lambda k: written[k])
    scale = ((drawn[second][0] - drawn[first][0]) / (written[second][0] - written[first][0]))
    assert scale > 0
    for space, (x, y) in written.items():
        assert drawn[space][0] - scale * x == pytest.approx(drawn[first][0] - scale *
                                                            written[first][0], abs=0.2), space
        assert drawn[space][1] - scale * y == pytest.approx(drawn[first][1] - scale *
                                                            written[first][1], abs=0.2), space


def test_earth_and_water_draws_each_road_and_the_bridge_site():
    ruleset = load_ruleset("earth-and-water")
    svg = map_svg(ruleset)
    centres = drawn_centres(svg)
    links = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id") == "agon-board-links")
    drawn = {frozenset({(round(float(line.get("x1"))), round(float(line.get("y1")))),
                        (round(float(line.get("x2"))), round(float(line.get("y2"))))})
             for line in links}
    roads = {frozenset({a, b}) for a, ends in ruleset.data["roads"].items() for b in ends}
    roads.add(frozenset(ruleset.data["bridge"]["between"]))
    assert drawn == {frozenset((round(centres[c][0]), round(centres[c][1])) for c in road)
                     for road in roads}
    assert len(drawn) == 10   # 9 roads (2.1) and the Abydos-Pella crossing


def test_the_ten_thousand_track_names_its_ends(kit):
    drawing = kit.read_svg(map_svg(load_ruleset("ten-thousand")))
    assert "Cunaxa" in drawing.texts and "Trapezus" in drawing.texts


# -- pieces from a record ---------------------------------------------------------------------

@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_a_records_pieces_are_drawn_where_the_record_puts_them(ruleset_id, recorded, tmp_path,
                                                               kit):
    record = kit.load(recorded[ruleset_id])
    engine = load_ruleset(ruleset_id).engine
    count = len(record["actions"])
    seen_pieces = False
    for at in sorted({0, 1, count // 3, count // 2, count - 1, count}):
        out = tmp_path / f"at-{at}.svg"
        result = kit.agon("map", ruleset_id, "--record", str(recorded[ruleset_id]), "--at",
                          str(at), "--out", str(out))
        assert result.exit_code == 0, result.output
        drawing = kit.read_svg(out.read_text())
        pieces, control = kit.engine_pieces(engine, kit.state_at(record, at))
        assert drawing.pieces == pieces, f"after {at} actions"
        seen_pieces |= bool(pieces)
        if engine != "ten-thousand":
            assert drawing.control == control, f"after {at} actions"
    assert seen_pieces


def test_the_default_is_the_end_of_the_game(recorded, kit):
    record = kit.load(recorded["earth-and-water"])
    result = kit.agon("map", "earth-and-water", "--record", str(recorded["earth-and-water"]))
    assert result.exit_code == 0, result.output
    end = kit.engine_pieces("earth-and-water", kit.state_at(record, len(record["actions"])))
    assert kit.read_svg(result.stdout).pieces == end[0]


def test_at_zero_shows_the_setup_of_the_rulebook(recorded, kit):
    """3: Persia 2 armies in Abydos, 2 armies and a fleet in Ephesos; Greece one army each in
    Athenai, Sparta and Korinthos and a fleet in Athenai and Sparta."""
    result = kit.agon("map", "earth-and-water", "--record", str(recorded["earth-and-water"]),
                      "--at", "0")
    assert result.exit_code == 0, result.output
    assert kit.read_svg(result.stdout).pieces == {
        "Abydos": Counter({("persia", "army"): 2}),
        "Ephesos": Counter({("persia", "army"): 2, ("persia", "fleet"): 1}),
        "Athenai": Counter({("greece", "army"): 1, ("greece", "fleet"): 1}),
        "Sparta": Counter({("greece", "army"): 1, ("greece", "fleet"): 1}),
        "Korinthos": Counter({("greece", "army"): 1}),
    }


# -- nothing secret ---------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_the_map_shows_nothing_a_seat_could_not_see(ruleset_id, recorded, kit):
    """Resampling what any one seat cannot see (other hands, the deck, secret choices, hidden
    token powers) never changes the picture: it is drawn from public information only."""
    record = kit.load(recorded[ruleset_id])
    ruleset = load_ruleset(ruleset_id)
    seats = list(record["seats"])
    canvas = Canvas(board_of(ruleset))
    every = max(1, len(record["actions"]) // 40)
    rng = random.Random(3)
    for step in replay_steps(record, engine_class(ruleset.engine)(ruleset)):
        if step.number % every:
            continue
        drawn = canvas.slots(position_of(ruleset, step.state, seats))
        for seat in seats:
            other = step.state.determinize(seat, rng)
            assert canvas.slots(position_of(ruleset, other, seats)) == drawn, (
                f"action {step.number}: what {seat} cannot see changes the map")


# -- the drawing module -----------------------------------------------------------------------

def test_names_are_escaped_and_read_back_as_written(kit):
    name = '<script>alert("x")</script> & Co\'s'
    board = Board("T & <b>", (Space("a", name, 0, 0, "k", note="<i>"), Space("b", "B", 50, 0, "k")),
                  space_kinds=(SpaceKind("k", "kind & <kin>"),))
    svg = Canvas(board).svg(Position())
    drawing = kit.read_svg(svg)
    assert drawing.names["a"] == name
    assert "<script>" not in svg and "T & <b>" in drawing.texts and "kind & <kin>" in drawing.texts


def test_a_position_naming_an_unknown_space_or_side_is_refused():
    board = Board("t", (Space("a", "A", 0, 0, "k"),), space_kinds=(SpaceKind("k", "k"),))
    with pytest.raises(PictureError, match="no space"):
        Canvas(board).slots(Position(control={"zz": ""}))
    with pytest.raises(PictureError, match="no side"):
        Canvas(board).slots(Position(sides=[Side("p1", "p1", "#000")], control={"a": "p9"}))
    with pytest.raises(PictureError, match="no piece kind"):
        Canvas(board).slots(Position(pieces=[Piece("a", "", "army")]))


def test_a_ruleset_without_positions_is_laid_out_on_a_circle():
    ruleset = load_ruleset("earth-and-water")
    cities = [{k: v for k, v in c.items() if k not in ("x", "y")}
              for c in ruleset.data["cities"]]
    bare = dataclasses.replace(ruleset, data={**ruleset.data, "cities": cities})
    centres = drawn_centres(map_svg(bare))
    assert len(centres) == 11 and len(set(centres.values())) == 11
    xs = sorted(round(x) for x, _ in centres.values())
    assert xs[-1] - xs[0] > 400   # spread over a circle, not piled on one point


def test_the_picture_is_one_svg_document_with_a_size():
    svg = map_svg(load_ruleset("city-states"))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert re.fullmatch(r"\d+", root.get("width")) and re.fullmatch(r"\d+", root.get("height"))
