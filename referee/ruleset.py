"""Load a ruleset: YAML -> merge variants -> validate (schemas/) -> Ruleset.

Validation reports every error it finds, each with the file and line that
holds the bad value, even when the value came from a ruleset that the file
`extends`.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema

import agon.rulesets as _shipped_rulesets
import agon.schemas as _shipped_schemas

from .merge import merge_variant
from .ruleset_model import Issue, Ruleset, RulesetError, coerce_option
from .suggest import did_you_mean
from .yamlsafe import JsonPath, Position, YamlError, read_yaml

RULESET_FORMAT = "agon-ruleset/1"
RULESETS_DIR = Path(_shipped_rulesets.__file__).resolve().parent
SCHEMAS_DIR = Path(_shipped_schemas.__file__).resolve().parent


# -- finding and reading files -------------------------------------------------

MAX_EXTENDS_CHARS = 255  # an `extends` value: an id or a file name
MAX_PATH_CHARS = 4096  # a ruleset named on the command line

RulesetsPath = tuple[Path, ...]  # folders the user allows (`--rulesets-path`)


def shipped_rulesets() -> list[Path]:
    return sorted(RULESETS_DIR.glob("*.yaml"))


def rulesets_by_id(folders: Iterable[Path] = ()) -> dict[str, Path]:
    """Every id a RULESET argument takes, and the file it names (`locate`): the
    `<id>.yaml` files of the `--rulesets-path` folders, then the shipped ones; the
    first of one id hides the later (a name that is not printable is left out)."""
    found: dict[str, Path] = {}
    for folder in (*folders, RULESETS_DIR):
        for path in sorted(folder.glob("*.yaml")):
            if path.stem.isprintable() and path.stem not in found and _regular_file(path):
                found[path.stem] = path
    return found


def _looks_like_id(text: str) -> bool:
    return "/" not in text and not text.endswith((".yaml", ".yml"))


def _regular_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def _check_ref(text: str, what: str, limit: int) -> None:
    if len(text) > limit:
        raise RulesetError(f"{what} is {len(text):,} characters long; a ruleset id or "
                           f"file name has at most {limit}")
    if any(ord(c) < 32 for c in text):
        raise RulesetError(f"{what} holds control characters; give a ruleset id or file name")


def _by_id(text: str, folders: Iterable[Path]) -> Path | None:
    """The first `<folder>/<id>.yaml` that is a file, the shipped folder last."""
    for folder in (*folders, RULESETS_DIR):
        candidate = folder / f"{text}.yaml"
        if _regular_file(candidate):
            return candidate
    return None


def _unknown(text: str, folders: Iterable[Path] = ()) -> RulesetError:
    """No ruleset of that name; the `--rulesets-path` folders looked in are named, as
    a mistyped one (which no error stopped) is the likeliest reason."""
    shipped = [p.stem for p in shipped_rulesets()]
    looked = "".join(f"; looked in {folder}" + ("" if folder.is_dir() else " (no such folder)")
                     for folder in dict.fromkeys(folders))   # "a::b" names "." twice
    return RulesetError(f"no ruleset {text!r}{did_you_mean(text, shipped)}: not a file, nor "
                        f"a ruleset id (shipped: {', '.join(shipped)}){looked}")


def locate(ref: str | Path, rulesets_path: RulesetsPath = ()) -> Path:
    """The ruleset a person names on the command line: any file, or an id.

    A file may also be a stream (`<(...)`, a named pipe): it is read with
    the same byte limit.  An id is looked up in the `--rulesets-path`
    folders, then among the shipped rulesets.
    """
    text = str(ref)
    _check_ref(text, "the ruleset name", MAX_PATH_CHARS)
    try:
        if Path(text).exists() and not Path(text).is_dir():
            return Path(text)
    except (OSError, ValueError):
        pass
    found = _by_id(text, rulesets_path) if _looks_like_id(text) else None
    if found is None:
        raise _unknown(text, rulesets_path)
    return found


def _followed(path: Path, what: str) -> Path:
    """`path` with its symbolic links followed; a loop among them is the ruleset's
    error, not agon's (Path.resolve raises RuntimeError, or OSError from 3.13)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):
        raise RulesetError(f"{what}: a symbolic-link loop") from None


# what a YAML value is, in the words of a ruleset's author (not Python's NoneType)
_YAML_KINDS = {type(None): "null", bool: "true or false", int: "a number",
               float: "a number", list: "a list", dict: "a mapping", str: "an empty text"}


