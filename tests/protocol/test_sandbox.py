"""What a bot program may do in its sandbox (docs/protocol.md, "What a bot may do"),
and how `--sandbox` chooses and reports the sandbox."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import agon.rulesets
from agon.referee import confine
from agon.referee.match import run_match
from agon.referee.players import Limits, SubprocessPlayer, make_player
from agon.referee.sandbox import Sandbox

AGON = [sys.executable, "-m", "agon"]
FAULTY = Path(__file__).resolve().parent / "faulty_bot.py"


def probed(kit, **sandbox) -> dict[str, str]:
    """What the probe bot reported, by topic, from a game in the test's sandbox."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        bot = SubprocessPlayer(kit.faulty("probe", str(port)),
                               sandbox=Sandbox(mode=kit.sandbox, env=(("MY_VAR", "x"),),
                                               **sandbox))
        record = run_match(kit.CountEngine(kit.ruleset),
                           {"p1": bot, "p2": make_player("random", seed=1)}, seed=7,
                           options={"target": 6}, limits=Limits(move=20, game=60))
    assert record.forfeits == {}
    return dict(info.removeprefix("probe: ").split(" ", 1) for info in bot.infos
                if info.startswith("probe: "))


def test_a_bot_runs_in_its_own_empty_directory_with_a_scrubbed_environment(kit, monkeypatch):
    monkeypatch.setenv("AGON_TEST_CANARY", "referee only")
    seen = probed(kit)
    cwd = seen["cwd"].split(" holds ")
    assert cwd[1] == "[]" and seen["home"] == cwd[0]
    assert set(seen["env"].split(",")) - {"PWD"} == {"HOME", "LANG", "PATH", "TMPDIR", "MY_VAR"}


def test_a_bot_cannot_write_outside_its_directory_nor_reach_the_network(kit):
    if kit.sandbox == "none" and confine.landlock_abi() < 4:
        pytest.skip("without Landlock 4+, the fallback sandbox cannot fence files and TCP")
    seen = probed(kit)
    assert seen["write"].startswith("beside its program: refused")
    assert seen["network:"].startswith("refused")


def test_with_bot_network_a_bot_may_connect(kit):
    assert probed(kit, network=True)["network:"] == "ok"


STATE_BOT = """
from agon.bots.base import Bot
from agon.bots.protocol_main import run


class FirstWithState(Bot):
    name = "first-with-state"
    wants_state = True

    def choose(self, decision, view, state=None):
        assert state is not None and decision.legal[0] in state.pending()[0].legal
        return decision.legal[0]


raise SystemExit(run(FirstWithState))
"""


def test_the_hello_names_no_path_and_a_ruleset_file_is_copied_for_the_bot(tmp_path):
    shipped = Path(agon.rulesets.__file__).parent / "earth-and-water.yaml"
    ruleset = tmp_path / "mine.yaml"  # an id no bot can load by name: only the copy works
    ruleset.write_text(shipped.read_text().replace("id: earth-and-water\n", "id: my-ew\n", 1))
    bot = tmp_path / "state_bot.py"
    bot.write_text(STATE_BOT)
    logs = tmp_path / "logs"
    run = subprocess.run(
        [*AGON, "play", str(ruleset), "--seat", "persia=random", "--seat",
         f"greece={sys.executable} {bot}", "--seed", "4", "--log-dir", str(logs),
         "--record", str(tmp_path / "game.json"), "-q"],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert json.loads((tmp_path / "game.json").read_text())["forfeits"] == {}
    transcript = (logs / "greece.transcript").read_text()
    hello = transcript.splitlines()[0]
    told = json.loads(hello.split(" ", 3)[3])
    assert told["ruleset"]["file"] == "ruleset.json"
    assert str(tmp_path) not in hello and '"/' not in hello
    ready = next(line for line in transcript.splitlines() if line.startswith("< ready "))
    assert "state" in json.loads(ready.split(" ", 3)[3])["wants"]
    assert '"state":{' in transcript  # loaded the copy


def without_bwrap() -> dict[str, str]:
    """An environment whose PATH finds no bubblewrap."""
    path = [p for p in os.environ["PATH"].split(os.pathsep)
            if p and not os.path.exists(os.path.join(p, "bwrap"))]
    return {**os.environ, "PATH": os.pathsep.join(path)}


def test_sandbox_bwrap_where_bubblewrap_cannot_run_is_a_usage_error():
    bot = shlex.join([sys.executable, str(FAULTY), "ok"])
    run = subprocess.run([*AGON, "play", "earth-and-water", "--seat", "persia=random",
                          "--seat", f"greece={bot}", "--sandbox", "bwrap"],
                         capture_output=True, text=True, env=without_bwrap(), timeout=300)
    assert run.returncode == 2
    assert "--sandbox bwrap: bubblewrap (bwrap) is not installed" in run.stderr


def test_auto_without_bubblewrap_falls_back_and_says_so_once():
    bot = shlex.join([sys.executable, str(FAULTY), "ok"])
    run = subprocess.run([*AGON, "play", "earth-and-water", "--seat", f"persia={bot}",
                          "--seat", f"greece={bot}", "-q"],
                         capture_output=True, text=True, env=without_bwrap(), timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("bots run without namespaces") == 1


@pytest.mark.parametrize("option, complaint", [
    (["--bot-limit", "memory=lots"], "memory limit takes a whole number"),
    (["--bot-limit", "speed=3"], "unknown bot limit 'speed'"),
    (["--bot-limit", "log=0"], "log takes a whole number of MB >= 1"),
    (["--bot-env", "1X=2"], "variable name"),
    (["--sandbox", "docker"], "--sandbox takes auto, bwrap, none"),
])
def test_bad_sandbox_options_are_usage_errors(option, complaint):
    run = subprocess.run([*AGON, "play", "earth-and-water", "--seat", "persia=random",
                          "--seat", "greece=random", *option],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and complaint in run.stderr, run.stderr


def test_a_file_given_again_replaces_a_link_the_bot_planted_and_never_writes_through_it(
        tmp_path):
    """A lasting bot is given its files again before each game: had it made one of
    them a link to a file of ours, the referee would overwrite that file."""
    from agon.referee.sandbox import Cell

    victim = tmp_path / "victim.txt"
    victim.write_text("ours")
    cell = Cell(Sandbox(mode="none"), label="bot", game_seconds=10)
    try:
        cell.put("ruleset.json", b"{}")
        (cell.dir / "ruleset.json").unlink()
        (cell.dir / "ruleset.json").symlink_to(victim)   # what the bot does between games
        cell.put("ruleset.json", b'{"again": 1}')
        assert victim.read_text() == "ours"
        given = cell.dir / "ruleset.json"
        assert not given.is_symlink() and given.read_bytes() == b'{"again": 1}'
        given.unlink()
        given.mkdir()   # a name it cannot be given again: an error, no file left behind
        with pytest.raises(OSError):
            cell.put("ruleset.json", b"{}")
        assert sorted(p.name for p in cell.dir.iterdir()) == ["ruleset.json"]
    finally:
        cell.remove()
