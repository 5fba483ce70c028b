"""What a built-in bot implements."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from agon.referee.engine import Decision, State

from .params import SEED, Param, settle


class Bot:
    """A decision maker that runs inside the referee's process.

    Subclasses override `choose`; `start` and `event` are optional hooks.
    A bot that sets `wants_state` gets, with each decision, a State consistent
    with what its seat knows and the rest resampled, to search from.  One that
    sets `wants_view` to False never reads the view: the referee then does not
    build it (an empty dict is passed), and one that leaves `event` alone is
    sent no events: in a tournament of such bots a game costs little more than
    the engine's own moves.  One that picks from the number of legal actions
    alone also says so with `choose_index`.

    `params` declares the bot's tunables (bots/params.py); the constructor
    takes them as keywords, checks them and keeps every value in `settings`.
    `games` names the engines the bot can play, None for every one.
    """

    name = "bot"
    version = "1.0"
    wants_state = False
    wants_view = True
    params: ClassVar[tuple[Param, ...]] = ()
    games: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        self.rng = random.Random(seed)
        self.settings = settle(self.name, self.params, settings)

    @classmethod
    def all_params(cls) -> tuple[Param, ...]:
        """Its own parameters, then the seed every bot takes."""
        return (*cls.params, SEED)

    def start(self, hello: dict[str, Any]) -> None:
        """The game begins: hello holds game, seat, seats, ruleset, limits."""

    def event(self, event: dict[str, Any]) -> None:
        """Something this seat may see happened."""

    def choose(self, decision: Decision, view: dict[str, Any], state: State | None = None) -> str:
        raise NotImplementedError

    def choose_index(self, count: int) -> int | None:
        """For a bot that decides from the number of legal actions alone: the index
        (0 <= index < count) of its choice, drawn as `choose` would draw it; None
        (the default): ask `choose`.  A program serving the bot
        (bots/protocol_main.py) then answers an ask by index without decoding it."""
        return None
