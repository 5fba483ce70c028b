"""Registry of rules engines, by the id a ruleset's `engine:` key names.

Engines are imported only when a ruleset asks for them, so a broken or slow
engine module never costs anything to the commands that do not use it.
"""

from __future__ import annotations

import importlib

from referee.engine import Engine

ENGINES: dict[str, str] = {
    "earth-and-water": "referee.games.earth_and_water:EarthAndWaterEngine",
    "ten-thousand": "referee.games.ten_thousand:TenThousandEngine",
    "epireia": "referee.games.epireia:EpireiaEngine",
}


class UnknownEngine(LookupError):
    pass


def engine_class(engine_id: str) -> type[Engine]:
    try:
        target = ENGINES[engine_id]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise UnknownEngine(f"unknown engine {engine_id!r} (known: {known})") from None
    module_name, class_name = target.split(":")
    try:
        return getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise UnknownEngine(f"engine {engine_id!r} could not be loaded ({exc})") from exc
