"""What an organiser sees when a tournament is stopped: Ctrl-C and SIGTERM print the
table so far and how to resume; kill -9 leaves no worker or bot process behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agon.referee.warden import descendants

LONG = ["earth-and-water", "--bot", "a=random", "--bot",
        f"b={sys.executable} -m agon.bots.random", "--games", "150", "--seed", "3"]


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    env = {**os.environ, "TMPDIR": str(cwd)}  # where a journal without --out goes
    return subprocess.Popen([sys.executable, "-m", "agon", "tournament", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def wait_for(condition, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def games_in(journal: Path) -> int:
    return max(0, len(journal.read_text().splitlines()) - 1) if journal.exists() else 0


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("how, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_prints_the_table_so_far_and_the_resume_command(tmp_path, how, status):
    journal = tmp_path / "games.jsonl"
    run = start([*LONG, "--jobs", "2", "--out", str(journal)], tmp_path)
    wait_for(lambda: games_in(journal) >= 4)
    run.send_signal(how)
    out, err = run.communicate(timeout=60)
    assert run.returncode == status, err
    played = games_in(journal)
    match = re.search(r"interrupted after (\d+) of 300 games", err)
    assert match and int(match.group(1)) == played
    assert f"--resume {journal}" in err and "Traceback" not in err
    assert f"{played} of 300 games" in out and re.search(r"^a +", out, re.M)  # the table
    if how == signal.SIGINT:  # resuming with the journal alone plays the rest
        resumed = subprocess.run([sys.executable, "-m", "agon", "tournament", "--resume",
                                  str(journal)], cwd=tmp_path,
                                 capture_output=True, text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stderr
        assert "300 games" in resumed.stdout and games_in(journal) == 300


def test_without_out_an_interrupt_keeps_the_journal_in_a_named_temporary_file(tmp_path):
    run = start(LONG, tmp_path)
    wait_for(lambda: any(games_in(p) >= 2 for p in tmp_path.glob("agon-tournament-*.jsonl")))
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130
    named = re.search(r"the journal is (\S+);", err)
    assert named and Path(named.group(1)).parent == tmp_path
    assert games_in(Path(named.group(1))) >= 2 and f"--resume {named.group(1)}" in err


def test_a_finished_run_without_out_leaves_no_temporary_journal(tmp_path):
    done = subprocess.run([sys.executable, "-m", "agon", "tournament", "earth-and-water",
                           "-b", "random", "-b", "r2=random", "--games", "2"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert not list(tmp_path.glob("agon-tournament-*"))


def test_kill_9_of_the_main_process_leaves_no_worker_and_no_bot(tmp_path):
    journal = tmp_path / "games.jsonl"
    run = start([*LONG, "--jobs", "2", "--out", str(journal)], tmp_path)
    wait_for(lambda: games_in(journal) >= 2)
    below = descendants(run.pid)
    assert len(below) >= 3  # two workers and at least one bot (with its warden)
    run.kill()
    run.wait(timeout=10)
    wait_for(lambda: not any(alive(pid) for pid in below), seconds=15)
    run.stdout.close()
    run.stderr.close()


def test_a_stop_from_another_thread_waits_until_the_game_is_in_the_table_too():
    """With a Dask cluster the main process has other threads, and the kernel hands
    Ctrl-C to one of them: blocking it in the main thread did not hold it, and a game
    reached the journal but not the partial table (1418 games shown, 1419 kept)."""
    import threading

    from agon.referee.stops import StopsHeld

    go = threading.Event()
    other = threading.Thread(target=lambda: (go.wait(), os.kill(os.getpid(), signal.SIGINT)))
    other.start()  # running before the block, as a cluster's event loop is
    held = StopsHeld()
    held.install()
    journal, table = [], []
    try:
        with pytest.raises(KeyboardInterrupt):
            with held:  # what run_tournament does with each finished game
                journal.append("game")
                go.set()
                other.join()
                sum(len(str(n)) for n in range(1000))  # Python code that would notice it
                table.append("game")
    finally:
        held.restore()
    assert journal == table == ["game"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigterm_while_a_journal_is_read_exits_143_and_says_so(tmp_path, monkeypatch):
    """Before the games start (a long journal is checked), SIGTERM was typer's silent 130."""
    from typer.testing import CliRunner

    import agon.referee.tournament as tournament
    from agon.cli.main import app

    journal = tmp_path / "games.jsonl"
    made = CliRunner().invoke(app, ["tournament", "earth-and-water", "-b", "a=random", "-b",
                                    "b=random", "-n", "1", "--seed", "3", "--out", str(journal)])
    assert made.exit_code == 0, made.output
    before = journal.read_bytes()

    def terminated(*args, **kwargs):
        signal.raise_signal(signal.SIGTERM)   # as `kill` sends it, mid-check

    monkeypatch.setattr(tournament, "_resumed_rows", terminated)
    run = CliRunner().invoke(app, ["tournament", "--resume", str(journal)])
    assert run.exit_code == 143
    assert f"interrupted before the games started; {journal} is kept" in run.output
    assert journal.read_bytes() == before


def test_a_stop_while_the_workers_are_forked_stops_the_run():
    """SIGTERM inside the fork's hooks (logging's lock release) was printed as
    'Exception ignored ... Traceback' under the partial table, and the stop dropped."""
    script = "\n".join([
        "import os, signal, sys",
        "from agon.referee.worker_pool import WorkerPool",
        "signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))",
        "os.register_at_fork(after_in_parent=lambda: signal.raise_signal(signal.SIGTERM))",
        "try:",
        "    WorkerPool(None, 2)",  # the workers wait for games: settings are not read yet
        "except SystemExit:",
        "    print('stopped')",
        "    raise",
    ])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert (done.stdout.strip(), done.returncode) == ("stopped", 143), done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr
