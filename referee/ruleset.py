"""Load a ruleset: YAML -> merge variants -> validate (schemas/) -> Ruleset.

Validation reports every error it finds, each with the file and line that
holds the bad value, even when the value came from a ruleset that the file
`extends`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema

import agon.rulesets as _shipped_rulesets
import agon.schemas as _shipped_schemas

from .ruleset_model import Issue, Ruleset, RulesetError, coerce_option
from .yamlsafe import JsonPath, Position, YamlError, read_yaml

RULESET_FORMAT = "agon-ruleset/1"
RULESETS_DIR = Path(_shipped_rulesets.__file__).resolve().parent
SCHEMAS_DIR = Path(_shipped_schemas.__file__).resolve().parent


# -- finding and reading files -------------------------------------------------

def shipped_rulesets() -> list[Path]:
    return sorted(RULESETS_DIR.glob("*.yaml"))


def locate(ref: str | Path, relative_to: Path | None = None) -> Path:
    """A ruleset file from a path, or from an id (next to `relative_to`, then shipped)."""
    text = str(ref)
    candidates = []
    if relative_to is not None:
        candidates += [relative_to / text, relative_to / f"{text}.yaml"]
    candidates += [Path(text)]
    if "/" not in text and not text.endswith((".yaml", ".yml")):
        candidates.append(RULESETS_DIR / f"{text}.yaml")
    for path in candidates:
        if path.is_file():
            return path
    shipped = ", ".join(p.stem for p in shipped_rulesets())
    raise RulesetError(f"no ruleset {text!r}: not a file, nor a shipped id ({shipped})")


@dataclass
class _Document:
    """A ruleset after `extends` merging, with each value's position."""

    value: dict[str, Any]
    positions: dict[JsonPath, Position]
    file: str


def _read(path: Path, chain: tuple[Path, ...] = ()) -> _Document:
    if path.resolve() in chain:
        raise RulesetError(f"{path}: extends itself through "
                           f"{' -> '.join(p.name for p in chain)}")
    try:
        value, positions = read_yaml(path)
    except YamlError as exc:
        issue = Issue(str(path), exc.line, exc.col, "$", exc.message)
        raise RulesetError(str(issue), [issue]) from None
    if not isinstance(value, dict):
        issue = Issue(str(path), 1, 1, "$", "a ruleset is a mapping of keys (format, id, ...)")
        raise RulesetError(str(issue), [issue])
    base_ref = value.get("extends")
    if not base_ref:
        return _Document(value, positions, str(path))
    try:
        base_path = locate(base_ref, relative_to=path.parent)
    except RulesetError as exc:
        pos = positions.get(("extends",), Position(str(path), 1, 1))
        issue = Issue(pos.file, pos.line, pos.col, "extends", str(exc))
        raise RulesetError(str(issue), [issue]) from None
    base = _read(base_path, (*chain, path.resolve()))
    merged_positions = {**base.positions, **positions}
    return _Document(merge_variant(base.value, value), merged_positions, str(path))


def merge_variant(base: dict[str, Any], variant: dict[str, Any]) -> dict[str, Any]:
    """The variant deep-merged on top of its base.

    Mappings merge key by key; any other value replaces the base's.  Rule
    sections are the exception: they merge by section id, so a variant adds
    its own sections and rewrites only those it names.
    """
    merged = deep_merge(base, variant)
    base_rules, variant_rules = base.get("rules"), variant.get("rules")
    if isinstance(base_rules, list) and isinstance(variant_rules, list):
        by_id = {s.get("id"): s for s in base_rules if isinstance(s, dict)}
        extra = []
        for section in variant_rules:
            key = section.get("id") if isinstance(section, dict) else None
            if key in by_id:
                by_id[key] = section
            else:
                extra.append(section)
        merged["rules"] = list(by_id.values()) + extra
    return merged


