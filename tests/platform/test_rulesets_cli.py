"""`agon rulesets`: the list, one ruleset in detail, and a shipped file to copy."""

from __future__ import annotations

import csv
import io
import json

from typer.testing import CliRunner

from agon.cli.main import app
from agon.referee.ruleset import RULESETS_DIR, load_ruleset


def agon(*args: str):
    return CliRunner().invoke(app, list(args), terminal_width=120)


def test_one_ruleset_shows_its_seats_counts_options_and_variants():
    out = agon("rulesets", "epireia")
    assert out.exit_code == 0, out.output
    text = out.output
    assert "players:     2-4 (default 2)" in text
    assert "4 players: p1, p2, p3, p4 (teams delian: p1, p4 | peloponnesian: p2, p3)" in text
    assert "extended by: epireia-solo" in text and "extends:     -" in text
    assert "max_turns" in text and "20" in text


def test_a_variant_names_what_it_extends_and_its_options_with_choices():
    info = json.loads(agon("rulesets", "epireia-solo", "--format", "json").output)
    assert info["extends"] == "epireia" and info["extended_by"] == []
    assert info["players"] == {"min": 1, "max": 1, "default": 1}
    assert info["seats"] == {"1": ["p1"]}
    scenario = info["options"]["scenario"]
    assert (scenario["default"], scenario["choices"]) == ("S1", ["S1", "S2", "S3", "S4"])
    assert info["shipped"] is True


def test_the_options_as_csv():
    rows = list(csv.DictReader(io.StringIO(agon("rulesets", "earth-and-water", "--format",
                                                "csv").output)))
    by_name = {row["option"]: row for row in rows}
    assert set(by_name) == {"cheap_fleets", "forced_spend", "reaction_prompts"}
    assert by_name["reaction_prompts"]["choices"] == "held, always"
    assert by_name["cheap_fleets"]["default"] == "false"


def test_the_list_keeps_versions_as_written():
    rows = json.loads(agon("rulesets", "--format", "json").output)
    assert {row["id"]: row["version"] for row in rows}["earth-and-water"] == "1.0"
    assert " 1.0 " in agon("rulesets").output  # a table cell, not the number 1


def test_export_prints_the_shipped_file_exactly():
    out = agon("rulesets", "export", "earth-and-water-solo")
    assert out.exit_code == 0
    assert out.stdout == (RULESETS_DIR / "earth-and-water-solo.yaml").read_text(encoding="utf-8")


def test_an_exported_file_is_a_ruleset_to_edit_and_never_overwrites(tmp_path):
    copy = tmp_path / "mine.yaml"
    out = agon("rulesets", "export", "epireia-solo", "--out", str(copy))
    assert out.exit_code == 0 and "agon validate" in out.stderr
    edited = copy.read_text().replace("id: epireia-solo", "id: my-solo", 1)
    copy.write_text(edited)
    assert load_ruleset(copy).id == "my-solo"  # its `extends: epireia` still resolves
    again = agon("rulesets", "export", "epireia-solo", "--out", str(copy))
    assert again.exit_code == 2 and "--force" in again.output
    assert copy.read_text() == edited
    assert agon("rulesets", "export", "epireia-solo", "--out", str(copy), "--force").exit_code == 0
    assert "id: epireia-solo" in copy.read_text()


def test_the_list_shows_the_rulesets_of_rulesets_path_folders_first(tmp_path):
    """They were left out: `agon rulesets` listed only the shipped ones, while every
    command took the folder's ids."""
    shipped = (RULESETS_DIR / "earth-and-water.yaml").read_text(encoding="utf-8")
    (tmp_path / "my-ew.yaml").write_text(shipped.replace("id: earth-and-water\n", "id: my-ew\n"))
    (tmp_path / "epireia.yaml").write_text(shipped.replace("id: earth-and-water\n",
                                                           "id: epireia\n"))
    rows = json.loads(agon("rulesets", "--rulesets-path", str(tmp_path), "--format",
                           "json").output)
    where = {row["id"]: row["where"] for row in rows}
    assert where["my-ew"] == str(tmp_path) and where["earth-and-water"] == "shipped"
    assert where["epireia"] == str(tmp_path)   # the id now names the folder's file
    assert [row["engine"] for row in rows if row["id"] == "epireia"] == ["earth-and-water"]
    assert [row["id"] for row in rows][:2] == ["epireia", "my-ew"]
    assert "my-ew" not in {row["id"] for row in json.loads(agon("rulesets", "--format",
                                                                "json").output)}
