"""--affinity: each worker and the bots it starts run on one CPU of their own."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from agon.referee.schedule import TournamentError
from agon.referee.worker_pool import SPIN, cpus_for, spin_for

# A bot that names, in its `ready`, the CPUs it may run on; it takes the first pick.
CPU_BOT = """
import json, os, sys
for line in sys.stdin:
    keyword = line.split(" ", 1)[0].strip()
    if keyword in ("agon", "newgame"):
        cpus = sorted(os.sched_getaffinity(0))
        print("ready cpus " + json.dumps({"wants": ["newgame"], "cpus": cpus}), flush=True)
    elif keyword == "ask":
        print("act", line.split()[1], 0, flush=True)
    elif keyword == "quit":
        break
"""

needs_affinity = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"),
                                    reason="processes cannot be pinned here")


def cpu_bot(tmp_path: Path) -> str:
    script = tmp_path / "cpu_bot.py"
    script.write_text(CPU_BOT)
    return f"{sys.executable} {script}"


def cpus_told(journal: Path) -> list[list[list[int]]]:
    """Per game, the CPU lists each seat's bot gave."""
    games = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    return [[seat["about"]["cpus"] for seat in game["seats"].values()] for game in games]


@needs_affinity
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_worker_and_its_bots_share_one_cpu(picks, agon, tmp_path, jobs):
    journal = tmp_path / "games.jsonl"
    bot = cpu_bot(tmp_path)
    result = agon("picks", "--bot", f"a={bot}", "--bot", f"b={bot}", "--games", "4",
                  "--jobs", jobs, "--affinity", "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = cpus_told(journal)
    assert len(games) == 8
    usable = sorted(os.sched_getaffinity(0))
    for seats in games:  # both bots of a game on their worker's one CPU
        assert seats[0] == seats[1] and len(seats[0]) == 1 and seats[0][0] in usable
    used = {seats[0][0] for seats in games}
    assert len(used) == min(int(jobs), len(usable))  # two workers never crowd one CPU
    # without it, the bots may run anywhere this referee may
    plain = tmp_path / "plain.jsonl"
    assert agon("picks", "--bot", f"a={bot}", "--bot", f"b={bot}", "--games", "1",
                "--out", str(plain)).exit_code == 0
    assert all(seats == [usable, usable] for seats in cpus_told(plain))
    assert sorted(os.sched_getaffinity(0)) == usable  # --jobs 1 gave this process back


@needs_affinity
def test_more_workers_than_cpus_take_the_cpus_in_turn():
    usable = sorted(os.sched_getaffinity(0))
    placed = cpus_for(len(usable) + 1)
    assert placed[:len(usable)] == usable and placed[-1] == usable[0]


def test_affinity_with_a_cluster_is_refused(picks, agon):
    result = agon("picks", "--bot", "a=random", "--bot", "b=random", "--cluster", "local:1",
                  "--affinity")
    assert result.exit_code == 2
    assert "--affinity pins the worker processes of this machine" in result.output


def test_affinity_where_processes_cannot_be_pinned_is_refused(monkeypatch):
    monkeypatch.delattr(os, "sched_setaffinity")
    with pytest.raises(TournamentError, match="does not allow"):
        cpus_for(2)


def test_a_worker_waits_without_sleeping_only_when_it_and_its_bot_each_have_a_cpu(
        monkeypatch):
    """A referee that reads in a loop for a quick answer takes a CPU: only when every
    worker and the bot it waits for can each have one."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert spin_for(1) == spin_for(2) == SPIN > 0
    assert spin_for(3) == spin_for(8) == 0.0
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert spin_for(1) == 0.0
