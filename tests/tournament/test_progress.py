"""The progress bar an organiser watches on a terminal."""

from __future__ import annotations

import io

from agon.referee.tournament import Entrant, ProgressBar, run_tournament, setup


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_is_drawn_only_on_a_terminal():
    assert ProgressBar.wanted(Terminal())
    assert not ProgressBar.wanted(io.StringIO())


def test_the_bar_counts_games_and_resumes_from_the_journal(picks, tmp_path):
    config = setup("picks", [Entrant("a", "random"), Entrant("b", "random")], games=3, seed=2)
    journal = tmp_path / "games.jsonl"
    screen = Terminal()
    run_tournament(config, journal=journal, progress=ProgressBar(0, screen, width=12))
    frames = screen.getvalue().split("\r")
    assert frames[1].startswith("[............] 0/6 games")  # drawn before the first game
    assert frames[2].startswith("[##..........] 1/6 games")
    assert frames[-1].startswith("[############] 6/6 games")
    # a resumed run starts the bar at the games the journal already holds
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:5]))
    screen = Terminal()
    plan, rows = run_tournament(config, journal=journal, resume=True,
                                progress=ProgressBar(0, screen, width=12))
    frames = screen.getvalue().split("\r")
    assert frames[1].startswith("[########....] 4/6 games")
    assert frames[-1].startswith("[############] 6/6 games")
    assert [row["tournament"]["index"] for row in rows] == list(range(6))
