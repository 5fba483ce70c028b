"""The attacks of issue 10, by bots: each one fails, under either sandbox.

Each test here beat the referee before the sandbox existed: a line that
crashed it, a flood that filled the disk, a bot that read the other seat's
transcript, the seed or the referee's environment, a grandchild or a bot that
outlived the game or the referee, a memory hog that won.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from agon.referee import confine
from agon.referee.match import run_match
from agon.referee.players import Limits, SubprocessPlayer, make_player
from agon.referee.sandbox import PRIVATE, Sandbox
from agon.referee.tournament import Entrant, run_tournament, setup

AGON = [sys.executable, "-m", "agon"]
SNOOP = Path(__file__).resolve().parent / "snoop_bot.py"


def agon(*args: str, timeout: float = 600, env: dict[str, str] | None = None):
    return subprocess.run([*AGON, *args], capture_output=True, text=True, timeout=timeout,
                          env=env)


def play(kit, players, target=12, limits=None):
    return run_match(kit.CountEngine(kit.ruleset), players, seed=7, options={"target": target},
                     limits=limits or Limits(handshake=20, move=20, game=120))


def wait_until_gone(kit, marker: str, seconds: float = 20.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := kit.running_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def wait_for(kit, marker: str, count: int, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while len(kit.running_with(marker)) < count:
        assert time.monotonic() < deadline, f"fewer than {count} processes with the marker"
        time.sleep(0.1)


@pytest.mark.parametrize("mode", ["deep-ready", "huge-number-ready"])
def test_the_lines_that_crashed_the_referee_are_a_forfeit_with_a_short_detail(kit, tmp_path,
                                                                              mode):
    record = tmp_path / "game.json"
    run = agon("play", "earth-and-water", "--seat", "persia=random", "--seat",
               f"greece={shlex.join(kit.faulty(mode))}", "--seed", "3", "--record", str(record),
               "--sandbox", kit.sandbox, "-q")
    assert run.returncode == 0, run.stderr
    forfeit = json.loads(record.read_text())["forfeits"]["greece"]
    assert forfeit["reason"] == "handshake"
    assert "ready" in forfeit["detail"] and len(forfeit["detail"]) < 200


def test_in_a_tournament_a_crashing_line_loses_its_games_instead_of_voiding_them(kit):
    crasher = shlex.join(kit.faulty("deep-ready"))
    tournament = setup("earth-and-water", [Entrant("plain", "random"), Entrant("crash", crasher)],
                       games=1, seed=1, sandbox=Sandbox(mode=kit.sandbox))
    _, rows = run_tournament(tournament)
    assert len(rows) == 2 and not any("error" in row for row in rows)
    for row in rows:
        crash_seat = next(s for s, name in row["tournament"]["seating"].items() if name == "crash")
        assert row["forfeits"][crash_seat]["reason"] == "handshake"


def test_an_info_flood_is_cut_at_the_cap_and_the_game_is_still_refereed(kit, tmp_path):
    cap = 64 << 10
    flood = SubprocessPlayer(kit.faulty("info-flood", "0.3"), log_dir=tmp_path, transcript=True)
    record = play(kit, {"p1": flood, "p2": make_player("random", seed=1)},
                  limits=Limits(handshake=20, move=20, game=120, max_log=cap))
    assert record.forfeits == {} and record.result.reason.endswith("reached 12")
    for name in ("p1.transcript", "p1.log"):
        data = (tmp_path / name).read_bytes()
        assert len(data) < cap + 200, name  # the flood was far larger
        assert re.search(rb"\[agon: (transcript|log) cut at 65536 bytes; \d+ more bytes dropped\]",
                         data[-200:]), name


def test_a_double_forked_grandchild_in_its_own_session_dies_with_the_game(kit):
    marker = f"agon-test-grandchild-{uuid.uuid4()}"
    seen_during_game = []
    bot = SubprocessPlayer(kit.faulty("double-fork", marker))
    record = run_match(kit.CountEngine(kit.ruleset), {"p1": bot, "p2": make_player("random",
                                                                                   seed=1)},
                       seed=7, options={"target": 12}, limits=Limits(move=20, game=120),
                       on_event=lambda event: seen_during_game.append(len(kit.running_with(marker))))
    assert record.forfeits == {}
    assert max(seen_during_game) >= 1  # the grandchild ran while the game did
    assert wait_until_gone(kit, marker) == []


def test_a_memory_hog_forfeits_saying_it_hit_its_memory_limit(kit):
    hog = SubprocessPlayer(kit.faulty("memory-hog"), sandbox=Sandbox(mode=kit.sandbox,
                                                                     memory_mb=300))
    record = play(kit, {"p1": hog, "p2": make_player("random", seed=1)})
    forfeit = record.forfeits["p1"]
    assert forfeit["reason"] == "crash"
    assert "memory limit (300 MB" in forfeit["detail"], forfeit["detail"]


def test_killing_agon_play_leaves_no_bot_running(kit, tmp_path):
    marker = f"agon-test-play-{uuid.uuid4()}"
    game = subprocess.Popen(   # in tmp_path: killed, it leaves its empty save file there
        [*AGON, "play", "earth-and-water", "--seat", "persia=random", "--seat",
         f"greece={shlex.join(kit.faulty('hang-with-child', marker))}", "--move-time", "300",
         "--sandbox", kit.sandbox, "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        cwd=tmp_path)
    try:
        wait_for(kit, marker, 2)  # the bot and the child it started
    finally:
        game.kill()
        game.wait()
    assert wait_until_gone(kit, marker) == []


def test_sigterm_to_agon_play_saves_the_game_and_its_resume_hides_the_saved_file(kit,
                                                                                tmp_path):
    """SIGTERM (kill, timeout) stops a game as Ctrl-C does; the saved game names the
    seed, so a resumed game keeps it from the bots even when it records elsewhere."""
    if kit.sandbox == "none" and not confine.landlock_abi():
        pytest.skip("without Landlock, bots of one user can inspect each other's processes")
    marker, seed = f"agon-test-term-{uuid.uuid4()}", str(random.randrange(10**8, 10**9))
    saved = tmp_path / "saved.json"
    game = subprocess.Popen(
        [*AGON, "play", "earth-and-water", "--seat", "persia=random", "--seat",
         f"greece={shlex.join(kit.faulty('hang-with-child', marker))}", "--move-time", "300",
         "--sandbox", kit.sandbox, "-q", "--seed", seed, "--record", str(saved)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        wait_for(kit, marker, 2)
        game.terminate()
        _, said = game.communicate(timeout=60)
    finally:
        game.kill()
    assert game.returncode == 143, said
    assert f"the game so far is saved in {saved}" in said
    assert json.loads(saved.read_text())["seed"] == int(seed)
    assert wait_until_gone(kit, marker) == []
    snoop = tmp_path / "snoop_bot.py"
    snoop.write_bytes(SNOOP.read_bytes())
    logs = tmp_path / "logs"
    run = agon("play", "--resume", str(saved), "--record", str(tmp_path / "new.json"),
               "--seat", f"greece={shlex.join([sys.executable, str(snoop), str(tmp_path)])}",
               "--sandbox", kit.sandbox, "--move-time", "120", "--log-dir", str(logs),
               "--bot-env", f"SNOOP_NEEDLES={seed}", "-q")
    assert run.returncode == 0, run.stderr
    log = (logs / "greece.log").read_text()
    assert re.search(r"snoop: looked at \d+ processes, [1-9]\d* files", log), log[-2000:]
    assert [line for line in log.splitlines() if "snoop: FOUND" in line] == []


def test_killing_a_parallel_tournament_leaves_no_worker_and_no_bot(kit, tmp_path):
    marker = f"agon-test-tournament-{uuid.uuid4().hex[:12]}"
    hang = shlex.join(kit.faulty("hang-with-child", marker))
    main = subprocess.Popen(
        [*AGON, "tournament", "earth-and-water", "--bot", f"a={hang}", "--bot", f"b={hang}",
         "-n", "2", "-j", "2", "--move-time", "300", "--sandbox", kit.sandbox],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, "TMPDIR": str(tmp_path)})   # its journal, which kill -9 leaves
    try:  # the main process, two workers (forked: the same command line), two bots
        wait_for(kit, marker, 5)
    finally:
        main.kill()
        main.wait()
    assert wait_until_gone(kit, marker) == []


def test_a_snooping_bot_finds_no_transcript_seed_canary_nor_key(kit, tmp_path):
    if kit.sandbox == "none" and not confine.landlock_abi():
        pytest.skip("without Landlock, bots of one user can inspect each other's processes")
    needles = {"seed": str(random.SystemRandom().randrange(10**8, 10**9)),
               "canary": uuid.uuid4().hex, "key": uuid.uuid4().hex, "old": uuid.uuid4().hex}
    key = tmp_path / "data" / "agon" / "referee.key"  # the user's agon data, as `agon key` keeps it
    key.parent.mkdir(parents=True)
    key.write_text(needles["key"])
    logs = tmp_path / "logs"  # where an earlier game left the other seat's transcript
    logs.mkdir()
    old = logs / "greece.transcript"
    old.write_text(f"< ready {needles['old']}\n")
    snoop = tmp_path / "snoop_bot.py"
    snoop.write_bytes(SNOOP.read_bytes())
    env = {**os.environ, "AGON_CANARY": needles["canary"], "XDG_DATA_HOME": str(tmp_path / "data")}
    run = agon("play", "earth-and-water",
               "--seat", f"persia={shlex.join([sys.executable, str(snoop), str(tmp_path)])} "
                         f"{old} {key} {snoop}",
               "--seat", f"greece={shlex.join(kit.faulty('ok'))}",
               "--seed", needles["seed"], "--log-dir", str(logs), "--sandbox", kit.sandbox,
               "--bot-env", f"SNOOP_NEEDLES={','.join(needles.values())}",
               "--move-time", "120", "--handshake-time", "60", "-q", env=env)
    assert run.returncode == 0, run.stderr
    log = (logs / "persia.log").read_text()
    looked = re.search(r"snoop: looked at (\d+) processes, (\d+) files", log)
    assert looked and int(looked[2]) >= 1, log[-2000:]  # it read its own script at least
    found = [line for line in log.splitlines() if "snoop: FOUND" in line]
    assert found == []


def test_a_snooping_bot_in_a_tournament_finds_neither_the_master_seed_nor_the_journal(
        kit, tmp_path):
    """The journal and its lock sit beside the bot's script here (a common layout): the
    lock names the run, and the master seed would give every game's deck and dice."""
    if kit.sandbox == "none" and not confine.landlock_abi():
        pytest.skip("without Landlock, bots of one user can inspect each other's processes")
    seed = str(random.SystemRandom().randrange(10**8, 10**9))
    snoop = tmp_path / "snoop_bot.py"
    snoop.write_bytes(SNOOP.read_bytes())
    journal = tmp_path / "games.jsonl"
    run = agon("tournament", "earth-and-water", "--bot",
               f"s={shlex.join([sys.executable, str(snoop), str(tmp_path)])}",
               "--bot", "r=random", "--games", "1", "--seed", seed, "--out", str(journal),
               "--keep-logs", "all", "--sandbox", kit.sandbox, "--move-time", "120",
               "--bot-env", f"SNOOP_NEEDLES={seed}", "--format", "json")
    assert run.returncode == 0, run.stderr
    logs = sorted(journal.parent.glob("games.jsonl.logs/*/*.log"))
    assert logs, "the snooping bot's logs"
    for log in logs:
        text = log.read_text()
        looked = re.search(r"snoop: looked at (\d+) processes, (\d+) files", text)
        assert looked and int(looked[2]) >= 1, text[-2000:]
        assert [line for line in text.splitlines() if "snoop: FOUND" in line] == []


