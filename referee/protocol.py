"""The agon line protocol, version 1: encode and decode messages, no I/O.

One message per line, UTF-8, terminated by ``\\n``; a line is a keyword, then
a payload.  Structured payloads are compact JSON objects, which never hold a
raw newline.  The referee sends `Hello`, `EventMsg`, `Ask`, `ResultMsg` and
`Quit`; a bot sends `Ready`, `Act` and `Info`.  docs/protocol.md is the spec
written for bot authors; this module is its executable form.

The codec is pure (bytes or str in, message object out, and back) so that the
process handling in `referee.transport` and the players in `referee.players`
can be tested apart from it, and a bot written in Python may reuse it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

VERSION = 1
MAX_LINE = 1 << 20  # default bound on one line, in bytes, newline excluded


class ProtocolError(ValueError):
    """A line that is not a well-formed message of this protocol."""


# -- messages, referee -> bot ------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hello:
    """`agon 1 {...}`: the first line of every game: game, seat, seats, ruleset, limits."""

    payload: dict[str, Any]
    version: int = VERSION


@dataclass(frozen=True, slots=True)
class EventMsg:
    """`event {...}`: something this seat may see happened."""

    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Ask:
    """`ask ID N {...}`: choose one of the N legal actions of ask ID.

    N is repeated before the JSON so that a bot with no JSON parser can still
    answer with an index in range.
    """

    id: int
    legal: list[str]
    prompt: str = ""
    view: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ResultMsg:
    """`result {...}`: how the game ended (scores, ranks, points, reason ...)."""

    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Quit:
    """`quit`: the bot should exit now."""


# -- messages, bot -> referee ------------------------------------------------

@dataclass(frozen=True, slots=True)
class Ready:
    """`ready NAME {...}`: the answer to Hello; the JSON (version, author ...) is optional."""

    name: str
    about: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Act:
    """`act ID K`: the answer to ask ID, K an index into its legal list or the action text."""

    id: int
    index: int | None = None
    text: str | None = None

    def action(self, legal: list[str] | tuple[str, ...]) -> str:
        """The action this answer names; ProtocolError-free, IndexError when out of range."""
        if self.index is None:
            return self.text or ""
        if not 0 <= self.index < len(legal):
            raise IndexError(f"index {self.index} is not in 0..{len(legal) - 1}")
        return legal[self.index]


@dataclass(frozen=True, slots=True)
class Info:
    """`info TEXT`: free text for the log; never an answer."""

    text: str


Message = Hello | EventMsg | Ask | ResultMsg | Quit | Ready | Act | Info
FROM_REFEREE = (Hello, EventMsg, Ask, ResultMsg, Quit)
FROM_BOT = (Ready, Act, Info)


# -- encoding ----------------------------------------------------------------

def _json(payload: dict[str, Any]) -> str:
    # Compact, and json.dumps escapes control characters, so never a raw newline.
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def encode_str(message: Message) -> str:
    """The line for `message`, with its trailing newline."""
    match message:
        case Ask(id=ask_id, legal=legal, prompt=prompt, view=view, clock=clock):
            body = {"prompt": prompt, "legal": list(legal), "view": view, "clock": clock}
            return f"ask {ask_id} {len(legal)} {_json(body)}\n"
        case Act(id=ask_id, index=index, text=text):
            return f"act {ask_id} {index if index is not None else _one_line(text or '')}\n"
        case EventMsg(payload=payload):
            return f"event {_json(payload)}\n"
        case Info(text=text):
            return f"info {_one_line(text)}\n"
        case Hello(payload=payload, version=version):
            return f"agon {version} {_json(payload)}\n"
        case Ready(name=name, about=about):
            if not name or any(c.isspace() for c in name):
                raise ProtocolError(f"a bot name is one word, not {name!r}")
            return f"ready {name} {_json(about)}\n" if about else f"ready {name}\n"
        case ResultMsg(payload=payload):
            return f"result {_json(payload)}\n"
        case Quit():
            return "quit\n"
    raise TypeError(f"not a protocol message: {message!r}")


def encode(message: Message) -> bytes:
    """The UTF-8 line for `message`, with its trailing newline."""
    return encode_str(message).encode("utf-8")


def _one_line(text: str) -> str:
    if "\n" in text or "\r" in text:
        raise ProtocolError("a line's text cannot hold a newline")
    return text


# -- decoding ----------------------------------------------------------------

def decode(line: bytes | str, max_line: int = MAX_LINE) -> Message:
    """Parse one line (with or without its newline) into a message.

    Raises ProtocolError for an empty, overlong, non-UTF-8 or malformed line.
    """
    text = _text_of(line, max_line)
    keyword, _, rest = text.partition(" ")
    parser = _PARSERS.get(keyword)
    if parser is None:
        raise ProtocolError(f"unknown message {_quote(keyword)}")
    return parser(rest)


def decode_from_bot(line: bytes | str, max_line: int = MAX_LINE) -> Ready | Act | Info:
    """Parse a line a bot sent; anything but ready/act/info is a ProtocolError."""
    message = decode(line, max_line)
    if not isinstance(message, FROM_BOT):
        raise ProtocolError(f"a bot cannot send {_quote(_text_of(line, max_line))}")
    return message


def decode_from_referee(line: bytes | str, max_line: int = MAX_LINE) -> Message:
    """Parse a line the referee sent; a bot's message here is a ProtocolError."""
    message = decode(line, max_line)
    if not isinstance(message, FROM_REFEREE):
        raise ProtocolError(f"the referee cannot send {_quote(_text_of(line, max_line))}")
    return message


