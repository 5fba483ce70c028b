"""A guarded YAML reader that remembers where every value came from.

A ruleset may come from anyone, so nothing in it may hurt the reader:

* the file is read with a byte limit, never whole (a pipe, /dev/zero and
  /proc files have no size to check beforehand);
* values are built from libyaml's event stream in a loop, never by recursion,
  so the nesting depth is counted while reading and a file nested 30,000
  levels deep is refused at level 65 instead of overflowing the C stack
  (PyYAML's `compose` recurses once per level, in C);
* the number of values is counted as they are built, aliases included, which
  is what bounds an alias bomb;
* only the JSON-like tags are allowed, every scalar must convert (`!!float ~`
  is an error, not an exception) and numbers must be finite and exact in
  JSON (whole numbers up to 2^53).

Each value's position is kept so that errors can say `file:line:col`.
"""

from __future__ import annotations

import copy
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
TOO_DEEP = f"nested too deeply (the limit is {MAX_DEPTH} levels)"
MAX_VALUES = 200_000
MAX_INTEGER = 2**53 - 1  # the largest whole number every JSON reader keeps exact

# libyaml's parser is ten times faster than the pure-Python one where present.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

JsonPath = tuple[str | int, ...]

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
}
_KEEP_AS_TEXT = {"tag:yaml.org,2002:timestamp"}  # dates stay strings: data is JSON
_MAP_TAG, _SEQ_TAG = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"


class YamlError(Exception):
    """The file is not YAML we accept; `line`/`col` are 1-based (1:1 for the whole file)."""

    def __init__(self, message: str, line: int = 1, col: int = 1,
                 path: JsonPath = ()) -> None:
        super().__init__(message)
        self.message, self.line, self.col, self.path = message, line, col, path
        self.also: list[YamlError] = []  # further errors found in the same file


@dataclass(frozen=True)
class Position:
    file: str
    line: int
    col: int
    path: JsonPath = ()  # where the value sits in its own file


