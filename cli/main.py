"""The `agon` command: registers one module per command."""

from __future__ import annotations

import importlib
import os
import sys

import typer

from agon import __version__

app = typer.Typer(
    name="agon",
    help="Rulesets, a referee, tournaments and rule lookups for ancient-Greek board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)



def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"agon {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_show_version,
                                      is_eager=True, help="print agon's version and exit")) -> None:
    """Rulesets, a referee, tournaments and rule lookups for ancient-Greek board games."""


COMMANDS = ["rulesets", "validate", "rules", "play", "tournament", "replay", "check", "bots",
            "key", "map"]

for _name in COMMANDS:
    try:
        _module = importlib.import_module(f"agon.cli.{_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"agon.cli.{_name}":
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
