"""agon: rulesets, a referee, tournaments and rule lookups for ancient-Greek board games.

The installed package holds the source folders of the repository under one
import name: ``agon.cli``, ``agon.referee``, ``agon.bots``, and the data in
``agon.rulesets`` and ``agon.schemas``.
"""

from typing import Any

__version__ = "0.2.0"


def __getattr__(name: str) -> Any:
    # PettingZoo is an optional extra: import it only when it is asked for.
    if name == "pettingzoo_env":
        from .pettingzoo import pettingzoo_env
        return pettingzoo_env
    raise AttributeError(f"module 'agon' has no attribute {name!r}")
