"""--bot [NAME=]BOT: names given, names derived, and names that clash."""

from __future__ import annotations

import pytest

from agon.referee.tournament import Entrant, TournamentError, derive_name, parse_entrant


@pytest.mark.parametrize("text, entrant", [
    ("random", Entrant("random", "random")),
    ("mc", Entrant("mc", "mc")),
    ("r1=random", Entrant("r1", "random")),
    ("mine=python3 my_bot.py --fast", Entrant("mine", "python3 my_bot.py --fast")),
    ("python3 my_bot.py --depth=3", Entrant("my_bot", "python3 my_bot.py --depth=3")),
    ("python3 -m agon.bots.random", Entrant("random", "python3 -m agon.bots.random")),
    ("./bots/alpha-beta", Entrant("alpha-beta", "./bots/alpha-beta")),
    ("bash bots/first.sh", Entrant("first", "bash bots/first.sh")),
])
def test_a_bot_without_a_name_is_named_after_itself(text, entrant):
    assert parse_entrant(text) == entrant


def test_a_name_is_only_what_precedes_the_first_equals_sign_when_it_is_a_name():
    assert parse_entrant("a b=c").name == "a"  # program 'a' with argument 'b=c'
    assert derive_name("'unclosed") == "unclosed"
    with pytest.raises(TournamentError, match=r"\[NAME=\]BOT"):
        parse_entrant("=")
    with pytest.raises(TournamentError, match="nothing after r1="):
        parse_entrant("r1=")
    with pytest.raises(TournamentError, match="human"):
        parse_entrant("human")
