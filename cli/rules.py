"""`agon rules RULESET [QUERY]`: contents, a section, a card, or a search."""

from __future__ import annotations

import json

import typer

from agon.referee.lookup import lookup, render_section

from .common import FAILED, Format, RulesetsPath, emit, open_ruleset


def rules(
    ruleset: str = typer.Argument(..., metavar="RULESET",
                                  help="a shipped ruleset id or a ruleset file"),
    query: str | None = typer.Argument(None, metavar="QUERY",
                                       help="section id (7.1), card (7, #7, name) or words"),
    fmt: Format = typer.Option(Format.table, "--format", metavar="table|json|csv",
                               help="table (text), json, or csv (one row per section)"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """Look up the rules: no query gives the contents.

    Examples: agon rules earth-and-water | agon rules earth-and-water 7.1 |
    agon rules earth-and-water "card 7" | agon rules earth-and-water retreat

    Exit 0 when something is found, 1 when nothing matches the query, 2 on
    bad usage (an unknown ruleset).
    """
    rs = open_ruleset(ruleset, rulesets_path)
    if query is None:
        rows = [{"id": s["id"], "title": s["title"], "kind": s.get("kind", "section")}
                for s in rs.rules]
        emit(rows, fmt, title=f"{rs.name} ({rs.ref}): {len(rows)} sections\n")
        return
    found = lookup(rs, query)
    if fmt == Format.json:
        typer.echo(json.dumps({
            "kind": found.kind, "sections": found.sections,
            "matches": [{"id": m.section["id"], "title": m.section["title"],
                         "score": m.score, "snippet": m.snippet} for m in found.matches],
            "suggestions": found.suggestions}, indent=1))
    elif found.sections and fmt == Format.csv:
        emit([{"id": s["id"], "title": s["title"], "kind": s.get("kind", "section"),
               "text": s["text"], "see_also": " ".join(s.get("see_also", []))}
              for s in found.sections], fmt)
    elif found.sections:
        typer.echo("\n\n".join(render_section(s) for s in found.sections))
    elif found.matches:
        emit([{"id": m.section["id"], "title": m.section["title"], "snippet": m.snippet}
              for m in found.matches], fmt, title=f"{len(found.matches)} sections mention {query!r}:\n")
    else:
        typer.echo(f"agon: nothing in {rs.id} matches {query!r}", err=True)
        if found.suggestions:
            typer.echo("closest titles:\n  " + "\n  ".join(found.suggestions), err=True)
    if found.kind == "none":
        raise typer.Exit(FAILED)
