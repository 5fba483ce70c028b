"""The terminal player: numbers, text, help, rules and resigning."""

from __future__ import annotations

import io

import pytest

from agon.referee.engine import Decision
from agon.referee.human import HumanPlayer
from agon.referee.players import Resign

DECISION = Decision("greece", "Play a card", ["pass", "play 7 event", "play 7 move"])


def human(typed: str, lookup=None) -> tuple[HumanPlayer, io.StringIO]:
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO(typed), stdout=shown, rules_lookup=lookup)
    player.start({"game": "earth-and-water", "seat": "greece", "seats": ["persia", "greece"]},
                 None)
    return player, shown


def test_numbers_count_from_one_and_the_choices_are_listed():
    player, shown = human("3\n")
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 move"
    assert "  1. pass" in shown.getvalue() and "  3. play 7 move" in shown.getvalue()


def test_the_action_text_or_a_unique_beginning_works():
    player, shown = human("play\nplay 7 e\n")
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 event"
    assert "That could be: play 7 event; play 7 move" in shown.getvalue()
    player, _ = human("play 7 move\n")
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 move"


def test_bad_input_asks_again():
    player, shown = human("9\nfly\n1\n")
    assert player.choose(1, DECISION, {}, {}, 10) == "pass"
    assert "Choose a number from 1 to 3" in shown.getvalue()
    assert "'fly' is not a legal action" in shown.getvalue()


def test_help_rules_and_board_answer_without_choosing():
    asked = []
    player, shown = human("help\nrules 7.1\nboard\n2\n",
                          lookup=lambda q: asked.append(q) or f"7.1 Land battle ({q})")
    player.board("THE BOARD")
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 event"
    out = shown.getvalue()
    assert "rules QUERY" in out and "7.1 Land battle (7.1)" in out
    assert asked == ["7.1"] and out.count("THE BOARD") == 2


def test_events_since_the_last_decision_are_shown_once():
    player, shown = human("1\n1\n")
    player.event({"type": "roll", "text": "Persia rolls 4, 2"})
    player.choose(1, DECISION, {}, {}, 10)
    player.choose(2, DECISION, {}, {}, 10)
    assert shown.getvalue().count("Persia rolls 4, 2") == 1


@pytest.mark.parametrize("typed", ["quit\n", ""])
def test_quit_or_end_of_input_resigns(typed):
    player, _ = human(typed)
    with pytest.raises(Resign) as caught:
        player.choose(1, DECISION, {}, {}, 10)
    assert caught.value.seat == "greece"


def test_the_result_is_shown():
    player, shown = human("")
    player.finish({"ranks": {"persia": 2, "greece": 1}, "reason": "Greece holds Athens"})
    assert "Game over (Greece holds Athens). Ranks: greece 1, persia 2" in shown.getvalue()


def test_the_news_comes_before_the_board_it_led_to():
    player, shown = human("1\n")
    player.event({"type": "roll", "text": "Persia rolls 4, 2"})
    player.board("THE BOARD")
    player.choose(1, DECISION, {}, {}, 10)
    out = shown.getvalue()
    assert out.index("Persia rolls 4, 2") < out.index("THE BOARD") < out.index("1. pass")
    assert out.count("Persia rolls 4, 2") == 1
