"""`agon rulesets [ID | export ID]`: the shipped rulesets, one in detail, or its file to copy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from tabulate import tabulate

from agon.referee.games import engine_class
from agon.referee.ruleset import (
    RULESETS_DIR,
    RulesetError,
    locate,
    rulesets_by_id,
    shipped_variants_of,
    validate_file,
)
from agon.referee.ruleset_model import Ruleset, integer_range
from agon.referee.yamlsafe import MAX_BYTES, YamlError, read_bounded

from .common import USAGE, Format, RulesetsPath, emit, fail, open_ruleset, ruleset_failure


def rulesets(
    words: list[str] | None = typer.Argument(
        None, metavar="[ID | export ID]",
        help="a ruleset to show in detail, or `export ID` to print its file"),
    fmt: Format = typer.Option(Format.table, "--format", metavar="table|json|csv",
                               help="table, json or csv"),
    out: Path | None = typer.Option(None, "--out", metavar="FILE",
                                    help="with export: write the file here, not to stdout"),
    force: bool = typer.Option(False, "--force", help="with export --out: replace FILE"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """List the rulesets: those in --rulesets-path folders, then the shipped ones (use
    an id wherever a RULESET is asked for; a folder's file hides a shipped one of its id).

    `agon rulesets ID` shows one: its seats and player counts, its options
    with their defaults and choices, what it extends and which shipped
    rulesets extend it (--format csv gives its options only).
    `agon rulesets export ID` prints its YAML file, to copy and edit:
    agon rulesets export earth-and-water --out my-variant.yaml

    Examples: agon rulesets --format json | agon rulesets epireia
    """
    words = words or []
    if out is not None and words[:1] != ["export"]:
        fail("--out goes with export: agon rulesets export ID --out FILE", USAGE)
    if not words:
        _list(fmt, rulesets_path)
    elif words[0] == "export":
        if len(words) != 2:
            fail("export takes one ruleset id: agon rulesets export ID [--out FILE]", USAGE)
        _export(words[1], out, force, rulesets_path)
    elif len(words) == 1:
        _show(open_ruleset(words[0], rulesets_path), fmt)
    else:
        fail(f"give one ruleset id, or export ID; not {' '.join(words)!r}", USAGE)


def _list(fmt: Format, rulesets_path: list[Path] | None) -> None:
    rows = []
    folders = tuple(rulesets_path or ())
    for name, path in rulesets_by_id(folders).items():
        where = "shipped" if path.parent == RULESETS_DIR else str(path.parent)
        ruleset, issues = validate_file(path, folders)
        if ruleset is None:
            rows.append({"id": name, "name": f"INVALID ({len(issues)} errors)",
                         "engine": "", "players": "", "version": "", "extends": "",
                         "where": where})
            continue
        rows.append({"id": name, "name": ruleset.name, "engine": ruleset.engine,
                     "players": _counts(ruleset), "version": ruleset.version,
                     "extends": ruleset.extends or "", "where": where})
    emit(rows, fmt)


def _counts(ruleset: Ruleset) -> str:
    low, high = ruleset.players["min"], ruleset.players["max"]
    return str(low) if low == high else f"{low}-{high}"


def _show(ruleset: Ruleset, fmt: Format) -> None:
    info = _details(ruleset)
    if fmt == Format.json:
        typer.echo(json.dumps(info, indent=1))
        return
    if fmt == Format.csv:
        emit(_option_rows(ruleset), fmt, columns=["option", "type", "default", "choices", "text"])
        return
    lines = [f"{ruleset.name} ({ruleset.ref})", "",
             f"engine:      {ruleset.engine}",
             f"file:        {ruleset.source}",
             f"extends:     {ruleset.extends or '-'}",
             f"extended by: {', '.join(info['extended_by']) or '-'}",
             f"players:     {_counts(ruleset)} (default {info['players']['default']})"]
    label = "seats:      "
    for count, seats in info["seats"].items():
        teams = info["teams"].get(count)
        lines.append(f"{label} {count} players: {', '.join(seats)}{_teams_text(teams)}")
        label = " " * len(label)
    lines.append(f"rules:       {len(ruleset.rules)} sections (agon rules {ruleset.id})")
    typer.echo("\n".join(lines) + "\n")
    rows = _option_rows(ruleset)
    typer.echo(tabulate(rows, headers="keys", disable_numparse=True,
                        maxcolwidths=[None, None, None, 24, 44]) if rows else "options: none")


def _teams_text(teams: dict[str, list[str]] | None) -> str:
    if not teams:
        return ""
    return " (teams " + " | ".join(f"{team}: " + ", ".join(members)
                                   for team, members in teams.items()) + ")"


def _details(ruleset: Ruleset) -> dict[str, Any]:
    engine = engine_class(ruleset.engine)(ruleset)
    counts = range(ruleset.players["min"], ruleset.players["max"] + 1)
    seats = {str(n): engine.seats(n) for n in counts}
    teams = {n: engine.teams(s) for n, s in seats.items()}
    return {
        "id": ruleset.id, "name": ruleset.name, "version": ruleset.version,
        "engine": ruleset.engine, "file": ruleset.source, "sha256": ruleset.sha256,
        "shipped": Path(ruleset.source).resolve().parent == RULESETS_DIR,
        "extends": ruleset.extends,
        "extended_by": shipped_variants_of(ruleset.source),
        "players": {"min": ruleset.players["min"], "max": ruleset.players["max"],
                    "default": ruleset.default_players()},
        "seats": seats, "teams": {n: t for n, t in teams.items() if t},
        "options": {name: {"type": spec.get("type", "string"), "default": spec.get("default"),
                           "choices": spec.get("choices"), "text": spec.get("text", ""),
                           **{k: spec[k] for k in ("min", "max") if k in spec}}
                    for name, spec in ruleset.options.items()},
        "rules": len(ruleset.rules),
    }


def _option_rows(ruleset: Ruleset) -> list[dict[str, Any]]:
    return [{"option": name, "type": spec.get("type", "string"),
             "default": _shown(spec.get("default")),
             "choices": ", ".join(map(str, spec.get("choices") or [])) or _range(spec),
             "text": spec.get("text", "")}
            for name, spec in ruleset.options.items()]


def _range(spec: dict[str, Any]) -> str:
    """The values of an integer option with bounds, as the choices column shows them."""
    if "min" not in spec and "max" not in spec:
        return "-"
    return integer_range(spec).removeprefix("of ")


def _shown(value: Any) -> str:
    """An option's value as it is written in YAML and on the command line."""
    if isinstance(value, bool):
        return str(value).lower()
    return "-" if value is None else str(value)


def _export(ref: str, out: Path | None, force: bool, rulesets_path: list[Path] | None) -> None:
    """The ruleset's file exactly as it is (comments and all), to copy and edit."""
    try:
        path = locate(ref, tuple(rulesets_path or ()))
        text = read_bounded(path, MAX_BYTES).decode("utf-8")
    except RulesetError as exc:
        ruleset_failure(exc)
    except (YamlError, UnicodeDecodeError) as exc:
        fail(f"{ref}: cannot read its file ({exc})")
    if out is None:
        typer.echo(text, nl=False)
        return
    if out.exists() and not force:
        fail(f"{out} exists: choose another file, or replace it with --force", USAGE)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out} ({exc.strerror or exc})", USAGE)
    typer.echo(f"wrote {out}: give it an id of its own, edit it, and check it with "
               f"agon validate {out}", err=True)
