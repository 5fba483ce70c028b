"""`agon rules RULESET [QUERY]`: contents, a section, a card, or a search."""

from __future__ import annotations

import json

import typer

from agon.referee.lookup import Lookup, lookup, render_section

from .common import FAILED, Format, RulesetsPath, emit, open_ruleset

QUOTED = 80  # characters of a query repeated in a message


def rules(
    ruleset: str = typer.Argument(..., metavar="RULESET",
                                  help="a shipped ruleset id or a ruleset file"),
    query: str | None = typer.Argument(
        None, metavar="QUERY",
        help="a section id (7.1; a bare number is that section where there is one, else that "
             "card), a card (#7, 'card 7', its name) or words"),
    fmt: Format = typer.Option(Format.table, "--format", metavar="table|json|csv",
                               help="table (text), json, or csv (one row per section)"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """Look up the rules: no query gives the contents.

    A bare number names the section of that number where there is one (Earth
    & Water's are its rulebook's; City States' rulebook numbers nothing, so its
    sections are agon's own), else the card of that number; `#7` and `card 7`
    always name card 7.

    Examples: agon rules earth-and-water | agon rules earth-and-water 7.1 |
    agon rules earth-and-water "#7" | agon rules earth-and-water retreat

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
    quoted = repr(query if len(query) <= QUOTED else query[:QUOTED] + "...")
    if fmt == Format.json:
        typer.echo(json.dumps({
            "kind": found.kind, "sections": found.sections,
            "matches": [{"id": m.section["id"], "title": m.section["title"],
                         "score": m.score, "snippet": m.snippet} for m in found.matches],
            "found": found.found,
            "suggestions": found.suggestions, "note": found.note}, indent=1))
    elif found.sections and fmt == Format.csv:
        emit([{"id": s["id"], "title": s["title"], "kind": s.get("kind", "section"),
               "text": s["text"], "see_also": " ".join(s.get("see_also", []))}
              for s in found.sections], fmt)
    elif found.sections:
        typer.echo("\n\n".join(render_section(s, found.kind == "card") for s in found.sections))
        if found.note:
            typer.echo(f"\n{found.note}")
    elif found.matches:
        emit([{"id": m.section["id"], "title": m.section["title"], "snippet": m.snippet}
              for m in found.matches], fmt, title=_search_title(found, quoted))
    else:
        why = f": {found.note}" if found.note else ""
        typer.echo(f"agon: nothing in {rs.id} matches {quoted}{why}", err=True)
        if found.suggestions:
            typer.echo("closest titles:\n  " + "\n  ".join(found.suggestions), err=True)
    if found.kind == "none":
        raise typer.Exit(FAILED)


def _search_title(found: Lookup, quoted: str) -> str:
    """'3 sections mention 'x':', or '14 sections mention 'MR'; the 10 likeliest:'."""
    count = f"{found.found} {'section mentions' if found.found == 1 else 'sections mention'}"
    if found.found > len(found.matches):
        return f"{count} {quoted}; the {len(found.matches)} likeliest:\n"
    return f"{count} {quoted}:\n"
