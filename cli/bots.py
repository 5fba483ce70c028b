"""`agon bots`: the built-in bots, their parameters and the games they play."""

from __future__ import annotations

import typer

from agon.bots import BUILTIN, bot_class
from agon.bots.params import Param
from agon.referee.games import ENGINES

from .common import Format, emit


def bots(fmt: Format = typer.Option(Format.table, "--format", metavar="table|json|csv",
                                    help="table, json or csv")) -> None:
    """List the built-in bots, usable as BOT in `agon play` and `agon tournament`.

    A bot's parameters follow its name: `ismcts:time=0.1,c=0.7`; as a program
    they are options: `python -m agon.bots.ismcts --time 0.1 --c 0.7`.

    Example: agon play earth-and-water --seat persia=ismcts:time=0.2 --seat greece=greedy
    """
    rows = []
    for name, (_, about) in sorted(BUILTIN.items()):
        cls = bot_class(name)
        games = sorted(cls.games) if cls.games is not None else sorted(ENGINES)
        params = cls.all_params()
        rows.append({"name": name, "description": about,
                     "parameters": [param.to_json() for param in params] if fmt == Format.json
                     else ", ".join(_brief(param) for param in params),
                     "games": games if fmt == Format.json else ", ".join(games),
                     "as a program": f"python -m agon.bots.{name}"})
    emit(rows, fmt)


def _brief(param: Param) -> str:
    """``time=0.5`` for a parameter with a default, the bare name for one without."""
    return param.name if param.default is None else f"{param.name}={param.default}"