def locate_base(ref: Any, extending: Path, rulesets_path: RulesetsPath = ()) -> Path:
    """The file an `extends:` names, which must lie where the extending file may reach.

    A ruleset file is other people's data: its `extends` may name a shipped
    ruleset id, or a file in its own folder (or below it), or in a folder the
    user allows with `--rulesets-path`.  Nothing else is opened, so a shared
    ruleset cannot make agon read (and quote in its errors) another file.
    """
    if not isinstance(ref, str) or not ref:
        raise RulesetError("extends takes a ruleset id or a file name, not "
                           f"{_YAML_KINDS.get(type(ref), type(ref).__name__)}")
    _check_ref(ref, "extends", MAX_EXTENDS_CHARS)
    home = extending.resolve().parent
    allowed = (home, *(folder.resolve() for folder in rulesets_path), RULESETS_DIR)
    if _looks_like_id(ref):
        found = _by_id(ref, (home, *rulesets_path))
        if found is None:
            raise _unknown(ref, rulesets_path)
        target = _followed(found, f"extends {ref!r}")
    else:
        target = _followed(home / ref, f"extends {ref!r}")  # an absolute `ref` replaces `home`
    # Checked after resolving: a symbolic link may not lead out either.
    if not any(target.is_relative_to(folder) for folder in allowed):
        raise RulesetError(
            f"extends {ref!r} leads outside the folder of {extending.name}: a ruleset "
            "extends a shipped ruleset id or a file in its own folder (allow another "
            "folder with --rulesets-path)")
    if not _regular_file(target):
        raise RulesetError(f"extends {ref!r}: no such ruleset file in {home}")
    return target


RULESET_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")  # what a record may name as its ruleset


def recorded_ruleset(data: dict[str, Any], folders: Iterable[Path]) -> str:
    """The ruleset a game record names: its file where it may be read, else its id.

    A record names its ruleset's file, but a record may come from anyone:
    the file is used only inside the shipped folder or one of `folders` (the
    record's own, --rulesets-path), never anywhere on the machine; and the
    id must be an id, not a path.  RulesetError when the record names none.
    """
    info = data.get("ruleset")
    info = info if isinstance(info, dict) else {}
    source = info.get("source")
    try:
        path = Path(source).resolve() if isinstance(source, str) else None
        if path and path.is_file() and any(path.is_relative_to(folder.resolve())
                                           for folder in (*folders, RULESETS_DIR)):
            return str(path)
    except (OSError, ValueError, RuntimeError):  # a name too long, a NUL byte, a loop
        pass
    ruleset_id = info.get("id")
    if not isinstance(ruleset_id, str) or not RULESET_ID.fullmatch(ruleset_id):
        raise RulesetError("the record names no ruleset id (lowercase letters, digits and -)")
    return ruleset_id


def shipped_variants_of(path: str | Path) -> list[str]:
    """The shipped rulesets whose `extends` names the ruleset in `path` (by id or file)."""
    target = Path(path).resolve()
    found = []
    for candidate in shipped_rulesets():
        try:
            value, _ = read_yaml(candidate)
            if isinstance(value, dict) and "extends" in value and \
                    locate_base(value["extends"], candidate) == target:
                found.append(candidate.stem)
        except (YamlError, RulesetError):
            continue  # `agon validate` reports it; here it extends nothing
    return found


@dataclass
class _Document:
    """A ruleset after `extends` merging, with each value's position."""

    value: dict[str, Any]
    positions: dict[JsonPath, Position]
    file: str
    problems: list[Issue] = field(default_factory=list)  # what merging found wrong


def _yaml_issues(path: Path, exc: YamlError) -> list[Issue]:
    return [Issue(str(path), e.line, e.col, _dotted(e.path), e.message)
            for e in (exc, *exc.also)]


