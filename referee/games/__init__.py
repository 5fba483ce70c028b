"""Registry of rules engines, by the id a ruleset's `engine:` key names.

Engines are imported only when a ruleset asks for them, so a broken or slow
engine module never costs anything to the commands that do not use it.
"""

from __future__ import annotations

import importlib

from ..engine import Engine

ENGINES: dict[str, str] = {
    "earth-and-water": "agon.referee.games.earth_and_water:EarthAndWaterEngine",
    "ten-thousand": "agon.referee.games.ten_thousand:TenThousandEngine",
    "epireia": "agon.referee.games.epireia:EpireiaEngine",
    "city-states": "agon.referee.games.city_states:CityStatesEngine",
}


_registered: dict[str, type[Engine]] = {}


class UnknownEngine(LookupError):
    pass


def register(engine_class_: type[Engine]) -> type[Engine]:
    """Register an engine class under its `id` (for engines outside agon)."""
    _registered[engine_class_.id] = engine_class_
    return engine_class_


def engine_class(engine_id: str) -> type[Engine]:
    if engine_id in _registered:
        return _registered[engine_id]
    try:
        target = ENGINES[engine_id]
    except KeyError:
        known = ", ".join(sorted({*ENGINES, *_registered}))
        raise UnknownEngine(f"unknown engine {engine_id!r} (known: {known})") from None
    module_name, class_name = target.split(":")
    try:
        return getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise UnknownEngine(f"engine {engine_id!r} could not be loaded ({exc})") from exc
