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


# Run on a Dask worker (as text: the workers cannot import this test module).
DIE_SOON = "import os, threading; threading.Timer(1.5, os._exit, (1,)).start()"


def test_a_worker_killed_mid_run_changes_nothing_in_the_table(tmp_path):
    games = "150"  # long enough (a few seconds) that the worker dies with games running
    expected = agon(*ARGS, "--games", games, "--jobs", "2", cwd=tmp_path)
    assert expected.returncode == 0, expected.stderr
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster, \
            distributed.Client(cluster) as client:
        before = client.run(os.getpid)
        victim = sorted(before)[0]
        client.run(exec, DIE_SOON, workers=[victim])  # it ends abruptly in 1.5 s
        started = time.monotonic()
        journal = tmp_path / "games.jsonl"
        played = agon(*ARGS, "--games", games, "--cluster", cluster.scheduler_address,
                      "--out", str(journal), cwd=tmp_path)
        elapsed = time.monotonic() - started
        client.wait_for_workers(2, timeout=60)
        after = client.run(os.getpid)
    assert played.returncode == 0, played.stderr
    assert elapsed > 1.5, "the run ended before the worker was killed: make it longer"
    assert before[victim] not in after.values()  # it died (and its nanny started another)
    assert played.stdout == expected.stdout
    keys = [game["tournament"]["key"] for game in games_of(journal)]
    assert len(keys) == len(set(keys)) == 300  # the task played again counted once
