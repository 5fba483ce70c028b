"""Whole games through the referee with bots in and out of process."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

import agon.bots.examples
from agon.referee.games import engine_class
from agon.referee.match import run_match
from agon.referee.players import (
    InProcessPlayer,
    Limits,
    SubprocessPlayer,
    make_player,
)
from agon.referee.ruleset import load_ruleset

EXAMPLES = Path(agon.bots.examples.__file__).resolve().parent
PROGRAMS = {
    "python -m agon.bots.random": [sys.executable, "-m", "agon.bots.random", "--seed", "5"],
    "minimal_bot.py": [sys.executable, str(EXAMPLES / "minimal_bot.py")],
    "first_legal.sh": ["bash", str(EXAMPLES / "first_legal.sh")],
}


def play(kit, players, seed=7, target=30, limits=None):
    engine = kit.CountEngine(kit.ruleset)
    return run_match(engine, players, seed=seed, options={"target": target},
                     limits=limits or kit.limits)


@pytest.mark.parametrize("name", PROGRAMS)
def test_an_external_bot_completes_a_game(kit, tmp_path, name):
    bot = SubprocessPlayer(PROGRAMS[name], log_dir=tmp_path)
    record = play(kit, {"p1": bot, "p2": make_player("random", seed=1)})
    assert record.forfeits == {}
    assert record.result.reason.endswith("reached 30")
    assert sum(int(a.split()[1]) for _, a in record.actions) == 30
    assert record.seats["p1"]["kind"] == "program"
    assert bot.child.closed and not kit.alive(bot.child.pid)


def test_the_bash_bot_always_plays_the_first_legal_action(kit, tmp_path):
    bot = SubprocessPlayer(PROGRAMS["first_legal.sh"], log_dir=tmp_path)
    record = play(kit, {"p1": bot, "p2": make_player("random", seed=1)})
    assert {a for s, a in record.actions if s == "p1"} == {"add 1"}
    assert record.seats["p1"]["name"] == "first-legal"


def test_the_minimal_bot_logs_info_lines_and_its_stderr(kit, tmp_path):
    bot = SubprocessPlayer(PROGRAMS["minimal_bot.py"], log_dir=tmp_path)
    play(kit, {"p1": bot, "p2": make_player("random", seed=2)})
    log = (tmp_path / "p1.log").read_text()
    assert "info: p1: " in log and "events so far, choosing add" in log
    assert "p1: game over, rank" in log  # its stderr, after the result line


def test_random_over_the_protocol_plays_like_random_in_process(kit):
    """Same seed, same bot: the program and the in-process bot choose alike."""
    outside = SubprocessPlayer([sys.executable, "-m", "agon.bots.random", "--seed", "11"])
    inside = make_player("random", seed=11)
    program_game = play(kit, {"p1": outside, "p2": make_player("random", seed=3)})
    builtin_game = play(kit, {"p1": inside, "p2": make_player("random", seed=3)})
    assert program_game.actions == builtin_game.actions


def test_a_seat_never_sees_the_other_seats_secret(kit, tmp_path):
    players = {seat: SubprocessPlayer(PROGRAMS["minimal_bot.py"], log_dir=tmp_path / seat,
                                      transcript=True) for seat in ("p1", "p2")}
    play(kit, players)
    state = kit.CountEngine(kit.ruleset).new_game(["p1", "p2"], 7, {"target": 30})
    for seat, other in (("p1", "p2"), ("p2", "p1")):
        transcript = (tmp_path / seat / f"{seat}.transcript").read_text()
        assert str(state.secrets[seat]) in transcript  # its own secret: yes
        assert str(state.secrets[other]) not in transcript  # the other's: never


@pytest.mark.parametrize("mode, reason", [
    ("crash-at-start", "crash"),
    ("crash-mid-game", "crash"),
    ("no-ready", "handshake"),
    ("hang", "timeout"),
    ("deaf", "timeout"),
    ("illegal-index", "illegal"),
    ("illegal-text", "illegal"),
    ("garbage", "protocol"),
    ("huge-line", "protocol"),
])
def test_a_faulty_bot_forfeits_and_the_game_still_ends_in_time(kit, mode, reason):
    limits = Limits(handshake=0.4, move=0.3, game=5.0, grace=0.1)
    faulty = SubprocessPlayer(kit.faulty(mode))
    began = time.monotonic()
    record = play(kit, {"p1": make_player("random", seed=1), "p2": faulty}, limits=limits)
    took = time.monotonic() - began
    assert record.forfeits["p2"]["reason"] == reason
    assert record.result.ranks == {"p1": 1, "p2": 2}
    assert took < limits.handshake + limits.move + 2 * limits.grace + 0.5
    assert not kit.alive(faulty.child.pid)


def test_a_slow_bot_runs_out_of_its_game_clock(kit):
    """0.2 s per answer is within the move limit, but not 1 s for the whole game."""
    limits = Limits(handshake=0.5, move=0.5, game=1.0, grace=0.1)
    slow = SubprocessPlayer(kit.faulty("slow"))
    record = play(kit, {"p1": slow, "p2": make_player("random", seed=1)}, target=100,
                  limits=limits)
    assert record.forfeits["p1"]["reason"] == "timeout"
    p1_moves = sum(1 for seat, _ in record.actions if seat == "p1")
    assert 3 <= p1_moves <= 5


def test_make_player_knows_builtins_humans_and_programs(tmp_path):
    assert isinstance(make_player("random", seed=1), InProcessPlayer)
    with pytest.raises(ValueError, match="seated with agon.referee.human.HumanPlayer"):
        make_player("human", seed=1)   # a person needs a terminal and the table: agon play
    spec = f"{shlex.quote(sys.executable)} 'my bot.py' --level 3; rm -rf /"
    program = make_player(spec, seed=1, log_dir=tmp_path)
    assert isinstance(program, SubprocessPlayer)
    # split like a shell, never run through one: ';' is just an argument
    assert program.argv == [sys.executable, "my bot.py", "--level", "3;", "rm", "-rf", "/"]


@pytest.mark.parametrize("spec, complaint", [
    ("nosuchbot", "unknown bot 'nosuchbot'"),
    ("./missing.sh --x", "there is no file './missing.sh'"),
    ("", "empty bot spec"),
    ("python3 'unclosed", "cannot read the bot command"),
])
def test_make_player_refuses_what_it_cannot_run(spec, complaint):
    with pytest.raises(ValueError, match=complaint):
        make_player(spec, seed=1)


def test_a_bot_that_skips_the_view_and_events_is_sent_neither(tmp_path):
    """`ready ... {"skip":["view","events"]}`: asks carry an empty view, no event
    lines; a bot that skips nothing (the docs' example) gets both."""
    ruleset = load_ruleset("earth-and-water")
    engine = engine_class(ruleset.engine)(ruleset)
    players = {
        "persia": SubprocessPlayer([sys.executable, "-m", "agon.bots.random", "--seed", "1"],
                                   log_dir=tmp_path, transcript=True),
        "greece": SubprocessPlayer([sys.executable, str(EXAMPLES / "minimal_bot.py"), "--seed", "2"],
                                   log_dir=tmp_path, transcript=True),
    }
    record = run_match(engine, players, seed=4, options={})
    assert record.forfeits == {} and len(record.actions) > 20
    skipping = (tmp_path / "persia.transcript").read_text().splitlines()
    reading = (tmp_path / "greece.transcript").read_text().splitlines()
    assert any('"skip":["view","events"]' in line for line in skipping if "ready" in line)
    assert not any(line.startswith("> event ") for line in skipping)
    asks = [line for line in skipping if line.startswith("> ask ")]
    assert asks and all('"view":{}' in line for line in asks)
    assert any(line.startswith("> event ") for line in reading)
    assert all('"view":{}' not in line for line in reading if line.startswith("> ask "))
