"""Taking moves back at the table: undo and back, driven through the human player.

A person types `undo` or `back` at the prompt; the match replays the record
without the moves taken back, re-creating the bots that saw them, and asks
the person again.  Refused, with the reason on screen, across a revealed
secret, across a program's moves, or across another seat's moves for `back`.
"""

from __future__ import annotations

import io
import random

from agon.bots.random import RandomBot
from agon.referee.games import engine_class
from agon.referee.human import HumanPlayer
from agon.referee.match import Match
from agon.referee.players import InProcessPlayer, Player
from agon.referee.ruleset import load_ruleset
from agon.referee.takeback import SecretWatch, seen


class Remade:
    """Makes the bot seats' players, and counts how often each was made."""

    def __init__(self) -> None:
        self.made: dict[str, list[InProcessPlayer]] = {}

    def __call__(self, seat: str) -> InProcessPlayer:
        player = InProcessPlayer(RandomBot(7))
        self.made.setdefault(seat, []).append(player)
        return player


class Program(Player):
    """Stands for an external program: answers the first legal action, cannot be remade."""

    def start(self, hello, limits) -> None:
        pass

    def identity(self):
        return {"name": "my-bot", "kind": "program"}

    def choose(self, ask_id, decision, view, clock, timeout, state=None) -> str:
        return decision.legal[0]


def person(typed: str, ruleset=None) -> tuple[HumanPlayer, io.StringIO]:
    """A person who types `typed`, then resigns (the game ends with a record)."""
    shown = io.StringIO()
    return HumanPlayer(stdin=io.StringIO(typed + "quit\ny\n"), stdout=shown,
                       ruleset=ruleset), shown


def toy_race(toy, typed: str, other: Player | None = None):
    """p1 is a person, p2 a random bot (remade on demand); the seats bid in turns."""
    human, shown = person(typed)
    remade = Remade()
    match = Match(toy, {"p1": human, "p2": other or remade("p2")}, seed=3,
                  options={"turns": True, "target": 4}, remake=remade)
    return match.run(), shown.getvalue(), remade


def test_undo_takes_back_my_move_and_the_bots_reply_and_asks_again(toy):
    record, out, remade = toy_race(toy, "bid 1\nundo\nbid 3\n" + "1\n" * 50)
    assert "Taking back 2 move(s): p1 bid 1; p2 bid " in out
    # the game goes on from the position before my bid: my first recorded bid is the 3
    assert record.actions[0] == ["p1", "bid 3"] and record.result is not None
    # the bot that answered was replaced by one remade from its seed, told the game anew
    assert len(remade.made["p2"]) == 2
    assert out.count("bid\n") >= 2   # the same decision was put to me again


def test_back_never_takes_back_another_seats_move(toy):
    record, out, _ = toy_race(toy, "bid 1\nback\n" + "1\n" * 50)
    assert "Cannot back: p2 moved after your last choice" in out
    assert record.actions[0] == ["p1", "bid 1"]


def test_undo_is_refused_when_a_program_saw_the_moves(toy):
    record, out, remade = toy_race(toy, "bid 2\nundo\n" + "1\n" * 50, other=Program())
    assert "Cannot undo: p2 is played by my-bot, which cannot be set back" in out
    assert record.actions[0] == ["p1", "bid 2"] and "p2" not in remade.made


def test_nothing_to_take_back_before_my_first_move(toy):
    _, out, _ = toy_race(toy, "undo\nback\n" + "1\n" * 50)
    assert out.count("Cannot undo: you have not moved yet") == 1
    assert out.count("Cannot back: you have not moved yet") == 1


# -- a real game: compound moves, and cards drawn (a secret) -------------------------------

def earth_and_water(typed: str):
    ruleset = load_ruleset("earth-and-water")
    engine = engine_class(ruleset.engine)(ruleset)
    human, shown = person(typed, ruleset)
    remade = Remade()
    match = Match(engine, {"persia": remade("persia"), "greece": human}, seed=3, options={},
                  remake=remade)
    return match.run(), shown.getvalue()


def test_back_goes_back_one_choice_inside_a_compound_move():
    # Greece buys cards a talent at a time; `back` returns the talent.
    record, out = earth_and_water("buy_card\nbuy_card\nback\ndone\n")
    after_back = out[out.index("Taking back 1 move(s): greece buy_card"):]
    assert "then done to draw them (5 talents left)" in after_back.split("greece>")[0]
    greek = [a for s, a in record.actions if s == "greece"]
    assert greek[:2] == ["buy_card", "done"]   # one card bought, not two


def test_no_undo_across_the_cards_you_drew():
    # `done` draws the cards bought: what they are was a secret until then.
    record, out = earth_and_water("buy_card\ndone\nundo\nback\n")
    move = record.actions.index(["greece", "done"]) + 1
    assert ("Cannot undo: no take-back across a revealed secret: your `done` "
            f"(move {move}) showed you what you could not know before") in out
    assert "Cannot back: no take-back across a revealed secret" in out


def test_undo_after_the_secret_takes_back_what_came_later():
    # After the draw, raising armies reveals nothing: each raise can be undone.
    record, out = earth_and_water("buy_card\ndone\nraise_army Sparta\nundo\n"
                                  "raise_army Athenai\n")
    assert "Taking back 1 move(s): greece raise_army Sparta" in out
    greek = [a for s, a in record.actions if s == "greece"]
    assert greek[2] == "raise_army Athenai"


def test_a_die_rolled_is_a_secret_revealed_and_a_move_on_the_open_board_is_not():
    watch = SecretWatch(random.Random(1))

    def reveals(state, seat: str, action: str, viewer: str) -> bool:
        worlds = watch.worlds(state, viewer)
        events = state.apply(seat, action)
        return watch.revealed(worlds, seat, action, seen(events, state, viewer), viewer)

    ruleset = load_ruleset("ten-thousand")
    state = engine_class(ruleset.engine)(ruleset).new_game(["p1"], 5, {})
    # choosing a leader starts the turn: cards are drawn and the Route Roll is thrown
    assert reveals(state, "p1", "leader menon", "p1")
    ruleset = load_ruleset("earth-and-water")
    state = engine_class(ruleset.engine)(ruleset).new_game(["persia", "greece"], 3, {})
    assert not reveals(state, "persia", "buy_card", "greece")   # a talent spent, in the open
