"""The lines a referee exchanged with one bot: the last few, and the game's transcript.

Two readers want them: error reports quote the last lines (`Transcript.recent`,
each cut short), and ``<seat>.transcript`` holds a whole game's (up to a byte
cap).  A tournament keeps every game's transcript in memory until the game
ends, and writes it only when the game turned out notable; so noting a line
is on the referee's hot path (two lines per ask) and keeps the line as it is,
no copy, no join: lines are cut short and joined when they are read.
"""

from __future__ import annotations

from collections import deque

RECENT = 40  # lines kept for error reports
CLIPPED = 500  # bytes of a line kept in `recent`
SENT, RECEIVED = ">", "<"


def clipped(line: bytes) -> bytes:
    """`line` cut to CLIPPED bytes, saying how long it was."""
    return line[:CLIPPED] + b"... (%d bytes)" % len(line)


class Transcript:
    """The lines sent to and received from one bot; with `whole`, all of a game's (up to
    `cap` bytes as written: ``> sent`` and ``< received`` lines) until `clear`."""

    def __init__(self, cap: int, whole: bool = False) -> None:
        self.cap = cap
        self.whole = whole
        self._recent: deque[tuple[str, bytes]] = deque(maxlen=RECENT)
        self._lines: list[tuple[str, bytes]] = []  # the transcript's, as noted
        self._size = 0  # bytes of `_lines` as written
        self._cut = b""  # the part of the first line past the cap that still fits
        self._dropped = 0  # bytes past the cap

    def sent(self, line: bytes) -> None:
        """Note a line sent, given with its newline."""
        size = len(line)
        entry = (SENT, line)
        # a line as long as the protocol allows is not kept 40 times over
        self._recent.append(entry if size <= CLIPPED + 1 else (SENT, clipped(line[:-1])))
        if self.whole:   # (inline in both: two lines noted an ask)
            if self._size + size + 2 <= self.cap:
                self._size += size + 2
                self._lines.append(entry)
            else:
                self._overflow(_written(entry))

    def received(self, line: bytes) -> None:
        """Note a line received, given without its newline."""
        size = len(line)
        entry = (RECEIVED, line)
        self._recent.append(entry if size <= CLIPPED else (RECEIVED, clipped(line)))
        if self.whole:
            if self._size + size + 3 <= self.cap:
                self._size += size + 3
                self._lines.append(entry)
            else:
                self._overflow(_written(entry))

    def _overflow(self, text: bytes) -> None:
        taken = text[:max(self.cap - self._size, 0)]
        self._cut += taken
        self._size += len(taken)
        self._dropped += len(text) - len(taken)

    def recent(self) -> list[tuple[str, bytes]]:
        """The last lines noted, oldest first: (">", sent) or ("<", received), without
        their newline, each cut to CLIPPED bytes."""
        return [(kind, line[:-1] if line.endswith(b"\n") else line)
                for kind, line in self._recent]

    def transcript(self) -> bytes:
        """The lines noted since `clear`, as ``<seat>.transcript`` holds them; past the cap,
        a line says how much was dropped."""
        text = b"".join(map(_written, self._lines)) + self._cut
        if self._dropped:
            text += (f"\n[agon: transcript cut at {self.cap} bytes; "
                     f"{self._dropped} more bytes dropped]\n").encode()
        return text

    def clear(self) -> None:
        """Start the next game's transcript (the recent lines stay)."""
        self._lines.clear()
        self._size = self._dropped = 0
        self._cut = b""


def _written(entry: tuple[str, bytes]) -> bytes:
    kind, line = entry
    return b"> " + line if kind == SENT else b"< " + line + b"\n"
