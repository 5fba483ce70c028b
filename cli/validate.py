"""`agon validate FILE...`: schema and semantic checks, every error listed."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from agon.referee.ruleset import validate_file

from .common import Format, RulesetsPath


def validate(
    files: list[Path] = typer.Argument(..., help="ruleset files (YAML)"),
    fmt: Format = typer.Option(Format.table, "--format", help="table (text lines) or json"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """Check ruleset files; list every error as file:line:col: path: message.

    Exit 0 when all are valid, 1 when any is invalid, 2 on bad usage.

    Example: agon validate rulesets/earth-and-water.yaml my-variant.yaml
    """
    report = {}
    for file in files:
        _, issues = validate_file(file, tuple(rulesets_path or ()))
        report[str(file)] = issues
    if fmt == Format.json:
        typer.echo(json.dumps({f: {"valid": not i, "errors": [x.to_json() for x in i]}
                               for f, i in report.items()}, indent=1))
    else:
        for file, issues in report.items():
            for issue in issues:
                typer.echo(str(issue))
            verdict = "valid" if not issues else f"{len(issues)} error(s)"
            typer.echo(f"{file}: {verdict}", err=True)
    if any(report.values()):
        raise typer.Exit(1)
