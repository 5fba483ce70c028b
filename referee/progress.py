"""The progress line an organiser watches: games done, rate, time left, current leader.

    ━━━━━━━━━━━━━━━━╸            120/400 games  85.3 games/s  ETA 0:03  leader r1 61.2%

Drawn with rich on stderr, only when stderr is a terminal.  It is redrawn
from the main loop (no thread of its own) at most a few times a second; the
per-game cost is a counter and a list append, and the leader is worked out
from the new games only when the line is drawn.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from typing import IO, Any

from rich.console import Console
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from .outcomes import game_outcomes

REDRAW_EVERY = 0.2  # seconds


class ProgressLine:
    """The live line for one tournament run; `start`, `advance` per game, `close`."""

    def __init__(self, stream: IO[str] | None = None, *, width: int = 30,
                 console: Console | None = None) -> None:
        self.console = console or Console(file=stream or sys.stderr)
        self.width = width
        self.kind = "duel"
        self.total = self.done = self.resumed = 0
        self.started = time.monotonic()
        self.drawn = 0.0
        self.note = ""
        self.points: dict[str, float] = {}
        self.games: dict[str, int] = {}
        self._unseen: list[dict[str, Any]] = []
        self._live: Live | None = None

    @staticmethod
    def wanted(stream: IO[str] | None = None) -> bool:
        stream = stream or sys.stderr
        return hasattr(stream, "isatty") and stream.isatty()

    def start(self, total: int, kind: str, finished: Iterable[dict[str, Any]] = ()) -> None:
        """Begin at the games a resumed journal already holds."""
        self.total, self.kind = total, kind
        self._unseen.extend(finished)
        self.done = self.resumed = len(self._unseen)
        self.started = time.monotonic()
        self._live = Live(self, console=self.console, auto_refresh=False, transient=False)
        self._live.start(refresh=True)

    def advance(self, row: dict[str, Any]) -> None:
        self.done += 1
        self._unseen.append(row)
        now = time.monotonic()
        if now - self.drawn >= REDRAW_EVERY and self._live is not None:
            self.drawn = now
            self._live.refresh()

    def close(self, note: str = "") -> None:
        """Draw the last state (with `note`, e.g. why it stopped) and end the line."""
        self.note = note
        if self._live is not None:
            self._live.refresh()
            self._live.stop()
            self._live = None

    # -- drawing -----------------------------------------------------------------------

    def rate(self) -> float | None:
        """Games per second in this run."""
        elapsed = time.monotonic() - self.started
        played = self.done - self.resumed
        return played / elapsed if played and elapsed > 0 else None

    def leader(self) -> tuple[str, float] | None:
        """The bot with the best score so far, and its score (mean points)."""
        for row in self._unseen:
            if "error" in row:
                continue
            for outcome in game_outcomes(row, self.kind):
                self.points[outcome.bot] = self.points.get(outcome.bot, 0.0) + outcome.points
                self.games[outcome.bot] = self.games.get(outcome.bot, 0) + 1
        self._unseen.clear()
        if not self.games:
            return None
        best = max(self.games, key=lambda bot: self.points[bot] / self.games[bot])
        return best, self.points[best] / self.games[best]

    def __rich__(self) -> Table:
        line = Table.grid(padding=(0, 2))
        words = [f"{self.done}/{self.total} games"]
        rate = self.rate()
        if rate:
            words.append(f"{rate:.1f} games/s")
            left = int((self.total - self.done) / rate)
            if self.done < self.total and not self.note:
                words.append(f"ETA {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
                             if left >= 3600 else f"ETA {left // 60}:{left % 60:02d}")
        leader = self.leader()
        if leader:
            words.append(f"leader {leader[0]} {100 * leader[1]:.1f}%")
        if self.note:
            words.append(self.note)
        line.add_row(ProgressBar(total=max(self.total, 1), completed=self.done,
                                 width=self.width), Text("  ".join(words)))
        return line
