"""Rulesets that pass the schema but that their engine could not play.

Each file here is one a user might write: valid YAML, every value of the right
type and in range, but the data does not hold together.  Before these checks
each one validated and then crashed a game ("internal error", exit 3), hung it
for ever, or played something other than what the file says.  Now `agon
validate` refuses it, exit 1, with the file, line, path and the problem.
"""

from __future__ import annotations

import copy
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from agon.cli.main import app
from agon.referee.ruleset import load_ruleset

runner = CliRunner()


def validate(path: Path) -> tuple[int, list[str]]:
    result = runner.invoke(app, ["validate", str(path)])
    return result.exit_code, result.stdout.splitlines()


def variant(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "v.yaml"
    head = "format: agon-ruleset/1\nid: house-rules\nname: House rules\nversion: \"1\"\n"
    path.write_text(head + textwrap.dedent(text), encoding="utf-8")
    return path


def edited(tmp_path: Path, ruleset_id: str, edit: Callable[[dict[str, Any]], None]) -> Path:
    """A whole copy of a shipped ruleset (no `extends`), changed by `edit`."""
    raw = {k: v for k, v in copy.deepcopy(load_ruleset(ruleset_id).raw).items()
           if k != "extends"}
    raw["id"] = "house-rules"
    edit(raw)
    path = tmp_path / "copy.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return path


# (base, the variant's text, its one error after `v.yaml:`)
VARIANTS = [
    # was: internal error "PERS.IA is stuck in step buy"
    ("earth-and-water-solo", """\
        extends: earth-and-water-solo
        players: {min: 1, max: 1, seats: [persia]}
        data:
          automaton: {side: greece}
        """, "8:21: $.data.automaton.side: the automaton's rules (PERS.IA) play persia "
             "only, not greece"),
    # was: valid, and the persia seat was never asked anything
    ("earth-and-water-solo", """\
        extends: earth-and-water-solo
        players: {min: 2, max: 2, seats: [persia, greece]}
        """, "6:34: $.players.seats: the automaton plays persia, which also has a seat"),
    # was: valid, and the game ended after one campaign
    ("earth-and-water", """\
        extends: earth-and-water
        data:
          setup: {campaign: 6}
        """, "7:21: $.data.setup.campaign: the game starts in campaign 6 but lasts 5"),
    # was: valid, and "false" (a text) read as true: fleets were cheap
    ("earth-and-water", """\
        extends: earth-and-water
        options:
          cheap_fleets: {type: string, default: "false"}
        """, "7:24: $.options.cheap_fleets.type: the earth-and-water engine reads option "
             "cheap_fleets as boolean, not string"),
    # was: internal error "IndexError: Cannot choose from an empty sequence"
    ("ten-thousand", """\
        extends: ten-thousand
        data:
          leaders:
            - {id: chirisophus, name: Chirisophus the Spartan, hand_limit_bonus: -8}
        """, "8:74: $.data.leaders[0].hand_limit_bonus: chirisophus's hand limit would be "
             "7 -8 = -1, below zero"),
    # was: valid, and the Negotiation roll never happened
    ("ten-thousand", """\
        extends: ten-thousand
        data:
          tables:
            negotiation: {only_if: {flag: satrapy}}
        """, "8:35: $.data.tables.negotiation.only_if.flag: no roll result or choice sets "
             "the flag 'satrapy', so this never applies"),
    # was: internal error "IndexError: list index out of range" at the great battle
    ("epireia", """\
        extends: epireia
        data:
          seating: {"2": [delian, delian]}
        """, "7:18: $.data.seating.2: seats nobody in the peloponnesian league: the great "
             "battle needs a player in each league"),
    # was: internal error "TypeError: '>=' not supported between instances of 'int' and 'str'"
    ("epireia", """\
        extends: epireia
        options:
          max_turns: {type: string, default: "20"}
        """, "7:21: $.options.max_turns.type: the epireia engine reads option max_turns as "
             "integer, not string"),
    # was: valid, and 'Printed' played as rolled incomes
    ("city-states", """\
        extends: city-states
        options:
          incomes: {choices: [rolled, Printed], default: Printed}
        """, "7:31: $.options.incomes.choices[1]: the city-states engine knows no incomes "
             "'Printed' (it knows rolled, printed)"),
]


@pytest.mark.parametrize("base, text, error", VARIANTS,
                         ids=[f"{v[0]}:{v[2].split(': ')[1]}" for v in VARIANTS])
def test_a_variant_its_engine_cannot_play_is_refused_where_it_is_wrong(tmp_path, base,
                                                                       text, error):
    path = variant(tmp_path, text)
    code, lines = validate(path)
    assert code == 1
    assert lines == [f"{path}:{error}"]


def _only_the_end_phase(raw):
    raw["data"]["phases"] = [{"id": "end", "name": "End Phase", "step": "end"}]


def _three_cities(raw):
    data = raw["data"]
    data["cities"] = [c for c in data["cities"] if c["id"] in ("athens", "sparta", "corinth")]
    data["city_order"] = ["corinth", "sparta", "athens"]
    data["figures"] = [f for f in data["figures"] if f["city"] in data["city_order"]]


def _three_named_cities(raw):
    named = [s for s in raw["data"]["map"]["spaces"] if s.get("city") == "named"]
    for space in named[3:]:
        space["city"] = "minor"


def _travel_that_never_moves(raw):
    raw["data"]["tables"]["travel"]["modifiers"].append(
        {"when": "always", "value": -20, "label": "lost"})


# (ruleset, the change to a whole copy, the path and the error)
COPIES = [
    # was: a game that never ended, with no decision to make (a hang)
    ("ten-thousand", _only_the_end_phase,
     "$.data.phases: no phase rolls on a move table (outcome: move): no army could ever "
     "reach the finish"),
    ("ten-thousand", _travel_that_never_moves,
     "$.data.phases[14]: the move table 'travel' never totals more than 0: no army could "
     "ever reach the finish"),
    # was: internal error "IndexError: Cannot choose from an empty sequence" with 4 players
    ("epireia", _three_cities,
     "$.players.max: 4 players need a city each but data.cities has 3"),
    # was: internal error "ValueError: the map has only 3 named city states for 6 players"
    ("city-states", _three_named_cities,
     "$.players.max: 6 players need a home each but data.map has 3 named city states"),
]


@pytest.mark.parametrize("ruleset_id, edit, error", COPIES,
                         ids=[f"{c[0]}:{c[1].__name__}" for c in COPIES])
def test_an_edited_copy_its_engine_cannot_play_is_refused(tmp_path, ruleset_id, edit, error):
    path = edited(tmp_path, ruleset_id, edit)
    code, lines = validate(path)
    assert code == 1
    assert len(lines) == 1 and re.fullmatch(rf"{re.escape(str(path))}:\d+:\d+: "
                                            rf"{re.escape(error)}", lines[0]), lines


def test_a_variant_that_names_another_engine_is_refused_on_its_engine_line(tmp_path):
    """It was refused with 117 schema errors, each at a line of the shipped base."""
    path = variant(tmp_path, """\
        extends: earth-and-water
        engine: ten-thousand
        """)
    code, lines = validate(path)
    assert code == 1
    assert lines == [f"{path}:6:9: $.engine: engine 'ten-thousand' is not that of "
                     "earth-and-water.yaml ('earth-and-water'), whose data this variant "
                     "changes: a variant keeps its base's engine"]


def test_texts_that_would_drive_a_terminal_are_refused(tmp_path):
    """They were valid, and `agon rules` printed the escape sequence (here: one that
    sets the terminal's title) straight to the reader's terminal."""
    path = variant(tmp_path, """\
        extends: earth-and-water
        rules:
          - {id: house, title: "House\\u0007", text: "\\u001b]0;owned\\u0007 rule\\tone\\n"}
        """)
    code, lines = validate(path)
    assert code == 1
    tail = "which a terminal would act on: write plain text (tab and newline are allowed)"
    assert lines == [
        f"{path}:7:24: $.rules[0].title: the text holds the control character U+0007, {tail}",
        f"{path}:7:45: $.rules[0].text: the text holds the control character U+001B, {tail}"]
