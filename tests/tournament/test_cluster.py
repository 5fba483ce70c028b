"""--cluster: the games on a Dask cluster give the table --jobs gives, even when a
worker dies mid-run (its task is played again, and no game counts twice)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

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
    # signed by the workers (forks of the referee) with the journal's own key: a resume
    # takes every line, where one it did not sign would be refused
    resumed = agon("--resume", str(tmp_path / "c.jsonl"), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "nothing left to play" in resumed.stderr and resumed.stdout == on_jobs.stdout


# The killing run, in a process of its own: a Dask cluster and client leave
# threads behind, and later tests that fork (the warden, the worker pool) must
# not run in a process with threads.
KILL_A_WORKER = """
import json, logging, os, subprocess, sys, time
import distributed

args, journal = sys.argv[1:-1], sys.argv[-1]
# run on a Dask worker (as text: the workers cannot import this script)
die_now = "import os, threading; threading.Timer(0.05, os._exit, (1,)).start()"
with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              dashboard_address=None,
                              silence_logs=logging.CRITICAL) as cluster, \\
        distributed.Client(cluster) as client:
    before = client.run(os.getpid)
    run = subprocess.Popen([sys.executable, "-m", "agon", "tournament", *args, "--cluster",
                            cluster.scheduler_address, "--out", journal],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    started = False
    while run.poll() is None and time.monotonic() < deadline:
        if os.path.exists(journal) and len(open(journal).read().splitlines()) > 1:
            started = True
            break
        time.sleep(0.02)
    killed_mid_run = started and run.poll() is None
    victim = sorted(before)[0]
    if killed_mid_run:
        client.run(exec, die_now, workers=[victim])  # it ends abruptly, games running
    out, err = run.communicate(timeout=300)
    client.wait_for_workers(2, timeout=60)
    after = client.run(os.getpid)
print(json.dumps({"killed_mid_run": killed_mid_run, "victim_pid": before[victim],
                  "pids_after": list(after.values()), "rc": run.returncode,
                  "out": out, "err": err}))
"""


def test_a_worker_killed_mid_run_changes_nothing_in_the_table(tmp_path):
    games = "150"  # several tasks per worker: the worker dies with games running and to come
    expected = agon(*ARGS, "--games", games, "--jobs", "2", cwd=tmp_path)
    assert expected.returncode == 0, expected.stderr
    journal = tmp_path / "games.jsonl"
    done = subprocess.run([sys.executable, "-c", KILL_A_WORKER, *ARGS, "--games", games,
                           str(journal)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert run["killed_mid_run"], "the run ended before a worker could be killed"
    assert run["rc"] == 0, run["err"]
    assert run["victim_pid"] not in run["pids_after"]  # it died (its nanny started another)
    assert run["out"] == expected.stdout
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


# A local cluster whose workers cannot start (each one's nanny fails), run as the CLI.
NO_WORKER = """
import sys
import distributed.nanny
from agon.referee import cluster
cluster.CONNECT_SECONDS = 2
async def cannot_start(self):
    raise RuntimeError("no room for a worker here")
distributed.nanny.Nanny.start_unsafe = cannot_start
from agon.cli.main import run
sys.argv = ["agon", "tournament", *sys.argv[1:]]
run()
"""


def test_a_local_cluster_whose_workers_cannot_start_is_an_error_not_a_wait(tmp_path):
    done = subprocess.run([sys.executable, "-c", NO_WORKER, *ARGS, "--games", "2",
                           "--cluster", "local:2"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "--cluster local:2: no worker started within 2 s" in done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_at_the_terminal_stops_a_local_cluster_without_a_traceback(tmp_path):
    """A terminal sends Ctrl-C to the whole process group, the cluster's workers too:
    each worker printed a KeyboardInterrupt traceback over the table so far."""
    journal = tmp_path / "games.jsonl"
    run = subprocess.Popen(
        [sys.executable, "-m", "agon", "tournament", "earth-and-water", "--bot", "a=random",
         "--bot", "b=random", "--games", "400", "--seed", "3", "--cluster", "local:2",
         "--out", str(journal)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)  # its own process group, as a terminal's job is
    deadline = time.monotonic() + 120
    while not journal.exists() or len(journal.read_text().splitlines()) < 5:
        assert time.monotonic() < deadline and run.poll() is None, "no game was played"
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "interrupted after" in err and f"--resume {journal}" in err
    assert "of 800 games" in out
