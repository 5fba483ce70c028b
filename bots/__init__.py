"""Built-in bots.  Each runs in-process or as `python -m agon.bots.<name>`."""

from __future__ import annotations

import importlib

from .base import Bot

BUILTIN: dict[str, tuple[str, str]] = {
    # name: (module:class, one-line description)
    "random": ("agon.bots.random:RandomBot", "uniform over the legal actions, seeded"),
    "mc": ("agon.bots.mc:MonteCarloBot",
           "Monte Carlo: random playouts in resampled worlds, any game (0.5 s a move)"),
}


def bot_class(name: str) -> type[Bot]:
    module_name, class_name = BUILTIN[name][0].split(":")
    return getattr(importlib.import_module(module_name), class_name)
