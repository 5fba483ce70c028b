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


def test_intervals_that_cannot_be_estimated_are_null_never_zero():
    from agon.referee.ratings import standings
    from agon.referee.report import render_table, to_json

    from .test_ratings import duel, game

    meta = {"ruleset": {"id": "t", "version": "1", "sha256": "0" * 64}, "entrants": {},
            "seed": 1, "seeds": 1, "players": 2, "games": 2, "played": 1, "gauntlet": None,
            "options": {}}
    # one drawn game: score .5, plain Elo 0 with no interval (not "+0 ± 0"), no pair yet
    st = standings([duel(0, "a", "b", None)], "duel", ["a", "b"], ["persia", "greece"],
                   meta=meta)
    table = valid(to_json(st))
    plain = table["pairs"][0]["plain"]
    assert plain["elo"] == 0 and str(plain["elo"]) == "0.0"  # never -0.0
    assert plain["elo_ci95"] is plain["elo_low"] is plain["elo_high"] is None
    assert table["pairs"][0]["paired"] is None and table["bots"][0]["score_ci95"] is None
    assert "+0 (no interval)" in render_table(st) and "± 0 " not in render_table(st)
    # three seats, a always first: 100 % and rank 1 in both games, nothing to spread;
    # d never played (a stopped tournament): no rating, not the prior 25 / 8.33
    seating = {"p1": "a", "p2": "b", "p3": "c"}
    rows = [game(0, seating, {"p1": 1, "p2": 2, "p3": 3}),
            game(1, seating, {"p1": 1, "p2": 3, "p3": 2})]
    st = standings(rows, "multiplayer", ["a", "b", "c", "d"], list(seating),
                   meta=dict(meta, players=3))
    bots = {row["bot"]: row for row in valid(to_json(st))["bots"]}
    assert bots["a"]["score"] == 1 and bots["a"]["score_ci95"] is None
    assert bots["a"]["mean_rank"] == 1 and bots["a"]["mean_rank_ci95"] is None
    # b: ranks 2 and 3, sample sd sqrt(.5): 1.96 * sqrt(.5 / 2) = .98
    assert bots["b"]["mean_rank_ci95"] == pytest.approx(0.98, abs=1e-3)
    assert bots["d"]["openskill"] is None and bots["a"]["openskill"]["mu"] > 25
    line = next(ln for ln in render_table(st).splitlines() if ln.startswith("a "))
    assert "100.0" in line and "±" not in line