def _text_of(line: bytes | str, max_line: int) -> str:
    if len(line) > max_line + 2:  # room for "\r\n"
        raise ProtocolError(f"line longer than {max_line} bytes")
    if isinstance(line, bytes | bytearray | memoryview):
        try:
            line = bytes(line).decode("utf-8")
        except UnicodeDecodeError as err:
            raise ProtocolError(f"line is not UTF-8 ({err.reason} at byte {err.start})") from None
    text = line.removesuffix("\n").removesuffix("\r")
    if len(text.encode("utf-8")) > max_line:
        raise ProtocolError(f"line longer than {max_line} bytes")
    if not text:
        raise ProtocolError("empty line")
    if "\n" in text:
        raise ProtocolError("more than one line")
    return text


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _object(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as err:
        raise ProtocolError(f"{what}: bad JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"{what}: JSON must be an object, not {type(value).__name__}")
    return value


def _integer(word: str, what: str) -> int:
    if not word.isascii() or not word.isdigit():
        raise ProtocolError(f"{what} must be a whole number, not {_quote(word)}")
    return int(word)


def _parse_hello(rest: str) -> Hello:
    version, _, body = rest.partition(" ")
    number = _integer(version, "agon: protocol version")
    if number != VERSION:
        raise ProtocolError(f"agon: protocol version {number} (this codec speaks {VERSION})")
    return Hello(_object(body, "agon"), number)


def _parse_ready(rest: str) -> Ready:
    name, _, body = rest.strip(" ").partition(" ")
    if not name:
        raise ProtocolError("ready: the bot's name is missing")
    body = body.strip(" ")
    return Ready(name, _object(body, "ready") if body else {})


def _parse_event(rest: str) -> EventMsg:
    return EventMsg(_object(rest, "event"))


def _parse_ask(rest: str) -> Ask:
    parts = rest.split(" ", 2)
    if len(parts) != 3:
        raise ProtocolError("ask: expected 'ask ID N {json}'")
    ask_id = _integer(parts[0], "ask: ID")
    count = _integer(parts[1], "ask: N")
    body = _object(parts[2], "ask")
    legal = body.get("legal")
    if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
        raise ProtocolError("ask: 'legal' must be a list of strings")
    if len(legal) != count:
        raise ProtocolError(f"ask: N is {count} but 'legal' holds {len(legal)} actions")
    return Ask(ask_id, legal, str(body.get("prompt", "")), body.get("view") or {},
               body.get("clock") or {})


def _parse_act(rest: str) -> Act:
    ask_id_word, _, choice = rest.partition(" ")
    ask_id = _integer(ask_id_word, "act: ID")
    choice = choice.strip(" ")
    if not choice:
        raise ProtocolError("act: the action (an index or its text) is missing")
    # A choice made only of digits is an index; any other text is the action itself.
    if choice.isascii() and choice.isdigit():
        return Act(ask_id, index=int(choice))
    return Act(ask_id, text=choice)


def _parse_info(rest: str) -> Info:
    return Info(rest)


def _parse_result(rest: str) -> ResultMsg:
    return ResultMsg(_object(rest, "result"))


def _parse_quit(rest: str) -> Quit:
    if rest.strip(" "):
        raise ProtocolError("quit takes no payload")
    return Quit()


_PARSERS = {
    "agon": _parse_hello, "ready": _parse_ready, "event": _parse_event, "ask": _parse_ask,
    "act": _parse_act, "info": _parse_info, "result": _parse_result, "quit": _parse_quit,
}
