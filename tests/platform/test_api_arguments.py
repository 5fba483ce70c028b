"""The Python API's bad arguments: a ValueError that says what is allowed, before any game."""

from __future__ import annotations

import json
import math
import re

import pytest

import agon

E_W = "earth-and-water"


@pytest.mark.parametrize("limit, value", [("move_time", math.nan), ("move_time", -1.0),
                                          ("game_time", math.inf), ("game_time", 1e300),
                                          ("move_time", 0)])
def test_a_time_limit_is_a_number_of_seconds_above_0_and_at_most_a_week(limit, value):
    expected = re.escape(f"{limit} takes a number of seconds above 0 (at most 604800), not {value!r}")
    with pytest.raises(ValueError, match=expected):
        agon.play(E_W, ["random", "random"], seed=1, **{limit: value})
    with pytest.raises(ValueError, match=expected):
        agon.tournament(E_W, ["random", "greedy"], games=1, **{limit: value})


def test_a_tournament_too_large_to_plan_is_refused_before_the_plan_is_made():
    with pytest.raises(ValueError, match=re.escape("games=5000001 plans 10,000,002 games")):
        agon.tournament(E_W, ["random", "greedy"], games=5_000_001)


@pytest.fixture(scope="module")
def record() -> dict:
    return agon.play(E_W, ["random", "random"], seed=3).to_json()


@pytest.mark.parametrize("named", [{"id": "../../etc/passwd"}, {"id": "/etc/passwd"},
                                   {"id": "x", "source": "/etc/passwd"}])
def test_replay_reads_the_ruleset_a_record_names_only_by_id_or_in_allowed_folders(
        record, named):
    """A record may come from anyone: its ruleset id is not a path (as in `agon replay`)."""
    with pytest.raises(agon.RulesetError) as caught:
        agon.replay({**record, "ruleset": named})
    assert "passwd" not in str(caught.value)   # never opened, never quoted


def test_replay_of_a_record_file_finds_the_ruleset_beside_it(tmp_path, record):
    (tmp_path / "game.json").write_text(json.dumps(record))
    assert agon.replay(tmp_path / "game.json")["replays"]


@pytest.mark.parametrize("call, message", [
    (lambda: agon.new_game(E_W, seed="x"), "seed is a whole number, not 'x'"),
    (lambda: agon.new_game(E_W, seed=1.5), "seed is a whole number, not 1.5"),
    (lambda: agon.new_game(E_W, players="2"), "players is a whole number, not '2'"),
    (lambda: agon.play(E_W, ["random", "random"], seed="abc"), "seed is a whole number"),
    (lambda: agon.tournament(E_W, ["random", "greedy"], games="2"), "games is a whole number"),
])
def test_counts_and_seeds_are_whole_numbers(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_a_log_dir_that_is_a_file_is_refused(tmp_path):
    taken = tmp_path / "logs"
    taken.write_text("")
    with pytest.raises(ValueError, match="log_dir .* is a file, not a folder"):
        agon.play(E_W, ["random", "random"], seed=1, log_dir=taken)
