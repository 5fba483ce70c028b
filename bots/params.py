"""Bot parameters, declared once per bot.

Each built-in bot lists its tunables in `Bot.params` as `Param`s: a name, a
type, a default, the values allowed and a line of help.  That one table is
what the bot spec (`ismcts:time=0.5,c=0.7`, read in referee/players.py), the
command line of ``python -m agon.bots.<name>`` (bots/protocol_main.py) and
``agon bots`` all read, so a parameter is documented and checked the same way
everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agon.referee.suggest import did_you_mean


class ParamError(ValueError):
    """A parameter that is unknown, or a value it cannot take."""


@dataclass(frozen=True)
class Param:
    """One tunable of a bot.

    `kind` is int, float or str; a number lies in [low, high] (either end may
    be open, None), a string is one of `choices`.  A default of None means
    "not set" (the bot decides, e.g. a budget given by another parameter).
    """

    name: str
    kind: type
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> Any:
        """The value `text` spells, checked; ParamError says what was expected."""
        text = text.strip()
        if self.kind is str:
            return self.check(text)
        try:
            value = self.kind(text)
        except ValueError:
            raise ParamError(f"{self.name} must be {self.allowed()}, not {text!r}") from None
        return self.check(value)

    def check(self, value: Any) -> Any:
        """`value` itself when this parameter may take it; ParamError otherwise."""
        if self.kind is str:
            if not isinstance(value, str) or value not in self.choices:
                raise ParamError(f"{self.name} must be {self.allowed()}, not {value!r}"
                                 + did_you_mean(str(value), self.choices))
            return value
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                (self.kind is int and not isinstance(value, int)) or value != value:
            raise ParamError(f"{self.name} must be {self.allowed()}, not {value!r}")
        if (self.low is not None and value < self.low) or \
                (self.high is not None and value > self.high):
            raise ParamError(f"{self.name} must be {self.allowed()}, not {value!r}")
        return self.kind(value)

    def allowed(self) -> str:
        """The values this parameter takes, in words: 'a number from 0 to 10'."""
        if self.kind is str:
            return "one of " + ", ".join(self.choices)
        what = "a whole number" if self.kind is int else "a number"
        if self.low is not None and self.high is not None:
            return f"{what} from {_number(self.low)} to {_number(self.high)}"
        if self.low is not None:
            return f"{what} of at least {_number(self.low)}"
        if self.high is not None:
            return f"{what} of at most {_number(self.high)}"
        return what

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.kind.__name__,
                               "default": self.default, "help": self.help}
        if self.choices:
            out["choices"] = list(self.choices)
        else:
            out["range"] = [self.low, self.high]
        return out


SEED = Param("seed", int, None, "seed of the bot's choices (default: the one the referee "
                                "derives from the game's seed; over the protocol, fresh entropy)",
             low=0)


def settle(bot: str, params: Iterable[Param], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter's value: the `given` ones checked, the others their defaults.

    Values may be text (from a spec or a command line) or already typed (from
    Python).  Raises ParamError naming the bot for an unknown name or a bad value.
    """
    table = {param.name: param for param in params}
    values = {name: param.default for name, param in table.items()}
    for name, value in given.items():
        if name not in table:
            raise ParamError(f"{bot} has no parameter {name!r}"
                             + did_you_mean(name, table)
                             + (f"; its parameters: {', '.join(table)}" if table else
                                "; it takes none"))
        param = table[name]
        try:
            values[name] = param.parse(value) if isinstance(value, str) else param.check(value)
        except ParamError as err:
            raise ParamError(f"{bot}: {err}") from None
    return values


def parse_settings(bot: str, text: str) -> dict[str, str]:
    """``key=value,key=value`` -> {key: value} (text values, unchecked)."""
    pairs: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise ParamError(f"{bot}: parameters are written key=value, separated by commas "
                             f"(e.g. {bot}:time=0.5), not {item.strip()!r}")
        if key in pairs:
            raise ParamError(f"{bot}: {key} is given twice")
        pairs[key] = value
    return pairs


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
