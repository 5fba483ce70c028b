"""docs/rulesets.md documents every data key of every engine's schema, and no key it lacks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agon.referee.ruleset import SCHEMAS_DIR

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rulesets.md"
ENGINES = ["earth-and-water", "ten-thousand", "epireia", "city-states"]


def schema_keys(schema: dict[str, Any]) -> set[str]:
    """Every property name the schema allows, at any depth, through $ref, oneOf and the like."""
    definitions = schema.get("$defs", {})
    names: set[str] = set()
    followed: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for value in node:
                walk(value)
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in followed:
            followed.add(ref)
            walk(definitions[ref.split("/")[-1]])
        names.update(node.get("properties", {}))
        for key, value in node.items():
            if key != "$defs":
                walk(value)

    walk(schema)
    return names


def section(engine: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    part = text.split(f"\n### {engine}\n", 1)
    assert len(part) == 2, f"docs/rulesets.md has no '### {engine}' section"
    return re.split(r"\n##+ ", part[1], maxsplit=1)[0]


def documented(text: str) -> set[str]:
    """The keys written in `code` in a section, split at dots and list marks."""
    words: set[str] = set()
    for span in re.findall(r"`([^`]+)`", text):
        for piece in re.split(r"[.\s,]+", span.replace("[]", "")):
            words.add(piece.strip(":{}\"'"))
    return words


@pytest.mark.parametrize("engine", ENGINES)
def test_every_key_of_the_schema_is_documented(engine):
    schema = json.loads((SCHEMAS_DIR / f"{engine}.schema.json").read_text(encoding="utf-8"))
    missing = sorted(schema_keys(schema) - documented(section(engine)))
    assert missing == [], f"keys of {engine}'s data not in docs/rulesets.md: {missing}"


@pytest.mark.parametrize("engine", ENGINES)
def test_every_key_the_table_names_is_in_the_schema(engine):
    """The first column names keys; one the schema no longer has is a stale line."""
    schema = json.loads((SCHEMAS_DIR / f"{engine}.schema.json").read_text(encoding="utf-8"))
    keys = schema_keys(schema)
    rows = [line.split("|")[1] for line in section(engine).splitlines()
            if line.startswith("| `")]
    assert len(rows) >= 10
    stale = sorted(word for word in documented("\n".join(rows))
                   if word and not word.startswith("<") and word not in keys)
    assert stale == [], f"docs/rulesets.md names keys {engine}'s schema lacks: {stale}"


def test_the_schema_walk_finds_keys_behind_references_and_alternatives():
    schema = {"$defs": {"row": {"properties": {"deep": {}}}},
              "properties": {"a": {"oneOf": [{"properties": {"b": {}}},
                                             {"items": {"$ref": "#/$defs/row"}}]}}}
    assert schema_keys(schema) == {"a", "b", "deep"}
