"""agon's command line (typer).  One module per command; no game logic here."""

from __future__ import annotations

import sys


def run() -> None:
    """The `agon` command.  Loading the commands takes a good part of a second: a
    Ctrl-C then ends as one during a command does, without a traceback."""
    try:
        from agon.cli.main import run as run_command
    except KeyboardInterrupt:
        sys.stderr.write("agon: interrupted\n")
        raise SystemExit(130) from None
    run_command()
