"""Silent positions: a search bot's sampled worlds build no events, and play the same game.

`State.silence()` stops an engine building events on that position and on every
copy made from it; the referee hands search bots their worlds so.  Nothing a bot
reads may change: the legal lists, the views and the result stay those of the
same game played aloud.
"""

from __future__ import annotations

import random

import pytest

from agon.bots.base import Bot
from agon.referee.engine import State
from agon.referee.games import engine_class
from agon.referee.match import run_match
from agon.referee.players import InProcessPlayer, make_player
from agon.referee.records import verify
from agon.referee.ruleset import load_ruleset

RULESETS = ["earth-and-water", "earth-and-water-solo", "city-states", "epireia", "ten-thousand"]


def started(ruleset_id: str, seed: int):
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    players = ruleset.players
    seats = engine.seats(max(int(players.get("min", 1)), min(2, int(players.get("max", 1)))))
    return engine.new_game(seats, seed, ruleset.resolve_options({})), seats


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_silenced_copy_plays_the_same_game_without_events(ruleset_id):
    loud, seats = started(ruleset_id, seed=3)
    quiet = loud.clone().silence()
    chooser = random.Random(3)
    heard = 0
    for _ in range(400):
        pending = loud.pending()
        assert [(d.seat, d.prompt, list(d.legal)) for d in pending] == \
            [(d.seat, d.prompt, list(d.legal)) for d in quiet.pending()]
        if not pending:
            break
        decision = pending[0]
        action = chooser.choice(decision.legal)
        heard += len(loud.apply(decision.seat, action))
        assert quiet.apply(decision.seat, action) == []
        assert all(loud.view(s) == quiet.view(s) for s in seats)
    assert heard > 0  # the game aloud did tell its events
    assert loud.position_json() == quiet.position_json()
    assert quiet.clone().silent and quiet.determinize(seats[0], random.Random(1)).silent
    assert not loud.clone().silent


class WorldWatcher(Bot):
    """A search bot stand-in: notes whether each world it is handed is silent."""

    name = "watcher"
    wants_state = True
    worlds: list[bool] = []

    def choose(self, decision, view, state=None):
        WorldWatcher.worlds.append(state.silent and state.clone().silent)
        return decision.legal[0]


def test_the_referee_hands_search_bots_silent_worlds_and_plays_its_own_game_aloud():
    ruleset = load_ruleset("earth-and-water")
    engine = engine_class(ruleset.engine)(ruleset)
    WorldWatcher.worlds = []
    heard = []
    players = {"persia": InProcessPlayer(WorldWatcher(1)),
               "greece": make_player("random", seed=2)}
    record = run_match(engine, players, seed=8, options={}, on_event=heard.append)
    assert record.result is not None and not record.forfeits
    assert WorldWatcher.worlds and all(WorldWatcher.worlds)
    assert len(heard) > 50   # the game itself still tells everything


@pytest.mark.parametrize("ruleset_id", RULESETS + ["epireia-solo"])
def test_a_game_nobody_listens_to_is_played_silently_and_its_record_still_verifies(
        ruleset_id, monkeypatch):
    """Built-in bots that ignore events and no watcher: the referee builds no event
    texts, and the record (actions, result, digest) is the one a replay aloud gives."""
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    seats = engine.seats(max(int(ruleset.players.get("min", 1)),
                             min(2, int(ruleset.players.get("max", 1)))))
    silenced = []
    real_silence = State.silence
    monkeypatch.setattr(State, "silence", lambda self: silenced.append(self) or
                        real_silence(self))
    for seed in range(4):
        players = {seat: make_player("random", seed=seed) for seat in seats}
        record = run_match(engine, players, seed=seed, options={}).to_json()
        checked = verify(record, ruleset, keyring=None)
        assert checked.replayed[0].ok and checked.digest.ok, checked
    assert len(silenced) == 4
