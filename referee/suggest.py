"""The name a person probably meant when they mistyped one (a key, a seat, a bot, a ruleset)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, names: Iterable[str]) -> str | None:
    """The known name nearest to `word`, if one is near enough to be a typo of it."""
    found = difflib.get_close_matches(word, [str(name) for name in names], n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """`` (did you mean 'roads'?)`` for a near miss, else ``""``: to end a message with."""
    near = closest(word, names)
    return f" (did you mean {near!r}?)" if near is not None and near != word else ""
