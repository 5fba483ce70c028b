"""The agon line protocol, version 1.1: encode and decode messages, no I/O.

One message per line, UTF-8, terminated by ``\\n``; a line is a keyword, then
a payload.  Structured payloads are compact JSON objects, which never hold a
raw newline.  The referee sends `Hello`, `EventMsg`, `Ask`, `ResultMsg`,
`NewGame` and `Quit`; a bot sends `Ready`, `Act` and `Info`.  Version 1.1
adds `NewGame` alone: a bot whose `ready` lists ``"newgame"`` among its
``wants`` may be sent the next game instead of `Quit` (docs/protocol.md).  docs/protocol.md is the spec
written for bot authors; this module is its executable form.

The codec is pure (bytes or str in, message object out, and back) so that the
process handling in `referee.transport` and the players in `referee.players`
can be tested apart from it, and a bot written in Python may reuse it.
"""

from __future__ import annotations

import json
import json.encoder
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from orjson import Fragment

VERSION = 1  # the number in the hello line: 1.1 only adds a message a bot asks for
NEWGAME = "newgame"  # what a bot lists in its ready's "wants" to play game after game
MAX_LINE = 1 << 20  # default bound on one line, in bytes, newline excluded
MAX_DIGITS = 18  # longest number in a line (ids, counts, indexes)
# Bounds on what a bot may put in `ready` (its identity goes into every record).
MAX_NAME = 64  # characters of a bot's name
MAX_ABOUT = 4096  # bytes of the JSON after it
MAX_DEPTH = 16  # nesting of that JSON
MAX_NUMBER = 30  # characters of one number in it
QUOTED = 60  # characters of an offending text an error message quotes


class ProtocolError(ValueError):
    """A line that is not a well-formed message of this protocol."""


def _json_encoder() -> Callable[[Any], str]:
    """Compact ASCII JSON: every control and non-ASCII character escaped, so a
    payload never holds a raw newline.  The C encoder is made once and called
    directly: `JSONEncoder.encode` makes one per call, through two Python layers.
    It does not look for circular references (a payload is a tree)."""
    plain = json.JSONEncoder(separators=(",", ":"))
    make = json.encoder.c_make_encoder  # type: ignore[attr-defined]
    if make is None:  # a Python without the C accelerator
        return plain.encode
    # markers (none), default, string encoder, indent, key and item separators,
    # sort_keys, skipkeys, allow_nan: what `plain` would pass
    chunks = make(None, plain.default, json.encoder.encode_basestring_ascii, None, ":", ",",
                  False, False, True)
    return lambda value: "".join(chunks(value, 0))


_json = _json_encoder()
_string = json.encoder.encode_basestring_ascii  # a str as `_json` writes it (in C)


# orjson writes the same bytes as `_json` several times faster, except where it writes
# a character as it is (non-ASCII, DEL), a float below 1e-4 otherwise (1e-7 for 1e-07),
# NaN as null (no payload holds one: limits are finite, engines compute none), or
# raises (integers beyond 64 bits, keys that are not strings, and, with these options,
# subclasses, dataclasses and dates): `_fast_json` leaves those to `_json`.
_EXACT = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS \
    | orjson.OPT_PASSTHROUGH_DATETIME


def _fast_json(value: Any) -> bytes | None:
    """orjson's bytes for `value` where they are `_json`'s, else None."""
    try:
        text = orjson.dumps(value, option=_EXACT)
    except orjson.JSONEncodeError:
        return None
    if not text.isascii() or b"\x7f" in text or b"e-" in text or b"0.0000" in text:
        return None   # (or a string that looks like one of those)
    return text


def json_text(value: Any) -> str:
    """`value` as the compact ASCII JSON every payload of this protocol is written in."""
    fast = _fast_json(value)
    return fast.decode() if fast is not None else _json(value)


# -- messages, referee -> bot ------------------------------------------------

@dataclass(slots=True)
class Hello:
    """`agon 1 {...}`: the first line of every game: game, seat, seats, ruleset, limits."""

    payload: dict[str, Any]
    version: int = VERSION

    def to_line(self) -> str:
        return f"agon {self.version} {json_text(self.payload)}\n"


