"""`bots.protocol_main.run`: a built-in bot served over stdin/stdout."""

from __future__ import annotations

import io

from agon.bots.base import Bot
from agon.bots.protocol_main import run
from agon.bots.random import RandomBot
from agon.referee.engine import Decision

SESSION = b"""agon 1 {"game":"toy","seat":"p2","seats":["p1","p2"],"limits":{}}
event {"type":"something-new","text":"never seen before"}

ask 4 3 {"prompt":"pick","legal":["a","b","c"],"view":{"big":"VIEW"},"clock":{}}
ask 9 2 {"prompt":"pick","legal":["x","y"],"view":{},"clock":{}}
result {"scores":{},"ranks":{},"reason":"over"}
quit
ask 10 1 {"prompt":"after quit","legal":["z"],"view":{},"clock":{}}
"""


class Recorder(Bot):
    name = "recorder"

    def start(self, hello):
        self.seat = hello["seat"]

    def event(self, event):
        self.seen = event["type"]

    def choose(self, decision, view, state=None):
        assert decision.seat == "p2" and self.seen == "something-new"
        return "b" if decision.legal[0] == "a" else "not listed"


def served(bot_class, session: bytes, *argv: str) -> list[str]:
    out = io.BytesIO()
    assert run(bot_class, list(argv), io.BytesIO(session), out) == 0
    return out.getvalue().decode().splitlines()


def test_a_bot_is_served_until_quit_answering_by_index():
    big = SESSION.replace(b'"VIEW"', b'"' + b"v" * (2 << 20) + b'"')  # a 2 MB ask line
    lines = served(Recorder, big)
    assert lines == ['ready recorder {"version":"1.0","wants":["newgame"]}', "act 4 1",
                     "act 9 not listed"]


def test_the_seed_on_the_command_line_fixes_the_choices():
    first = served(RandomBot, SESSION, "--seed", "3", "--name", "rnd")
    again = served(RandomBot, SESSION, "--seed", "3", "--name", "rnd")
    assert first == again and first[0].startswith("ready rnd ")


def test_newgame_starts_a_fresh_bot_seeded_by_the_referee_in_the_same_process():
    """Protocol 1.1: after `result`, `newgame` (the hello's fields) instead of `quit`."""
    game = SESSION.split(b"quit")[0]
    session = (game + game.replace(b"agon 1 ", b"newgame ").replace(b'"p2"', b'"p1"', 1)
               + b"quit\n")
    played = []

    class Seated(Recorder):
        def start(self, hello):
            played.append((hello["seat"], self.rng.random()))

        def choose(self, decision, view, state=None):
            return decision.legal[-1]

    lines = served(Seated, session)
    assert lines.count('ready recorder {"version":"1.0","wants":["newgame"]}') == 2
    assert lines[1:3] == ["act 4 2", "act 9 1"] and lines[4:] == lines[1:3]
    assert [seat for seat, _ in played] == ["p2", "p1"]  # a new bot for each game


def test_the_hello_seed_fixes_the_choices_unless_the_command_line_gives_one():
    def acts(seed: int) -> list[str]:  # what a random bot seeded so answers to SESSION
        rng = RandomBot(seed).rng
        return [f"act 4 {'abc'.index(rng.choice('abc'))}", f"act 9 {'xy'.index(rng.choice('xy'))}"]

    for seed in (12345, 54321, 7):
        session = SESSION.replace(b'"limits":{}', b'"limits":{},"seed":%d' % seed)
        assert served(RandomBot, session)[1:] == acts(seed)
        assert served(RandomBot, session, "--seed", "3")[1:] == acts(3)  # --seed wins


def test_a_bot_that_picks_by_count_is_answered_without_its_ask_decoded():
    """`choose_index`: the index comes from `ask ID N` alone; None hands over to `choose`."""
    class Last(Bot):
        name = "last"

        def choose_index(self, count):
            return None if count == 2 else count - 1

        def choose(self, decision, view, state=None):
            return decision.legal[0]

    session = SESSION.replace(b'{"prompt":"pick","legal":["a","b","c"]', b'{not json')
    assert served(Last, session)[1:] == ["act 4 2", "act 9 0"]


def test_the_random_bot_served_answers_as_it_chooses_in_process():
    session = SESSION.replace(b'"limits":{}', b'"limits":{},"seed":99')
    inside = RandomBot(99)
    expected = [f"act {ask_id} {legal.index(inside.choose(Decision('p2', '', legal), {}))}"
                for ask_id, legal in ((4, ["a", "b", "c"]), (9, ["x", "y"]))]
    assert served(RandomBot, session)[1:] == expected
