"""Semantic checks of the ten-thousand ruleset data, beyond its JSON Schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Problem

PHASE_STEPS = {"draw", "roll", "consumption", "end"}
MODIFIER_KINDS = {"always", "flag", "space_at_most", "column", "has_token", "per_token"}



def check_data(data: dict[str, Any]) -> Iterator[Problem]:
    yield from check_tracks(data)
    yield from check_tables(data)
    yield from check_flags(data)
    yield from check_phases(data)
    yield from check_cards(data)
    yield from check_leaders(data)


def check_tracks(data: dict[str, Any]) -> Iterator[Problem]:
    """The march has room to be made, and the solo lines are in order."""
    distance, time = data["tracks"]["distance"], data["tracks"]["time"]
    if distance["finish"] > distance["spaces"]:
        yield Problem(("tracks", "distance", "finish"), f"the finish, space "
                      f"{distance['finish']}, lies beyond the track's {distance['spaces']} "
                      "spaces")
    if distance["start"] >= distance["finish"]:
        yield Problem(("tracks", "distance", "start"), f"the start, space {distance['start']}, "
                      f"is not before the finish, space {distance['finish']}")
    if data["start"]["space"] >= distance["finish"]:
        yield Problem(("start", "space"), f"armies start on space {data['start']['space']}, "
                      f"at or past the finish (space {distance['finish']}): no march to make")
    if time["start"] > time["spaces"]:
        yield Problem(("tracks", "time", "start"), f"the time pawn starts on space "
                      f"{time['start']} of a track of {time['spaces']} spaces")
    solo = data["scoring"]["solo"]
    if solo["great"] < solo["win"]:
        yield Problem(("scoring", "solo", "great"), f"a great victory needs a score of at least "
                      f"a victory's ({solo['win']}), not {solo['great']}")


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
            for i, row in enumerate(rows):
                if row["min"] > row["max"]:
                    yield Problem(where + ("rows", i), f"row {row['min']}-{row['max']} runs "
                                  "backwards")
            for i in range(1, len(rows)):
                if rows[i]["min"] != rows[i - 1]["max"] + 1:
                    yield Problem(where + ("rows", i), "rows must follow on without gap or overlap")
        if table["outcome"] == "attack" and not (table.get("hit") and table.get("miss")):
            yield Problem(where, "an attack table needs hit and miss results")
        if table["outcome"] == "attack" and "token" not in (table.get("only_if") or {}):
            yield Problem(where, "an attack table needs only_if: {token: ...}, the tokens "
                          "its roll must come to at most")
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
            elif mod["when"] == "column" and not any(
                    mod.get("column") in row.get("columns", {})
                    for row in data["tables"][mod["table"]].get("rows", ())):
                yield Problem(where + ("modifiers", i, "column"), f"no row of table "
                              f"{mod['table']!r} has a column {mod.get('column')!r}")
            if mod.get("token") is not None and mod["token"] not in tokens:
                yield Problem(where + ("modifiers", i), f"unknown token {mod['token']!r}")


def _flags_set(data: dict[str, Any]) -> set[str]:
    """Every turn flag some roll result or choice can set."""
    flags: set[str] = set()
    for table in data["tables"].values():
        flags.update(table.get("choice_flags", ()))
        for row in [*table.get("rows", ()), table.get("hit") or {}, table.get("miss") or {}]:
            flags.update(row.get("flags", ()))
            flags.update(row.get("next_turn_flags", ()))   # set when the next turn starts
    return flags


def check_flags(data: dict[str, Any]) -> Iterator[Problem]:
    """A flag a roll waits for (`only_if`) or a modifier reads must be one that is set."""
    flags = _flags_set(data)
    for tid, table in data["tables"].items():
        uses = [(("only_if", "flag"), (table.get("only_if") or {}).get("flag"))]
        uses += [(("modifiers", i, "flag"), mod.get("flag"))
                 for i, mod in enumerate(table.get("modifiers", ()))
                 if mod.get("when") == "flag"]
        for path, flag in uses:
            if flag is not None and flag not in flags:
                yield Problem(("tables", tid, *path), f"no roll result or choice sets the "
                              f"flag {flag!r}, so this never applies")


def _best_total(data: dict[str, Any], table: dict[str, Any]) -> float:
    """The highest total a roll on `table` can reach, before cards and leaders."""
    best: float = 6 * table["dice"]
    for mod in table.get("modifiers", ()):
        value = mod.get("value", 0)
        if mod["when"] == "per_token" and value > 0:
            return float("inf")   # the tokens may pile up without end
        if mod["when"] == "column":
            other = data["tables"].get(mod.get("table"), {})
            value = max([row.get("columns", {}).get(mod.get("column"), 0)
                         for row in other.get("rows", ())], default=0)
        best += value if mod["when"] == "always" else max(0, value)
    return best


def check_phases(data: dict[str, Any]) -> Iterator[Problem]:
    ids = set()
    phases = data["phases"]
    for i, phase in enumerate(phases):
        if phase["id"] in ids:
            yield Problem(("phases", i), f"duplicate phase {phase['id']!r}")
        ids.add(phase["id"])
        if phase["step"] not in PHASE_STEPS:
            yield Problem(("phases", i), f"unknown step {phase['step']!r}")
        if phase["step"] == "roll" and phase.get("table") not in data["tables"]:
            yield Problem(("phases", i), f"phase {phase['id']} names an unknown table")
        if phase["step"] == "end" and i < len(phases) - 1:
            yield Problem(("phases", i), f"phase {phase['id']} is an end phase before the "
                          "last: the phases after it would never be played")
    if phases and phases[-1]["step"] != "end":
        yield Problem(("phases",), "the last phase must be the end phase")
    # A game ends when every army has reached the finish or been destroyed: without
    # a march that can move an army, a game might never end.
    moves = [(i, data["tables"][p["table"]]) for i, p in enumerate(phases)
             if p["step"] == "roll" and data["tables"].get(p.get("table"), {}).get(
                 "outcome") == "move"]
    if not moves:
        yield Problem(("phases",), "no phase rolls on a move table (outcome: move): no army "
                      "could ever reach the finish")
    elif all(_best_total(data, table) <= 0 for _, table in moves):
        i, _ = moves[0]
        yield Problem(("phases", i), f"the move table {phases[i]['table']!r} never totals "
                      "more than 0: no army could ever reach the finish")


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
    limit = data["hand"]["limit"]
    for i, leader in enumerate(data["leaders"]):
        bonus = leader.get("hand_limit_bonus", 0)
        if limit + bonus < 0:
            yield Problem(("leaders", i, "hand_limit_bonus"), f"{leader['id']}'s hand limit "
                          f"would be {limit} {bonus:+} = {limit + bonus}, below zero")
        if leader["id"] in ids:
            yield Problem(("leaders", i), f"duplicate leader id {leader['id']!r}")
        ids.add(leader["id"])
        for roll in leader.get("roll_modifiers", {}):
            if roll not in data["rolls"]:
                yield Problem(("leaders", i), f"unknown roll code {roll!r}")
