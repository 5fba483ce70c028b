"""Colour, layout and the spinner on a terminal; plain text everywhere else."""

from __future__ import annotations

import io
import time

import pytest

from agon.bots.random import RandomBot
from agon.referee.games import engine_class
from agon.referee.human import HumanPlayer
from agon.referee.match import run_match
from agon.referee.players import InProcessPlayer
from agon.referee.ruleset import load_ruleset

ESCAPE = "\x1b["


class Tty(io.StringIO):
    """A screen that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def colour_terminal(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)


class Slow(RandomBot):
    def choose(self, decision, view, state=None):
        time.sleep(0.15)   # long enough for a spinner to turn
        return super().choose(decision, view, state)


def a_game(stdout, plain: bool = False) -> str:
    """Greece (a person who resigns after a few moves) against a slow Persian bot."""
    ruleset = load_ruleset("earth-and-water")
    engine = engine_class(ruleset.engine)(ruleset)
    human = HumanPlayer(stdin=io.StringIO("1\n" * 8 + "quit\ny\n"), stdout=stdout, plain=plain,
                        ruleset=ruleset)
    run_match(engine, {"persia": InProcessPlayer(Slow(2)), "greece": human}, seed=1,
              options={})
    return stdout.getvalue()


def test_no_colour_and_no_spinner_when_the_output_is_not_a_terminal(colour_terminal):
    out = a_game(io.StringIO())
    assert "Game over" in out
    assert ESCAPE not in out and "thinking" not in out


def test_plain_turns_colour_and_the_spinner_off_on_a_terminal_too(colour_terminal):
    out = a_game(Tty(), plain=True)
    assert "Game over" in out
    assert ESCAPE not in out and "thinking" not in out


def test_a_terminal_gets_colour_and_a_spinner_while_the_bot_thinks(colour_terminal):
    out = a_game(Tty())
    assert "Game over" in out and ESCAPE in out
    assert "persia is thinking..." in out
