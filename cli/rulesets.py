"""`agon rulesets`: the shipped rulesets."""

from __future__ import annotations

import typer

from agon.referee.ruleset import shipped_rulesets, validate_file

from .common import Format, emit


def rulesets(fmt: Format = typer.Option(Format.table, "--format", help="table, json or csv")) -> None:
    """List the shipped rulesets (use an id wherever a RULESET is asked for).

    Example: agon rulesets --format json
    """
    rows = []
    for path in shipped_rulesets():
        ruleset, issues = validate_file(path)
        if ruleset is None:
            rows.append({"id": path.stem, "name": f"INVALID ({len(issues)} errors)",
                         "engine": "", "players": "", "version": "", "extends": ""})
            continue
        low, high = ruleset.players["min"], ruleset.players["max"]
        rows.append({"id": ruleset.id, "name": ruleset.name, "engine": ruleset.engine,
                     "players": str(low) if low == high else f"{low}-{high}",
                     "version": ruleset.version, "extends": ruleset.extends or ""})
    emit(rows, fmt)
