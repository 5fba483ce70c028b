"""A view and an event's data are the caller's to keep: editing them never edits the game.

A researcher's notebook or a bot may reshape the dict `view(seat)` returns
(drop keys, sort a list, fill in guesses) or an event's `data` (sort the dice);
the position must not move with it, in every shipped ruleset, over a game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset

from .conftest import SHIPPED

PLIES = 300
EVERY = 25


def scribble(value: Any) -> None:
    """Overwrite every leaf of a view and grow every list and dict in it."""
    if isinstance(value, dict):
        for key, item in list(value.items()):
            if isinstance(item, dict | list):
                scribble(item)
            else:
                value[key] = "edited"
        value["edited"] = True
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, dict | list):
                scribble(item)
            else:
                value[i] = "edited"
        value.append("edited")


def position(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_editing_a_view_leaves_the_game_as_it_was(ruleset_id):
    rs = load_ruleset(ruleset_id)
    engine = engine_class(rs.engine)(rs)
    seats = engine.seats(rs.default_players())
    state = engine.new_game(seats, 4242, rs.resolve_options({}))
    chooser = random.Random(4242)
    leaks = []
    for ply in range(PLIES):
        pending = state.pending()
        if ply % EVERY == 0 or not pending:
            before = position(state)
            for seat in seats:
                scribble(state.view(seat))
            if position(state) != before:
                leaks.append(f"ply {ply}")
        if not pending:
            break
        decision = pending[0]
        state.apply(decision.seat, chooser.choice(decision.legal))
    assert not leaks, f"editing a view edited the {ruleset_id} game at " + ", ".join(leaks)


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_editing_an_events_data_leaves_the_game_as_it_was(ruleset_id):
    """Ten Thousand's roll events held the roll's own dice (a sorted or edited list
    changed the roll), Epireia's the battle's tokens and the enemy's cities."""
    rs = load_ruleset(ruleset_id)
    engine = engine_class(rs.engine)(rs)
    state = engine.new_game(engine.seats(rs.default_players()), 4242, rs.resolve_options({}))
    chooser = random.Random(4242)
    events = state.setup_events()
    leaks = []
    for ply in range(PLIES):
        before = position(state)
        for event in events:
            scribble(event.data)
        if position(state) != before:
            leaks.append(f"ply {ply} ({', '.join(sorted({e.type for e in events}))})")
        pending = state.pending()
        if not pending:
            break
        events = state.apply(pending[0].seat, chooser.choice(pending[0].legal))
    assert not leaks, f"editing events edited the {ruleset_id} game at " + ", ".join(leaks)
