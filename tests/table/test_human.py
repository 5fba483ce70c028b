"""The terminal player: numbers, text, help, rules and resigning."""

from __future__ import annotations

import io

import pytest

from agon.referee.engine import Decision
from agon.referee.human import HumanPlayer
from agon.referee.players import Resign
from agon.referee.ruleset import load_ruleset

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
def test_quit_or_end_of_input_stops_the_game_when_nobody_is_left_to_confirm(typed):
    """No answer to "Resign the game?": the game stops as at Ctrl-C (and is saved),
    it does not resign for a player who never said so."""
    player, _ = human(typed)
    with pytest.raises(KeyboardInterrupt):
        player.choose(1, DECISION, {}, {}, 10)


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


# -- quitting asks first ------------------------------------------------------------

class Keyboard(io.StringIO):
    """Typed lines, where None is Ctrl-D (end of input once, then typing goes on)."""

    def __init__(self, lines: list[str | None]) -> None:
        super().__init__()
        self.lines = list(lines)

    def readline(self, *args) -> str:
        line = self.lines.pop(0) if self.lines else None
        return "" if line is None else line + "\n"


def at_keyboard(lines: list[str | None]) -> tuple[HumanPlayer, io.StringIO]:
    shown = io.StringIO()
    player = HumanPlayer(stdin=Keyboard(lines), stdout=shown)
    player.start({"game": "earth-and-water", "seat": "greece", "seats": ["persia", "greece"]},
                 None)
    return player, shown


@pytest.mark.parametrize("typed", ["quit", "/quit", None])   # None: Ctrl-D
def test_quit_and_ctrl_d_ask_first_and_anything_but_yes_plays_on(typed):
    player, shown = at_keyboard([typed, "n", "2"])
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 event"
    assert shown.getvalue().count("Resign the game?") == 1 and "Playing on." in shown.getvalue()


@pytest.mark.parametrize("yes", ["y", "yes", "Y"])
def test_quit_confirmed_resigns(yes):
    player, _ = at_keyboard(["quit", yes, "1"])
    with pytest.raises(Resign):
        player.choose(1, DECISION, {}, {}, 10)


def test_an_action_named_like_a_command_is_the_action_and_a_slash_makes_it_the_command():
    player, shown = human("back\n")
    decision = Decision("greece", "Where does Pericles go?", ["to epirus", "back"])
    assert player.choose(1, decision, {}, {}, 10) == "back"
    player, shown = human("/back\n1\n")
    assert player.choose(1, decision, {}, {}, 10) == "to epirus"
    assert "Nothing can be taken back here" in shown.getvalue()


# -- log, hand, save, map --------------------------------------------------------------

def test_log_shows_the_last_events_seen():
    player, shown = human("log 2\nlog\nlog x\n1\n")
    for n in range(1, 13):
        player.event({"type": "roll", "text": f"event {n}"})
    player.choose(1, DECISION, {}, {}, 10)
    answers = shown.getvalue().split("greece> ")[1:]
    assert answers[0] == "  event 11\n  event 12\n"                         # log 2
    assert answers[1] == "".join(f"  event {n}\n" for n in range(3, 13))     # log: the last 10
    assert answers[2] == "log takes a number of events: log 20\n"


def test_hand_shows_each_card_with_its_text():
    ruleset = load_ruleset("earth-and-water")
    card = next(s for s in ruleset.rules if s.get("kind") == "card" and s["number"] == 7)
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO("hand\n1\n"), stdout=shown, ruleset=ruleset)
    player.start({"seat": "persia", "seats": ["persia", "greece"]}, None)
    player.choose(1, DECISION, {"hand": [7]}, {}, 10)
    out = shown.getvalue()
    assert f"Your hand (1):\n  #7 {card['title']}\n" in out
    assert " ".join(card["text"].split()[:6]) in " ".join(out.split())


@pytest.mark.parametrize("ruleset_id", ["ten-thousand", "city-states"])
def test_hand_reads_every_games_hand(ruleset_id):
    # Ten Thousand lists {number, name, text}; City States card ids: both find the card.
    ruleset = load_ruleset(ruleset_id)
    entry = {"ten-thousand": {"number": 99, "name": "Patrols", "text": "BR +1 or TR +2"},
             "city-states": "break-formation"}[ruleset_id]
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO("hand\n1\n"), stdout=shown, ruleset=ruleset)
    player.choose(1, DECISION, {"hand": [entry]}, {}, 10)
    title = {"ten-thousand": "#99 Patrols", "city-states": "#1 Break Formation"}[ruleset_id]
    assert title in shown.getvalue()


