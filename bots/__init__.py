"""Built-in bots.  Each runs in-process or as `python -m agon.bots.<name>`.

A bot's parameters are declared once, in its class (`Bot.params`, see
bots/params.py); the referee reads ``NAME:key=value,...`` specs against them
(referee/players.py) and ``python -m agon.bots.<name> --help`` lists them.
"""

from __future__ import annotations

import importlib
from functools import cache

from .base import Bot

BUILTIN: dict[str, tuple[str, str]] = {
    # name: (module:class, one-line description)
    "random": ("agon.bots.random:RandomBot", "uniform over the legal actions, seeded"),
    "greedy": ("agon.bots.greedy.bot:GreedyBot",
               "one look ahead: the action its game's evaluation likes best"),
    "mc": ("agon.bots.mc:MonteCarloBot",
           "Monte Carlo: random playouts in resampled worlds, any game"),
    "ismcts": ("agon.bots.ismcts:IsmctsBot",
               "information-set Monte Carlo tree search, any game"),
}


@cache   # a tournament makes two bots a game
def bot_class(name: str) -> type[Bot]:
    module_name, class_name = BUILTIN[name][0].split(":")
    return getattr(importlib.import_module(module_name), class_name)


def builtin_name(spec: str) -> str | None:
    """The built-in bot a spec names (``ismcts`` in ``ismcts:time=0.5``), else None.

    Only the name: referee/players.py reads the parameters (`builtin_spec`).
    """
    name = spec.strip().partition(":")[0]
    return name if name in BUILTIN else None