def _read(path: Path, rulesets_path: RulesetsPath = (),
          chain: tuple[Path, ...] = ()) -> _Document:
    if _followed(path, str(path)) in chain:
        raise RulesetError(f"{path}: extends itself through "
                           f"{' -> '.join(p.name for p in chain)}")
    try:
        value, positions = read_yaml(path)
    except YamlError as exc:
        issues = _yaml_issues(path, exc)
        raise RulesetError("\n".join(map(str, issues)), issues) from None
    if not isinstance(value, dict):
        issue = Issue(str(path), 1, 1, "$", "a ruleset is a mapping of keys (format, id, ...)")
        raise RulesetError(str(issue), [issue])
    if "extends" not in value:
        return _Document(value, positions, str(path))
    try:
        base_path = locate_base(value["extends"], path, rulesets_path)
    except RulesetError as exc:
        pos = positions.get(("extends",), Position(str(path), 1, 1))
        issue = Issue(pos.file, pos.line, pos.col, "$.extends", str(exc))
        raise RulesetError(str(issue), [issue]) from None
    base = _read(base_path, rulesets_path, (*chain, path.resolve()))
    engine, base_engine = value.get("engine"), base.value.get("engine")
    if "engine" in value and isinstance(base_engine, str) and engine != base_engine:
        # The base's data would be read by another game's engine and every key of
        # it reported as wrong, at the base's lines: name the line that is.
        pos = positions.get(("engine",), Position(str(path), 1, 1))
        issue = Issue(pos.file, pos.line, pos.col, "$.engine",
                      f"engine {engine!r} is not that of {base_path.name} ({base_engine!r}), "
                      "whose data this variant changes: a variant keeps its base's engine")
        raise RulesetError(str(issue), [issue])
    merged = merge_variant(base.value, base.positions, value, positions)
    problems = [*base.problems, *(_issue_at(_Document(value, positions, str(path)), where, what)
                                  for where, what in merged.problems)]
    return _Document(merged.value, merged.positions, str(path), problems)


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
    """An issue placed at the deepest part of `path` the files define.

    The path shown is the one in the file that holds the value: a variant's
    third card is `cards[2]` there, wherever it landed in the merged list.
    """
    probe = tuple(path)
    while probe not in doc.positions and probe:
        probe = probe[:-1]
    pos = doc.positions.get(probe)
    if pos is None:
        return Issue(doc.file, 1, 1, _dotted(path), message)
    return Issue(pos.file, pos.line, pos.col, _dotted((*pos.path, *path[len(probe):])), message)


def _schema_issues(doc: _Document, errors: Iterable[jsonschema.ValidationError],
                   prefix: JsonPath) -> list[Issue]:
    issues = []
    for error in errors:
        if error.context:  # oneOf / anyOf
            error = _closest(error)
        path = (*prefix, *error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            # Point at each unexpected key, which may sit in another file.
            known = error.schema.get("properties", {})
            for key in [k for k in error.instance if k not in known]:
                issues.append(_issue_at(doc, (*path, key),
                                        f"unknown key {key!r}{did_you_mean(key, known)}"))
            continue
        issues.append(_issue_at(doc, path, error.message))
    return issues


def _errors(schema: dict[str, Any], value: Any) -> list[jsonschema.ValidationError]:
    return list(jsonschema.Draft202012Validator(schema).iter_errors(value))


def _closest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a value that fits none of several shapes: what is wrong with the closest one.

    The closest is the one whose error lies deepest in the value (a number
    too large inside the right kind of mapping beats "not an integer").
    When every shape only asks for a different key, the message lists them.
    """
    if all(e.validator == "required" and not e.relative_path for e in error.context):
        wanted = [e.validator_value[0] for e in error.context if e.validator_value]
        error.message = f"needs one of {', '.join(map(repr, wanted))}"
        return error
    return max(error.context, key=lambda e: (len(e.relative_path), e.validator != "type"))


@dataclass
class _Envelope:
    """The envelope's parts that passed their schema (None: absent or with errors listed)."""

    players: dict[str, Any] | None
    rules: list[dict[str, Any]] | None
    options: dict[str, Any] | None

    @classmethod
    def of(cls, value: dict[str, Any], errors: list[jsonschema.ValidationError]) -> _Envelope:
        bad = {error.absolute_path[0] for error in errors if error.absolute_path}
        parts = {key: None if key in bad else value.get(key)
                 for key in ("players", "rules", "options")}
        return cls(**parts)


def _envelope_issues(doc: _Document, envelope: _Envelope) -> list[Issue]:
    """Checks on the envelope the schema cannot express, on the parts it accepts."""
    issues = []
    players = envelope.players or {}
    if players.get("min", 1) > players.get("max", 1):
        issues.append(_issue_at(doc, ("players",), "min is larger than max"))
    seats = players.get("seats")
    if seats and len(seats) != len(set(seats)):
        issues.append(_issue_at(doc, ("players", "seats"), "seat names repeat"))
    rules = envelope.rules or []
    ids = {s["id"] for s in rules}
    seen: set[str] = set()
    for i, section in enumerate(rules):
        if section["id"] in seen:
            issues.append(_issue_at(doc, ("rules", i, "id"),
                                    f"section id {section['id']!r} is used twice"))
        seen.add(section["id"])
        for j, target in enumerate(section.get("see_also", [])):
            if target not in ids:
                issues.append(_issue_at(doc, ("rules", i, "see_also", j),
                                        f"see_also names no section {target!r}"))
    for name, spec in (envelope.options or {}).items():
        if "default" in spec:
            try:
                coerce_option(name, spec, spec["default"])
            except RulesetError as exc:
                issues.append(_issue_at(doc, ("options", name, "default"), str(exc)))
    return issues


def _engine_issues(doc: _Document, envelope: _Envelope) -> list[Issue]:
    from .games import UnknownEngine, engine_class

    engine_id = doc.value["engine"]
    try:
        engine = engine_class(engine_id)
    except UnknownEngine as exc:
        return [_issue_at(doc, ("engine",), str(exc))]
    data_schema = _schema(engine_id)
    if data_schema is None:
        return [_issue_at(doc, ("engine",), f"no schema for engine {engine_id!r}")]
    data = doc.value["data"]
    issues = _schema_issues(doc, _errors(data_schema, data), ("data",))
    if not issues:
        issues = [_issue_at(doc, ("data", *p.path), p.message) for p in engine.check(data)]
    options_ok = envelope.options is not None or "options" not in doc.value
    if not issues and envelope.players is not None and options_ok:
        issues = [_issue_at(doc, p.path, p.message)
                  for p in engine.check_setup(envelope.players, envelope.options or {}, data)]
    if envelope.options:
        issues += [_issue_at(doc, p.path, p.message)
                   for p in engine.option_problems(envelope.options)]
    return issues


# Characters a terminal acts on (escape sequences, bell, carriage return, NUL ...):
# a ruleset's texts are printed by `agon rules`, `agon rulesets` and at a human
# seat, so a shared file must not be able to drive the reader's terminal.
CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _control_issues(doc: _Document) -> list[Issue]:
    """Each text (or key) of the ruleset that holds a control character; tab and
    newline are text."""
    issues: list[Issue] = []

    def walk(value: Any, path: JsonPath) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                found = CONTROL_CHARACTER.search(key)
                if found:
                    issues.append(_issue_at(doc, path, _control_message(found[0], "a key")))
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))
        elif isinstance(value, str):
            found = CONTROL_CHARACTER.search(value)
            if found:
                issues.append(_issue_at(doc, path, _control_message(found[0], "the text")))

    walk(doc.value, ())
    return issues


