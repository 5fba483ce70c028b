"""What a bot program may do in its sandbox (docs/protocol.md, "What a bot may do"),
and how `--sandbox` chooses and reports the sandbox."""

from __future__ import annotations

import ctypes
import json
import os
import random
import shlex
import socket
import subprocess
import sys
import uuid
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
    (["--bot-limit", "memory=-1"], "memory limit must be a whole number from 0 to"),
    # beyond what the kernel takes: refused here, not a forfeit of the bot's
    (["--bot-limit", "memory=" + "9" * 40], "memory limit must be a whole number from 0 to"),
    (["--bot-limit", "cpu=" + "9" * 20], "cpu limit must be a whole number from 0 to"),
    (["--bot-limit", "processes=9999999999"], "processes limit must be a whole number from"),
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


# -- a bot's whole tree of processes, bounded by a control group (docs/protocol.md) --------

def needs_cgroups() -> None:
    from agon.referee import cgroups

    found = cgroups.available()
    if isinstance(found, str):
        pytest.skip(f"no control groups for bots here: {found}")


def groups_left() -> list[str]:
    """The control groups this process made and did not remove."""
    from agon.referee import cgroups

    found = cgroups.available()
    assert isinstance(found, cgroups.Hierarchy)
    prefix = f"agon-{os.getpid()}-"
    return [str(path) for _, base in found.bases for path in base.iterdir()
            if path.name.startswith(prefix)]


def test_children_that_together_pass_the_memory_limit_make_the_bot_forfeit_for_memory(kit):
    """Four children of 60 MB each stay under a 150 MB limit per process; not together."""
    needs_cgroups()
    bot = SubprocessPlayer(kit.faulty("memory-children"),
                           sandbox=Sandbox(mode=kit.sandbox, memory_mb=150))
    record = run_match(kit.CountEngine(kit.ruleset),
                       {"p1": bot, "p2": make_player("random", seed=1)}, seed=7,
                       options={"target": 12}, limits=Limits(handshake=20, move=20, game=60))
    forfeit = record.forfeits["p1"]
    assert forfeit["reason"] == "crash", forfeit
    assert "ran out of memory under its memory limit (150 MB" in forfeit["detail"], forfeit
    assert groups_left() == []


def test_a_bot_spinning_in_six_sessions_leaves_its_opponent_a_whole_cpu(kit):
    """Without a group, each child of its own session gets a share of the CPUs: on two
    CPUs, the opponent got a seventh of them and timed out (red-team finding 5)."""
    needs_cgroups()
    hog = SubprocessPlayer(kit.faulty("setsid-hogs"), sandbox=Sandbox(mode=kit.sandbox))
    thinker = SubprocessPlayer(kit.faulty("think", "0.5"), sandbox=Sandbox(mode=kit.sandbox))
    record = run_match(kit.CountEngine(kit.ruleset), {"p1": hog, "p2": thinker}, seed=7,
                       options={"target": 12},
                       limits=Limits(handshake=20, move=1.5, game=60, grace=0.1))
    assert record.forfeits == {}
    assert groups_left() == []


def test_a_fork_bomb_stops_at_the_process_limit_and_leaves_nothing_behind(kit):
    needs_cgroups()
    marker = f"agon-test-bomb-{os.getpid()}-{kit.sandbox}"
    bomb = SubprocessPlayer(kit.faulty("fork-bomb", marker),
                            sandbox=Sandbox(mode=kit.sandbox, processes=40))
    record = run_match(kit.CountEngine(kit.ruleset),
                       {"p1": bomb, "p2": make_player("random", seed=1)}, seed=7,
                       options={"target": 12}, limits=Limits(handshake=20, move=20, game=60))
    assert record.forfeits == {}
    said = next(info for info in bomb.infos if info.startswith("fork-bomb: "))
    assert int(said.split()[1]) < 40, said
    assert kit.running_with(marker) == []
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert marker not in ps
    assert groups_left() == []


def fake_cgroup_mounts(tmp_path, monkeypatch, mounts: list[str], own: list[str]) -> None:
    """A mountinfo and a /proc/self/cgroup of our making (their paths under tmp_path)."""
    from agon.referee import cgroups

    info = tmp_path / "mountinfo"
    info.write_text("".join(f"{n} 1 0:{n} {line}\n" for n, line in enumerate(mounts, 30)))
    groups = tmp_path / "cgroup"
    groups.write_text("".join(f"{line}\n" for line in own))
    monkeypatch.setattr(cgroups, "MOUNTINFO", str(info))
    monkeypatch.setattr(cgroups, "OWN_GROUPS", str(groups))


