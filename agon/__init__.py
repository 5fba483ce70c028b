"""agon: rulesets, a referee, tournaments and rule lookups for ancient-Greek board games.

The library's face (docs/api.md), loaded on first use so that ``import agon``
stays cheap:

* ``load_ruleset(ruleset)``: a shipped ruleset id or a YAML file, validated;
* ``new_game(ruleset, players=None, *, seed=0, **options)``: a game's first
  position, to drive with ``pending()``, ``apply()``, ``view()``, ``result()``;
* ``play(ruleset, bots, *, seed=None, ...)``: one refereed game, its record;
* ``tournament(ruleset, bots, *, games=10, ...)``: a round-robin, its standings;
* ``replay(record)``: what a game record proves;
* ``Bot``: the class to subclass for a bot that runs inside the referee;
* ``pettingzoo_env(ruleset, players=None, **options)``: a PettingZoo AEC
  environment (needs ``pip install 'agon-referee[pettingzoo]'``);
* ``RulesetError``: raised for a ruleset that cannot be used.

The installed package holds the source folders of the repository under one
import name: ``agon.cli``, ``agon.referee``, ``agon.bots``, and the data in
``agon.rulesets`` and ``agon.schemas``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would double the import's cost

__version__ = "0.2.0"

# name -> (module, attribute): imported the first time the name is used
_EXPORTS = {
    "load_ruleset": ("agon.api", "load_ruleset"),
    "new_game": ("agon.api", "new_game"),
    "play": ("agon.api", "play"),
    "tournament": ("agon.api", "tournament"),
    "replay": ("agon.api", "replay"),
    "Bot": ("agon.bots.base", "Bot"),
    "RulesetError": ("agon.referee.ruleset_model", "RulesetError"),
    # PettingZoo is an optional extra: imported only when it is asked for.
    "pettingzoo_env": ("agon.pettingzoo", "pettingzoo_env"),
}

__all__ = ["__version__", "load_ruleset", "new_game", "play", "tournament", "replay", "Bot",
           "RulesetError", "pettingzoo_env"]

if TYPE_CHECKING:  # for type checkers and editors; at run time __getattr__ does it
    from typing import Any

    from agon.api import load_ruleset, new_game, play, replay, tournament
    from agon.bots.base import Bot
    from agon.pettingzoo import pettingzoo_env
    from agon.referee.ruleset_model import RulesetError


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'agon' has no attribute {name!r}")
    import importlib

    module, attribute = _EXPORTS[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value  # later uses skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
