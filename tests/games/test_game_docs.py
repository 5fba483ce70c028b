"""docs/games/<engine>.md documents everything random games of every shipped ruleset show.

A bot author reads the page instead of reverse-engineering transcripts, so an
action form, a prompt, a view key (at any depth, with its types) or an event
field that the engines produce and the page does not list fails here, named.
The page and the view schema must list the same keys.
"""

from __future__ import annotations

from typing import Any

from agon.referee.ruleset import load_ruleset
from agon.referee.view_schema import load_view_schema, resolve


def test_every_prompt_and_action_form_is_documented(survey, doc):
    missing: dict[str, str] = {}   # what is missing -> where it was seen
    for prompt, actions in sorted(survey.decisions.items()):
        parts = doc.decisions_for(prompt)
        if not parts:
            missing.setdefault(f"prompt {prompt!r}", "")
            continue
        for action in sorted(actions):
            if not doc.forms_of(action, parts):
                missing.setdefault(f"action {action!r}", f" (prompt {prompt!r}, documented "
                                   f"under {', '.join(p.title for p in parts)})")
    assert not missing, f"{doc.file.name} (## Decisions) does not document:\n  " + "\n  ".join(
        what + where for what, where in list(missing.items())[:40])
    assert survey.decisions, "the random games asked nothing"


def test_every_view_key_is_documented_with_its_types(survey, doc):
    problems = []
    for path, types in sorted(survey.paths.items()):
        if not path:
            continue
        key = doc.key(path)
        name = ".".join(path)
        if key is None:
            problems.append(f"{name} ({' or '.join(sorted(types))}) is not documented")
        elif not types <= key.types | ({"integer"} if "number" in key.types else set()):
            problems.append(f"{name} is {' or '.join(sorted(types))}, documented as "
                            f"{' or '.join(sorted(key.types))}")
    assert not problems, f"{doc.file.name} (## View):\n  " + "\n  ".join(problems[:40])


def test_every_event_type_and_field_is_documented(survey, doc):
    problems = []
    for kind, fields in sorted(survey.events.items()):
        if kind not in doc.events:
            problems.append(f"event type {kind!r} (fields {sorted(fields)})")
        elif fields - doc.events[kind]:
            problems.append(f"fields {sorted(fields - doc.events[kind])} of event {kind!r}")
    assert not problems, f"{doc.file.name} (## Events) does not document:\n  " + "\n  ".join(
        problems)


# -- the page and the schema tell the same story ------------------------------------------

def schema_keys(schema: dict[str, Any]) -> dict[tuple[str, ...], set[str]]:
    """Every key path the schema allows (map keys as "<>") with its JSON types."""
    out: dict[tuple[str, ...], set[str]] = {}

    def visit(node: dict[str, Any], path: tuple[str, ...]) -> None:
        node = resolve(schema, node)
        alternatives = node.get("anyOf") or node.get("oneOf")
        if alternatives:
            for alternative in alternatives:
                visit(alternative, path)
            return
        if path:
            out.setdefault(path, set()).update(types_of(node))
        for key, child in node.get("properties", {}).items():
            visit(child, (*path, key))
        if isinstance(node.get("additionalProperties"), dict):
            visit(node["additionalProperties"], (*path, "<>"))
        for child in [*node.get("prefixItems", []), node.get("items")]:
            if isinstance(child, dict):
                visit(child, (*path, "[]"))

    visit(schema, ())
    return out


def types_of(node: dict[str, Any]) -> set[str]:
    if "type" in node:
        return set([node["type"]] if isinstance(node["type"], str) else node["type"])
    values = node.get("enum", [node["const"]] if "const" in node else [])
    names = {type(None): "null", bool: "boolean", int: "integer", str: "string"}
    return {names[type(v)] for v in values}


def test_the_page_and_the_view_schema_list_the_same_keys_and_types(ruleset_id, doc):
    schema = schema_keys(load_view_schema(load_ruleset(ruleset_id).engine))
    documented = {tuple("<>" if part.startswith("<") else part for part in key.path): key.types
                  for key in doc.view}
    only_schema = sorted(".".join(p) for p in schema.keys() - documented.keys())
    only_doc = sorted(".".join(p) for p in documented.keys() - schema.keys())
    assert not only_schema and not only_doc, (
        f"keys in the schema only: {only_schema}; in {doc.file.name} only: {only_doc}")
    differ = [f"{'.'.join(p)}: schema {sorted(schema[p])}, page {sorted(documented[p])}"
              for p in schema if schema[p] != documented[p]]
    assert not differ, "types differ:\n  " + "\n  ".join(differ)
