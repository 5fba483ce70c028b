"""A view is the caller's to keep: editing it never edits the game.

A researcher's notebook or a bot may reshape the dict `view(seat)` returns
(drop keys, sort a list, fill in guesses); the position must not move with it,
in every shipped ruleset, at positions spread over a game.
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
