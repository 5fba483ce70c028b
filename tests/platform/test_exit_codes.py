"""One rule for every command: 0 ok, 1 a file or game that fails, 2 a command line that is wrong.

Each command's typical mistakes are run here; the same kind of mistake gets
the same status whichever command it is made to, with a message and no
traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agon.cli.main import app
from agon.referee.signing import KEY_FILE, data_dir

OK, FAILED, USAGE = 0, 1, 2
E_W = ["earth-and-water", "-s", "persia=random", "-s", "greece=random"]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """Files that exist but fail: an invalid ruleset, a garbage record, a garbage journal,
    a record whose actions were edited."""
    invalid = tmp_path / "invalid.yaml"
    invalid.write_text('format: agon-ruleset/1\nid: bad\nname: Bad\nversion: "1"\n'
                       "engine: earth-and-water\nplayers: {min: 2, max: 2}\ndata: {}\n")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    journal = tmp_path / "garbage.jsonl"
    journal.write_text("not json\n")
    record = tmp_path / "game.json"
    played = CliRunner().invoke(app, ["play", *E_W, "--seed", "3", "-q", "--record", str(record)])
    assert played.exit_code == OK, played.output
    edited = json.loads(record.read_text())
    edited["actions"][0][1] = "done"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(edited))
    notes = tmp_path / "notes.svg"
    notes.write_text("a file of one's own, not agon's\n")
    (tmp_path / "dangling.jsonl").symlink_to(tmp_path / "gone" / "x.jsonl")
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    return {"loop": str(tmp_path / "loop.json"), "invalid": str(invalid), "garbage": str(garbage), "journal": str(journal),
            "record": str(record), "tampered": str(tampered),
            "missing": str(tmp_path / "missing.yaml"), "notes": str(notes),
            "folder": str(tmp_path), "dangling": str(tmp_path / "dangling.jsonl")}


CASES = [
    # -- 2: the command line is wrong ------------------------------------------------
    (USAGE, ["no-such-command"], "No such command"),
    (USAGE, ["rulesets", "earth-and-wter"], "did you mean 'earth-and-water'"),
    (USAGE, ["rulesets", "export"], "export takes one ruleset id"),
    (USAGE, ["rulesets", "export", "nope"], "no ruleset 'nope'"),
    (USAGE, ["rulesets", "epireia", "--out", "{missing}"], "--out goes with export"),
    (USAGE, ["rulesets", "--format", "xml"], "xml"),
    (USAGE, ["validate"], "Missing argument"),
    (USAGE, ["validate", "{missing}"], "no such file"),
    (USAGE, ["rules", "no-such-game"], "no ruleset 'no-such-game'"),
    (USAGE, ["play", "no-such-game", "-s", "a=random"], "no ruleset 'no-such-game'"),
    (USAGE, ["play", "earth-and-water", "-s", "persia=random"],
     "needs a player in each of its seats (persia, greece): none is given for greece "
     "(give each seat with --seat SEAT=BOT)"),
    (USAGE, ["play", "epireia"], "needs 2 to 4 players (seats p1, p2 ... p4), not 0"),
    (USAGE, ["play", "epireia-solo"], "needs 1 player (p1), not 0"),
    (USAGE, ["play", *E_W[:3], "-s", "grece=random"], "did you mean 'greece'"),
    (USAGE, ["play", *E_W[:3], "-s", "greece=randm"], "did you mean 'random'"),
    (USAGE, ["play", *E_W[:3], "-s", "greece"], "NAME=VALUE"),
    (USAGE, ["play", *E_W, "-o", "forced_spnd=1"], "did you mean 'forced_spend'"),
    (USAGE, ["play", *E_W, "-o", "cheap_fleets=maybe"], "true or false"),
    (USAGE, ["tournament", "no-such-game", "-b", "a=random", "-b", "b=random"], "no ruleset"),
    (USAGE, ["tournament", "earth-and-water", "-b", "randm", "-b", "mc"], "did you mean 'random'"),
    (USAGE, ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
             "-o", "nope=1"], "no option 'nope'"),
    (USAGE, ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
             "--resume", "{missing}"], "no such journal"),
    (USAGE, ["play", *E_W, "--move-time", "nan"],
     "--move-time takes a number of seconds above 0 (at most 604800), not nan"),
    (USAGE, ["play", *E_W, "--game-time", "1e300"], "--game-time takes a number of seconds"),
    (USAGE, ["play", *E_W, "--handshake-time", "-1"], "(at most 604800), not -1.0"),
    (USAGE, ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
             "--move-time", "inf"], "--move-time takes a number of seconds above 0"),
    (USAGE, ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
             "--game-time", "0"], "--game-time takes a number of seconds above 0"),
    (USAGE, ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
             "--games", "99999999999999999999"], "--games 99999999999999999999 plans "
     "199,999,999,999,999,999,998 games (seeds x groups of bots x seatings); a tournament "
     "plans at most 10,000,000"),
    (USAGE, ["tournament", "epireia", "-b", "a=random", "-b", "b=random", "-b", "c=random",
             "-p", "3", "--games", "1666667"], "plans 10,000,002 games"),
    (USAGE, ["check", "random", "-r", "earth-and-water", "--move-time", "nan"],
     "--move-time takes a number of seconds above 0"),
    (USAGE, ["play", *E_W, "--record", "{notes}"], "notes.svg exists and is not a game record: "
     "choose another file, or replace it with --force"),
    (USAGE, ["play", *E_W, "--record", "{journal}"], "exists and is not a game record"),
    (USAGE, ["play", *E_W, "--record", "{folder}"], "is a folder: name a file (in it)"),
    (USAGE, ["replay", "{record}", "--html", "{record}"], "is the file this command reads"),
    (USAGE, ["replay", "{record}", "--html", "{notes}"], "exists and is not an HTML page"),
    (USAGE, ["map", "earth-and-water", "--record", "{record}", "-o", "{notes}"],
     "notes.svg exists and is not a picture: choose another file, or replace it with --force"),
    (USAGE, ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
             "--out", "{dangling}"], "dangling.jsonl: no such folder"),
    (USAGE, ["replay", "{missing}"], "no such file"),
    # a name that is there, but leads nowhere: not "no such file"
    (USAGE, ["replay", "{loop}"], "loop.json: a loop of symbolic links, not a file"),
    (USAGE, ["tournament", "--resume", "{loop}"], "a loop of symbolic links, not a journal"),
    (USAGE, ["validate", "{dangling}"], "/gone/x.jsonl, which does not exist"),
    (USAGE, ["map", "earth-and-water", "--record", "{missing}"], "missing.yaml: no such file"),
    (USAGE, ["replay", "{record}", "--ruleset", "no-such-game"], "no ruleset"),
    (USAGE, ["check", "randm", "-r", "earth-and-water"], "did you mean 'random'"),
    (USAGE, ["play", "earth-and-water", "-s", "persia=mc time=1", "-s", "greece=random"],
     "did you mean 'mc:time=1'? a built-in bot's settings follow a colon, with no spaces"),
    (USAGE, ["tournament", "earth-and-water", "-b", "x=ismcts : time=0.2", "-b", "random"],
     "did you mean 'ismcts:time=0.2'?"),
    (USAGE, ["check", "random", "-r", "no-such-game"], "no ruleset"),
    (USAGE, ["check", "random", "-r", "earth-and-water", "--seat", "grece"],
     "did you mean 'greece'"),
    (USAGE, ["check", "random", "-r", "earth-and-water", "--players", "3"], "needs 2 players"),
    (USAGE, ["bots", "--format", "xml"], "xml"),
    (USAGE, ["key", "forget"], "forget"),
    # -- 1: a file or a game that fails ----------------------------------------------
    (FAILED, ["rulesets", "{invalid}"], "not a valid ruleset"),
    (FAILED, ["validate", "{invalid}"], "error(s)"),
    (FAILED, ["rules", "{invalid}"], "not a valid ruleset"),
    (FAILED, ["rules", "earth-and-water", "xyzzy plugh"], "nothing in earth-and-water matches"),
    (FAILED, ["play", "{invalid}", "-s", "persia=random", "-s", "greece=random"],
     "not a valid ruleset"),
    (FAILED, ["tournament", "{invalid}", "-b", "a=random", "-b", "b=random"],
     "not a valid ruleset"),
    (FAILED, ["tournament", "earth-and-water", "-b", "a=random", "-b", "b=random",
              "--resume", "{journal}"], "not a journal line"),
    (FAILED, ["replay", "{garbage}"], "not a JSON game record"),
    (FAILED, ["replay", "{tampered}"], "NOT verified"),
    (FAILED, ["check", "random", "-r", "{invalid}"], "not a valid ruleset"),
]


@pytest.mark.parametrize("code, args, message", CASES,
                         ids=[" ".join(c[1])[:60] for c in CASES])
def test_each_kind_of_mistake_has_one_exit_status(files, code, args, message):
    result = CliRunner().invoke(app, [arg.format(**files) for arg in args])
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_a_key_file_that_cannot_be_read_fails_with_1():
    key_file = data_dir() / KEY_FILE
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text("not a key")
    try:
        result = CliRunner().invoke(app, ["key", "show"])
    finally:
        key_file.unlink()
    assert result.exit_code == FAILED and "not a readable agon key file" in result.output


def test_a_file_where_the_key_folder_goes_is_named_not_taken_for_a_key(tmp_path, monkeypatch):
    """mkdir's "File exists" was read as another process making the key at the same time."""
    (tmp_path / "agon").write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["tournament", "earth-and-water", "-b", "a=random",
                                      "-b", "b=random", "-n", "1", "--seed", "1"])
    assert result.exit_code == FAILED
    assert f"cannot create the referee's key in {tmp_path / 'agon'} (File exists)" \
        in result.output
    assert "Errno" not in result.output and "move it away" not in result.output


