"""`agon replay JOURNAL`: an organiser checks every game of a tournament, or looks at one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agon.cli.main import app


def agon(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    """Four Earth & Water games between random bots, journaled and signed."""
    path = tmp_path / "games.jsonl"
    played = agon("tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
                  "--games", "2", "--out", str(path))
    assert played.exit_code == 0, played.output
    return path


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_game_of_a_genuine_journal_is_verified(journal):
    out = agon("replay", str(journal))
    assert out.exit_code == 0, out.output
    keys = [line["tournament"]["key"] for line in lines(journal)[1:]]
    for number, key in enumerate(keys, 2):
        assert f"verified: {journal}:{number} (game {key}):" in out.stdout
    assert "all 4 games replay to their results and digests" in out.stdout


def test_an_edited_game_is_named_and_the_others_still_verify(journal):
    rows = lines(journal)
    result = rows[3]["result"]
    result["points"] = {seat: 1.0 - points for seat, points in result["points"].items()}
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = agon("replay", "--quiet", str(journal))
    assert out.exit_code == 1
    key = rows[3]["tournament"]["key"]
    assert f"NOT verified: {journal}:4 (game {key}): result points differs" in out.stderr
    assert "changed after signing" in out.stderr
    assert f"{journal} is NOT verified: 1 of 4 games" in out.stderr
    assert "the header" not in out.stderr.splitlines()[-1]


def test_one_game_of_a_journal_is_shown_as_a_record(journal):
    key = lines(journal)[2]["tournament"]["key"]
    out = agon("replay", str(journal), "--game", key)
    assert out.exit_code == 0, out.output
    assert "result:" in out.stdout and "signed by this referee's key" in out.stdout
    missing = agon("replay", str(journal), "--game", "9:persia=x,greece=y")
    assert missing.exit_code == 2
    assert "holds no game '9:persia=x,greece=y'" in missing.stderr


def test_a_last_line_cut_short_is_said_and_a_whole_bad_one_fails(journal):
    genuine = journal.read_text()
    journal.write_text(genuine + "GARBAGE GARBAGE\n")
    bad = agon("replay", "--quiet", str(journal))
    assert bad.exit_code == 1
    assert f"{journal}:6: not a journal line (not JSON); it ends with its newline" in bad.stderr
    journal.write_text(genuine + '{"actions":[["persia","bu')
    torn = agon("replay", "--quiet", str(journal))
    assert torn.exit_code == 0, torn.output
    assert f"{journal}:6: the last line is cut short (no newline at its end); it is left " \
           "out" in torn.stderr
    assert "all 4 games replay" in torn.stdout