def _control_message(char: str, what: str) -> str:
    return (f"{what} holds the control character U+{ord(char):04X}, which a terminal "
            "would act on: write plain text (tab and newline are allowed)")


def _validate(doc: _Document) -> list[Issue]:
    """Every problem: envelope schema, envelope checks, data schema, engine checks."""
    errors = _errors(_schema("ruleset"), doc.value)
    envelope = _Envelope.of(doc.value, errors)
    issues = doc.problems + _schema_issues(doc, errors, ()) + _envelope_issues(doc, envelope)
    issues += _control_issues(doc)
    value = doc.value
    if isinstance(value.get("engine"), str) and isinstance(value.get("data"), dict):
        issues += _engine_issues(doc, envelope)
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


def validate_file(path: str | Path, rulesets_path: RulesetsPath = (),
                  ) -> tuple[Ruleset | None, list[Issue]]:
    """The ruleset in `path` and every problem found (empty when valid).

    `rulesets_path` lists the folders, beside the file's own and the shipped
    one, where its `extends` may lead.
    """
    try:
        doc = _read(Path(path), tuple(rulesets_path))
    except RulesetError as exc:
        if exc.issues:
            return None, exc.issues
        return None, [Issue(str(path), 1, 1, "$", str(exc))]
    issues = _validate(doc)
    return (None if issues else _build(doc)), issues


def validate_value(value: dict[str, Any], source: str) -> tuple[Ruleset | None, list[Issue]]:
    """A ruleset already in memory (no `extends` left to merge), checked like a file."""
    doc = _Document(value, {}, source)
    issues = _validate(doc)
    return (None if issues else _build(doc)), issues


def load_ruleset(ref: str | Path, rulesets_path: RulesetsPath = ()) -> Ruleset:
    """A valid ruleset from an id (shipped or in `rulesets_path`) or a path."""
    folders = tuple(Path(folder) for folder in rulesets_path)
    path = locate(ref, folders)
    info = path.stat()
    return _load_cached(str(path.resolve()), info.st_mtime_ns, info.st_size, folders)


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime_ns: int, size: int, rulesets_path: RulesetsPath) -> Ruleset:
    ruleset, issues = validate_file(path, rulesets_path)
    if ruleset is None:
        listing = "\n".join(f"  {issue}" for issue in issues)
        raise RulesetError(f"{path} is not a valid ruleset:\n{listing}", issues)
    return ruleset
