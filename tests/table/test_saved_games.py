"""`save`, Ctrl-C and `agon play --resume`, as a person at the terminal meets them."""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

AGON = [sys.executable, "-m", "agon"]
PROGRAM = f"{shlex.quote(sys.executable)} -m agon.bots.random"
SAVED = "earth-and-water-unfinished.json"   # where `save` writes without --record


def agon(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([*AGON, *args], capture_output=True, text=True, input=stdin,
                          cwd=cwd, timeout=300)


def saved_game(tmp_path: Path, persia: str = "random") -> dict:
    """Greece buys a card, saves, and resigns; the saved game is left in tmp_path."""
    out = agon("play", "earth-and-water", "-s", f"persia={persia}", "-s", "greece=human",
               "--seed", "3", cwd=tmp_path, stdin="buy_card\nsave\nquit\ny\n")
    assert out.returncode == 0, out.stderr
    assert f"Saved the game so far to {SAVED}; `agon play --resume {SAVED}`" in out.stdout
    return json.loads((tmp_path / SAVED).read_text())


def test_a_second_game_saved_in_the_folder_takes_the_next_name_and_no_name_holds_the_seed(
        tmp_path):
    first = saved_game(tmp_path)
    out = agon("play", "earth-and-water", "-s", "persia=random", "-s", "greece=human",
               "--seed", "4", cwd=tmp_path, stdin="save\nquit\ny\n")
    second = "earth-and-water-unfinished-2.json"
    assert f"Saved the game so far to {second};" in out.stdout
    assert json.loads((tmp_path / SAVED).read_text()) == first   # the first is kept
    assert json.loads((tmp_path / second).read_text())["seed"] == 4
    assert not [p.name for p in tmp_path.iterdir() if "4" in p.name.replace("-2", "")]


def test_save_writes_an_unfinished_record_that_replay_calls_unfinished(tmp_path):
    game = saved_game(tmp_path)
    assert game["status"] == "unfinished" and game["result"] is None
    assert game["actions"][-1] == ["greece", "buy_card"]
    assert game["resume"] == {"seats": {"persia": "random", "greece": "human"}}
    out = agon("replay", SAVED, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert f"unfinished: the game stops after {len(game['actions'])} actions" in out.stdout
    assert "stop in a game not over yet" in out.stdout


def test_resume_plays_on_from_the_saved_moves_with_the_same_seats(tmp_path):
    game = saved_game(tmp_path)
    out = agon("play", "--resume", SAVED, cwd=tmp_path, stdin="1\n" * 3000)
    assert out.returncode == 0, out.stderr
    assert f"resumed after {len(game['actions'])} actions, seed kept from the table: " \
           "persia=random, greece=human" in out.stdout
    assert "Buy cards (1 talent each), then done to draw them (5 talents left)" in out.stdout
    finished = json.loads((tmp_path / SAVED).read_text())   # the same file, now finished
    assert "status" not in finished and finished["result"]["reason"]
    assert finished["actions"][:len(game["actions"])] == game["actions"]
    verdict = agon("replay", SAVED, "-q", cwd=tmp_path)
    assert verdict.returncode == 0 and "unfinished" not in verdict.stdout


def test_a_program_seat_is_named_again_never_started_from_the_record(tmp_path):
    saved_game(tmp_path, persia=PROGRAM)
    out = agon("play", "--resume", SAVED, cwd=tmp_path)
    assert out.returncode == 2
    assert "persia was played by the program" in out.stderr
    assert "name it again with --seat persia=COMMAND" in out.stderr
    out = agon("play", "--resume", SAVED, "-s", "greece=random", cwd=tmp_path)
    assert out.returncode == 2 and "only a program's seat is named again" in out.stderr
    out = agon("play", "--resume", SAVED, "-s", f"athens={PROGRAM}", cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert "the saved game has no seat 'athens'; its seats are persia, greece" in out.stderr
    out = agon("play", "--resume", SAVED, "-s", f"persia={PROGRAM}", cwd=tmp_path,
               stdin="done\nquit\ny\n")
    assert out.returncode == 0, out.stderr
    assert "resumed after" in out.stdout


def test_what_cannot_be_resumed_is_refused_with_the_reason(tmp_path):
    game = saved_game(tmp_path)
    out = agon("play", "--resume", SAVED, "--seed", "4", cwd=tmp_path)
    assert out.returncode == 2 and "--seed and --option come from the saved game" in out.stderr
    game["actions"][-1] = ["greece", "fly to the moon"]
    (tmp_path / "edited.json").write_text(json.dumps(game))
    out = agon("play", "--resume", "edited.json", cwd=tmp_path)
    assert out.returncode == 1 and "edited.json cannot be resumed" in out.stderr
    assert "illegal" in out.stderr and "Traceback" not in out.stderr
    agon("play", "earth-and-water", "-s", "persia=random", "-s", "greece=random", "--seed",
         "3", "-q", "--record", "done.json", cwd=tmp_path)
    out = agon("play", "--resume", "done.json", cwd=tmp_path)
    assert out.returncode == 1 and "the record of a finished game" in out.stderr


def at_second_prompt(tmp_path: Path) -> subprocess.Popen:
    """A person (greece) who bought a card and waits at the next prompt."""
    process = subprocess.Popen([*AGON, "play", "earth-and-water", "-s", "persia=random", "-s",
                                "greece=human", "--seed", "3", "--record", "game.json"],
                               cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdin.write(b"buy_card\n")
    process.stdin.flush()
    shown = b""
    deadline = time.monotonic() + 120
    while shown.count(b"greece> ") < 2 and time.monotonic() < deadline:
        if select.select([process.stdout], [], [], 1)[0]:
            shown += os.read(process.stdout.fileno(), 65536)
    return process


def test_ctrl_c_saves_the_game_so_far_and_says_where(tmp_path):
    process = at_second_prompt(tmp_path)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert b"stopped: the game so far is saved in game.json" in err
    assert b"Traceback" not in err
    game = json.loads((tmp_path / "game.json").read_text())
    assert game["status"] == "unfinished" and game["actions"][-1] == ["greece", "buy_card"]


def test_map_writes_the_position_as_it_stands_the_picture_agon_map_draws(tmp_path):
    # Persia's first moves and Greece's card bought are on the map `map` writes.
    out = agon("play", "earth-and-water", "-s", "persia=random", "-s", "greece=human",
               "--seed", "3", cwd=tmp_path, stdin="buy_card\nsave\nmap\nquit\ny\n")
    assert out.returncode == 0, out.stderr
    picture = "earth-and-water-map.svg"
    assert f"The map as it stands: {picture}" in out.stdout
    drawn = (tmp_path / picture).read_text()
    ET.fromstring(drawn)   # well-formed SVG
    assert "Athenai" in drawn and "Ephesos" in drawn
    same = agon("map", "earth-and-water", "--record", SAVED, cwd=tmp_path)
    assert same.returncode == 0, same.stderr
    assert same.stdout == drawn   # the position of the saved game, as `agon map` draws it
    bare = agon("map", "earth-and-water", cwd=tmp_path).stdout
    assert bare != drawn          # and not the empty board


def test_with_record_the_map_goes_beside_it(tmp_path):
    out = agon("play", "earth-and-water", "-s", "persia=random", "-s", "greece=human",
               "--seed", "3", "--record", "game.json", cwd=tmp_path, stdin="map\nquit\ny\n")
    assert "The map as it stands: game-map.svg" in out.stdout, out.stdout[-500:]
    assert (tmp_path / "game-map.svg").is_file()


SNOOP = """
import sys
path = sys.argv[1]
for line in sys.stdin:
    word, _, rest = line.partition(" ")
    if word == "agon":
        print('ready snoop {"version":"1.0"}', flush=True)
    elif word == "ask":
        try:
            with open(path, "rb") as save:
                print(f"read {len(save.read())} bytes of the save", file=sys.stderr, flush=True)
        except OSError as err:
            print(f"cannot read the save: {err}", file=sys.stderr, flush=True)
        print(f"act {rest.split()[0]} 0", flush=True)
    elif word == "quit":
        break
"""


def test_a_program_cannot_read_the_game_a_person_saves_mid_game(tmp_path):
    """The save holds the seed, and the seed every card to come. A folder outside /tmp
    and $HOME (which the sandbox hides whole) shows whether the file itself is covered:
    the sandbox can only cover a file that exists when the program starts."""
    from agon.referee import confine
    from agon.referee.sandbox import bwrap_problem

    if bwrap_problem() and not confine.landlock_abi():
        pytest.skip("neither bubblewrap nor Landlock fences the file system here")
    here = Path(tempfile.mkdtemp(prefix="agon-save-test-", dir=Path.cwd()))
    try:
        (here / "snoop.py").write_text(SNOOP)
        bot = f"{shlex.quote(sys.executable)} {here / 'snoop.py'} {here / SAVED}"
        out = agon("play", "earth-and-water", "-s", f"persia={bot}", "-s", "greece=human",
                   "--seed", "3", "--log-dir", str(here / "logs"), cwd=here,
                   stdin="save\n" + "1\n" * 3000)
        assert out.returncode == 0, out.stderr
        assert json.loads((here / SAVED).read_text())["status"] == "unfinished"
        seen = (here / "logs" / "persia.log").read_text()
        assert "bytes of the save" in seen or "cannot read the save" in seen
        assert not re.search(r"read [1-9][0-9]* bytes", seen), seen
    finally:
        shutil.rmtree(here, ignore_errors=True)


def test_a_finished_game_leaves_no_empty_save_behind(tmp_path):
    out = agon("play", "earth-and-water", "-s", f"persia={PROGRAM}", "-s", "greece=random",
               "--seed", "3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert not (tmp_path / SAVED).exists()


def test_resuming_the_empty_file_of_a_killed_game_says_nothing_was_saved(tmp_path):
    (tmp_path / SAVED).touch()   # what a game killed before any save leaves
    out = agon("play", "--resume", SAVED, cwd=tmp_path)
    assert out.returncode == 1
    assert f"{SAVED}: empty; nothing of its game was saved" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_person_is_not_shown_a_seed_they_did_not_choose(tmp_path):
    """With the seed on screen a person could play the same seed through with bots and
    read the deck order and the other side's hand (`Persia draws 3 Tribute of ...`)."""
    out = agon("play", "earth-and-water", "-s", "persia=random", "-s", "greece=human",
               "--plain", cwd=tmp_path, stdin="save\nquit\ny\n")
    assert out.returncode == 0, out.stderr
    seed = json.loads((tmp_path / SAVED).read_text())["seed"]
    assert "seed kept from the table: persia=random, greece=human" in out.stdout
    assert str(seed) not in out.stdout + out.stderr
    again = agon("play", "--resume", SAVED, cwd=tmp_path, stdin="quit\ny\n")
    assert "resumed after" in again.stdout and "seed kept from the table" in again.stdout
    assert str(seed) not in again.stdout + again.stderr
    chosen = agon("play", "earth-and-water", "-s", "persia=random", "-s", "greece=human",
                  "--seed", "4", cwd=tmp_path, stdin="quit\ny\n")
    assert "seed 4: persia=random, greece=human" in chosen.stdout


@pytest.mark.parametrize("stop", [signal.SIGHUP, signal.SIGQUIT])
def test_a_terminal_hung_up_or_quit_saves_the_game_as_ctrl_c_does(tmp_path, stop):
    """SIGHUP (the window closed, ssh cut) and SIGQUIT (Ctrl-\\) killed the game, nothing
    saved."""
    process = at_second_prompt(tmp_path)
    process.send_signal(stop)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + stop, err
    assert b"stopped: the game so far is saved in game.json" in err
    game = json.loads((tmp_path / "game.json").read_text())
    assert game["status"] == "unfinished" and game["actions"][-1] == ["greece", "buy_card"]


def test_a_screen_that_cannot_be_written_any_more_leaves_the_game_saved(tmp_path):
    """A closed output (a pager quit, a pipe cut) ended the game at exit 1, unsaved."""
    process = at_second_prompt(tmp_path)
    process.stdout.close()
    process.stdin.write(b"board\nlog\n" * 50)
    process.stdin.close()
    err = process.stderr.read()
    process.wait(timeout=60)
    assert process.returncode == 1, err
    assert b"the game so far is saved in game.json; `agon play --resume game.json`" in err
    game = json.loads((tmp_path / "game.json").read_text())
    assert game["status"] == "unfinished" and game["actions"][-1] == ["greece", "buy_card"]
