"""A variant on top of the ruleset it `extends`: the merged value, and where each part came from.

* Mappings merge key by key.
* A list of records (every entry a mapping with an `id`) merges entry by entry:
  a variant's entry replaces the base's entry of the same id where it stands,
  an entry with a new id is appended, and ``{id: X, delete: true}`` removes X.
  So a variant that changes one card holds that one card.
* Anything else (a number, a text, a list of plain values or of records
  without ids, an empty list) replaces the base's value whole.

Every value keeps the position of the file that wrote it, so an error in a
merged ruleset points at the variant's own line, or at the base's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .yamlsafe import JsonPath, Position

Positions = dict[JsonPath, Position]
Moves = dict[int, int]  # an entry's index in its own file -> its index in the merged list


@dataclass
class Merged:
    value: dict[str, Any]
    positions: Positions
    problems: list[tuple[JsonPath, str]]  # where in the variant, what is wrong


@dataclass
class _Plan:
    """What the merge did, to move each file's positions where their values went."""

    base_moves: dict[JsonPath, Moves] = field(default_factory=dict)
    variant_moves: dict[JsonPath, Moves] = field(default_factory=dict)
    replaced: set[JsonPath] = field(default_factory=set)  # base values the variant replaced
    problems: list[tuple[JsonPath, str]] = field(default_factory=list)


def merge_variant(base: dict[str, Any], base_positions: Positions,
                  variant: dict[str, Any], variant_positions: Positions) -> Merged:
    """`variant` merged on top of `base`, with the positions of both files."""
    plan = _Plan()
    value = _merge(base, variant, (), plan)
    positions = {**_moved_positions(base_positions, plan.base_moves, plan.replaced),
                 **_moved_positions(variant_positions, plan.variant_moves, set())}
    return Merged(value, positions, plan.problems)


def record_id(entry: Any) -> str | int | None:
    """A record's id, where it has one that can be matched."""
    key = entry.get("id") if isinstance(entry, dict) else None
    return key if isinstance(key, str | int) and not isinstance(key, bool) else None


def _is_records(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        record_id(entry) is not None for entry in value)


def _merge(base: Any, over: Any, path: JsonPath, plan: _Plan) -> Any:
    # The recursion follows mappings only, so `path` is the same in the base,
    # the variant and the merged value.
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _merge(base[key], value, (*path, key), plan) if key in base else value
        return out
    if _is_records(base) and isinstance(over, list) and over:
        return _merge_records(base, over, path, plan)
    plan.replaced.add(path)
    return over


_GONE = object()  # a deleted entry's slot


def _merge_records(base: list[Any], over: list[Any], path: JsonPath, plan: _Plan) -> list[Any]:
    slots = list(base)  # the merged entries, in order; _GONE where one was deleted
    where: dict[str | int, int] = {}
    for slot, entry in enumerate(base):
        where.setdefault(record_id(entry), slot)
    kept = set(range(len(base)))  # base entries the variant leaves as they are
    placed: dict[int, int] = {}  # variant entry -> slot
    seen: set[str | int] = set()
    for index, entry in enumerate(over):
        key = record_id(entry)
        if key is not None and key in seen:
            plan.problems.append(((*path, index, "id"), f"id {key!r} is given twice in this "
                                                        "list: give each entry once"))
            continue
        if key is not None:
            seen.add(key)
        if isinstance(entry, dict) and "delete" in entry:
            problem = _deletion_problem(entry, key, where)
            if problem:
                plan.problems.append(((*path, index), problem))
            else:
                slots[where[key]] = _GONE
                kept.discard(where[key])
            continue
        if key in where:
            slots[where[key]] = entry
            kept.discard(where[key])
            placed[index] = where[key]
        else:  # a new id, or no usable id (the schema then says what is wrong with it)
            placed[index] = len(slots)
            slots.append(entry)
    merged, final = [], {}
    for slot, entry in enumerate(slots):
        if entry is not _GONE:
            final[slot] = len(merged)
            merged.append(entry)
    plan.base_moves[path] = {slot: final[slot] for slot in kept}
    plan.variant_moves[path] = {index: final[slot] for index, slot in placed.items()}
    return merged


def _deletion_problem(entry: dict[str, Any], key: str | int | None,
                      where: dict[str | int, int]) -> str | None:
    if key is None or entry["delete"] is not True or set(entry) != {"id", "delete"}:
        return "an entry that deletes is {id: ..., delete: true} and nothing else"
    if key not in where:
        return f"nothing to delete: the ruleset this extends has no entry {key!r} here"
    return None


def _moved_positions(positions: Positions, moves: dict[JsonPath, Moves],
                     replaced: set[JsonPath]) -> Positions:
    out = {}
    for path, position in positions.items():
        moved = _moved(path, moves, replaced)
        if moved is not None:
            out[moved] = position
    return out


def _moved(path: JsonPath, moves: dict[JsonPath, Moves], replaced: set[JsonPath],
           ) -> JsonPath | None:
    """Where a value of one file sits in the merged ruleset; None when it is gone.

    Merging only ever follows mapping keys, so only the part of `path` before
    its first list index can name a merged list or a replaced value.
    """
    for depth, part in enumerate(path):
        head = path[:depth]
        if head in replaced:
            return None  # inside a value the variant replaced whole
        if isinstance(part, int):
            if head not in moves:
                return path
            index = moves[head].get(part)
            return None if index is None else (*head, index, *path[depth + 1:])
    return path
