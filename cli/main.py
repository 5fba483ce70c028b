"""The `agon` command: registers one module per command."""

from __future__ import annotations

import importlib
import os
import sys

import typer

app = typer.Typer(
    name="agon",
    help="Rulesets, a referee, tournaments and rule lookups for ancient-Greek board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

COMMANDS = ["rulesets", "validate", "rules", "play", "tournament", "replay", "check", "bots"]

for _name in COMMANDS:
    try:
        _module = importlib.import_module(f"cli.{_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"cli.{_name}":
            raise
        continue
    app.command(_name)(getattr(_module, _name))


def run() -> None:
    """Entry point: no traceback reaches a user unless AGON_DEBUG is set."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("agon: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("AGON_DEBUG"):
            raise
        typer.echo(f"agon: internal error: {type(exc).__name__}: {exc} "
                   "(set AGON_DEBUG=1 to see the traceback)", err=True)
        sys.exit(3)
