"""`agon validate FILE...`: schema and semantic checks, every error listed."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from agon.referee.ruleset import validate_file

from .common import FAILED, USAGE, Format, RulesetsPath, emit, fail, not_there


def validate(
    files: list[Path] = typer.Argument(..., metavar="FILE...", help="ruleset files (YAML)"),
    fmt: Format = typer.Option(Format.table, "--format", metavar="table|json|csv",
                               help="table (one error a line), json or csv"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """Check ruleset files; list every error as file:line:col: path: message.

    Exit 0 when all are valid, 1 when any is invalid, 2 on bad usage (a file
    that does not exist).  --format csv gives one row per error (file, line,
    col, path, message); json the same errors per file, with a verdict.

    Example: agon validate rulesets/earth-and-water.yaml my-variant.yaml
    """
    missing = [not_there(file) for file in files if not file.exists()]
    if missing:
        fail("; ".join(missing), USAGE)
    report = {str(file): validate_file(file, tuple(rulesets_path or ()))[1] for file in files}
    if fmt == Format.json:
        typer.echo(json.dumps({f: {"valid": not i, "errors": [x.to_json() for x in i]}
                               for f, i in report.items()}, indent=1))
    elif fmt == Format.csv:
        emit([issue.to_json() for issues in report.values() for issue in issues], fmt,
             columns=["file", "line", "col", "path", "message"])
    else:
        for file, issues in report.items():
            for issue in issues:
                typer.echo(str(issue))
            verdict = "valid" if not issues else f"{len(issues)} error(s)"
            typer.echo(f"{file}: {verdict}", err=True)
    if any(report.values()):
        raise typer.Exit(FAILED)
