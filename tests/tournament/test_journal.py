"""The journal: one JSON line per finished game, and --resume to the same table."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from agon.referee.journal import JOURNAL_FORMAT, read_journal

ARGS = ["picks", "--bot", "r1=random", "--bot", "r2=random", "--bot", "r3=random",
        "--games", "4", "--seed", "5"]


def journal_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_journal_holds_a_header_and_one_record_per_game(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    header, *games = journal_lines(journal)
    assert header["format"] == JOURNAL_FORMAT
    assert header["bots"] == {"r1": "random", "r2": "random", "r3": "random"}
    assert (header["games"], header["seed"], header["players"]) == (4, 5, 2)
    assert len(games) == 3 * 2 * 4
    keys = Counter(game["tournament"]["key"] for game in games)
    assert set(keys.values()) == {1}
    for game in games:  # each line is a full game record plus the tournament's key
        assert game["format"] == "agon-record/1"
        assert game["seed"] == game["tournament"]["seed"]
        assert game["actions"] and game["result"]["ranks"]
        assert set(game["tournament"]["seating"]) == set(game["seats"])
    # duplicate format: every pairing in both seatings on each of the same 4 seeds
    seatings = {(g["seed"], g["tournament"]["seating"]["p1"], g["tournament"]["seating"]["p2"])
                for g in games}
    for a, b in (("r1", "r2"), ("r1", "r3"), ("r2", "r3")):
        seeds_ab = {seed for seed, p1, p2 in seatings if (p1, p2) == (a, b)}
        seeds_ba = {seed for seed, p1, p2 in seatings if (p1, p2) == (b, a)}
        assert seeds_ab == seeds_ba and len(seeds_ab) == 4


def test_resume_after_a_kill_gives_the_identical_table(picks, agon, tmp_path):
    whole = tmp_path / "whole.jsonl"
    uninterrupted = agon(*ARGS, "--out", str(whole))
    assert uninterrupted.exit_code == 0
    # a "killed" run: the header, 10 games and half of the 11th line
    cut = tmp_path / "cut.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:11]) + lines[11][: len(lines[11]) // 2])
    resumed = agon(*ARGS, "--resume", str(cut))
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout == uninterrupted.stdout
    games = journal_lines(cut)[1:]
    assert len(games) == len(lines) - 1  # the torn line was replaced, nothing replayed twice
    assert len({g["tournament"]["key"] for g in games}) == len(games)
    # resuming a finished journal plays nothing and prints the same table again
    again = agon("picks", "--resume", str(cut))  # settings come from the journal header
    assert again.stdout == uninterrupted.stdout
    assert len(journal_lines(cut)) == len(lines)


def test_resume_refuses_a_journal_of_another_tournament(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    other = [arg if arg != "5" else "6" for arg in ARGS]  # another master seed
    result = agon(*other, "--resume", str(journal))
    assert result.exit_code == 2
    assert "another tournament" in result.stderr and "seed" in result.stderr


def test_out_never_overwrites_an_existing_journal(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    journal.write_text("precious\n")
    result = agon(*ARGS, "--out", str(journal))
    assert result.exit_code != 0 and "--resume" in result.stderr
    assert journal.read_text() == "precious\n"


def test_unreadable_journals_are_reported_not_tracebacks(picks, agon, tmp_path):
    missing = agon(*ARGS, "--resume", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 2 and "no such journal" in missing.stderr
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n{}\n")
    result = agon(*ARGS, "--resume", str(garbage))
    assert result.exit_code == 2 and "not a journal line" in result.stderr
    assert "Traceback" not in result.output


def test_a_last_line_missing_only_its_newline_is_kept(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    text = journal.read_text()
    journal.write_text(text.rstrip("\n"))
    header, games = read_journal(journal)
    assert len(games) == 24 and journal.read_text() == text


def test_resume_retries_the_games_that_ended_in_an_error(picks, agon, engine_bug, tmp_path):
    journal = tmp_path / "games.jsonl"
    engine_bug(True)
    broken = agon(*ARGS, "--out", str(journal))
    assert broken.exit_code == 1 and "Errors" in broken.stdout
    errors = sum("error" in game for game in journal_lines(journal)[1:])
    assert 0 < errors < 24
    engine_bug(False)  # the bug is fixed: resume plays those games again
    fixed = agon(*ARGS, "--resume", str(journal))
    assert fixed.exit_code == 0 and "Errors" not in fixed.stdout
    assert fixed.stdout == agon(*ARGS).stdout
    assert len(journal_lines(journal)) == 1 + 24 + errors  # retries are appended