def deep_merge(base: Any, over: Any) -> Any:
    """`over` on top of `base`: mappings merge key by key, anything else replaces."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = deep_merge(base[key], value) if key in base else value
        return out
    return over


# -- validation ----------------------------------------------------------------

@cache
def _schema(name: str) -> dict[str, Any] | None:
    path = SCHEMAS_DIR / f"{name}.schema.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def _dotted(path: JsonPath) -> str:
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _issue_at(doc: _Document, path: JsonPath, message: str) -> Issue:
    """An issue placed at the deepest part of `path` the files define."""
    probe = tuple(path)
    while probe not in doc.positions and probe:
        probe = probe[:-1]
    pos = doc.positions.get(probe, Position(doc.file, 1, 1))
    return Issue(pos.file, pos.line, pos.col, _dotted(path), message)


def _schema_issues(doc: _Document, schema: dict[str, Any], value: Any,
                   prefix: JsonPath) -> list[Issue]:
    validator = jsonschema.Draft202012Validator(schema)
    issues = []
    for error in validator.iter_errors(value):
        path = (*prefix, *error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            # Point at each unexpected key, which may sit in another file.
            known = error.schema.get("properties", {})
            for key in [k for k in error.instance if k not in known]:
                issues.append(_issue_at(doc, (*path, key), f"unknown key {key!r}"))
            continue
        issues.append(_issue_at(doc, path, error.message))
    return issues


def _envelope_issues(doc: _Document) -> list[Issue]:
    """Checks on the envelope the schema cannot express."""
    value, issues = doc.value, []
    players = value.get("players", {})
    if players.get("min", 1) > players.get("max", 1):
        issues.append(_issue_at(doc, ("players",), "min is larger than max"))
    seats = players.get("seats")
    if seats and len(seats) != len(set(seats)):
        issues.append(_issue_at(doc, ("players", "seats"), "seat names repeat"))
    seen: set[str] = set()
    ids = {s.get("id") for s in value.get("rules", [])}
    for i, section in enumerate(value.get("rules", [])):
        if section["id"] in seen:
            issues.append(_issue_at(doc, ("rules", i, "id"),
                                    f"section id {section['id']!r} is used twice"))
        seen.add(section["id"])
        for j, target in enumerate(section.get("see_also", [])):
            if target not in ids:
                issues.append(_issue_at(doc, ("rules", i, "see_also", j),
                                        f"see_also names no section {target!r}"))
    for name, spec in value.get("options", {}).items():
        if "default" in spec:
            try:
                coerce_option(name, spec, spec["default"])
            except RulesetError as exc:
                issues.append(_issue_at(doc, ("options", name, "default"), str(exc)))
    return issues


def _engine_issues(doc: _Document) -> list[Issue]:
    from .games import UnknownEngine, engine_class

    engine_id = doc.value["engine"]
    try:
        engine = engine_class(engine_id)
    except UnknownEngine as exc:
        return [_issue_at(doc, ("engine",), str(exc))]
    data_schema = _schema(engine_id)
    if data_schema is None:
        return [_issue_at(doc, ("engine",), f"no schema for engine {engine_id!r}")]
    issues = _schema_issues(doc, data_schema, doc.value["data"], ("data",))
    if not issues:
        issues = [_issue_at(doc, ("data", *p.path), p.message) for p in engine.check(doc.value["data"])]
    return issues


def _validate(doc: _Document) -> list[Issue]:
    """Every problem: envelope schema, envelope checks, data schema, engine checks."""
    issues = _schema_issues(doc, _schema("ruleset"), doc.value, ())
    try:
        issues += _envelope_issues(doc)
    except (TypeError, KeyError, AttributeError):
        pass  # the envelope's shape is wrong; its schema errors already say how
    value = doc.value
    if isinstance(value.get("engine"), str) and isinstance(value.get("data"), dict):
        issues += _engine_issues(doc)
    return sorted(set(issues), key=lambda i: (i.file, i.line, i.col, i.path))


def _build(doc: _Document) -> Ruleset:
    value = doc.value
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return Ruleset(
        id=value["id"], name=value["name"], version=str(value["version"]),
        engine=value["engine"], players=value["players"],
        options=value.get("options", {}), rules=value.get("rules", []),
        data=value["data"], sha256=hashlib.sha256(canonical.encode()).hexdigest(),
        source=doc.file, extends=value.get("extends"), raw=value,
    )


def validate_file(path: str | Path) -> tuple[Ruleset | None, list[Issue]]:
    """The ruleset in `path` and every problem found (empty when valid)."""
    try:
        doc = _read(Path(path))
    except RulesetError as exc:
        if exc.issues:
            return None, exc.issues
        return None, [Issue(str(path), 1, 1, "$", str(exc))]
    issues = _validate(doc)
    return (None if issues else _build(doc)), issues


def load_ruleset(ref: str | Path) -> Ruleset:
    """A valid ruleset from a shipped id or a path; RulesetError otherwise."""
    path = locate(ref)
    stat = path.stat()
    return _load_cached(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime_ns: int, size: int) -> Ruleset:
    ruleset, issues = validate_file(path)
    if ruleset is None:
        listing = "\n".join(f"  {issue}" for issue in issues)
        raise RulesetError(f"{path} is not a valid ruleset:\n{listing}", issues)
    return ruleset