def read_yaml(path: Path) -> tuple[Any, dict[JsonPath, Position]]:
    """Parse `path` into plain values plus a map from JSON path to position."""
    raw = read_bounded(path, MAX_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(f"not UTF-8 text (byte {exc.start})") from None
    return parse_yaml(text, str(path))


def read_bounded(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of `path`; YamlError if it holds more or cannot be read.

    A regular file too large is refused from its size; a stream (a pipe,
    /dev/zero, a /proc file) is read up to one byte past the limit.
    """
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise YamlError(f"the file is {size:,} bytes; rulesets are limited to {limit:,}")
            raw = handle.read(limit + 1)
    except IsADirectoryError:
        raise YamlError("this is a folder, not a ruleset file") from None
    except OSError as exc:
        raise YamlError(f"cannot read the file ({exc.strerror or exc})") from None
    except ValueError as exc:  # e.g. a NUL byte in the name
        raise YamlError(f"cannot read the file ({exc})") from None
    if len(raw) > limit:
        raise YamlError(f"the file holds more than {limit:,} bytes; "
                        f"rulesets are limited to {limit:,}")
    return raw


def parse_yaml(text: str, file: str) -> tuple[Any, dict[JsonPath, Position]]:
    # Building values is the slow part of parsing: refuse files that plainly
    # hold more values than we accept before building any.
    separators = text.count(",") + text.count("\n") + text.count("[") + text.count("{")
    if separators > MAX_VALUES:
        raise YamlError(f"holds more than {MAX_VALUES:,} values; rulesets are smaller")
    builder = _Builder(file)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            builder.take(event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if "nesting depth" in str(exc.problem):   # PyYAML 6.0.4's own limit, met first
            raise YamlError(TOO_DEEP, line, col) from None
        raise YamlError(f"not valid YAML: {exc.problem}", line, col) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"not valid YAML: {exc}") from None
    if builder.documents == 0:
        raise YamlError("the file is empty")
    if builder.bad_scalars:
        first, *rest = builder.bad_scalars
        first.also = rest
        raise first
    return builder.root, builder.positions


@dataclass
class _Open:
    """A mapping or sequence whose end event has not come yet."""

    value: dict[str, Any] | list[Any]
    path: JsonPath
    anchor: str | None
    values_before: int  # the builder's count when it opened: its size at the end
    key: str | None = None  # a mapping's key waiting for its value


@dataclass
class _Builder:
    """Plain values from a stream of YAML events, one event at a time."""

    file: str
    positions: dict[JsonPath, Position] = field(default_factory=dict)
    anchors: dict[str, tuple[Any, int]] = field(default_factory=dict)  # value, size
    stack: list[_Open] = field(default_factory=list)
    root: Any = None
    documents: int = 0
    values: int = 0
    bad_scalars: list[YamlError] = field(default_factory=list)  # reported together at the end
    loader: yaml.SafeLoader = field(default_factory=lambda: yaml.SafeLoader(""))

    def fail(self, mark: Any, message: str, path: JsonPath | None = None) -> YamlError:
        if path is None:
            path = self.stack[-1].path if self.stack else ()
        return YamlError(message, mark.line + 1, mark.column + 1, path)

    def take(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.ScalarEvent):  # the commonest first
            self.scalar(event)
        elif isinstance(event, yaml.CollectionStartEvent):
            self.open(event)
        elif isinstance(event, yaml.CollectionEndEvent):
            self.close()
        elif isinstance(event, yaml.AliasEvent):
            self.alias(event)
        elif isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.fail(event.start_mark, "a ruleset is one YAML document, "
                                                  "this file holds several")

    # -- where a new value goes ----------------------------------------------

    def next_path(self, event: yaml.Event, is_scalar: bool) -> JsonPath | None:
        """The path of the value `event` starts; None when it is a mapping key."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.value, list):
            return (*top.path, len(top.value))
        if top.key is None:
            if not is_scalar:
                raise self.fail(event.start_mark, "mapping keys must be plain scalars")
            return None
        return (*top.path, top.key)

    def count(self, size: int, mark: Any) -> None:
        """Count `size` more values, refusing past the limit (before building them)."""
        self.values += size
        if self.values > MAX_VALUES:
            raise self.fail(mark, f"expands to more than {MAX_VALUES:,} values (an alias bomb?)")

    def attach(self, value: Any) -> None:
        """Put a value in its container (or make it the root)."""
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if isinstance(top.value, list):
            top.value.append(value)
        else:
            top.value[top.key] = value
            top.key = None

    def take_key(self, event: yaml.ScalarEvent) -> None:
        top = self.stack[-1]
        if event.tag not in (None, "!") and event.tag not in _SCALAR_TAGS:
            raise self.fail(event.start_mark, f"tag {event.tag} is not allowed in a ruleset")
        if event.value in top.value:
            raise self.fail(event.start_mark, f"duplicate key {event.value!r}",
                            (*top.path, event.value))
        top.key = event.value

    # -- the events --------------------------------------------------------------

    def scalar(self, event: yaml.ScalarEvent) -> None:
        path = self.next_path(event, is_scalar=True)
        if path is None:
            self.take_key(event)
            return
        self.positions[path] = Position(self.file, event.start_mark.line + 1,
                                        event.start_mark.column + 1, path)
        try:
            value = self.convert(event, path)
        except YamlError as exc:
            self.bad_scalars.append(exc)
            value = None
        if event.anchor:
            self.anchors[event.anchor] = (value, 1)
        self.count(1, event.start_mark)
        self.attach(value)

    def alias(self, event: yaml.AliasEvent) -> None:
        path = self.next_path(event, is_scalar=False)
        if event.anchor not in self.anchors:
            raise self.fail(event.start_mark, f"alias *{event.anchor} names no complete "
                                              "anchor before it", path)
        value, size = self.anchors[event.anchor]
        # Errors inside the copy point at the alias: the nearest place the file names.
        self.positions[path] = Position(self.file, event.start_mark.line + 1,
                                        event.start_mark.column + 1, path)
        self.count(size, event.start_mark)  # an alias bomb stops here, before any copy
        self.attach(copy.deepcopy(value))

    def open(self, event: yaml.CollectionStartEvent) -> None:
        path = self.next_path(event, is_scalar=False)
        is_map = isinstance(event, yaml.MappingStartEvent)
        expected = _MAP_TAG if is_map else _SEQ_TAG
        if event.tag not in (None, "!", expected):
            raise self.fail(event.start_mark, f"tag {event.tag} is not allowed in a ruleset",
                            path)
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(event.start_mark, TOO_DEEP)
        self.positions[path] = Position(self.file, event.start_mark.line + 1,
                                        event.start_mark.column + 1, path)
        value: dict[str, Any] | list[Any] = {} if is_map else []
        self.count(1, event.start_mark)
        self.attach(value)
        self.stack.append(_Open(value, path, event.anchor, self.values))

    def close(self) -> None:
        done = self.stack.pop()
        if done.anchor:
            self.anchors[done.anchor] = (done.value, 1 + self.values - done.values_before)

    # -- scalars -------------------------------------------------------------------

    def convert(self, event: yaml.ScalarEvent, path: JsonPath) -> Any:
        """The scalar's value by its tag (explicit or resolved), checked."""
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag in _KEEP_AS_TEXT:
            return event.value
        if tag not in _SCALAR_TAGS:
            raise self.fail(event.start_mark, f"tag {tag} is not allowed in a ruleset", path)
        kind = tag.rsplit(":", 1)[-1]
        text = event.value if len(event.value) <= 40 else event.value[:40] + "..."
        if kind in ("int", "float") and len(event.value) > 400:
            raise self.fail(event.start_mark, f"{text!r} ({len(event.value):,} characters) "
                                              "is far too long for a number", path)
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark)
        try:
            value = self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError, KeyError, TypeError, OverflowError):
            raise self.fail(event.start_mark, f"{text!r} is not a valid {kind} "
                                              f"(tag !!{kind})", path) from None
        self.check_number(value, event, path)
        return value

    def check_number(self, value: Any, event: yaml.ScalarEvent, path: JsonPath) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int) and abs(value) > MAX_INTEGER:
            raise self.fail(event.start_mark, f"the number {event.value[:40]!r} is too large: "
                                              f"rulesets hold whole numbers up to "
                                              f"{MAX_INTEGER:,}", path)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(event.start_mark, f"{event.value[:40]!r} is not a finite number "
                                              "(rulesets are JSON: no infinity, no NaN)", path)