def test_a_game_without_cards_says_so():
    player, shown = human("hand\n1\n")
    player.choose(1, DECISION, {"players": {}}, {}, 10)
    assert "You hold no cards in this game." in shown.getvalue()


class Table:
    def __init__(self):
        self.record = object()

    def record_so_far(self):
        return self.record


def test_save_writes_the_record_so_far_where_the_hook_says():
    saved = []
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO("save\n1\n"), stdout=shown,
                         save_record=lambda record: saved.append(record) or "game.json")
    table = Table()
    player.join_table(table)
    player.choose(1, DECISION, {}, {}, 10)
    assert saved == [table.record]
    assert "Saved the game so far to game.json; `agon play --resume game.json`" in shown.getvalue()


def test_map_calls_the_drawing_hook_or_says_maps_are_not_available():
    player, shown = human("map\n1\n")
    player.join_table(Table())
    player.choose(1, DECISION, {}, {}, 10)
    assert "Maps are not available here." in shown.getvalue()
    drawn = []
    shown = io.StringIO()
    player = HumanPlayer(stdin=io.StringIO("map\n1\n"), stdout=shown,
                         draw_map=lambda record, seat: drawn.append(seat) or "/tmp/map.svg")
    player.seat = "greece"
    player.join_table(Table())
    player.choose(1, DECISION, {}, {}, 10)
    assert drawn == ["greece"] and "The map as it stands: /tmp/map.svg" in shown.getvalue()


# -- what a person may type by mistake ----------------------------------------------

@pytest.mark.parametrize("typed", ["1" * 5000, "-1", "+2", "1.5", "0", "4"])
def test_a_number_not_on_the_menu_asks_for_one_that_is(typed):
    """5000 digits passed int()'s limit: the game ended with 'internal error' and was
    lost; a sign or a fraction was 'not a legal action'."""
    player, shown = human(f"{typed}\n2\n")
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 event"
    assert "Choose a number from 1 to 3." in shown.getvalue()


@pytest.mark.parametrize("typed", ["²", "①"])
def test_a_digit_that_is_not_0_to_9_is_not_a_number(typed):
    """str.isdigit takes '²', which int() refuses: 'internal error', the game lost."""
    player, shown = human(f"{typed}\n2\n")
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 event"
    assert f"'{typed}' is not a legal action here; type help." in shown.getvalue()


@pytest.mark.parametrize("count", ["²", "1" * 5000, "-3", "0"])
def test_log_with_a_strange_count_explains_itself(count):
    player, shown = human(f"log {count}\nlog {'0' * 30}12\n1\n")
    for n in range(1, 13):
        player.event({"type": "roll", "text": f"event {n}"})
    player.choose(1, DECISION, {}, {}, 10)
    answers = shown.getvalue().split("greece> ")[1:]
    if count == "1" * 5000:   # a very large number: everything seen
        assert answers[0] == "".join(f"  event {n}\n" for n in range(1, 13))
    else:
        assert answers[0] == "log takes a number of events: log 20\n"
    assert answers[1] == "".join(f"  event {n}\n" for n in range(1, 13))


def test_a_long_or_garbled_line_is_repeated_back_short_and_escaped():
    player, shown = human("x" * 100_000 + "\n\x1b[31m\udcff\n1\n")
    player.choose(1, DECISION, {}, {}, 10)
    out = shown.getvalue()
    assert len(out) < 2000 and "'" + "x" * 60 + "...' is not a legal action here" in out
    assert "'\\x1b[31m\N{REPLACEMENT CHARACTER}' is not a legal action here" in out


def test_an_action_may_be_typed_in_capitals():
    player, _ = human("PLAY 7 M\n")
    assert player.choose(1, DECISION, {}, {}, 10) == "play 7 move"


def test_rules_with_a_pasted_page_says_it_is_too_long_instead_of_repeating_it():
    asked = []
    player, shown = human("rules " + "x" * 100_000 + "\n1\n",
                          lookup=lambda q: asked.append(q) or f"Nothing matches {q!r}")
    player.choose(1, DECISION, {}, {}, 10)
    assert not asked and len(shown.getvalue()) < 3000
    assert "Too long to look up (100000 characters)" in shown.getvalue()