def test_control_groups_are_made_under_our_own_group_of_each_v1_hierarchy(tmp_path,
                                                                         monkeypatch):
    from agon.referee import cgroups

    for name in ("cpu", "memory", "pids"):
        (tmp_path / name / "ours").mkdir(parents=True)
    fake_cgroup_mounts(tmp_path, monkeypatch, [
        f"/ {tmp_path}/cpu rw,relatime - cgroup cgroup rw,cpu,cpuacct",
        f"/ {tmp_path}/memory rw,relatime - cgroup cgroup rw,memory",
        f"/ {tmp_path}/pids ro,relatime - cgroup cgroup rw,pids",
        f"/ {tmp_path}/unified rw,relatime - cgroup2 cgroup2 rw"],
        ["3:cpu,cpuacct:/ours", "2:memory:/ours", "1:pids:/ours", "0::/"])
    assert "no writable pids hierarchy" in cgroups.available.__wrapped__()
    fake_cgroup_mounts(tmp_path, monkeypatch, [
        f"/ {tmp_path}/cpu rw,relatime - cgroup cgroup rw,cpu,cpuacct",
        f"/ {tmp_path}/memory rw,relatime - cgroup cgroup rw,memory",
        f"/ {tmp_path}/pids rw,relatime - cgroup cgroup rw,pids"],
        ["3:cpu,cpuacct:/ours", "2:memory:/ours", "1:pids:/ours"])
    left = tmp_path / "cpu" / "ours" / "agon-999999999-1"  # of a referee that is gone
    left.mkdir()
    (tmp_path / "cpu" / "ours" / f"agon-{os.getpid()}-999").mkdir()  # of one that runs
    found = cgroups.available.__wrapped__()
    assert found == cgroups.Hierarchy(1, tuple((name, tmp_path / name / "ours")
                                               for name in ("cpu", "memory", "pids")))
    assert sorted(p.name for p in (tmp_path / "cpu" / "ours").iterdir()) == [
        f"agon-{os.getpid()}-999"]  # the probe and the group left behind are gone


