"""The progress line an organiser watches on a terminal: count, rate, time left, leader."""

from __future__ import annotations

import io
import re

from rich.console import Console

from agon.referee.progress import ProgressLine
from agon.referee.tournament import Entrant, run_tournament, setup


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def line_on(screen: io.StringIO) -> ProgressLine:
    console = Console(file=screen, force_terminal=True, width=120, color_system=None)
    return ProgressLine(console=console, width=12)


def frames(screen: io.StringIO) -> list[str]:
    """The texts drawn, one per redraw (rich moves the cursor back between them)."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "\n", screen.getvalue())
    return [line.strip() for line in text.splitlines() if "games" in line]


def test_the_line_is_drawn_only_on_a_terminal():
    assert ProgressLine.wanted(Terminal())
    assert not ProgressLine.wanted(io.StringIO())


def test_the_line_counts_games_shows_a_rate_and_the_leader_and_resumes(picks, tmp_path):
    config = setup("picks", [Entrant("a", "random"), Entrant("b", "random")], games=3, seed=2)
    journal = tmp_path / "games.jsonl"
    screen = io.StringIO()
    plan, rows = run_tournament(config, journal=journal, progress=line_on(screen))
    drawn = frames(screen)
    assert drawn[0].startswith("0/6 games") or "0/6 games" in drawn[0]  # before any game
    last = drawn[-1]
    assert "6/6 games" in last and "games/s" in last and "ETA" not in last  # done: no ETA
    points = {"a": 0.0, "b": 0.0}
    for row in rows:
        for seat, bot in row["tournament"]["seating"].items():
            points[bot] += row["result"]["points"][seat]
    best = max(points, key=points.get)
    assert f"leader {best} {100 * points[best] / 6:.1f}%" in last
    # a resumed run starts at the games the journal already holds
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:5]))
    screen = io.StringIO()
    plan, rows = run_tournament(config, journal=journal, resume=True, progress=line_on(screen))
    drawn = frames(screen)
    assert "4/6 games" in drawn[0] and "6/6 games" in drawn[-1]
    assert [row["tournament"]["index"] for row in rows] == list(range(6))


def test_a_running_line_shows_the_time_left_from_the_rate():
    screen = io.StringIO()
    line = line_on(screen)
    line.start(100, "duel")
    line.started -= 10.0  # ten seconds ago
    line.done = 20  # 2 games/s: 80 games left take 40 s
    line._live.refresh()
    assert "20/100 games" in frames(screen)[-1] and "2.0 games/s" in frames(screen)[-1]
    assert "ETA 0:40" in frames(screen)[-1]
    line.close("interrupted")
    assert "interrupted" in frames(screen)[-1] and "ETA" not in frames(screen)[-1]
