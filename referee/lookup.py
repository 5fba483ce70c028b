"""Rule lookups: table of contents, a section, a card, full-text search.

Sections come from the ruleset's `rules` list; cards are sections with
`kind: card` and a `number`.  Nothing here knows any particular game.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from .ruleset import Ruleset

Section = dict[str, Any]
WORD = re.compile(r"[\w']+", re.UNICODE)


@dataclass
class Match:
    section: Section
    score: float
    snippet: str


@dataclass
class Lookup:
    """What a query found: `kind` is section, card, search or none."""

    kind: str
    sections: list[Section] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)


def contents(ruleset: Ruleset) -> list[Section]:
    return list(ruleset.rules)


def lookup(ruleset: Ruleset, query: str) -> Lookup:
    query = query.strip()
    sections = ruleset.rules
    exact = [s for s in sections if s["id"].lower() == query.lower()]
    if exact:
        return Lookup("section", exact)
    card = _card(sections, query)
    if card:
        return Lookup("card", [card])
    titled = [s for s in sections if s["title"].lower() == query.lower()]
    if titled:
        return Lookup("card" if titled[0].get("kind") == "card" else "section", titled[:1])
    matches = search(sections, query)
    if matches:
        return Lookup("search", matches=matches)
    return Lookup("none", suggestions=closest(sections, query))


def _card(sections: list[Section], query: str) -> Section | None:
    """`7`, `#7`, `card 7` or `card-7` name card number 7."""
    found = re.fullmatch(r"(?:card[\s-]*|#)?(\d+)", query.lower())
    if not found:
        return None
    number = int(found.group(1))
    for section in sections:
        if section.get("kind") == "card" and section.get("number") == number:
            return section
    return None


def search(sections: list[Section], query: str, limit: int = 10) -> list[Match]:
    """Sections ranked by how often and where the query's words appear."""
    words = [w.lower() for w in WORD.findall(query)]
    if not words:
        return []
    phrase = query.lower()
    matches = []
    for section in sections:
        title = section["title"].lower()
        text = section["text"].lower()
        tags = " ".join(section.get("tags", [])).lower()
        hits = [w for w in words if w in title or w in text or w in tags]
        if len(hits) < len(words):
            continue  # every word must appear somewhere
        score = sum(3 * title.count(w) + 2 * tags.count(w) + text.count(w) for w in words)
        if phrase in title or phrase in text:
            score += 5
        matches.append(Match(section, score, snippet(section["text"], words)))
    matches.sort(key=lambda m: -m.score)
    return matches[:limit]


def snippet(text: str, words: list[str], width: int = 90) -> str:
    """A one-line excerpt of `text` around the first word found."""
    flat = " ".join(text.split())
    lower = flat.lower()
    starts = [lower.find(w) for w in words if lower.find(w) >= 0]
    start = max(0, min(starts) - width // 3) if starts else 0
    piece = flat[start:start + width]
    return ("..." if start else "") + piece + ("..." if start + width < len(flat) else "")


def closest(sections: list[Section], query: str, count: int = 5) -> list[str]:
    titles = {s["title"]: s for s in sections}
    names = difflib.get_close_matches(query, list(titles), n=count, cutoff=0.3)
    if not names:
        lowered = {t.lower(): t for t in titles}
        names = [lowered[n] for n in difflib.get_close_matches(query.lower(), list(lowered),
                                                               n=count, cutoff=0.2)]
    return [f"{titles[n]['id']}  {n}" for n in names]


def render_section(section: Section) -> str:
    """A section as text for the terminal."""
    label = "Card" if section.get("kind") == "card" else "Section"
    lines = [f"{label} {section['id']}: {section['title']}", ""]
    lines += _wrap(section["text"])
    if section.get("see_also"):
        lines += ["", "See also: " + ", ".join(section["see_also"])]
    return "\n".join(lines)


def _wrap(text: str, width: int = 78) -> list[str]:
    import textwrap

    out: list[str] = []
    for paragraph in text.strip().split("\n\n"):
        out += textwrap.wrap(" ".join(paragraph.split()), width) + [""]
    return out[:-1]


def answer(ruleset: Ruleset, query: str) -> str:
    """The lookup as text (used by the terminal player's `rules QUERY`)."""
    found = lookup(ruleset, query)
    if found.sections:
        return "\n\n".join(render_section(s) for s in found.sections)
    if found.matches:
        return "\n".join(f"{m.section['id']:>8}  {m.section['title']}: {m.snippet}"
                         for m in found.matches)
    hint = "; ".join(found.suggestions) or "try `rules` with no query for the contents"
    return f"Nothing matches {query!r}. Closest: {hint}"
