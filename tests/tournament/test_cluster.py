"""--cluster: the games on a Dask cluster give the table --jobs gives, even when a
worker dies mid-run (its task is played again, and no game counts twice)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

ARGS = ["earth-and-water", "--bot", "a=random", "--bot", "b=random", "--seed", "4"]


def agon(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agon", "tournament", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def games_of(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()[1:]]


def test_a_local_cluster_plays_the_table_of_two_local_workers(tmp_path):
    on_jobs = agon(*ARGS, "--games", "6", "--jobs", "2", cwd=tmp_path)
    on_cluster = agon(*ARGS, "--games", "6", "--cluster", "local:2", "--out",
                      str(tmp_path / "c.jsonl"), cwd=tmp_path)
    assert on_jobs.returncode == 0 and on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stdout == on_jobs.stdout
    keys = [game["tournament"]["key"] for game in games_of(tmp_path / "c.jsonl")]
    assert len(keys) == len(set(keys)) == 12
    header = json.loads((tmp_path / "c.jsonl").read_text().splitlines()[0])
    assert header["cluster"] == "local:2" and header["jobs"] is None  # where it played


# Run on a Dask worker (as text: the workers cannot import this test module).
DIE_NOW = "import os, threading; threading.Timer(0.05, os._exit, (1,)).start()"


def test_a_worker_killed_mid_run_changes_nothing_in_the_table(tmp_path):
    games = "150"  # several tasks per worker: the worker dies with games running and to come
    expected = agon(*ARGS, "--games", games, "--jobs", "2", cwd=tmp_path)
    assert expected.returncode == 0, expected.stderr
    journal = tmp_path / "games.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster, \
            distributed.Client(cluster) as client:
        before = client.run(os.getpid)
        run = subprocess.Popen([sys.executable, "-m", "agon", "tournament", *ARGS, "--games",
                                games, "--cluster", cluster.scheduler_address, "--out",
                                str(journal)], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not (journal.exists() and len(journal.read_text().splitlines()) > 1):
            assert run.poll() is None and time.monotonic() < deadline, run.stderr.read()
            time.sleep(0.02)
        assert run.poll() is None, "the run ended before a worker could be killed"
        victim = sorted(before)[0]
        client.run(exec, DIE_NOW, workers=[victim])  # it ends abruptly, games running
        out, err = run.communicate(timeout=300)
        client.wait_for_workers(2, timeout=60)
        after = client.run(os.getpid)
    assert run.returncode == 0, err
    assert before[victim] not in after.values()  # it died (and its nanny started another)
    assert out == expected.stdout
    keys = [game["tournament"]["key"] for game in games_of(journal)]
    assert len(keys) == len(set(keys)) == 300  # a task played again counts once


def test_the_cluster_keeps_the_logs_keep_logs_asks_for(tmp_path):
    external = ["earth-and-water", "--bot", f"e={sys.executable} -m agon.bots.random",
                "--bot", "r=random", "--games", "2", "--cluster", "local:1"]
    for keep, folders in (([], 0), (["--keep-logs", "all"], 4)):
        journal = tmp_path / f"{len(keep)}.jsonl"
        run = agon(*external, *keep, "--out", str(journal), cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        logs = journal.with_name(journal.name + ".logs")
        kept = sorted(logs.glob("*/*.log")) if logs.exists() else []
        assert len(kept) == folders  # the quiet bot's: none, or one a game
        assert not logs.exists() or len(list(logs.iterdir())) == folders