@dataclass(slots=True)
class EventMsg:
    """`event {...}`: something this seat may see happened."""

    payload: dict[str, Any]

    def to_line(self) -> str:
        return f"event {json_text(self.payload)}\n"


@dataclass(slots=True)
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
    state: dict[str, Any] | None = None  # only for bots that asked for it (wants: state)

    def to_line(self) -> str:
        return ask_line(self.id, self.legal, self.prompt, json_text(self.view),
                        json_text(self.clock),
                        None if self.state is None else json_text(self.state)).decode()


@dataclass(slots=True)
class ResultMsg:
    """`result {...}`: how the game ended (scores, ranks, points, reason ...)."""

    payload: dict[str, Any]

    def to_line(self) -> str:
        return f"result {json_text(self.payload)}\n"


@dataclass(slots=True)
class NewGame:
    """`newgame {...}` (1.1): the next game, to a bot that wants it; the hello's fields."""

    payload: dict[str, Any]

    def to_line(self) -> str:
        return f"newgame {json_text(self.payload)}\n"


@dataclass(slots=True)
class Quit:
    """`quit`: the bot should exit now."""

    def to_line(self) -> str:
        return "quit\n"


# -- messages, bot -> referee ------------------------------------------------

@dataclass(slots=True)
class Ready:
    """`ready NAME {...}`: the answer to Hello; the JSON (version, author ...) is optional."""

    name: str
    about: dict[str, Any] = field(default_factory=dict)

    def to_line(self) -> str:
        if not self.name or any(c.isspace() for c in self.name):
            raise ProtocolError(f"a bot name is one word, not {self.name!r}")
        return f"ready {self.name} {json_text(self.about)}\n" if self.about \
            else f"ready {self.name}\n"


@dataclass(slots=True)
class Act:
    """`act ID K`: the answer to ask ID, K an index into its legal list or the action text."""

    id: int
    index: int | None = None
    text: str | None = None

    def to_line(self) -> str:
        if self.index is not None:
            return f"act {self.id} {self.index}\n"
        text = _one_line(self.text or "")
        if text.isascii() and text.isdigit() or text != text.strip(" ") or not text:
            raise ProtocolError(f"the action {text!r} cannot be sent as text: answer by index")
        return f"act {self.id} {text}\n"

    def action(self, legal: list[str] | tuple[str, ...]) -> str:
        """The action this answer names (IndexError for an index out of range)."""
        if self.index is None:
            return self.text or ""
        if not 0 <= self.index < len(legal):
            raise IndexError(f"index {self.index} is not in 0..{len(legal) - 1}")
        return legal[self.index]


@dataclass(slots=True)
class Info:
    """`info TEXT`: free text for the log; never an answer."""

    text: str

    def to_line(self) -> str:
        return f"info {_one_line(self.text)}\n"


Message = Hello | EventMsg | Ask | ResultMsg | NewGame | Quit | Ready | Act | Info
FROM_REFEREE = (Hello, EventMsg, Ask, ResultMsg, NewGame, Quit)
FROM_BOT = (Ready, Act, Info)


def wants(ready: Ready, feature: str) -> bool:
    """Whether a bot's `ready` lists `feature` ("state", "newgame") in its "wants"."""
    listed = ready.about.get("wants")
    return isinstance(listed, list) and feature in listed


def skips(ready: Ready, part: str) -> bool:
    """Whether a bot's `ready` lists `part` ("view", "events") in its "skip": what it
    would not read, so the referee neither builds nor sends it."""
    listed = ready.about.get("skip")
    return isinstance(listed, list) and part in listed


# -- encoding ----------------------------------------------------------------

def encode_str(message: Message) -> str:
    """The line for `message`, with its trailing newline."""
    return message.to_line()


def encode(message: Message) -> bytes:
    """The UTF-8 line for `message`, with its trailing newline."""
    return message.to_line().encode("utf-8")


