"""The `agon` command: registers one module per command."""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Any, NoReturn, TextIO

import typer

from agon import __version__

from .common import FAILED, USAGE, StdoutFailed, clip_long_words, shown

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


class _GuardedStdout:
    """sys.stdout, with its write errors told apart from every other OSError."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise StdoutFailed(exc) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise StdoutFailed(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _stdout_failed(exc: StdoutFailed) -> NoReturn:
    """A closed pipe ends quietly (the reader has what it wanted); anything else is said.

    Standard output then points to /dev/null, so that Python's own flush at exit
    does not fail on the data still buffered (Python's documented recipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
    except (OSError, AttributeError, ValueError):
        pass
    if exc.errno != errno.EPIPE:
        typer.echo(f"agon: error: cannot write to standard output ({exc})", err=True)
    sys.exit(1)


def _file_failed(exc: OSError) -> NoReturn:
    """A file the system refused and no command expected to be refused (a name longer
    than it takes: Path.exists raises then): the file and the reason, not an internal
    error; a name too long is what was typed (usage)."""
    message = clip_long_words(f"{exc.strerror or exc}: {exc.filename}")
    typer.echo(f"agon: error: {shown(message)}", err=True)
    sys.exit(USAGE if exc.errno == errno.ENAMETOOLONG else FAILED)


def _silent_interrupt(exc: SystemExit) -> bool:
    """Whether `exc` is typer's exit 130 for a Ctrl-C that no command of ours caught
    (typer raises ``Exit(130) from`` it, and says nothing): ours say what was kept."""
    inner = exc.__context__
    return inner is not None and isinstance(inner.__cause__, KeyboardInterrupt)


def run() -> None:
    """Entry point: no traceback reaches a user unless AGON_DEBUG is set."""
    if sys.stdout is not None:
        sys.stdout = _GuardedStdout(sys.stdout)
    try:
        try:
            app()
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()   # what is still buffered fails here, not at exit
    except StdoutFailed as exc:
        _stdout_failed(exc)
    except KeyboardInterrupt:
        typer.echo("agon: interrupted", err=True)
        sys.exit(130)
    except SystemExit as exc:
        if _silent_interrupt(exc):
            typer.echo("agon: interrupted", err=True)
        raise
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("AGON_DEBUG"):
            raise
        if isinstance(exc, OSError) and exc.filename is not None:
            _file_failed(exc)
        typer.echo(f"agon: internal error: {type(exc).__name__}: {exc} "
                   "(set AGON_DEBUG=1 to see the traceback)", err=True)
        sys.exit(3)
