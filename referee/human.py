"""A person at the table: the board, the news, the numbered actions, and commands.

The match treats a `HumanPlayer` as it treats any `Player`, and a little
more: it is `interactive` (shown the board before each decision, never
timed), it joins the table (`join_table`: the match, for `undo`, `back`,
`save` and `map`), it shows a spinner while a bot thinks (`thinking`), and it
is told when the game is set back (`rewound`).  The screen is a `Terminal`
(rich on a terminal, plain text otherwise).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from .engine import Decision, State
from .lookup import answer, cards, contents, render_hand
from .players import Limits, Player, Resign
from .ruleset_model import Ruleset
from .takeback import Refused, Rewind
from .terminal import Terminal

if TYPE_CHECKING:
    from .match import TakeBack
    from .records import GameRecord

# Writes the record of the unfinished game; returns where it went.
RecordSaver = Callable[["GameRecord"], Path]
# Draws the position at the end of the record, as the seat may see it; returns the file.
MapDrawer = Callable[["GameRecord", str], Path]

LOG_LINES = 10  # events `log` shows without a number

HUMAN_HELP = """\
Type the number of an action, or its text (a unique beginning of it or of one of
its words is enough, in capitals or not; Tab completes).
  board          show the position again
  hand           your cards with their texts
  log [N]        the last N events you saw (default 10)
  rules QUERY    look up the rules: a section id, #N for card N, or any words
  undo           take back your last move, and the bots' replies after it
  back           take back your last choice inside the move you are making
  save           write the game so far to a file, to resume later
  map            draw the map as it stands and say where the picture is
  help           this help
  quit           resign the game (asks first; so does Ctrl-D; at the end of
                 input the game is saved and stops, as at Ctrl-C)
Ctrl-C saves the game so far and stops. Where an action has the name of a
command, the action wins: type /back for the command."""

# What a person types as a number: digits 0-9 only (str.isdigit also takes '²', which
# int() refuses), perhaps signed or with a fraction, to be told the numbers to choose from.
NUMBER = re.compile(r"[-+]?[0-9]*\.?[0-9]+")
SHOWN = 60   # characters of a line not understood that are repeated back
LOOKUP_MAX = 200   # characters of a rules query

COMMANDS = ("board", "hand", "log", "rules", "undo", "back", "save", "map", "help", "quit")


class Screen:
    """One screen that several people share (a hot seat): who looked at it last.  At a
    terminal (--plain too), the next person's turn clears it and waits for them to press
    Enter, so that nobody reads another's hand; piped, nothing can be hidden, nor is."""

    def __init__(self) -> None:
        self.seat: str | None = None


class Table(Protocol):
    """What a person may ask of the match they play in (`referee.match.Match`)."""

    def takeback(self, seat: str, within_move: bool = False) -> TakeBack: ...

    def record_so_far(self) -> GameRecord: ...


