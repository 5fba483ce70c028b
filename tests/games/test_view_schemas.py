"""Every view of random games of every shipped ruleset validates against its engine's schema.

schemas/views/<engine>.schema.json is the contract bot authors code against:
strict where a structure is fixed (an unknown key is an error), shipped in the
package, and met by the views the engines really produce.
"""

from __future__ import annotations

import copy
from importlib import resources
from typing import Any

import pytest

from agon.referee.ruleset import load_ruleset
from agon.referee.view_schema import load_view_schema, resolve, view_validator


def test_every_view_validates_against_the_schema(survey):
    assert survey.validated >= 10, "too few views were validated to mean anything"
    assert not survey.schema_errors, "\n".join(survey.schema_errors[:20])


def test_the_schema_ships_in_the_package(ruleset_id):
    engine = load_ruleset(ruleset_id).engine
    schema = resources.files("agon.schemas").joinpath("views", f"{engine}.schema.json")
    assert schema.is_file(), (f"no view schema for engine {engine!r}: add "
                              f"schemas/views/{engine}.schema.json")


def fixed_objects(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every object schema with named properties, with where it is."""
    found = []

    def visit(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                found.append((where, node))
            for key, child in node.items():
                visit(child, f"{where}/{key}")
        elif isinstance(node, list):
            for i, child in enumerate(node):
                visit(child, f"{where}/{i}")

    visit(schema, "#")
    return found


def test_objects_with_a_fixed_structure_allow_no_other_key(ruleset_id):
    schema = load_view_schema(load_ruleset(ruleset_id).engine)
    loose = [where for where, node in fixed_objects(schema)
             if node.get("additionalProperties") is not False]
    assert not loose, f"additionalProperties is not false at {loose}"


def first_object_path(schema: dict[str, Any], view: Any) -> list[Any]:
    """The path to an object in `view` whose schema has fixed properties (deepest first)."""
    best: list[Any] = []

    def visit(node: dict[str, Any], value: Any, path: list[Any]) -> None:
        nonlocal best
        node = resolve(schema, node)
        for alternative in node.get("anyOf", []):
            visit(alternative, value, path)
        if isinstance(value, dict) and "properties" in node and len(path) >= len(best):
            best = path
        if isinstance(value, dict):
            for key, item in value.items():
                child = node.get("properties", {}).get(key, node.get("additionalProperties"))
                if isinstance(child, dict):
                    visit(child, item, [*path, key])

    visit(schema, view, [])
    return best


@pytest.mark.parametrize("where", ["top", "nested"])
def test_an_unknown_key_makes_a_real_view_invalid(ruleset_id, where):
    """The schema is strict: a key the engine does not write is an error, at any depth."""
    from agon.referee.games import engine_class
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    seats = engine.seats(int(ruleset.players["min"]))
    view = engine.new_game(seats, 7, {}).view(seats[0])
    validator = view_validator(ruleset.engine)
    assert validator.is_valid(view)
    spoiled = copy.deepcopy(view)
    target = spoiled
    if where == "nested":
        for key in first_object_path(load_view_schema(ruleset.engine), view):
            target = target[key]
    target["surprise"] = 1
    assert not validator.is_valid(spoiled)
