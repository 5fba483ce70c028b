"""Where a person reads and types: colour and layout with rich, or plain text.

`Terminal` is all the human player knows of the screen.  On a terminal it
draws with rich (headings, colours, menus in columns, a spinner while a bot
thinks) and reads lines with the standard library's readline (history, and
tab completion of the actions and commands).  With ``plain``, or whenever
stdout is not a terminal (a pipe, a file, a test), it writes plain text and
nothing else: no colour codes, no spinner, no cursor movement.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:   # rich is imported only when a screen is drawn
    from rich.console import Console
    from rich.text import Text

COLUMNS_FROM = 12       # actions in a menu before it is laid out in columns
NUMBER = re.compile(r"(?<![\w-])[+-]?\d+(?:\.\d+)?(?![\w-])")


def is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):   # a closed or fake stream
        return False


class Terminal:
    """Output and input for one person."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 plain: bool = False) -> None:
        self.stdin = stdin or sys.stdin
        _undecodable_kept(self.stdin)
        self.stdout = stdout or sys.stdout
        self.screen = is_terminal(self.stdout)   # a person looks at it (plain or not)
        self.plain = plain or not self.screen
        self.console = None if self.plain else _rich_console(self.stdout)
        # readline edits the lines of input() only: the real stdin, on a terminal
        self.editing = (self.stdin is sys.stdin and self.stdout is sys.stdout
                        and is_terminal(self.stdin) and _readline() is not None)
        self.completions: list[str] = []

    # -- output ------------------------------------------------------------------------

    def say(self, text: str = "", style: str = "") -> None:
        """A line (or several) of text; `style` is a rich style, ignored when plain."""
        if self.console is None:
            self.stdout.write(text + "\n")
            self.stdout.flush()
            return
        from rich.text import Text

        self.console.print(self._folded(Text(text, style=style)), soft_wrap=True)

    def _folded(self, text: Text, under: int | None = None) -> Text:
        """Each line of `text` (a rich Text) folded at spaces to the screen's width, its
        continuation indented to column `under` (default: two more than the line): a
        narrow terminal cut words in two and ran them on from the left edge, where they
        read as a line of their own."""
        from rich.text import Text

        lines = []
        for line in text.split("\n", allow_blank=True):
            indent = under if under is not None else len(line.plain) - len(line.plain.lstrip()) + 2
            lines.extend(_fold(self.console, line, indent))
        return Text("\n").join(lines)

    def error(self, text: str) -> None:
        self.say(text, "bold red")

    def heading(self, text: str) -> None:
        if self.console is None:
            self.say(text)
        else:
            self.console.rule(f"[bold]{_escape(text)}", align="left", style="blue")

    def board(self, text: str) -> None:
        """The position: numbers stand out; a line wider than the screen is folded
        between words, never cut."""
        if self.console is None:
            self.say(text)
            return
        from rich.text import Text

        shown = Text(text)
        shown.highlight_regex(NUMBER, "cyan")
        self.console.print(self._folded(shown), soft_wrap=True)

    def menu(self, prompt: str, actions: Sequence[str], notes: dict[str, str]) -> None:
        """The numbered legal actions, each with its note (a cost, a strength) if any."""
        lines = [f"  {number:>3}. {action}" + (f"   ({notes[action]})" if action in notes else "")
                 for number, action in enumerate(actions, 1)]
        if self.console is None:
            self.say(prompt)
            for line in lines:
                self.say(line)
            return
        from rich.columns import Columns
        from rich.text import Text

        self.say(prompt, "bold")
        items = []
        for number, action in enumerate(actions, 1):
            item = Text.assemble((f"{number:>3}. ", "bold cyan"), action)   # 5 columns
            if action in notes:
                item.append(f"   {notes[action]}", "dim")
            items.append(item)
        if len(items) >= COLUMNS_FROM and not notes:
            self.console.print(Columns(items, padding=(0, 3)))
        else:
            for item in items:
                self.console.print(self._folded(item, under=5), soft_wrap=True)

    def clear(self) -> None:
        """Wipe the screen and its scrollback (a terminal only, --plain too: it hides a
        hand from the next person, it is no decoration)."""
        if self.screen:
            self.stdout.write("\x1b[H\x1b[2J\x1b[3J")
            self.stdout.flush()

    @contextlib.contextmanager
    def status(self, text: str) -> Iterator[None]:
        """A spinner with `text` while the block runs (nothing when plain)."""
        if self.console is None:
            yield
            return
        with self.console.status(text, spinner="dots"):
            yield

    # -- input -------------------------------------------------------------------------

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str:
        """One line typed by the person, without its newline.

        Raises EOFError at the end of input (Ctrl-D); Ctrl-C raises
        KeyboardInterrupt, as ever.
        """
        self.completions = list(completions)
        if self.editing:
            return input(prompt)
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    def start_editing(self) -> None:
        """Line editing, history and tab completion of `completions` (a terminal only)."""
        readline = _readline()
        if not self.editing or readline is None:
            return
        readline.set_completer_delims("")   # complete the whole line: actions have spaces
        readline.set_completer(self._complete)
        readline.parse_and_bind("tab: complete")

    def _complete(self, text: str, state: int) -> str | None:
        matches = [c for c in self.completions if c.startswith(text)]
        return matches[state] if state < len(matches) else None


def _fold(console: Console, line: Text, indent: int) -> list[Text]:
    """One line (a rich Text) folded at spaces to the console's width, the lines after
    the first indented by `indent`; as it is when it fits, or when the screen is too
    narrow for an indent."""
    width = console.width
    if line.cell_len <= width or width - indent < 20:
        return [line]
    first = line.wrap(console, width)[0]
    start = len(first.plain)
    while line.plain[start:start + 1] == " ":   # the spaces at the fold go
        start += 1
    rest = list(line[start:].wrap(console, width - indent))
    for part in rest:
        part.pad_left(indent)
    for part in (first, *rest):
        part.rstrip()
    return [first, *rest]


def _undecodable_kept(stdin: IO[str]) -> None:
    """Bytes typed that are not UTF-8 (a paste, a stray key) are read as lone surrogates,
    to be refused as any unknown text is: a strict stdin (PYTHONIOENCODING=utf-8, or any
    UTF-8 locale but C's) raised UnicodeDecodeError and the game was lost.  input()
    decodes with the same settings."""
    reconfigure = getattr(stdin, "reconfigure", None)
    if reconfigure is not None and getattr(stdin, "errors", None) == "strict":
        with contextlib.suppress(ValueError, OSError):   # closed, or mid-read
            reconfigure(errors="surrogateescape")


def _rich_console(stdout: IO[str]):
    from rich.console import Console

    return Console(file=stdout, highlight=False, emoji=False)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _readline():
    try:
        import readline
    except ImportError:   # Windows has none; typing still works
        return None
    return readline