KEY_READER = """
import os
import sys

for line in sys.stdin:
    word, _, rest = line.partition(" ")
    if word == "agon":
        print("ready keyreader", flush=True)
    elif word == "ask":
        try:
            with open(os.environ["KEY_PATH"]) as key:
                print(f"info key: {key.read().strip()}", flush=True)
        except OSError as err:
            print(f"info key: {err.strerror}", flush=True)
        print(f"act {rest.split(' ', 1)[0]} 0", flush=True)
    elif word == "quit":
        break
"""


def _folder_outside_homes() -> Path:
    """A new folder where no home or scratch area lies (those are hidden anyway): beside
    this test when the checkout is elsewhere, else where a root user (CI) may write."""
    hidden = ("/home", "/root", *PRIVATE)
    for place in (Path(__file__).parent, Path("/var/lib"), Path("/srv"), Path("/opt")):
        if any(str(place.resolve()).startswith(f"{top}/") for top in hidden):
            continue
        try:
            return Path(tempfile.mkdtemp(prefix=".agon-home-", dir=place))
        except OSError:
            continue
    pytest.skip("no folder outside the homes and scratch areas can be made here")


def test_a_bot_cannot_read_the_key_by_the_real_path_of_a_home_reached_through_a_link(
        kit, tmp_path):
    """A home reached through a symbolic link (``/home -> /var/home``, ``~ -> /data/me``):
    the fence went around the link's name, and the bot read the referee's key by its real
    path (under bwrap, a home that was itself a link stopped bubblewrap)."""
    if kit.sandbox == "none" and not confine.landlock_abi():
        pytest.skip("without Landlock, a bot reads every file of its user")
    real = _folder_outside_homes()
    try:
        secret = uuid.uuid4().hex
        key = real / ".local" / "share" / "agon" / "referee.key"
        key.parent.mkdir(parents=True)
        key.write_text(secret)
        (tmp_path / "home").symlink_to(real)
        (tmp_path / "bot.py").write_text(KEY_READER)
        env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"}
        run = agon("play", "earth-and-water", "--seat",
                   f"persia={shlex.join([sys.executable, str(tmp_path / 'bot.py')])}",
                   "--seat", "greece=random", "--seed", "3", "--sandbox", kit.sandbox,
                   "--bot-env", f"KEY_PATH={key}", "--log-dir", str(tmp_path / "logs"), "-q",
                   env={**env, "HOME": str(tmp_path / "home")})
        assert run.returncode == 0, run.stderr
        said = [line for line in (tmp_path / "logs" / "persia.log").read_text().splitlines()
                if line.startswith("info: key: ")]
        assert said and secret not in said[0]
    finally:
        shutil.rmtree(real)