def test_a_v2_group_that_can_give_its_children_the_controllers_is_used(tmp_path, monkeypatch):
    from agon.referee import cgroups

    ours = tmp_path / "unified" / "agon.scope"
    ours.mkdir(parents=True)
    (ours / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (ours / "cgroup.subtree_control").write_text("\n")
    fake_cgroup_mounts(tmp_path, monkeypatch,
                       [f"/ {tmp_path}/unified rw,nosuid - cgroup2 cgroup2 rw"],
                       ["0::/agon.scope"])
    found = cgroups.available.__wrapped__()
    assert found == cgroups.Hierarchy(2, (("cpu memory pids", ours),))
    assert (ours / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"
    (ours / "cgroup.controllers").write_text("cpu\n")
    assert "lacks the memory, pids controller(s)" in cgroups.available.__wrapped__()


def test_without_control_groups_the_referee_says_once_that_limits_are_per_process(
        monkeypatch, capsys):
    from agon.referee import cgroups, sandbox

    monkeypatch.setattr(cgroups, "available", lambda: "cgroup v2: test; cgroup v1: test")
    monkeypatch.setattr(sandbox, "_said", set())
    assert sandbox.tree_groups() is None
    Sandbox(mode="none").resolved()
    Sandbox(mode="none").resolved()
    said = capsys.readouterr().err
    assert said.count("no control groups for bots (cgroup v2: test; cgroup v1: test)") == 1
    assert "limits hold per process" in said


# -- under none: a folder with a hidden file stays listable; no UDP (red team 7, 8) -------

SIBLING_BOT = """
import os
import sys

import helper  # beside this file: Python finds it by listing the folder


def send(line):
    sys.stdout.write(line + "\\n")
    sys.stdout.flush()


def attempt(what, act):
    try:
        send(f"info {what}: got {act()!r}")
    except OSError as err:
        send(f"info {what}: refused ({err.strerror})")


for line in sys.stdin:
    word, _, rest = line.rstrip("\\n").partition(" ")
    if word == "agon":
        send("ready sibling")
    elif word == "ask":
        for path in sys.argv[1:]:
            attempt(f"read {os.path.basename(path)}", lambda: open(path).read())
            attempt(f"append {os.path.basename(path)}", lambda: open(path, "a").write("x"))
        attempt("list", lambda: sorted(os.listdir(os.path.dirname(sys.argv[1]))))
        send(f"act {rest.split(' ', 1)[0]} {helper.FIRST}")
    elif word == "quit":
        break
"""


def test_a_bot_imports_a_module_beside_it_while_a_hidden_file_sits_there(kit, tmp_path):
    """A record being written beside a bot (agon play run from the bot's folder) hid the
    folder itself under none: `import helper` failed and the bot forfeited (finding 8).
    The folders stay listable; the hidden files stay shut."""
    (tmp_path / "bot.py").write_text(SIBLING_BOT)
    (tmp_path / "helper.py").write_text("FIRST = 0\n")
    (tmp_path / "sub").mkdir()
    secret, deeper = tmp_path / "game-seed3-unfinished.json", tmp_path / "sub" / "journal"
    secret.write_text("SECRET RECORD")
    deeper.write_text("SECRET JOURNAL")
    (tmp_path / "sub" / "notes.txt").write_text("notes")
    sandbox = Sandbox(mode=kit.sandbox).hiding(secret, deeper)
    bot = SubprocessPlayer([sys.executable, str(tmp_path / "bot.py"), str(secret), str(deeper),
                            str(tmp_path / "sub" / "notes.txt")], sandbox=sandbox)
    record = run_match(kit.CountEngine(kit.ruleset),
                       {"p1": bot, "p2": make_player("random", seed=1)}, seed=7,
                       options={"target": 6}, limits=Limits(move=20, game=60))
    assert record.forfeits == {}
    said = "\n".join(bot.infos)
    assert "SECRET" not in said and "read notes.txt: got 'notes'" in said
    assert secret.read_text() == "SECRET RECORD" and deeper.read_text() == "SECRET JOURNAL"
    if kit.sandbox == "none":
        assert "read game-seed3-unfinished.json: refused" in said
        assert "read journal: refused" in said
        assert "list: got ['bot.py', 'game-seed3-unfinished.json', 'helper.py', 'sub']" in said


def test_a_file_hidden_by_a_symbolic_link_to_it_is_hidden_itself(kit, tmp_path):
    """`agon tournament --out other/link.jsonl`, the link leading to a journal beside the
    bot: the journal was hidden by the link's name only, and the bot read it by its own
    name (the first game's seed, in the second game of the pair), under both sandboxes."""
    (tmp_path / "bot.py").write_text(SIBLING_BOT)
    (tmp_path / "helper.py").write_text("FIRST = 0\n")
    secret = tmp_path / "j.jsonl"
    secret.write_text("SECRET JOURNAL")
    (tmp_path.parent / f"{tmp_path.name}-other").mkdir()
    link = tmp_path.parent / f"{tmp_path.name}-other" / "link.jsonl"
    link.symlink_to(secret)
    bot = SubprocessPlayer([sys.executable, str(tmp_path / "bot.py"), str(secret)],
                           sandbox=Sandbox(mode=kit.sandbox).hiding(link))
    record = run_match(kit.CountEngine(kit.ruleset),
                       {"p1": bot, "p2": make_player("random", seed=1)}, seed=7,
                       options={"target": 6}, limits=Limits(move=20, game=60))
    assert record.forfeits == {}
    said = "\n".join(bot.infos)
    assert "read j.jsonl: " in said and "SECRET" not in said


def test_a_folder_listable_around_hidden_files_keeps_files_made_later_shut(tmp_path):
    """The right to list a folder reaches every folder below it, and nothing more: what
    appears there once the fence is drawn (a record saved, a log folder made) is shut."""
    if not confine.landlock_abi():
        pytest.skip("no Landlock here")
    (tmp_path / "mine.py").write_text("mine")
    fenced, proceed = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child must never return into pytest
        status = 1
        try:
            status = fenced_child(tmp_path, fenced)
        finally:
            os._exit(status)
    (tmp_path / "later").mkdir()
    (tmp_path / "later" / "x.log").write_text("SECRET")
    os.write(proceed, b"go")
    assert os.waitpid(pid, 0)[1] >> 8 == 0


def fenced_child(folder: Path, fenced: int) -> int:
    """In a child: list `folder`, read only mine.py there; 0 if all went as it should."""
    confine.landlock([("/", confine.READ_DIR), (str(folder / "mine.py"), confine.READ)],
                     [], [], network=True)
    os.read(fenced, 1)  # the parent has made later/x.log
    if sorted(os.listdir(folder)) != ["later", "mine.py"] or \
            os.listdir(folder / "later") != ["x.log"] or (folder / "mine.py").read_text() != "mine":
        return 2
    for attempt in (lambda: (folder / "later" / "x.log").read_text(),
                    lambda: (folder / "later" / "x.log").write_text("x"),
                    lambda: (folder / "new").write_text("x")):
        try:
            attempt()
            return 3
        except PermissionError:
            pass
    return 0


PROBE_BOT = """
import socket
import sys


def send(line):
    sys.stdout.write(line + "\\n")
    sys.stdout.flush()


def probe():
{probe}

for line in sys.stdin:
    word, _, rest = line.rstrip("\\n").partition(" ")
    if word == "agon":
        send("ready probe")
    elif word == "ask":
        probe()
        send(f"act {{rest.split(' ', 1)[0]}} 0")
    elif word == "quit":
        break
"""
UDP_BOT = PROBE_BOT.format(probe="""\
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.sendto(b"a hidden hand", ("127.0.0.1", int(sys.argv[1])))
        send("info udp: sent")
    except OSError as err:
        send(f"info udp: refused ({err.strerror})")""")


@pytest.mark.parametrize("network", [False, True])
def test_a_bot_sends_udp_only_with_bot_network(kit, tmp_path, network):
    """Landlock fences TCP only: under none a bot sent DNS queries to the internet and
    could talk to another bot on 127.0.0.1 (finding 7)."""
    if kit.sandbox == "none" and not confine.socket_filter_machine():
        pytest.skip("no socket filter for this machine: under none, UDP is open")
    (tmp_path / "udp_bot.py").write_text(UDP_BOT)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener:
        listener.bind(("127.0.0.1", 0))
        bot = SubprocessPlayer([sys.executable, str(tmp_path / "udp_bot.py"),
                                str(listener.getsockname()[1])],
                               sandbox=Sandbox(mode=kit.sandbox, network=network))
        record = run_match(kit.CountEngine(kit.ruleset),
                           {"p1": bot, "p2": make_player("random", seed=1)}, seed=7,
                           options={"target": 6}, limits=Limits(move=20, game=60))
        assert record.forfeits == {}
        listener.settimeout(2 if network else 0.1)
        try:
            heard = listener.recv(100)
        except TimeoutError:
            heard = b""
    assert heard == (b"a hidden hand" if network else b"")
    if kit.sandbox == "none":
        assert ("udp: sent" if network else "udp: refused (Permission denied)") in bot.infos


def filter_verdict(program: list[tuple[int, int, int, int]], arch: int, nr: int,
                   arg0: int = 0) -> int:
    """What the classic-BPF socket filter answers for one call (a tiny interpreter)."""
    data = {0: nr, 4: arch, 16: arg0}
    at, loaded = 0, 0
    while True:
        code, if_true, if_false, k = program[at]
        if code == 0x06:  # ret
            return k
        if code == 0x20:  # ld [k]
            loaded, at = data[k], at + 1
        else:  # jeq k
            assert code == 0x15
            at += 1 + (if_true if loaded == k else if_false)


UNIX_BOT = PROBE_BOT.format(probe="""\
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as unix:
            unix.connect(sys.argv[1])
            unix.sendall(b"a hidden hand")
        send("info unix: sent")
    except OSError as err:
        send(f"info unix: refused ({err.strerror})")
    mine, theirs = socket.socketpair()
    mine.sendall(b"x")
    send(f"info socketpair: {theirs.recv(1)!r}")""")


def test_a_bot_reaches_no_unix_socket_by_its_path(kit, tmp_path):
    """Under none two bots talked through a Unix socket found in /proc/net/unix, and a
    bot could reach a daemon's (red team 2, finding 4): socket() is refused whatever
    the family; socketpair() still works."""
    if kit.sandbox == "none" and not confine.socket_filter_machine():
        pytest.skip("no socket filter for this machine: under none, Unix sockets are open")
    (tmp_path / "unix_bot.py").write_text(UNIX_BOT)
    path = str(tmp_path / "listening.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen()
        listener.settimeout(0.1)
        bot = SubprocessPlayer([sys.executable, str(tmp_path / "unix_bot.py"), path],
                               sandbox=Sandbox(mode=kit.sandbox))
        record = run_match(kit.CountEngine(kit.ruleset),
                           {"p1": bot, "p2": make_player("random", seed=1)}, seed=7,
                           options={"target": 6}, limits=Limits(move=20, game=60))
        assert record.forfeits == {}
        with pytest.raises(TimeoutError):
            listener.accept()
    assert not any("unix: sent" in info for info in bot.infos)
    assert "socketpair: b'x'" in bot.infos


NOTE_BOT = r"""
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
shm_key, name = int(sys.argv[1]), sys.argv[2].encode()
USER_KEYRING, KEYCTL_SEARCH, KEYCTL_READ = -4, 10, 11


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def error():
    return os.strerror(ctypes.get_errno())


def leave_a_note():
    note = f"a hidden hand, from {os.getpid()}".encode()
    shm = libc.shmget(shm_key, 4096, 0o1666)   # IPC_CREAT
    if shm < 0:
        send(f"info shm: refused ({error()})")
    else:
        at = libc.shmat(shm, None, 0)
        send(f"info shm: found {ctypes.string_at(at, 64).rstrip(bytes(1))!r}")
        ctypes.memmove(at, note, len(note))
    key = libc.syscall(250, KEYCTL_SEARCH, USER_KEYRING, b"user", name, 0)
    if key >= 0:
        found = ctypes.create_string_buffer(64)
        libc.syscall(250, KEYCTL_READ, key, found, 64)
        send(f"info key: found {found.value!r}")
    if libc.syscall(248, b"user", name, note, len(note), USER_KEYRING) < 0:
        send(f"info key: refused ({error()})")


asks = 0
for line in sys.stdin:
    word, _, rest = line.rstrip("\n").partition(" ")
    if word == "agon":
        send("ready noter")
    elif word == "ask":
        asks += 1
        if asks == 1:
            leave_a_note()
        send(f"act {rest.split(' ', 1)[0]} 0")
    elif word == "quit":
        break
"""


def _unlink_user_key(name: bytes) -> bool:
    """Remove the key `name` from this user's keyring: True if it was there."""
    libc = ctypes.CDLL(None, use_errno=True)
    key = libc.syscall(250, 10, -4, b"user", name, 0)   # KEYCTL_SEARCH the user keyring
    if key < 0:
        return False
    libc.syscall(250, 9, key, -4)   # KEYCTL_UNLINK
    return True


def _remove_shm(shm_key: int) -> bool:
    """Remove the System V shared memory of `shm_key`: True if it was there."""
    libc = ctypes.CDLL(None, use_errno=True)
    shm = libc.shmget(shm_key, 0, 0)
    if shm < 0:
        return False
    libc.shmctl(shm, 0, None)   # IPC_RMID
    return True


@pytest.mark.parametrize("network", [False, True])
def test_bots_pass_no_note_through_system_v_ipc_or_keyrings(kit, tmp_path, network):
    """Landlock fences paths, not what is named by number: under none the seat that
    played first left the other a note in System V shared memory and in the user's
    keyring (so could a process that played a seed for one that plays it again, seats
    swapped), and both stayed on the machine after the run."""
    if kit.sandbox == "none" and not confine.socket_filter_machine():
        pytest.skip("no seccomp filter for this machine: under none, System V IPC is open")
    (tmp_path / "note_bot.py").write_text(NOTE_BOT)
    shm_key, name = random.SystemRandom().randrange(1 << 20, 1 << 30), f"agon-{uuid.uuid4()}"
    bots = {seat: SubprocessPlayer([sys.executable, str(tmp_path / "note_bot.py"), str(shm_key),
                                    name], sandbox=Sandbox(mode=kit.sandbox, network=network))
            for seat in ("p1", "p2")}
    try:
        record = run_match(kit.CountEngine(kit.ruleset), bots, seed=7, options={"target": 6},
                           limits=Limits(move=20, game=60))
    finally:
        left = {"shm": _remove_shm(shm_key), "key": _unlink_user_key(name.encode())}
    assert record.forfeits == {}
    said = [info for bot in bots.values() for info in bot.infos]
    assert not [info for info in said if "a hidden hand" in info]
    assert left == {"shm": False, "key": False}
    if kit.sandbox == "none":
        assert said.count("shm: refused (Permission denied)") == 2
        assert said.count("key: refused (Permission denied)") == 2


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_socket_filter_refuses_every_way_to_a_network_socket(machine):
    allow, eacces, kill = 0x7FFF0000, 0x00050000 | 13, 0x80000000
    native, compat = confine._ABIS_BY_MACHINE[machine]
    program = confine._socket_program((native, compat))
    for abi in (native, compat):
        for socket_call in abi.socket:
            for family in (socket.AF_INET, socket.AF_INET6, socket.AF_PACKET, 16,
                           socket.AF_UNIX):
                assert filter_verdict(program, abi.arch, socket_call, family) == eacces
        for socketcall in abi.socketcall:
            assert filter_verdict(program, abi.arch, socketcall, 1) == eacces  # SYS_SOCKET
            assert filter_verdict(program, abi.arch, socketcall, 3) == allow  # SYS_CONNECT
        for refused in abi.refused:
            assert filter_verdict(program, abi.arch, refused) == eacces
        for other in (0, 1, 59, 63, 64, 221):  # read, write, execve ... of either table
            if other not in (*abi.socket, *abi.socketcall, *abi.refused):
                assert filter_verdict(program, abi.arch, other, socket.AF_INET) == allow
    assert filter_verdict(program, 0x12345678, 41, socket.AF_INET) == kill


# shmget, shmat, msgget, msgsnd, semget, semop, mq_open, add_key, keyctl of each ABI, from
# the kernel's tables, and calls that must stay open (read, write, execve of the ABI)
IPC_CALLS = {"x86_64": ((29, 30, 68, 69, 64, 65, 240, 248, 250), (0, 1, 59)),
             "x32": tuple(tuple(0x40000000 | nr for nr in calls)
                          for calls in ((29, 30, 68, 69, 64, 65, 240, 248, 250), (0, 1, 59))),
             "i386": ((117, 395, 397, 399, 400, 393, 277, 286, 288), (3, 4, 11)),
             "aarch64": ((194, 196, 186, 189, 190, 193, 180, 217, 219), (63, 64, 221)),
             "arm": ((307, 305, 303, 301, 299, 298, 274, 309, 311), (3, 4, 11))}


@pytest.mark.parametrize("abi", list(IPC_CALLS))
def test_the_ipc_filter_refuses_system_v_ipc_message_queues_and_keyrings(abi):
    allow, eacces = 0x7FFF0000, 0x00050000 | 13
    machine = "x86_64" if abi in ("x86_64", "x32", "i386") else "aarch64"
    native, compat = confine._IPC_ABIS_BY_MACHINE[machine]
    arch = (compat if abi in ("i386", "arm") else native).arch
    program = confine._socket_program((native, compat))
    refused, open_calls = IPC_CALLS[abi]
    assert [filter_verdict(program, arch, nr) for nr in refused] == [eacces] * len(refused)
    assert [filter_verdict(program, arch, nr) for nr in open_calls] == [allow] * len(open_calls)


# -- under bwrap: a bot's own directory holds file-size megabytes in all ----------------

FILLER_BOT = """
import os
import sys

written = 0
try:
    for number in range(64):   # 64 files of 1 MB: each under the per-file cap of 2 MB
        with open(f"fill-{number}", "wb") as file:
            file.write(b"x" * (1 << 20))
        written += 1 << 20
    outcome = "all written"
except OSError as err:
    outcome = err.strerror
print("ready filler", flush=True)
for line in sys.stdin:
    word, _, rest = line.partition(" ")
    if word == "ask":
        print(f"info wrote {written >> 20} MB: {outcome}", flush=True)
        print(f"act {rest.split(' ', 1)[0]} 0", flush=True)
    elif word == "quit":
        break
"""


def test_under_bwrap_a_bot_cannot_fill_the_disk_with_many_files(kit, tmp_path):
    """`file-size` caps each file; under bwrap the bot's directory is a memory file
    system of that size in all, so many small files stop there too (they went to the
    disk that holds the cells, without end)."""
    if kit.sandbox != "bwrap":
        pytest.skip("the fallback sandbox caps each file only (docs/protocol.md)")
    (tmp_path / "filler.py").write_text(FILLER_BOT)
    bot = SubprocessPlayer([sys.executable, str(tmp_path / "filler.py")],
                           sandbox=Sandbox(mode="bwrap", file_mb=2))
    record = run_match(kit.CountEngine(kit.ruleset),
                       {"p1": bot, "p2": make_player("random", seed=1)}, seed=7,
                       options={"target": 6}, limits=Limits(move=20, game=60))
    assert record.forfeits == {}
    said = [info for info in bot.infos if info.startswith("wrote ")]
    assert said and said[0] in ("wrote 1 MB: No space left on device",
                                "wrote 2 MB: No space left on device")
