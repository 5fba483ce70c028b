"""Rule lookups: table of contents, a section, a card, full-text search.

Sections come from the ruleset's `rules` list; cards are sections with
`kind: card` and a `number` (where a game has none, numbered sections of
another kind, such as Epireia's scenario cards).  Nothing here knows any
particular game.

What a query means, in this order:

* a section id (``7.1``, ``7``, ``setup``; spaces may stand for its hyphens:
  ``augur 6`` is ``augur-6``): that section.  So a bare number is the
  rulebook's section of that number where there is one;
* ``card 7``, ``card-7`` or ``#7``: card number 7, always; a bare number
  with no section of that id is card 7 too;
* a section's exact title; otherwise the sections mentioning every word.
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
    """What a query found: `kind` is section, card, search or none.

    `note` is one line for the reader: a bare number that found a section
    while a card has that number too, or the range of card numbers when a
    card was not found.  A search keeps its `SHOWN` best `matches` of `found`.
    """

    kind: str
    sections: list[Section] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    note: str = ""
    found: int = 0


def contents(ruleset: Ruleset) -> list[Section]:
    return list(ruleset.rules)


SHOWN = 10  # the best matches of a search that are shown
MAX_CARD_DIGITS = 9  # a card number longer than this is read as text (int() has a limit)
# a minus: still a card query
CARD_QUERY = re.compile(rf"(?:card-|card\s*|#)(-?[0-9]{{1,{MAX_CARD_DIGITS}}})")


def lookup(ruleset: Ruleset, query: str) -> Lookup:
    query = query.strip()
    sections = ruleset.rules
    asked_card = CARD_QUERY.fullmatch(query.lower())
    if asked_card:
        card = find_card(sections, int(asked_card.group(1)))
        if card:
            return Lookup("card", [card])
        return Lookup("none", note=_card_range(sections))
    ids = {query.lower(), re.sub(r"\s+", "-", query.lower())}  # "augur 6": id augur-6
    exact = [s for s in sections if s["id"].lower() in ids]
    if exact:
        also = find_card(sections, int(query)) if _card_number(query) else None
        note = f"(card {query} is `#{query}`: {also['title']})" if also else ""
        return Lookup("section", exact, note=note)
    if _card_number(query):
        card = find_card(sections, int(query))
        if card:
            return Lookup("card", [card])
    titled = [s for s in sections if s["title"].lower() == query.lower()]
    if titled:
        return Lookup("card" if titled[0].get("kind") == "card" else "section", titled[:1])
    matches = search(sections, query)
    if matches:
        return Lookup("search", matches=matches[:SHOWN], found=len(matches))
    return Lookup("none", suggestions=closest(sections, query))


def _card_number(query: str) -> bool:
    """Whether `query` may be a card's number: ASCII digits, not too many ('²' and
    '٣' are digits to str.isdigit, not to int; 5,000 digits are past int's limit)."""
    return query.isascii() and query.isdigit() and len(query) <= MAX_CARD_DIGITS


def cards(sections: list[Section]) -> list[Section]:
    """The numbered cards: sections of kind card, else any numbered sections."""
    numbered = [s for s in sections if isinstance(s.get("number"), int)]
    return [s for s in numbered if s.get("kind") == "card"] or numbered


def find_card(sections: list[Section], number: int) -> Section | None:
    return next((s for s in cards(sections) if s["number"] == number), None)


def _card_range(sections: list[Section]) -> str:
    numbers = sorted({s["number"] for s in cards(sections)})
    if not numbers:
        return "this game has no numbered cards"
    return f"its cards are numbered {numbers[0]} to {numbers[-1]}"


def hand_cards(ruleset: Ruleset, hand: list[Any]) -> list[Section | str]:
    """The card sections of a view's ``hand``, in its order.

    A hand lists card numbers, ``{"number": N, ...}`` or card ids (a ruleset's
    ``data.cards`` gives each id its number); an entry with no card section
    stays as it is written.
    """
    numbers = {c.get("id"): c.get("number") for c in ruleset.data.get("cards") or []
               if isinstance(c, dict) and "id" in c}
    out: list[Section | str] = []
    for entry in hand:
        number = entry.get("number") if isinstance(entry, dict) else numbers.get(entry, entry)
        card = find_card(ruleset.rules, number) if isinstance(number, int) else None
        out.append(card or str(entry))
    return out


def render_hand(ruleset: Ruleset, hand: list[Any]) -> str:
    """Each card of a hand with its number, title and text, for the terminal."""
    if not hand:
        return "Your hand is empty."
    lines = [f"Your hand ({len(hand)}):"]
    for card in hand_cards(ruleset, hand):
        if isinstance(card, str):
            lines.append(f"  {card}")
            continue
        lines.append(f"  #{card['number']} {card['title']}")
        lines += ["      " + line if line else "" for line in _wrap(card["text"], 72)]
    return "\n".join(lines)


def search(sections: list[Section], query: str) -> list[Match]:
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
    return matches


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


def render_section(section: Section, as_card: bool = False) -> str:
    """A section as text for the terminal (`as_card`: found as a card)."""
    label = "Card" if as_card or section.get("kind") == "card" else "Section"
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
        text = "\n\n".join(render_section(s, found.kind == "card") for s in found.sections)
        return f"{text}\n\n{found.note}" if found.note else text
    if found.matches:
        return "\n".join(f"{m.section['id']:>8}  {m.section['title']}: {m.snippet}"
                         for m in found.matches)
    if found.note:
        return f"Nothing matches {query!r}: {found.note}."
    hint = "; ".join(found.suggestions) or "try `rules` with no query for the contents"
    return f"Nothing matches {query!r}. Closest: {hint}"
