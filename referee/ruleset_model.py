"""A ruleset as the engines see it: the value `referee.ruleset` loads and validates.

Kept apart from the loader so that engines (which receive a `Ruleset`) and the
loader (which asks the engines to check their data) do not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .suggest import did_you_mean

MAX_OPTION_INTEGER = 2**53 - 1  # exact in every JSON reader, as in the YAML files


class RulesetError(Exception):
    """A ruleset that cannot be used; the message says why."""

    def __init__(self, message: str, issues: list[Issue] | None = None) -> None:
        super().__init__(message)
        self.issues = issues or []


@dataclass(frozen=True)
class Issue:
    """One validation error: where it is and what is wrong."""

    file: str
    line: int
    col: int
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.path}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "col": self.col,
                "path": self.path, "message": self.message}


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    version: str
    engine: str
    players: dict[str, Any]
    options: dict[str, dict[str, Any]]
    rules: list[dict[str, Any]]
    data: dict[str, Any]
    sha256: str
    source: str
    extends: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def ref(self) -> str:
        return f"{self.id}@{self.version}"

    def default_players(self) -> int:
        """Seats in a game when nobody says: the fixed seats, else two where the
        ruleset allows it (solo is for rulesets of one seat), else its minimum."""
        fixed = self.players.get("seats")
        if fixed:
            return len(fixed)
        low, high = int(self.players["min"]), int(self.players["max"])
        return 2 if low == 1 and high >= 2 else low

    def resolve_options(self, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        """Option defaults with `overrides` applied and type-checked."""
        values = {name: spec.get("default") for name, spec in self.options.items()}
        for name, value in (overrides or {}).items():
            if name not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise RulesetError(f"{self.id} has no option {name!r}"
                                   f"{did_you_mean(name, self.options)} (options: {known})")
            values[name] = coerce_option(name, self.options[name], value)
        return values


def integer_range(spec: dict[str, Any]) -> str:
    """The values an integer option takes, in words ("from 1 to 30", "of at least 1")."""
    low, high = spec.get("min"), spec.get("max", MAX_OPTION_INTEGER)
    if low is None:
        return f"up to {high:,}"
    return f"from {low:,} to {high:,}" if "max" in spec else f"of at least {low:,}"


def coerce_option(name: str, spec: dict[str, Any], value: Any) -> Any:
    """An option value from the command line (text) as the type it declares."""
    kind = spec.get("type", "string")
    text = str(value).strip()
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise RulesetError(f"option {name} takes true or false, not {text!r}")
    if kind == "integer":
        try:
            number = int(text)
        except ValueError:
            raise RulesetError(f"option {name} takes a whole number, not {text[:40]!r}") from None
        low, high = spec.get("min", -MAX_OPTION_INTEGER), spec.get("max", MAX_OPTION_INTEGER)
        if not low <= number <= high:
            # above an unwritten max, "of at least 1" would not say what is wrong
            words = integer_range({**spec, "max": high}) if number > high else \
                integer_range(spec)
            raise RulesetError(f"option {name} takes a whole number {words}, not {text[:40]}")
        return number
    choices = spec.get("choices")
    if choices and text not in [str(c) for c in choices]:
        raise RulesetError(
            f"option {name} takes one of {', '.join(map(str, choices))}, not {text!r}")
    return text
