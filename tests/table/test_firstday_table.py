"""A person's first game at a terminal: what a narrow screen shows."""

from __future__ import annotations

import io
import re

import pytest

from agon.referee.engine import Decision
from agon.referee.human import HumanPlayer
from agon.referee.players import Resign
from agon.referee.ruleset import load_ruleset
from agon.referee.terminal import Terminal

from .test_terminal import Tty

COLOUR = re.compile(r"\x1b\[[0-9;]*m")
NEWS = ("Since your last move:\n"
        "  PERS.IA raises 8 armies one at a time round its list (cities it controls; "
        "2 at most in a minor city): Abydos, Ephesos, Abydos, Ephesos [rule S4.B]\n"
        "  Greece has 6 talents")


@pytest.fixture
def narrow(monkeypatch):
    """A 60-column terminal, as the task's small window."""
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("TERM", "xterm-256color")
    screen = Tty()
    return Terminal(stdin=io.StringIO(""), stdout=screen), screen


def shown(screen: Tty) -> list[str]:
    return COLOUR.sub("", screen.getvalue()).splitlines()


def test_news_on_a_narrow_terminal_is_folded_between_words_and_indented(narrow):
    """It was printed whole, and the terminal cut it mid-word ("a minor cit" / "y)")
    with the rest at the left edge, like a line of its own."""
    terminal, screen = narrow
    terminal.say(NEWS)
    lines = shown(screen)
    assert all(len(line) <= 60 for line in lines), lines
    words = NEWS.split()
    assert " ".join(" ".join(lines).split()) == " ".join(words)   # no word cut or lost
    assert lines[0] == "Since your last move:" and lines[-1] == "  Greece has 6 talents"
    assert all(line.startswith("    ") for line in lines[2:-1]), lines   # under its item


def test_a_menu_note_folds_under_its_action_not_under_the_number(narrow):
    terminal, screen = narrow
    note = "costs 2 wheat, 2 wood, 2 copper; Gain 1 Prestige when built and 1 more later."
    terminal.menu("Development: 2 action(s) left", ["build sanctuary", "pass"],
                  {"build sanctuary": note})
    lines = shown(screen)
    assert all(len(line) <= 60 for line in lines), lines
    first, rest = lines[1], lines[2:-1]
    assert first.startswith("  1. build sanctuary") and rest
    assert all(line.startswith("     ") and not line[5:6].isspace() for line in rest), lines
    assert lines[-1] == "  2. pass"


def test_piped_output_is_never_folded(monkeypatch):
    """A file keeps each line whole, for grep."""
    monkeypatch.setenv("COLUMNS", "60")
    out = io.StringIO()
    Terminal(stdin=io.StringIO(""), stdout=out).say(NEWS)
    assert out.getvalue() == NEWS + "\n"


def test_the_board_folds_between_words_and_keeps_every_word(narrow):
    terminal, screen = narrow
    board = ("Players:\n  p1 Athens (delian league, no administrator yet): wheat 2, wood 2, "
             "copper 2; Prestige 1\n      buildings: none; figures: none in play")
    terminal.board(board)
    lines = shown(screen)
    assert all(len(line) <= 60 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == " ".join(board.split())
    assert lines[1].endswith("wheat 2,") and lines[2].startswith("    wood 2"), lines


LEADERS = Decision("p1", "Choose your leader", ["leader chirisophus", "leader menon"])
RAISE = Decision("greece", "Raise armies and fleets", [
    "raise_army Athenai", "raise_army Sparta", "raise_fleet Athenai", "done"])


def person(typed: str) -> tuple[HumanPlayer, io.StringIO]:
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO(typed), stdout=shown)
    player.start({"seat": "p1", "seats": ["p1", "p2"]}, None)
    return player, shown


def test_the_name_that_differs_is_enough_to_choose_an_action():
    """`menon` at 'Choose your leader' was 'not a legal action here': only the start
    of the whole text (`leader m`) counted, though the verb is the same in every line."""
    player, _ = person("Menon\n1\n")   # 1: what was chosen when Menon was refused
    assert player.choose(1, LEADERS, {}, {}, 10) == "leader menon"


def test_a_word_that_begins_several_actions_lists_them():
    player, shown = person("athenai\nfleet\n4\n")
    assert player.choose(1, RAISE, {}, {}, 10) == "raise_fleet Athenai"
    assert "That could be: raise_army Athenai; raise_fleet Athenai" in shown.getvalue()


def test_the_beginning_of_the_whole_text_comes_first():
    """`done` begins the action `done`; it is not also looked for inside other words."""
    player, _ = person("d\n")
    assert player.choose(1, RAISE, {}, {}, 10) == "done"


def test_rules_alone_lists_the_contents_a_failed_lookup_sends_the_person_to():
    """A lookup that finds nothing says "try `rules` with no query for the contents";
    at the table `rules` alone only said to run `agon rules RULESET` elsewhere."""
    ruleset = load_ruleset("earth-and-water")
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO("rules zzzzqx\nrules\n1\n"), stdout=shown,
                         ruleset=ruleset)
    player.start({"seat": "greece", "seats": ["persia", "greece"]}, None)
    player.choose(1, RAISE, {}, {}, 10)
    out = shown.getvalue()
    assert "try `rules` with no query for the contents" in out
    contents = out.split("greece> ")[2]
    assert re.search(r"\n  7\.1 +Land battle\n", contents), contents
    assert re.search(r"\n  7\.3 +Retreats\n", contents)
    assert re.search(r"\n  #N +cards 1 to 16\n", contents)
    assert "Leonidas" not in contents   # the cards are a range, not 16 more lines


def resigning(hello: dict) -> str:
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO("quit\ny\n"), stdout=shown)
    player.start(hello, None)
    with pytest.raises(Resign):
        player.choose(1, Decision(hello["seat"], "Your move", ["pass"]), {}, {}, 10)
    return shown.getvalue()


def test_resigning_among_three_sides_says_the_others_play_on():
    """With three sides the game is played out after a resignation (City States with a
    greedy bot: minutes), and the person sat before a silent screen."""
    out = resigning({"seat": "p1", "seats": ["p1", "p2", "p3"]})
    assert "You resign and rank last. p2, p3 play on to the end" in out


@pytest.mark.parametrize("hello", [
    {"seat": "persia", "seats": ["persia", "greece"]},
    {"seat": "p1", "seats": ["p1", "p2", "p3", "p4"],
     "teams": {"delian": ["p1", "p3"], "peloponnesian": ["p2", "p4"]}}])
def test_resigning_against_one_side_ends_the_game_without_that_word(hello):
    assert "play on to the end" not in resigning(hello)
