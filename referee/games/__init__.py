"""Registry of rules engines, by the id a ruleset's `engine:` key names, and of
their observation encoders.

Engines are imported only when a ruleset asks for them, so a broken or slow
engine module never costs anything to the commands that do not use it.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
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


class MissingModule(LookupError):
    """An engine package without the module asked for; `where` is the file to add."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


def module_beside(engine_id: str, name: str) -> ModuleType:
    """The module `name` in the package of the engine (its ``observation``, its
    ``picture``); MissingModule, naming the file to add, when there is none."""
    package = engine_class(engine_id).__module__.rpartition(".")[0]
    full = f"{package}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if not exc.name or not full.startswith(exc.name):
            raise   # the module exists but imports something missing
        raise MissingModule(full.removeprefix("agon.").replace(".", "/") + ".py") from None


def load_encoder(ruleset: Ruleset, seats: Sequence[str],
                 options: dict[str, Any] | None = None) -> ObservationEncoder:
    """The observation encoder of `ruleset`'s engine: the ``Encoder`` class of the
    ``observation`` module beside the engine (see `referee.observation`)."""
    try:
        module = module_beside(ruleset.engine, "observation")
    except MissingModule as missing:
        raise NoEncoder(f"engine {ruleset.engine!r} has no observation encoder: add "
                        f"{missing.where} with a class Encoder (see agon.referee.observation)"
                        ) from None
    return module.Encoder(ruleset, seats, ruleset.resolve_options(options or {}))