def test_key_show_names_a_file_where_the_key_folder_goes(tmp_path, monkeypatch):
    """It said "no key yet: one is made in .../agon", where none can be made."""
    (tmp_path / "agon").write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["key", "show"])
    assert result.exit_code == FAILED
    assert f"{tmp_path / 'agon'} is a file, where the folder of the referee's key goes: " \
        "move it away" in result.output
    assert "no key yet" not in result.output


LONG_NAME = "z" * 300   # longer than a file system takes for one name


@pytest.mark.parametrize("args", [
    ["replay", LONG_NAME], ["validate", LONG_NAME], ["tournament", "--resume", LONG_NAME],
    ["play", "earth-and-water", "-s", "persia=random", "-s", "greece=random",
     "--record", LONG_NAME],
    ["map", "earth-and-water", "--out", LONG_NAME + ".svg"]])
def test_a_file_name_too_long_is_a_usage_error_not_an_internal_error(args):
    out = subprocess.run([sys.executable, "-m", "agon", *args], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == USAGE, out.stderr
    assert out.stderr.startswith("agon: error: File name too long: "), out.stderr
    assert "zzzzzzzzzz... (3" in out.stderr
    assert "internal error" not in out.stderr


def test_the_readme_table_is_the_rule_the_commands_follow():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Exit status", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip(): line for line in table.splitlines()
            if line.startswith("| `")}
    assert set(rows) >= {"`0`", "`1`", "`2`"}
    assert "usage" in rows["`2`"].lower() and "fail" in rows["`1`"].lower()


