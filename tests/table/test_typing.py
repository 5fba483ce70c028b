"""What a person types at `agon play`, end to end: bytes that are not text, odd lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

AGON = [sys.executable, "-m", "agon"]


def play(typed: bytes, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*AGON, "play", "earth-and-water-solo", "-s", "greece=human",
                           "--seed", "5"], input=typed, capture_output=True, cwd=cwd,
                          timeout=300, env={**os.environ, **env})


def test_bytes_that_are_not_utf8_are_refused_like_any_unknown_text(tmp_path):
    """With a strict UTF-8 stdin (PYTHONIOENCODING=utf-8, or a UTF-8 locale other than
    C's) such a line was a UnicodeDecodeError: 'internal error', exit 3, the game lost."""
    out = play(b"\xff\xfe buy\nquit\ny\n", tmp_path, PYTHONIOENCODING="utf-8")
    shown = out.stdout.decode()
    assert out.returncode == 0, out.stderr.decode()
    assert "'\N{REPLACEMENT CHARACTER}\N{REPLACEMENT CHARACTER} buy' is not a legal action" \
        in shown
    assert "internal error" not in out.stderr.decode()


def test_with_format_json_a_persons_table_goes_to_stderr_and_stdout_is_the_record(tmp_path):
    """The board, menus and prompts went to stdout, before the record: not JSON."""
    typed = b"buy_card\n" + b"done\n" + b"1\n" * 3000
    out = subprocess.run([*AGON, "play", "earth-and-water-solo", "-s", "greece=human",
                          "--seed", "5", "--format", "json"], input=typed,
                         capture_output=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr.decode()
    record = json.loads(out.stdout)
    assert record["actions"][:2] == [["greece", "buy_card"], ["greece", "done"]]
    assert "greece> " in out.stderr.decode() and "Game over" in out.stderr.decode()
