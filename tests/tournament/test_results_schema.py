"""`agon tournament --format json` output validates against schemas/results.schema.json."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import agon.schemas

SCHEMA = json.loads((Path(agon.schemas.__file__).parent / "results.schema.json").read_text())


def valid(table: dict) -> dict:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    errors = sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(table), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    return table


@pytest.mark.parametrize("args, kind", [
    (["earth-and-water", "-b", "random", "-b", "r2=random", "--games", "2"], "duel"),
    (["ten-thousand", "-p", "3", "-b", "random", "-b", "r2=random", "-b", "r3=random",
      "--games", "1"], "multiplayer"),
    (["earth-and-water-solo", "-b", "random", "-b", "r2=random", "--games", "2"], "solo"),
])
def test_real_tournaments_give_valid_results(agon_json, args, kind):
    table = valid(agon_json(*args))
    assert table["format"] == "agon-results/1" and table["kind"] == kind
    assert table["played"] == table["games"]


def test_a_team_game_of_four_gives_valid_results_with_teams_and_ratings(agon_json):
    table = valid(agon_json("epireia", "-p", "4", "-b", "a=random", "-b", "b=random",
                            "-b", "c=random", "-b", "d=random", "--games", "1", "--jobs", "2"))
    assert table["kind"] == "multiplayer" and {t["team"] for t in table["teams"]} == \
        {"delian", "peloponnesian"}
    for row in table["bots"]:
        skill = row["openskill"]
        assert skill["ordinal"] == pytest.approx(skill["mu"] - 3 * skill["sigma"], abs=1e-3)


def test_an_sprt_match_gives_valid_results_with_its_sprt_object(picks, agon_json,
                                                                first_legal_bot, last_legal_bot):
    table = valid(agon_json("picks", "--bot", f"s={first_legal_bot}", "--bot",
                            f"w={last_legal_bot}", "--sprt", "elo0=0 elo1=200", "-n", "20"))
    assert table["sprt"]["decision"] == "H1"
    pair = table["pairs"][0]
    assert pair["paired"]["elo"] is None  # a perfect score: infinite, so null in JSON


def test_the_schema_rejects_what_the_format_does_not_allow(agon_json, picks):
    table = agon_json("picks", "-b", "random", "-b", "r2=random", "--games", "1")
    valid(table)
    for broken in (dict(table, format="agon-results/0"),
                   dict(table, sprt={"decision": "maybe"}),
                   dict(table, bots=[dict(table["bots"][0], score=1.5)])):
        assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(broken))
