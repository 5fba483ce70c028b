"""A guarded YAML reader that remembers where every value came from.

PyYAML's safe loader already refuses tags that build Python objects, but it
happily expands alias bombs and recurses until the stack breaks.  This reader
composes the node tree with the safe loader, then builds plain JSON-like
values itself, with bounds on file size, nesting depth and the number of
values produced (which is what an alias bomb inflates).  Every value's
position is kept so that errors can say `file:line:col`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_VALUES = 200_000

# libyaml's parser is ten times faster than the pure-Python one where present.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

JsonPath = tuple[str | int, ...]

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
}
_KEEP_AS_TEXT = {"tag:yaml.org,2002:timestamp"}  # dates stay strings: data is JSON


class YamlError(Exception):
    """The file is not YAML we accept; `line`/`col` are 1-based (1:1 for the whole file)."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


@dataclass(frozen=True)
class Position:
    file: str
    line: int
    col: int


def read_yaml(path: Path) -> tuple[Any, dict[JsonPath, Position]]:
    """Parse `path` into plain values plus a map from JSON path to position."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise YamlError(f"cannot read the file ({exc.strerror})") from None
    if size > MAX_BYTES:
        raise YamlError(f"file is {size:,} bytes; rulesets are limited to {MAX_BYTES:,}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(f"not UTF-8 text (byte {exc.start})") from None
    return parse_yaml(text, str(path))


def parse_yaml(text: str, file: str) -> tuple[Any, dict[JsonPath, Position]]:
    # Building a node per value is the slow part of parsing: refuse files
    # that plainly hold more values than we accept before building any.
    separators = text.count(",") + text.count("\n") + text.count("[") + text.count("{")
    if separators > MAX_VALUES:
        raise YamlError(f"holds more than {MAX_VALUES:,} values; rulesets are smaller")
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlError(f"not valid YAML: {exc.problem}", line, col) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlError(f"nested too deeply (the limit is {MAX_DEPTH} levels)") from None
    if node is None:
        raise YamlError("the file is empty")
    builder = _Builder(file)
    if builder.size(node, 0) > MAX_VALUES:
        raise builder.fail(node, f"expands to more than {MAX_VALUES:,} values (an alias bomb?)")
    return builder.build(node, (), 0), builder.positions


class _Builder:
    def __init__(self, file: str) -> None:
        self.file = file
        self.positions: dict[JsonPath, Position] = {}
        self.sizes: dict[int, int] = {}
        self.loader = yaml.SafeLoader("")

    def fail(self, node: yaml.Node, message: str) -> YamlError:
        return YamlError(message, node.start_mark.line + 1, node.start_mark.column + 1)

    def size(self, node: yaml.Node, depth: int) -> int:
        """How many values `node` expands to, aliases included.

        Memoised per node, so an alias bomb is measured without expanding it.
        """
        if depth > MAX_DEPTH:
            raise self.fail(node, f"nested too deeply (the limit is {MAX_DEPTH} levels)")
        known = self.sizes.get(id(node))
        if known is None:
            children: list = []
            if isinstance(node, yaml.MappingNode):
                children = [value for _, value in node.value]
            elif isinstance(node, yaml.SequenceNode):
                children = node.value
            known = 1 + sum(self.size(child, depth + 1) for child in children)
            self.sizes[id(node)] = known
        return known

    def build(self, node: yaml.Node, path: JsonPath, depth: int) -> Any:
        self.positions[path] = Position(self.file, node.start_mark.line + 1,
                                        node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            return self.build_mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != "tag:yaml.org,2002:seq":
                raise self.fail(node, f"tag {node.tag} is not allowed in a ruleset")
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        return self.build_scalar(node)

    def build_mapping(self, node: yaml.MappingNode, path: JsonPath, depth: int) -> dict:
        if node.tag != "tag:yaml.org,2002:map":
            raise self.fail(node, f"tag {node.tag} is not allowed in a ruleset")
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, "mapping keys must be plain scalars")
            key = str(key_node.value)
            if key in out:
                raise self.fail(key_node, f"duplicate key {key!r}")
            out[key] = self.build(value_node, (*path, key), depth + 1)
        return out

    def build_scalar(self, node: yaml.Node) -> Any:
        if node.tag in _KEEP_AS_TEXT:
            return node.value
        if node.tag not in _SCALAR_TAGS:
            raise self.fail(node, f"tag {node.tag} is not allowed in a ruleset")
        try:
            return self.loader.construct_object(node)
        except yaml.YAMLError as exc:
            raise self.fail(node, f"bad scalar: {exc}") from None