def ask_line(ask_id: int, legal: Sequence[str], prompt: str, view: str, clock: str,
             state: str | None = None) -> bytes:
    """`Ask(...)` encoded, without building the message object (the referee's hot path),
    from the JSON of its view, clock and state (`json_text`: a referee sends the same
    clock, or the empty view, ask after ask): the same bytes as `_json` of the whole
    body, in one call of orjson where it writes them (`_fast_json`)."""
    body = {"prompt": prompt, "legal": legal, "view": Fragment(view), "clock": Fragment(clock)}
    if state is not None:
        body["state"] = Fragment(state)
    text = _fast_json(body)
    if text is None:
        text = _ascii_body(legal, prompt, view, clock, state).encode()
    return b"ask %d %d %s\n" % (ask_id, len(legal), text)


def _ascii_body(legal: Sequence[str], prompt: str, view: str, clock: str,
                state: str | None) -> str:
    more = "" if state is None else f',"state":{state}'
    return (f'{{"prompt":{_string(prompt)},"legal":[{",".join(map(_string, legal))}],'
            f'"view":{view},"clock":{clock}{more}}}')


def _one_line(text: str) -> str:
    if "\n" in text or "\r" in text:
        raise ProtocolError("a line's text cannot hold a newline")
    return text


# -- decoding ----------------------------------------------------------------

def decode(line: bytes | str, max_line: int = MAX_LINE) -> Message:
    """Parse one line (with or without its newline) into a message.

    Raises ProtocolError for an empty, overlong, non-UTF-8 or malformed line,
    and never any other exception, whatever the line holds: JSON nested
    deeper than the interpreter allows or numbers too long to convert are
    malformed lines too.  The error message quotes at most a short prefix of
    the offending text.
    """
    if line[:4] == b"act ":  # the commonest line, `act ID K` with K an index, goes fast
        parts = line[4:].split(b" ")
        if (len(parts) == 2 and 0 < len(parts[0]) <= MAX_DIGITS and parts[0].isdigit()
                and 0 < len(parts[1]) <= MAX_DIGITS and parts[1].isdigit()):
            return Act(int(parts[0]), int(parts[1]))
    text = _text_of(line, max_line)
    keyword, _, rest = text.partition(" ")
    parser = _PARSERS.get(keyword)
    if parser is None:
        raise ProtocolError(f"unknown message {_quote(keyword)}")
    return parser(rest)


def answer_index(line: bytes, ask_id: int) -> int | None:
    """K of `act ASK_ID K` when `line` is exactly that with K an index (`decode_from_bot`
    reads it so too), else None.  The usual answer to an ask, read by comparing its
    start with the one expected: the referee reads one after every ask."""
    head = b"act %d " % ask_id
    if line.startswith(head):
        index = line[len(head):]
        if 0 < len(index) <= MAX_DIGITS and index.isdigit():
            return int(index)
    return None


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
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogatepass")
    line = line.removesuffix(b"\n").removesuffix(b"\r")
    if len(line) > max_line:
        raise ProtocolError(f"line longer than {max_line} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProtocolError(f"line is not UTF-8 ({err.reason} at byte {err.start})") from None
    if not text:
        raise ProtocolError("empty line")
    if "\n" in text:
        raise ProtocolError("more than one line")
    return text


def _quote(text: str, limit: int = QUOTED) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def shown(line: bytes | str, limit: int = QUOTED) -> str:
    """A short, printable prefix of `line`, for error messages and forfeit details."""
    if isinstance(line, bytes):
        text = line[:limit * 4].decode("utf-8", "replace")
        cut = len(line) > limit * 4 or len(text) > limit
    else:
        text, cut = line, len(line) > limit
    return repr(text[:limit] + ("..." if cut else ""))


def _object(text: str, what: str, **hooks: Any) -> dict[str, Any]:
    """The JSON object `text` holds; any failure to read it is a ProtocolError."""
    try:
        value = json.loads(text, **hooks)
    except json.JSONDecodeError as err:
        raise ProtocolError(f"{what}: bad JSON ({err.msg} at column {err.colno})") from None
    except RecursionError:
        raise ProtocolError(f"{what}: JSON nested too deeply") from None
    except ValueError as err:  # a number Python will not convert, or a hook's refusal
        raise ProtocolError(f"{what}: bad JSON ({_quote(str(err))})") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"{what}: JSON must be an object, not {type(value).__name__}")
    return value


