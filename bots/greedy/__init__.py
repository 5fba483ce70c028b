"""The greedy bot and the game evaluations it (and ismcts) uses.

One module per game holds that game's `Evaluator` (bots/greedy/evaluator.py):
a judgement of a position from one seat's view.  `evaluator_for(hello)` builds
the one for the game a hello announces.  The bot itself is bots/greedy/bot.py.
"""

from __future__ import annotations

import importlib
import json
import os
from typing import Any

from agon.referee.ruleset import RulesetError, load_ruleset, validate_value
from agon.referee.ruleset_model import Ruleset

from .evaluator import Evaluator

EVALUATORS: dict[str, str] = {
    # engine id: module:class
    "earth-and-water": "agon.bots.greedy.earth_and_water:EarthAndWaterEvaluator",
    "ten-thousand": "agon.bots.greedy.ten_thousand:TenThousandEvaluator",
    "epireia": "agon.bots.greedy.epireia:EpireiaEvaluator",
    "city-states": "agon.bots.greedy.city_states:CityStatesEvaluator",
}


def evaluator_for(hello: dict[str, Any], files: dict[str, bytes] | None = None) -> Evaluator | None:
    """The evaluation of the game `hello` starts; None for a game without one.

    Raises ValueError when the hello's ruleset cannot be read.
    """
    target = EVALUATORS.get(str(hello.get("game", "")))
    if target is None:
        return None
    module_name, class_name = target.split(":")
    evaluator_class = getattr(importlib.import_module(module_name), class_name)
    return evaluator_class(ruleset_of(hello, files or {}), list(hello.get("seats") or []),
                           hello.get("teams"))


def ruleset_of(hello: dict[str, Any], files: dict[str, bytes]) -> Ruleset:
    """The ruleset a hello names: a copy handed to the bot (`file`), else a shipped id."""
    info = hello.get("ruleset") or {}
    copy = info.get("file")
    try:
        if isinstance(copy, str) and copy in files:
            ruleset, issues = validate_value(json.loads(files[copy]), copy)
            if ruleset is None:
                raise RulesetError(f"{copy}: {issues[0] if issues else 'not a ruleset'}", issues)
            return ruleset
        if isinstance(copy, str) and os.path.isfile(copy):
            return load_ruleset(copy)
        return load_ruleset(str(info.get("id", "")))
    except (RulesetError, OSError, ValueError) as err:
        raise ValueError(f"cannot read the game's ruleset: {err}") from None
