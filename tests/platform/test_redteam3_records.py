"""Records and journals a user may rewrite or hand over in another way (red team 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agon.cli.main import app

runner = CliRunner()


def agon(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def three_seats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A signed record of a game whose seats take turns in order (p1, p2, p3)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))
        path = tmp_path_factory.mktemp("records") / "game.json"
        result = agon("play", "ten-thousand", "--seat", "p1=random", "--seat", "p2=random",
                      "--seat", "p3=random", "--seed", "4", "--record", str(path), "--quiet")
        assert result.exit_code == 0, result.output
        yield path


def reversed_seats(record: Path, tmp_path: Path) -> Path:
    """The record as a tool that rewrites its JSON may leave it: seats in another order."""
    data = json.loads(record.read_text())
    data["seats"] = dict(reversed(list(data["seats"].items())))
    path = tmp_path / "rewritten.json"
    path.write_text(json.dumps(data))
    return path


def test_a_record_whose_seats_mapping_was_reordered_still_replays(three_seats, tmp_path):
    # the signature covers the seats, not their order in the mapping: the
    # replay used to start the game in the mapping's order and fail at action 1
    path = reversed_seats(three_seats, tmp_path)
    result = agon("replay", "--quiet", str(path))
    assert result.exit_code == 0, result.output
    assert "NOT verified" not in result.output
    assert "signed by this referee's key" in result.output


def test_a_reordered_record_still_draws_its_page_and_map(three_seats, tmp_path):
    path = reversed_seats(three_seats, tmp_path)
    page = tmp_path / "game.html"
    assert agon("replay", "--quiet", str(path), "--html", str(page)).exit_code == 0
    assert page.read_text().startswith("<!DOCTYPE html>")
    picture = tmp_path / "end.svg"
    result = agon("map", "ten-thousand", "--record", str(path), "-o", str(picture))
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))
        path = tmp_path_factory.mktemp("journal") / "j.jsonl"
        result = agon("tournament", "earth-and-water", "--bot", "a=random", "--bot",
                      "b=random", "--games", "1", "--out", str(path))
        assert result.exit_code == 0, result.output
        yield path


def test_a_journal_on_a_pipe_is_said_to_need_a_regular_file(journal):
    # `agon replay <(cat j.jsonl)`: the journal reaches the record reader, which
    # said only "Extra data: line 2 column 1"
    done = subprocess.run([sys.executable, "-m", "agon", "replay", "/dev/stdin"],
                          input=journal.read_bytes(), capture_output=True, timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 1
    assert "Traceback" not in err
    assert "as a tournament journal does" in err and "regular file, not a pipe" in err


def test_a_journal_whose_header_is_not_first_says_it_holds_journal_lines(journal, tmp_path):
    lines = journal.read_text().splitlines()
    moved = tmp_path / "moved.jsonl"
    moved.write_text("\n".join(lines[1:] + lines[:1]) + "\n")
    result = agon("replay", str(moved))
    assert result.exit_code == 1
    assert "as a tournament journal does" in result.output
    assert "not a pipe" not in result.output   # it is a regular file


def test_a_record_saved_with_a_byte_order_mark_verifies_as_a_journal_does(three_seats, tmp_path):
    # an editor that saves UTF-8 with a BOM: a journal so saved verified, a record
    # failed with "Unexpected UTF-8 BOM (decode using utf-8-sig)"
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + three_seats.read_bytes())
    result = agon("replay", "--quiet", str(path))
    assert result.exit_code == 0, result.output
    assert "signed by this referee's key" in result.output
