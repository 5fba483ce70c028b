"""`bots.protocol_main.run`: a built-in bot served over stdin/stdout."""

from __future__ import annotations

import io

from agon.bots.base import Bot
from agon.bots.protocol_main import run
from agon.bots.random import RandomBot

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
    assert lines == ['ready recorder {"version":"1.0"}', "act 4 1", "act 9 not listed"]


def test_the_seed_on_the_command_line_fixes_the_choices():
    first = served(RandomBot, SESSION, "--seed", "3", "--name", "rnd")
    again = served(RandomBot, SESSION, "--seed", "3", "--name", "rnd")
    assert first == again and first[0].startswith("ready rnd ")
