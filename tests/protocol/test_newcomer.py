"""A bot author's first mistakes, as `agon play` and `agon check` tell them.

Each test makes one mistake a newcomer makes and asserts what the author reads:
the file named, what was expected, what to do.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agon.referee.engine import Decision
from agon.referee.players import BotFault, SubprocessPlayer, make_player

AGON = [sys.executable, "-m", "agon"]
DECISION = Decision("p1", "total 0, add how much?", ["add 1", "add 2", "add 3"])

CRASHING_BOT = """
import sys
for line in sys.stdin:
    if line.startswith("agon "):
        print("ready crasher", flush=True)
    elif line.startswith("ask "):
        # a JavaScript-style error: the message first, then the stack's frames
        sys.stderr.write("Error: ENOENT: no such file or directory, open 'book.txt'\\n")
        for depth in range(20):
            sys.stderr.write(f"    at frame{depth} (/home/me/bot.js:{depth}:1)\\n")
        sys.exit(1)
"""


def agon(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*AGON, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def play(persia: str, cwd: Path, *more: str) -> subprocess.CompletedProcess:
    return agon("play", "earth-and-water", "--seed", "3", "--seat", f"persia={persia}",
                "--seat", "greece=random", *more, cwd=cwd)


def test_a_bot_file_that_is_not_executable_is_told_how_to_run_it(tmp_path):
    (tmp_path / "bot.js").write_text("// a bot\n")   # written, never chmod +x
    out = play("./bot.js", tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stdout == ""   # no game's title before the usage error
    assert ("'./bot.js' is not executable: make it so (chmod +x ./bot.js), or name its "
            "interpreter first ('node ./bot.js')") in out.stderr


def test_a_bot_in_this_folder_named_without_its_path_is_told_to_write_it(tmp_path):
    bot = tmp_path / "rand.sh"
    bot.write_text("#!/bin/sh\n")
    bot.chmod(0o755)
    out = play("rand.sh", tmp_path)
    assert out.returncode == 2
    assert "'rand.sh' is not a program found on PATH; for the file in this folder, " \
           "write './rand.sh'" in out.stderr
    # it had been offered the built-in `random` instead of its own file
    assert "did you mean" not in out.stderr


def test_agon_check_names_a_file_that_is_not_executable_too(tmp_path):
    (tmp_path / "bot.py").write_text("print('ready x')\n")
    out = agon("check", "bot.py", "--ruleset", "earth-and-water", cwd=tmp_path)
    assert out.returncode == 2
    assert "for the file in this folder, write its interpreter first ('python3 bot.py')" \
        in out.stderr


def test_a_crash_shows_the_end_of_the_programs_stderr_without_stack_frames(tmp_path):
    (tmp_path / "bot.py").write_text(CRASHING_BOT)
    out = play(f"{sys.executable} bot.py", tmp_path, "-q")
    assert out.returncode == 0   # a game played to its result, forfeit included
    assert "persia forfeited (crash): the program closed its output and exited with " \
           "status 1" in out.stderr
    assert "persia's stderr ends (" in out.stderr and "persia.log):" in out.stderr
    assert "  Error: ENOENT: no such file or directory, open 'book.txt'" in out.stderr
    assert "frame" not in out.stderr   # twenty frames would have hidden the error


ESCAPING_BOT = """
import sys
for line in sys.stdin:
    if line.startswith("agon "):
        print("info \\x1b]0;owned too\\x07", flush=True)   # shown by agon check
        print("ready escaper", flush=True)
    elif line.startswith("ask "):
        # the window's title, a cleared screen, the clipboard (OSC 52): on the organiser's terminal
        sys.stderr.write("\\x1b]0;owned\\x07\\x1b[2J\\x1b]52;c;ZWNobyBoaQ==\\x07bye\\n")
        sys.exit(1)
"""


@pytest.mark.parametrize("command", ["play", "check"])
def test_what_a_crashing_bot_wrote_reaches_the_terminal_without_its_escape_sequences(
        tmp_path, command):
    (tmp_path / "bot.py").write_text(ESCAPING_BOT)
    bot = f"{sys.executable} bot.py"
    out = play(bot, tmp_path, "-q") if command == "play" else \
        agon("check", bot, "--ruleset", "earth-and-water", cwd=tmp_path)
    assert "\x1b" not in out.stderr + out.stdout and "\x07" not in out.stderr + out.stdout
    assert r"\x1b]0;owned\x07\x1b[2J\x1b]52;c;ZWNobyBoaQ==\x07bye" in out.stderr + out.stdout
    if command == "check":   # the last lines exchanged
        assert r"< info \x1b]0;owned too\x07" in out.stdout


LINE_BOT = """
import sys
hello, ready, answer = sys.argv[1:4]
for line in sys.stdin:
    if line.startswith("agon ") or line.startswith("newgame "):
        if ready != "-":
            print(ready, flush=True)
    elif line.startswith("ask "):
        print(answer.replace("ID", line.split()[1]), flush=True)
    elif line.startswith("quit"):
        break
"""


def fault_of_line(kit, hello, tmp_path, ready: str, answer: str = "act ID 0") -> BotFault:
    """The fault of a bot that says `ready` (or "-": nothing) and answers asks so."""
    (tmp_path / "bot.py").write_text(LINE_BOT)
    player = SubprocessPlayer([sys.executable, str(tmp_path / "bot.py"), "x", ready, answer])
    try:
        player.start(hello, kit.limits)
        player.choose(1, DECISION, {}, {"move": kit.limits.move},
                      kit.limits.move + kit.limits.grace)
    except BotFault as fault:
        return fault
    finally:
        player.close()
    raise AssertionError("the bot did not fault")


@pytest.mark.parametrize("ready, answer, reason, detail", [
    # a name of two words: it was "bad JSON (Expecting value at column 1)"
    ("ready My Bot", "act ID 0", "handshake",
     "ready: the name is one word (no spaces), and only a JSON object may follow it, "
     "not 'Bot'"),
    ("READY mybot", "act ID 0", "handshake", "unknown message 'READY': 'READY mybot' "
                                             "(did you mean 'ready'?)"),
    ("ready mybot", "act\tID\t0", "protocol",
     "(separate the words of a message with single spaces, not tabs)"),
    # the action's text in capitals: it was told no near miss
    ("ready mybot", "act ID ADD 2", "illegal", "'ADD 2' is not a legal action of ask 1 (did "
                                               "you mean 'add 2'?"),
    # a one-word line was quoted twice: "unknown message '{...}': '{...}'"
    ("ready mybot", '{"act":1}', "protocol", "unknown message '{\"act\":1}' (expected"),
    ("-", "act ID 0", "handshake", "no 'ready' within 0.5 s (a line written but not "
                                   "flushed is not sent: `agon check` lists the usual causes)"),
])
def test_a_malformed_line_says_what_to_write_instead(kit, hello, tmp_path, ready, answer,
                                                     reason, detail):
    fault = fault_of_line(kit, hello, tmp_path, ready, answer)
    assert fault.reason == reason and detail in fault.detail, fault.detail


def test_a_home_folder_written_as_tilde_is_explained():
    # quoted for --seat, `~/...` reaches agon as it is: no shell expands it
    with pytest.raises(ValueError, match="no shell runs the command line, so `~` is not your "
                                         "home folder"):
        make_player("~/no-such-folder-agon/bot.js --fast", seed=1)
