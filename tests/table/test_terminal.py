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


def hot_seat(stdout, typed: str, plain: bool = False) -> str:
    """Persia and Greece, two people at one screen, each to buy a card in turn."""
    from agon.referee.engine import Decision
    from agon.referee.human import Screen

    screen = Screen()
    keys = io.StringIO(typed)
    people = {seat: HumanPlayer(stdin=keys, stdout=stdout, plain=plain, screen=screen)
              for seat in ("persia", "greece")}
    for seat, person in people.items():
        person.start({"seat": seat, "seats": list(people)}, None)
    for seat in ("persia", "greece"):
        people[seat].board(f"{seat.upper()}'S HAND: 7 The Great King")
        people[seat].choose(1, Decision(seat, "Buy cards", ["buy_card", "done"]), {}, {}, 10)
    return stdout.getvalue()


def test_people_at_one_terminal_pass_it_on_a_clean_screen(colour_terminal):
    """Persia's hand stood on the screen when Greece sat down to play."""
    out = hot_seat(Tty(), "1\n\n2\n")
    persia, greece = out.index("PERSIA'S HAND"), out.index("GREECE'S HAND")
    handover = out.index("greece to play: pass the keyboard to greece, then press Enter")
    wipe = "\x1b[H\x1b[2J\x1b[3J"   # the screen and its scrollback
    assert persia < out.index(wipe, persia) < handover < out.index(wipe, handover) < greece


def test_a_plain_terminal_is_passed_on_a_clean_screen_too(colour_terminal):
    out = hot_seat(Tty(), "1\n\n2\n", plain=True)
    assert out.index("PERSIA'S HAND") < out.index("\x1b[H\x1b[2J\x1b[3J") \
        < out.index("pass the keyboard to greece") < out.index("GREECE'S HAND")
    assert "\x1b[1m" not in out   # no colour


def test_piped_there_is_nothing_to_hide_nor_any_pause(colour_terminal):
    out = hot_seat(io.StringIO(), "1\n2\n")
    assert "pass the keyboard" not in out and ESCAPE not in out


def test_a_resumed_hot_seat_tells_each_person_their_last_news_after_the_handover(
        colour_terminal):
    """'The last thing that happened: You draw ...' was printed for every seat at once."""
    from agon.referee.engine import Decision
    from agon.referee.human import Screen

    screen, stdout, keys = Screen(), Tty(), io.StringIO("1\n\n1\n")
    people = {seat: HumanPlayer(stdin=keys, stdout=stdout, screen=screen)
              for seat in ("persia", "greece")}
    for seat, person in people.items():
        person.start({"seat": seat, "seats": list(people)}, None)
    people["persia"].rewound([{"text": "Persia draws 2 cards"}])
    people["greece"].rewound([{"text": "You draw 15 300 Spartans"}])
    for seat in ("persia", "greece"):
        people[seat].board(f"{seat} board")
        people[seat].choose(1, Decision(seat, "Buy cards", ["buy_card", "done"]), {}, {}, 10)
    out = stdout.getvalue()
    assert out.index("Persia draws 2 cards") < out.index("pass the keyboard to greece") \
        < out.index("You draw 15 300 Spartans")
