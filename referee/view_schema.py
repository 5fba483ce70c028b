"""The contract of each engine's `view`: a JSON Schema per engine.

`schemas/views/<engine>.schema.json` says which keys a seat's view holds, their
types and, where the set is fixed, their values.  Bot authors read it with the
game's page in docs/games/; the tests validate views sampled from random games
of every ruleset against it; observation encoders take the vocabularies they
one-hot encode from it (`enum_at`), so a value exists in one place only.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

import agon.schemas as _shipped_schemas

# found from the package itself, not from `referee.ruleset`, which the engines sit under
VIEW_SCHEMAS_DIR = Path(_shipped_schemas.__file__).resolve().parent / "views"


class NoViewSchema(LookupError):
    """An engine whose view has no schema yet."""


@cache
def load_view_schema(engine_id: str) -> dict[str, Any]:
    path = VIEW_SCHEMAS_DIR / f"{engine_id}.schema.json"
    if not path.is_file():
        raise NoViewSchema(f"engine {engine_id!r} has no view schema: add "
                           f"schemas/views/{engine_id}.schema.json (see docs/games/README.md)")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def view_validator(engine_id: str) -> jsonschema.protocols.Validator:
    """A validator of `engine_id`'s views (references inlined: twice as fast)."""
    schema = load_view_schema(engine_id)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(inlined(schema))


def inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every local `$ref` replaced by what it names."""
    def copy(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:   # the target, with the keywords beside the $ref added
                rest = {k: v for k, v in node.items() if k != "$ref"}
                node = {**resolve(schema, {"$ref": node["$ref"]}), **rest}
            return {k: copy(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [copy(v) for v in node]
        return node
    return copy(schema)


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """`node` with a local `$ref` (``#/$defs/name``) followed."""
    while "$ref" in node:
        target: Any = schema
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def enum_at(engine_id: str, *path: str) -> list[Any]:
    """The allowed values of the view key at `path` (property names; "[]" for items)."""
    schema = load_view_schema(engine_id)
    node = resolve(schema, schema)
    for part in path:
        node = resolve(schema, node["items"] if part == "[]" else node["properties"][part])
    return list(node["enum"])