class HumanPlayer(Player):
    """A person at a terminal: sees the board, the news, the numbered legal actions."""

    interactive = True

    def __init__(self, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 rules_lookup: Callable[[str], str] | None = None, name: str = "human",
                 ruleset: Ruleset | None = None, plain: bool = False,
                 save_record: RecordSaver | None = None,
                 draw_map: MapDrawer | None = None, screen: Screen | None = None) -> None:
        self.terminal = Terminal(stdin, stdout, plain)
        self.screen = screen
        self.ruleset = ruleset
        self.rules_lookup = rules_lookup or (
            (lambda query: answer(ruleset, query)) if ruleset is not None else None)
        self.name = name
        self.save_record = save_record
        self.draw_map = draw_map
        self.table: Table | None = None
        self.seat = "?"
        self.others: list[str] = []   # the sides that play on when this seat resigns
        self.news: list[str] = []   # what happened since this seat last decided
        self.log: list[str] = []    # everything this seat saw, for `log`
        self.last_board = ""
        self.recap = ""   # after a take-back or a resume: the last event seen
        self.notes: dict[str, str] = {}
        self.view: dict[str, Any] = {}

    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "kind": "human"}

    def _say(self, text: str = "", style: str = "") -> None:
        self.terminal.say(text, style)

    # -- what the match tells a person -------------------------------------------------

    def join_table(self, table: Table) -> None:
        self.table = table

    def start(self, hello: dict[str, Any], limits: Limits | None) -> None:
        self.seat = str(hello.get("seat", "?"))
        seats = ", ".join(hello.get("seats", []))
        sides = [list(team) for team in hello["teams"].values()] if hello.get("teams") else \
            [[seat] for seat in hello.get("seats", [])]
        self.others = [" and ".join(side) for side in sides if self.seat not in side]
        self.terminal.start_editing()
        self._say(f"You play {self.seat} in {hello.get('game', '?')} (seats: {seats}). "
                  "Type help at any prompt.", "bold")

    def event(self, event: dict[str, Any]) -> None:
        text = event.get("text") or event.get("type", "")
        if text:
            self.news.append(str(text))
            self.log.append(str(text))

    def rewound(self, history: list[dict[str, Any]]) -> None:
        """The game was set back (or resumed): `history` is all this seat has seen up to now."""
        self.log = [str(e.get("text") or e.get("type", "")) for e in history]
        self.news.clear()
        self.last_board = ""
        # said at this seat's next board: on a shared screen, after it is handed over
        self.recap = self.log[-1] if self.log else ""

    @contextmanager
    def thinking(self, seat: str) -> Iterator[None]:
        """A spinner while another seat's bot decides."""
        with self.terminal.status(f"{seat} is thinking..."):
            yield

    def board(self, text: str, notes: dict[str, str] | None = None) -> None:
        self._hand_over()
        if self.recap:
            self._say("The last thing that happened: " + self.recap, "italic")
            self.recap = ""
        self._show_news()
        if text != self.last_board:   # an unchanged board is not repeated (`board` shows it)
            self.terminal.heading(f"{self.seat}: the board")
            self.terminal.board(text)
        self.last_board = text
        self.notes = dict(notes or {})

    def _hand_over(self) -> None:
        """On a screen another person used last: clear it, and wait for this one."""
        screen = self.screen
        if screen is None or screen.seat == self.seat:
            return
        before, screen.seat = screen.seat, self.seat
        if before is None or not self.terminal.screen:
            return
        self.last_board = ""   # shown again, on the clean screen
        self.terminal.clear()
        try:
            self.terminal.ask(f"{self.seat} to play: pass the keyboard to {self.seat}, "
                              "then press Enter ")
        except EOFError:   # nobody left to take it: stop, saved, as at Ctrl-C
            raise KeyboardInterrupt from None
        self.terminal.clear()

    def finish(self, result: dict[str, Any]) -> None:
        self._show_news()
        ranks = result.get("ranks", {})
        standing = ", ".join(f"{seat} {rank}" for seat, rank in sorted(ranks.items(),
                                                                        key=lambda kv: kv[1]))
        points = result.get("points") or {}
        if len(ranks) == 1 and self.seat in points:   # solo: against the rules themselves
            verdict = {1.0: "you win", 0.5: "a draw"}.get(points[self.seat], "you lose")
            self._say(f"Game over ({result.get('reason', '')}): {verdict}.", "bold")
            return
        self._say(f"Game over ({result.get('reason', '')}). Ranks: {standing}", "bold")

    # -- deciding ----------------------------------------------------------------------

    def choose(self, ask_id: int, decision: Decision, view: dict[str, Any],
               clock: dict[str, float], timeout: float, state: State | None = None) -> str:
        self.view = view
        self._show_news()
        self._show_choices(decision)
        completions = [*decision.legal, *COMMANDS, *(f"/{c}" for c in COMMANDS)]
        while True:
            try:
                reply = self.terminal.ask(f"{self.seat}> ", completions)
            except EOFError:   # Ctrl-D
                self._say()
                if self._confirm_resign():
                    raise self._resigned() from None
                continue
            action = self._understand(reply.strip(), decision)
            if action is not None:
                return action

    def _show_news(self) -> None:
        """What happened since this seat last decided, each event once."""
        if self.news:
            self._say("Since your last move:", "bold")
            for line in self.news:
                self._say(f"  {line}")
            self.news.clear()

    def _show_choices(self, decision: Decision) -> None:
        self.terminal.menu(decision.prompt or "Your move:", list(decision.legal), self.notes)

    def _understand(self, reply: str, decision: Decision) -> str | None:
        """The action `reply` names, or None after answering a command or an error."""
        legal = list(decision.legal)
        if not reply:
            return None
        if NUMBER.fullmatch(reply):
            number = _count(reply)
            if number is not None and 1 <= number <= len(legal):
                return legal[number - 1]
            self.terminal.error(f"Choose a number from 1 to {len(legal)}.")
            return None
        if reply in legal:   # an action wins over a command of the same name
            return reply
        word, _, rest = reply.removeprefix("/").partition(" ")
        if word in COMMANDS and (word in ("rules", "log") or not rest):
            self._command(word, rest.strip(), decision)
            return None
        starting = _meant(reply, legal)
        if len(starting) == 1:
            return starting[0]
        if starting:
            self._say("That could be: " + "; ".join(starting))
        else:
            self.terminal.error(f"{_shown(reply)} is not a legal action here; type help.")
        return None

    # -- commands ----------------------------------------------------------------------

    def _command(self, word: str, rest: str, decision: Decision) -> None:
        if word == "quit":
            if self._confirm_resign():
                raise self._resigned()
        elif word == "help":
            self._say(HUMAN_HELP)
        elif word == "board":
            self.terminal.board(self.last_board or "(no board to show)")
            self._show_choices(decision)
        elif word == "rules":
            self._say(self._rules(rest))
        elif word == "hand":
            self._say(self._hand())
        elif word == "log":
            self._show_log(rest)
        elif word in ("undo", "back"):
            self._take_back(word)
        elif word == "save":
            self._save()
        elif word == "map":
            self._map()

    def _confirm_resign(self) -> bool:
        """Ask before resigning.  At the end of input nobody is left to answer: the game
        stops as at Ctrl-C (KeyboardInterrupt: `agon play` saves it), rather than
        resign a game, perhaps a resumed one, for somebody who did not say so."""
        try:
            reply = self.terminal.ask("Resign the game? Type y to resign, anything else "
                                      "to play on: ")
        except EOFError:
            self._say()
            raise KeyboardInterrupt from None
        if reply.strip().lower() in ("y", "yes"):
            return True
        self._say("Playing on.")
        return False

    def _resigned(self) -> Resign:
        """With three sides or more the others play on after a resignation, bots and all,
        which may take minutes: the person is told, not left before a silent screen."""
        if len(self.others) >= 2:
            self._say(f"You resign and rank last. {', '.join(self.others)} play on to the "
                      f"end (your seat's moves are made for it); the result follows.")
        return Resign(self.seat)

    def _rules(self, query: str) -> str:
        if self.rules_lookup is None:
            return "No rules are available for this game."
        if not query:
            return self._contents()
        if len(query) > LOOKUP_MAX:   # no section or card is named so long: a slip
            return f"Too long to look up ({len(query)} characters): type a section id, #N " \
                   "or a few words."
        try:
            return self.rules_lookup(query)
        except Exception as err:  # a failed lookup must not end the game
            return f"Rules lookup failed: {err}"

    def _contents(self) -> str:
        """`rules` alone: the sections (the cards as a range), as a lookup that finds
        nothing advises; it only said to run `agon rules` elsewhere."""
        how = "Type rules and what to look up: a section id (7.1), #N for card N, or any words."
        if self.ruleset is None:
            return how
        numbered = cards(self.ruleset.rules)
        sections = [(s["id"], s["title"]) for s in contents(self.ruleset) if s not in numbered]
        if numbered:
            numbers = sorted(s["number"] for s in numbered)
            sections.append(("#N", f"cards {numbers[0]} to {numbers[-1]}"))
        width = max((len(key) for key, _ in sections), default=0)
        return "\n".join([how, *(f"  {key:<{width}}  {title}" for key, title in sections)])

    def _hand(self) -> str:
        hand = self.view.get("hand")
        if not isinstance(hand, list):
            return "You hold no cards in this game."
        if self.ruleset is None:
            return "Your hand: " + ", ".join(map(str, hand))
        return render_hand(self.ruleset, hand)

    def _show_log(self, count: str) -> None:
        number = _count(count) if count else LOG_LINES
        if not number:
            self.terminal.error("log takes a number of events: log 20")
            return
        lines = self.log[-number:]
        if not lines:
            self._say("Nothing has happened yet.")
        for line in lines:
            self._say(f"  {line}")

    def _take_back(self, word: str) -> None:
        if self.table is None:
            self.terminal.error("Nothing can be taken back here.")
            return
        try:
            plan = self.table.takeback(self.seat, within_move=word == "back")
        except Refused as refused:
            self.terminal.error(f"Cannot {word}: {refused}")
            return
        undone = "; ".join(f"{seat} {action}" for seat, action in plan.undone)
        self._say(f"Taking back {len(plan.undone)} move(s): {undone}", "yellow")
        raise Rewind(plan.to)

    def _save(self) -> None:
        if self.table is None or self.save_record is None:
            self.terminal.error("Saving is not available here.")
            return
        try:
            path = self.save_record(self.table.record_so_far())
        except OSError as err:
            self.terminal.error(f"Could not save the game: {err}")
            return
        self._say(f"Saved the game so far to {path}; `agon play --resume {path}` "
                  "continues it.", "green")

    def _map(self) -> None:
        if self.table is None or self.draw_map is None:
            self.terminal.error("Maps are not available here.")
            return
        try:
            path = self.draw_map(self.table.record_so_far(), self.seat)
        except Exception as err:   # a picture that fails must not end the game
            self.terminal.error(f"Could not draw the map: {err}")
            return
        self._say(f"The map as it stands: {path}", "green")


def _meant(reply: str, legal: list[str]) -> list[str]:
    """The actions `reply` may name: those it begins, else those it begins in any case,
    else those with a word it begins in any case (`menon` for `leader menon`, `athens`
    for `roll athens`: a newcomer types the name that differs, not the verb)."""
    low = reply.lower()
    word = re.compile(r"(?:^|[\s_])" + re.escape(low))
    return ([a for a in legal if a.startswith(reply)]
            or [a for a in legal if a.lower().startswith(low)]
            or [a for a in legal if word.search(a.lower())])


def _count(text: str) -> int | None:
    """The whole number `text` names (ASCII digits, not absurdly long), else None."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 9 else 1_000_000_000


def _shown(reply: str) -> str:
    """A line not understood, repeated back: quoted with its control characters
    escaped, bytes that are not UTF-8 as �, and cut short."""
    text = reply.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "...")
