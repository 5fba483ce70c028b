"""Registry of rules engines, by the id a ruleset's `engine:` key names, and of
their observation encoders.

Engines are imported only when a ruleset asks for them, so a broken or slow
engine module never costs anything to the commands that do not use it.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from ..engine import Engine
from ..observation import NoEncoder, ObservationEncoder
from ..ruleset_model import Ruleset

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


def load_encoder(ruleset: Ruleset, seats: Sequence[str],
                 options: dict[str, Any] | None = None) -> ObservationEncoder:
    """The observation encoder of `ruleset`'s engine: the ``Encoder`` class of the
    ``observation`` module beside the engine (see `referee.observation`)."""
    package = engine_class(ruleset.engine).__module__.rpartition(".")[0]
    name = f"{package}.observation"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if not exc.name or not name.startswith(exc.name):
            raise   # the encoder exists but imports something missing
        where = name.removeprefix("agon.").replace(".", "/")
        raise NoEncoder(f"engine {ruleset.engine!r} has no observation encoder: add {where}.py "
                        "with a class Encoder (see agon.referee.observation)") from None
    return module.Encoder(ruleset, seats, ruleset.resolve_options(options or {}))
