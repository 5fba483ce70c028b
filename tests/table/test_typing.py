"""What a person types at `agon play`, end to end: bytes that are not text, odd lines."""

from __future__ import annotations

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