def _bounded_object(text: str, what: str) -> dict[str, Any]:
    """A small JSON object from a bot: no deep nesting, no huge or non-finite numbers."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_ABOUT:
        raise ProtocolError(f"{what}: JSON longer than {MAX_ABOUT} bytes")
    value = _object(text, what, parse_int=_small_int, parse_float=_small_float,
                    parse_constant=_no_constant)
    if _depth_beyond(value, MAX_DEPTH):
        raise ProtocolError(f"{what}: JSON nested deeper than {MAX_DEPTH} levels")
    return value


def _small_int(word: str) -> int:
    if len(word) > MAX_NUMBER:
        raise ValueError(f"a number longer than {MAX_NUMBER} characters")
    return int(word)


def _small_float(word: str) -> float:
    number = float(word) if len(word) <= MAX_NUMBER else math.inf
    if not math.isfinite(number):
        raise ValueError(f"a number that is too large or longer than {MAX_NUMBER} characters")
    return number


def _no_constant(word: str) -> float:
    raise ValueError(f"{word} is not a JSON number")


def _depth_beyond(value: Any, limit: int) -> bool:
    """True when containers nest deeper than `limit` (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth >= limit:
                    return True
                stack.append((child, depth + 1))
    return False


def _integer(word: str, what: str) -> int:
    if not word.isascii() or not word.isdigit():
        raise ProtocolError(f"{what} must be a whole number, not {_quote(word)}")
    if len(word) > MAX_DIGITS:
        raise ProtocolError(f"{what} is too large: {_quote(word)}")
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
    if len(name) > MAX_NAME or not name.isprintable():
        raise ProtocolError(f"ready: a bot's name is at most {MAX_NAME} printable characters, "
                            f"not {_quote(name)}")
    body = body.strip(" ")
    try:
        return Ready(name, _bounded_object(body, "ready") if body else {})
    except ProtocolError:
        if body[:1] in ("{", "["):
            raise
        # `ready My Bot`: a name of two words, not JSON gone wrong
        raise ProtocolError(f"ready: the name is one word (no spaces), and only a JSON "
                            f"object may follow it, not {_quote(body, 30)}") from None


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
    prompt = body.get("prompt", "")
    if not isinstance(prompt, str):
        raise ProtocolError("ask: 'prompt' must be a string")
    return Ask(ask_id, legal, prompt, body.get("view") or {}, body.get("clock") or {},
               body.get("state"))


def _parse_act(rest: str) -> Act:
    ask_id_word, _, choice = rest.partition(" ")
    ask_id = _integer(ask_id_word, "act: ID")
    choice = choice.strip(" ")
    if not choice:
        raise ProtocolError("act: the action (an index or its text) is missing")
    # A choice made only of digits is an index; any other text is the action itself.
    if choice.isascii() and choice.isdigit():
        return Act(ask_id, index=_integer(choice, "act: index"))
    return Act(ask_id, text=choice)


def _parse_info(rest: str) -> Info:
    return Info(rest)


def _parse_result(rest: str) -> ResultMsg:
    return ResultMsg(_object(rest, "result"))


def _parse_newgame(rest: str) -> NewGame:
    return NewGame(_object(rest, "newgame"))


def _parse_quit(rest: str) -> Quit:
    if rest.strip(" "):
        raise ProtocolError("quit takes no payload")
    return Quit()


_PARSERS = {
    "agon": _parse_hello, "ready": _parse_ready, "event": _parse_event, "ask": _parse_ask,
    "act": _parse_act, "info": _parse_info, "result": _parse_result,
    "newgame": _parse_newgame, "quit": _parse_quit,
}
