"""Semantic checks of the ten-thousand ruleset data, beyond its JSON Schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Problem

PHASE_STEPS = {"draw", "roll", "consumption", "end"}
MODIFIER_KINDS = {"always", "flag", "space_at_most", "column", "has_token", "per_token"}


def check_data(data: dict[str, Any]) -> Iterator[Problem]:
    yield from check_tables(data)
    yield from check_phases(data)
    yield from check_cards(data)
    yield from check_leaders(data)


def check_tables(data: dict[str, Any]) -> Iterator[Problem]:
    tokens = set(data["tokens"])
    rolls = set(data["rolls"])
    for tid, table in data["tables"].items():
        where = ("tables", tid)
        if table["roll"] not in rolls:
            yield Problem(where + ("roll",), f"unknown roll code {table['roll']!r}")
        rows = table.get("rows", [])
        if table["outcome"] == "rows":
            if not rows:
                yield Problem(where, "a rows table needs rows")
            low, high = table["dice"], 6 * table["dice"]
            if rows and (rows[0]["min"] > low or rows[-1]["max"] < high):
                yield Problem(where + ("rows",), f"rows must cover every roll {low}-{high}")
            for i in range(1, len(rows)):
                if rows[i]["min"] != rows[i - 1]["max"] + 1:
                    yield Problem(where + ("rows", i), "rows must follow on without gap or overlap")
        if table["outcome"] == "attack" and not (table.get("hit") and table.get("miss")):
            yield Problem(where, "an attack table needs hit and miss results")
        if table["outcome"] == "loss" and not table.get("men_per_point"):
            yield Problem(where, "a loss table needs men_per_point")
        for i, row in enumerate(rows + [table.get("hit") or {}, table.get("miss") or {}]):
            for key in ("gain", "lose"):
                for token in row.get(key, {}):
                    if token not in tokens:
                        yield Problem(where + ("rows", i, key), f"unknown token {token!r}")
        for i, mod in enumerate(table.get("modifiers", [])):
            if mod["when"] not in MODIFIER_KINDS:
                yield Problem(where + ("modifiers", i), f"unknown modifier kind {mod['when']!r}")
            if mod["when"] == "column" and mod.get("table") not in data["tables"]:
                yield Problem(where + ("modifiers", i), "column modifier names an unknown table")
            if mod.get("token") is not None and mod["token"] not in tokens:
                yield Problem(where + ("modifiers", i), f"unknown token {mod['token']!r}")


def check_phases(data: dict[str, Any]) -> Iterator[Problem]:
    ids = set()
    for i, phase in enumerate(data["phases"]):
        if phase["id"] in ids:
            yield Problem(("phases", i), f"duplicate phase {phase['id']!r}")
        ids.add(phase["id"])
        if phase["step"] not in PHASE_STEPS:
            yield Problem(("phases", i), f"unknown step {phase['step']!r}")
        if phase["step"] == "roll" and phase.get("table") not in data["tables"]:
            yield Problem(("phases", i), f"phase {phase['id']} names an unknown table")
    if data["phases"] and data["phases"][-1]["step"] != "end":
        yield Problem(("phases",), "the last phase must be the end phase")


def check_cards(data: dict[str, Any]) -> Iterator[Problem]:
    rolls = set(data["rolls"]) | {"any"}
    tokens = set(data["tokens"])
    numbers, names = set(), set()
    for i, card in enumerate(data["cards"]):
        if card["number"] in numbers:
            yield Problem(("cards", i, "number"), f"duplicate card number {card['number']}")
        if card["name"] in names:
            yield Problem(("cards", i, "name"), f"duplicate card name {card['name']!r}")
        numbers.add(card["number"])
        names.add(card["name"])
        labels = set()
        for j, opt in enumerate(card["options"]):
            if "roll" in opt and opt["roll"] not in rolls:
                yield Problem(("cards", i, "options", j), f"unknown roll code {opt['roll']!r}")
            for token in opt.get("tokens", {}):
                if token not in tokens:
                    yield Problem(("cards", i, "options", j), f"unknown token {token!r}")
            label = (opt["effect"], opt.get("roll"), opt.get("amount"), str(opt.get("tokens")))
            if label in labels:
                yield Problem(("cards", i, "options", j), "two options of a card are the same")
            labels.add(label)


def check_leaders(data: dict[str, Any]) -> Iterator[Problem]:
    ids = {data["unnamed_leader"]["id"]}
    for i, leader in enumerate(data["leaders"]):
        if leader["id"] in ids:
            yield Problem(("leaders", i), f"duplicate leader id {leader['id']!r}")
        ids.add(leader["id"])
        for roll in leader.get("roll_modifiers", {}):
            if roll not in data["rolls"]:
                yield Problem(("leaders", i), f"unknown roll code {roll!r}")
