"""A journal that cannot take its next line (a full disk) (red team 3)."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path

AGON = [sys.executable, "-m", "agon"]
ROOM = 12_000   # bytes the journal may grow to: the header and a few games


def _full_disk_at(size: int):
    """A child whose files cannot grow past `size` bytes, as on a disk that is full."""
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # the write fails instead (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_journal_that_cannot_grow_is_a_clear_error_and_resumes(tmp_path):
    # a bot under --sandbox none may fill the disk the journal is on: the
    # tournament ended with "internal error: OSError: [Errno 28] No space left"
    journal = tmp_path / "j.jsonl"
    run = [*AGON, "tournament", "earth-and-water", "--bot", "a=random", "--bot", "b=random",
           "--games", "4", "--out", str(journal), "-f", "csv"]
    full = subprocess.run(run, capture_output=True, text=True, timeout=600,
                          preexec_fn=_full_disk_at(ROOM))
    assert full.returncode == 1, full.stderr
    assert "internal error" not in full.stderr and "Traceback" not in full.stderr
    assert f"{journal}: cannot write its next line (File too large)" in full.stderr
    assert f"--resume {journal}" in full.stderr
    kept = journal.read_bytes()
    assert 0 < kept.count(b"\n") < 9   # the header and the games that fitted
    resumed = subprocess.run([*AGON, "tournament", "--resume", str(journal), "-f", "csv"],
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    replayed = subprocess.run([*AGON, "replay", "--quiet", str(journal)],
                              capture_output=True, text=True, timeout=600)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "8 of 8 planned games" in replayed.stdout
    assert Path(str(journal) + ".lock").exists() is False


CHATTY = f"{sys.executable} {Path(__file__).parents[1] / 'protocol' / 'faulty_bot.py'} chatty"


def test_bot_logs_that_cannot_be_written_are_a_warning_and_the_games_go_on(tmp_path):
    # a bot's log or transcript that no longer fits on the disk ended the tournament
    # with "internal error: OSError" (and left the bot's directory behind)
    journal = tmp_path / "j.jsonl"
    run = [*AGON, "tournament", "earth-and-water", "--bot", f"c={CHATTY}", "--bot", "r=random",
           "--games", "1", "--out", str(journal), "--keep-logs", "all", "-f", "csv"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=600,
                          preexec_fn=_full_disk_at(10_000))   # a transcript is larger
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("cannot write the bots' logs and transcripts") == 1
    assert journal.read_text().count("\n") == 3   # the header and both games
