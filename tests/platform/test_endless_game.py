"""A custom ruleset whose game never ends is stopped with a message, not left to run.

No check of a ruleset can prove that its every game ends; the referee stops
one still going after `MOST_ACTIONS` actions.  The cap is lowered here so that
an ordinary game stands for an endless one.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from agon.cli.main import app
from agon.referee import match
from agon.referee.games import engine_class
from agon.referee.match import run_match
from agon.referee.players import make_player
from agon.referee.ruleset import load_ruleset

E_W = ["earth-and-water", "-s", "persia=random", "-s", "greece=random", "--seed", "3"]


@pytest.fixture
def cap_of_30(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match, "MOST_ACTIONS", 30)


def test_a_long_shipped_game_plays_to_its_end_under_the_cap() -> None:
    """A 6-player City States game, the longest kind the shipped games have (thousands
    of actions), is not cut short."""
    ruleset = load_ruleset("city-states")
    engine = engine_class(ruleset.engine)(ruleset)
    seats = engine.seats(6)
    players = {seat: make_player("random", seed=n) for n, seat in enumerate(seats)}
    record = run_match(engine, players, seed=7, options={})
    assert record.result is not None and len(record.actions) > 2_000


def test_play_stops_a_game_that_does_not_end_and_says_which_ruleset(cap_of_30: None) -> None:
    played = CliRunner().invoke(app, ["play", *E_W, "-q"])
    assert played.exit_code == 1, played.output
    assert "the game did not end within 30 actions" in played.output
    assert "earth-and-water.yaml" in played.output
    assert "Traceback" not in played.output and "internal error" not in played.output


def test_a_tournament_lists_the_endless_games_under_errors_and_goes_on(
        cap_of_30: None, tmp_path) -> None:
    journal = tmp_path / "j.jsonl"
    played = CliRunner().invoke(app, ["tournament", "earth-and-water", "-b", "random",
                                      "-b", "other=random", "--games", "1",
                                      "--out", str(journal)])
    assert played.exit_code == 1, played.output
    errors = played.output.split("Errors")[1]
    assert errors.count("did not end within 30 actions") == 2   # both seatings
    assert "2 game(s) could not be refereed" in played.output
    assert len(journal.read_text().splitlines()) == 3   # the header and both games, kept