def _agon(*args: str, stdout: int) -> subprocess.CompletedProcess:
    """The installed command, as a shell runs it, with stdout on the given descriptor."""
    return subprocess.run([sys.executable, "-m", "agon", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["rules", "earth-and-water"],
                                  ["rulesets", "--format", "json"]])
def test_a_full_standard_output_is_an_error_not_a_crash(args):
    with open("/dev/full", "w") as full:
        out = _agon(*args, stdout=full.fileno())
    assert out.returncode == FAILED, out.stderr
    assert out.stderr == "agon: error: cannot write to standard output (No space left on device)\n"


def test_a_closed_pipe_ends_quietly():
    """`agon rules ... | head`: the reader has gone, which is no one's error."""
    read, write = os.pipe()
    os.close(read)
    try:
        out = _agon("rules", "earth-and-water", stdout=write)
    finally:
        os.close(write)
    assert out.returncode == FAILED and out.stderr == ""


# Ctrl-C while the commands load, made certain: the import of one of them is interrupted
CTRL_C_WHILE_LOADING = """
import runpy, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "agon.cli.common":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["agon", "rulesets"]
runpy.run_module("agon", run_name="__main__")
"""


def test_ctrl_c_while_the_commands_load_ends_without_a_traceback():
    out = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_LOADING], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 130 and out.stderr == "agon: interrupted\n", out.stderr


# Ctrl-C inside a command, before it holds anything to save (the tournament's set-up)
CTRL_C_IN_A_COMMAND = """
import runpy, sys
import agon.referee.tournament_setup as setup

def interrupted(*args, **kwargs):
    raise KeyboardInterrupt

setup.setup = interrupted
sys.argv = ["agon", "tournament", "earth-and-water", "-b", "random", "-b", "r2=random"]
runpy.run_module("agon", run_name="__main__")
"""


def test_ctrl_c_where_no_command_catches_it_says_interrupted():
    """typer turned it into a silent exit 130: the run just stopped, without a word."""
    out = subprocess.run([sys.executable, "-c", CTRL_C_IN_A_COMMAND], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 130 and out.stderr == "agon: interrupted\n", out.stderr


def test_an_output_of_another_kind_is_kept_unless_force(files):
    notes = Path(files["notes"])
    before = notes.read_text()
    refused = CliRunner().invoke(app, ["play", *E_W, "--seed", "3", "-q", "--record", str(notes)])
    assert refused.exit_code == USAGE and notes.read_text() == before
    forced = CliRunner().invoke(app, ["play", *E_W, "--seed", "3", "-q", "--record", str(notes),
                                      "--force"])
    assert forced.exit_code == OK, forced.output
    assert json.loads(notes.read_text())["format"] == "agon-record/1"
    again = CliRunner().invoke(app, ["play", *E_W, "--seed", "4", "-q", "--record", str(notes)])
    assert again.exit_code == OK, again.output   # a record over a record: agon's own kind


@pytest.mark.parametrize("args", [
    ["play", "earth-and-water", "-s", "{long}=random", "-s", "greece=random"],
    ["tournament", "earth-and-water", "-b", "{long}=random", "-b", "random"],
    ["play", *E_W, "--option", "{long}=1"],
    ["tournament", "earth-and-water", "-b", "random", "-b", "greedy", "--sprt", "{long}"],
])
def test_a_long_mistyped_value_is_quoted_short(args):
    """5,000 characters typed by mistake are quoted by their start and their length,
    and the rest of the message (what would be right) still shows."""
    long = "x" * 5000
    result = CliRunner().invoke(app, [arg.replace("{long}", long) for arg in args])
    assert result.exit_code == USAGE
    assert "x" * 300 not in result.output and "(5,0" in result.output
    assert len(result.output) < 600, result.output
