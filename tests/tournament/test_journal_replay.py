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
                  "--games", "2", "--seed", "1", "--out", str(path))
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
    edited = next(number for number, row in enumerate(rows[1:], 1)   # a game won, not drawn
                  if set(row["result"]["points"].values()) == {0.0, 1.0})
    result = rows[edited]["result"]
    result["points"] = {seat: 1.0 - points for seat, points in result["points"].items()}
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = agon("replay", "--quiet", str(journal))
    assert out.exit_code == 1
    key = rows[edited]["tournament"]["key"]
    assert f"NOT verified: {journal}:{edited + 1} (game {key}): result points differs" \
        in out.stderr
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


def test_a_game_line_turned_into_an_error_line_is_not_verified(journal):
    """An error line holds no moves to replay, but its signature and shape are checked."""
    for error, says in (("boom", "signature does not match"), (5, "its error is not a message")):
        rows = lines(journal)
        rows[1]["error"] = error
        path = journal.with_name(f"error-{error}.jsonl")
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        out = agon("replay", "--quiet", str(path))
        assert out.exit_code == 1, out.output
        key = rows[1]["tournament"]["key"]
        assert f"NOT verified: {path}:2 (game {key}): {says}" in out.stderr
        assert f"{path} is NOT verified: 1 of 4 games" in out.stderr


def test_a_game_journaled_twice_is_named_and_a_missing_one_is_counted(journal):
    genuine = journal.read_text().splitlines(keepends=True)
    key = json.loads(genuine[1])["tournament"]["key"]
    journal.write_text("".join(genuine) + genuine[1])
    twice = agon("replay", "--quiet", str(journal))
    assert twice.exit_code == 1, twice.output
    assert f"NOT verified: {journal}: game {key} is in the journal 2 times (lines 2, 6): a " \
           "game counts once" in twice.stderr
    assert f"{journal} is NOT verified: 1 game(s) journaled more than once; 4 of 4 planned " \
           "games" in twice.stderr
    journal.write_text("".join(genuine[:2] + genuine[3:]))
    missing = agon("replay", "--quiet", str(journal))
    assert missing.exit_code == 0, missing.output   # a stopped run is missing games too
    assert "all 3 games replay to their results and digests" in missing.stdout
    assert "; 3 of 4 planned games" in missing.stdout


def test_an_error_line_before_its_game_played_again_is_verified(journal):
    """--resume plays a game that ended in an error again: both lines are in the journal."""
    from agon.referee.signing import Keyring

    rows = lines(journal)
    failed = Keyring.load().sign({"tournament": rows[1]["tournament"], "error": "boom",
                                  "header_sha256": rows[1]["header_sha256"]})
    journal.write_text("".join(json.dumps(row) + "\n" for row in [rows[0], failed, *rows[1:]]))
    out = agon("replay", "--quiet", str(journal))
    assert out.exit_code == 0, out.output
    assert "all 4 games replay" in out.stdout and "; 4 of 4 planned games (1 of its lines " \
           "are games that could not be refereed" in out.stdout


def test_signed_lines_of_another_tournament_are_not_verified(journal, tmp_path):
    """The tester's splice: greedy's header over random's games, every line signed."""
    other = tmp_path / "greedy.jsonl"
    played = agon("tournament", "earth-and-water", "-b", "a=greedy", "-b", "b=random",
                  "--games", "2", "--seed", "1", "--out", str(other))
    assert played.exit_code == 0, played.output
    rows = journal.read_text().splitlines(keepends=True)
    spliced = tmp_path / "spliced.jsonl"
    spliced.write_text(other.read_text().splitlines(keepends=True)[0] + "".join(rows[1:]))
    out = agon("replay", "--quiet", str(spliced))
    assert out.exit_code == 1, out.output
    key = json.loads(rows[1])["tournament"]["key"]
    assert f"NOT verified: {spliced}:2 (game {key}): it is not a game of this tournament: " \
           "it was written under another journal's header" in out.stderr
    assert f"{spliced} is NOT verified: 4 of 4 games" in out.stderr
    one = agon("replay", str(spliced), "--game", key)
    assert one.exit_code == 1 and "it is not a game of this tournament" in one.stderr


def test_an_older_journal_verifies_and_its_lines_must_name_the_headers_bots(
        journal, as_old_journal):
    as_old_journal(journal)
    old = agon("replay", "--quiet", str(journal))
    assert old.exit_code == 0, old.output
    assert "all 4 games replay" in old.stdout and "4 of 4 planned games" in old.stdout

    def greedy(rows):  # a line of a tournament in which a was greedy, signed
        seat = next(s for s, name in rows[2]["tournament"]["seating"].items() if name == "a")
        rows[2]["seats"][seat]["name"] = "greedy"

    as_old_journal(journal, greedy)
    spliced = agon("replay", "--quiet", str(journal))
    assert spliced.exit_code == 1, spliced.output
    assert f"{journal}:3 (game" in spliced.stderr
    assert "it is not a game of this tournament: its " in spliced.stderr
    assert "was played by 'greedy', and the header's a is 'random'" in spliced.stderr

    def newer(rows):  # a line of a newer journal, which names its header
        rows[1]["header_sha256"] = "0" * 64

    as_old_journal(journal, newer)
    out = agon("replay", "--quiet", str(journal))
    assert out.exit_code == 1
    assert f"{journal}:2 (game" in out.stderr and "written under another journal's header" \
        in out.stderr
