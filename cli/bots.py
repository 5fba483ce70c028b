"""`agon bots`: the built-in bots."""

from __future__ import annotations

import typer

from agon.bots import BUILTIN

from .common import Format, emit


def bots(fmt: Format = typer.Option(Format.table, "--format", metavar="table|json|csv",
                                    help="table, json or csv")) -> None:
    """List the built-in bots, usable as BOT in `agon play` and `agon tournament`.

    Example: agon play earth-and-water --seat persia=random --seat greece=random
    """
    rows = [{"name": name, "description": about, "as a program": f"python -m agon.bots.{name}"}
            for name, (_, about) in sorted(BUILTIN.items())]
    emit(rows, fmt)
