"""Serve a built-in bot over the line protocol: `python -m agon.bots.<name>`.

The referee starts the program and talks to it on stdin/stdout
(docs/protocol.md).  It speaks protocol 1.1: it asks for ``newgame`` in its
``ready``, so in a tournament one process plays game after game, each with a
fresh bot seeded with the seed the hello (or ``newgame``) carries.
`run(BotClass)` is the whole program:

    if __name__ == "__main__":
        raise SystemExit(run(MyBot))

Options: one per parameter the bot declares (`Bot.params`, e.g. ``--time 0.5``),
``--seed N`` seeds the bot in every game (default: the seed the referee sends,
else fresh entropy), ``--name N`` overrides the name it announces; ``--help``
lists them.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from agon.referee import protocol
from agon.referee.engine import Decision, Engine

from . import BUILTIN
from .base import Bot
from .params import Param, ParamError


def run(bot_class: type[Bot], argv: Sequence[str] | None = None,
        stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Play games with `bot_class` until `quit` or end of input; the exit status."""
    parser = _arguments(bot_class)
    args = parser.parse_args(argv)
    settings = {param.name: getattr(args, param.name) for param in bot_class.params
                if getattr(args, param.name) is not None}
    try:
        bot_class(0, **settings)   # every parameter checked before the first game
    except ParamError as err:
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 2
    reader = stdin or sys.stdin.buffer
    writer = stdout or sys.stdout.buffer
    return _serve(bot_class, args.seed, args.name, settings, reader, writer)


def _arguments(bot_class: type[Bot]) -> argparse.ArgumentParser:
    """The command line: one option per declared parameter (bots/params.py)."""
    module = f"agon.bots.{bot_class.name}" if bot_class.name in BUILTIN else bot_class.__module__
    parser = argparse.ArgumentParser(prog=f"python -m {module}",
                                     description=f"{bot_class.name}: an agon bot over "
                                                 "stdin/stdout")
    for param in bot_class.all_params():
        default = "" if param.default is None else f"; default {param.default}"
        parser.add_argument(f"--{param.name}", type=_reader(param), default=None,
                            metavar=param.kind.__name__.upper() if not param.choices else
                            "{" + ",".join(param.choices) + "}",
                            help=f"{param.help} ({param.allowed()}{default})")
    parser.add_argument("--name", default=bot_class.name, help="the name it announces")
    return parser


def _reader(param: Param) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        try:
            return param.parse(text)
        except ParamError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    read.__name__ = param.name
    return read


def _serve(bot_class: type[Bot], seed: int | None, name: str, settings: dict[str, Any],
           reader: IO[bytes], writer: IO[bytes]) -> int:
    bot: Bot | None = None
    engine: Engine | None = None
    seat = ""
    listens = bot_class.event is not Bot.event  # its event hook is its own
    blind = bot_class.choose_index is not Bot.choose_index  # it may pick by count alone

    def send(message: protocol.Message) -> None:
        writer.write(protocol.encode(message))
        writer.flush()

    for line in reader:
        if blind and bot is not None and line.startswith(b"ask "):
            act = _blind_act(bot, line)
            if act is not None:   # answered from `ask ID N` alone: its JSON is not read
                writer.write(act)
                writer.flush()
                continue
        if not line.strip():
            continue
        if bot is not None and (line.startswith(b"result ")
                                or not listens and line.startswith(b"event ")):
            continue  # what this bot ignores (a result, events it does not read): not decoded
        try:
            message = protocol.decode_from_referee(line, max_line=len(line))  # no size limit
        except protocol.ProtocolError as err:  # not ours to judge: say so, go on
            print(f"{name}: ignoring a line it cannot read ({err})", file=sys.stderr, flush=True)
            continue
        if isinstance(message, (protocol.Hello, protocol.NewGame)):  # a game begins
            bot = bot_class(_seed_for(seed, message.payload), **settings)
            seat = str(message.payload.get("seat", ""))
            bot.start(message.payload)
            about: dict[str, Any] = {"version": bot.version, "wants": [protocol.NEWGAME]}
            if bot.wants_state:
                engine = _engine_for(message.payload, engine)
                about["wants"].append("state")
            skip = [part for part, reads in (("view", bot.wants_view), ("events", listens))
                    if not reads]
            if skip:   # what it would not read is not worth sending
                about["skip"] = skip
            send(protocol.Ready(name, about))
        elif bot is None:
            raise protocol.ProtocolError("the first line must be 'agon 1 {...}'")
        elif isinstance(message, protocol.Ask):
            world = engine.load(message.state).silence() \
                if engine and message.state is not None else None
            action = bot.choose(Decision(seat, message.prompt, message.legal), message.view, world)
            send(_answer(message, action))
        elif isinstance(message, protocol.EventMsg):
            bot.event(message.payload)
        elif isinstance(message, protocol.Quit):
            return 0
    return 0


HEAD = 4 + 2 * (protocol.MAX_DIGITS + 1) + 1  # `ask ID N ` at its longest, and a byte of JSON


def _blind_act(bot: Bot, line: bytes) -> bytes | None:
    """The `act` line for an ask that `bot.choose_index` answers from its count of
    legal actions; None when it does not (or the line does not start `ask ID N `)."""
    words = line[:HEAD].split(b" ", 3)   # the JSON after them is not copied
    if len(words) < 4 or not (words[1].isdigit() and words[2].isdigit()):
        return None
    count = int(words[2])
    index = bot.choose_index(count) if count else None
    return None if index is None else b"act %d %d\n" % (int(words[1]), index)


def _answer(ask: protocol.Ask, action: str) -> protocol.Act:
    """By index when the action is listed; otherwise as text, for the referee to judge."""
    try:
        return protocol.Act(ask.id, index=ask.legal.index(action))
    except ValueError:
        return protocol.Act(ask.id, text=action)


def _engine_for(hello: dict[str, Any], built: Engine | None = None) -> Engine:
    """The engine of the hello's ruleset, to load the states a search bot is sent
    (`built`, the last game's, when it is the same ruleset).

    A shipped ruleset is named by its id; any other is copied into the bot's
    working directory, and the hello names that copy (`file`).
    """
    from agon.referee.games import engine_class
    from agon.referee.ruleset import load_ruleset

    info = hello.get("ruleset") or {}
    if built is not None and built.ruleset.sha256 == info.get("sha256"):
        return built
    copy = info.get("file")
    ruleset = load_ruleset(copy if isinstance(copy, str) and os.path.isfile(copy)
                           else str(info.get("id", "")))
    return engine_class(ruleset.engine)(ruleset)


def _seed_for(given: int | None, hello: dict[str, Any]) -> int:
    """The bot's seed for one game: --seed if given, else the hello's (the referee's
    per-game, per-seat bot seed), else fresh entropy."""
    told = hello.get("seed")
    if given is not None:
        return given
    if isinstance(told, int) and not isinstance(told, bool):
        return told
    return int.from_bytes(os.urandom(8), "big")
