"""What several commands share: errors, key=value options, table output."""

from __future__ import annotations

import csv
import io
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from tabulate import tabulate

from agon.referee.ruleset import Ruleset, RulesetError, load_ruleset


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


def fail(message: str, code: int = 1) -> NoReturn:
    """Print an error for a person on stderr and exit with `code`."""
    typer.echo(f"agon: error: {message}", err=True)
    raise typer.Exit(code)


def parse_pairs(values: list[str] | None, what: str) -> dict[str, str]:
    """['a=1', 'b=x'] -> {'a': '1', 'b': 'x'}; a malformed item is a usage error."""
    pairs: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"{what} must look like NAME=VALUE, not {item!r}", code=2)
        if key.strip() in pairs:
            fail(f"{what} {key.strip()!r} is given twice", code=2)
        pairs[key.strip()] = value.strip()
    return pairs


# The same option on every command that reads rulesets.
RulesetsPath = Annotated[list[Path] | None, typer.Option(
    "--rulesets-path", envvar="AGON_RULESETS_PATH", file_okay=False,
    help="a folder of rulesets: ids are looked up there, and `extends:` may lead there "
         "(repeatable; AGON_RULESETS_PATH takes folders separated by ':')")]


def open_ruleset(ref: str, rulesets_path: list[Path] | None = None) -> Ruleset:
    try:
        return load_ruleset(ref, tuple(rulesets_path or ()))
    except RulesetError as exc:
        fail(str(exc))


def emit(rows: list[dict[str, Any]], fmt: Format, *, title: str | None = None) -> None:
    """Rows as a table (default), a JSON list or CSV on stdout."""
    if fmt == Format.json:
        typer.echo(json.dumps(rows, indent=1))
        return
    if fmt == Format.csv:
        buffer = io.StringIO()
        if rows:
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        sys.stdout.write(buffer.getvalue())
        return
    if title:
        typer.echo(title)
    typer.echo(tabulate(rows, headers="keys") if rows else "(none)")
