"""Shared fixtures: the shipped engine, loaded dice and a position builder."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from agon.referee.games.ten_thousand import TenThousandEngine
from agon.referee.games.ten_thousand.army import Turn
from agon.referee.ruleset import load_ruleset


class LoadedDice:
    """Stands in for a seat's dice stream: rolls the given faces in order, then `then`.

    Tests look at the position while the next roll's window is open, so the
    filler faces after the loaded ones never decide what a test asserts.
    """

    def __init__(self, faces: list[int], then: int = 3) -> None:
        self.faces = list(faces)
        self.then = then

    def randint(self, low: int, high: int) -> int:
        face = self.faces.pop(0) if self.faces else self.then
        assert low <= face <= high
        return face


@pytest.fixture(scope="session")
def engine() -> TenThousandEngine:
    return TenThousandEngine(load_ruleset("ten-thousand"))


def play_random(engine: TenThousandEngine, players: int, seed: int, options=None):
    """Play one game with uniformly random choices; returns (state, actions)."""
    state = engine.new_game(engine.seats(players), seed, options or {})
    chooser = random.Random(seed)
    actions = []
    while state.pending():
        decision = state.pending()[0]
        action = chooser.choice(decision.legal)
        actions.append((decision.seat, action))
        state.apply(decision.seat, action)
    return state, actions


@pytest.fixture
def position(engine):
    """Build a position: p1 to move at `phase`, with hands, tokens and dice chosen.

    `route` / `weather` name the rows already rolled this turn.  Each seat's
    dice are loaded from `dice` (seat -> faces; a plain list means p1).
    """

    def build(players: int = 1, phase: str = "route", hands=None, tokens=None, dice=(),
              leaders=None, route: str | None = None, weather: str | None = None,
              flags=(), space: int = 1, men: int = 10000, options=None, deck=None):
        rules = engine.rules
        state = engine.new_game(engine.seats(players), 7, options or {})
        state.order = list(state.seats)
        state.leader_queue = []
        state.asking = None
        faces = dice if isinstance(dice, dict) else {"p1": list(dice)}
        for seat, army in state.armies.items():
            army.leader = (leaders or {}).get(seat, "none")
            army.hand = list((hands or {}).get(seat, []))
            army.men = men if seat == "p1" else army.men
            army.space = space if seat == "p1" else army.space
            army.tokens.update((tokens or {}).get(seat, {}))
            state.rngs[f"dice:{seat}"] = LoadedDice(faces.get(seat, []))
        if deck is not None:
            state.deck = list(deck)
        leader = state.leader("p1")
        turn = Turn(seat="p1", start_space=space, rerolls_left=leader.rerolls_per_turn,
                    adjusts_left=leader.adjusts_per_turn, order=list(state.seats))
        turn.phase = [p["id"] for p in rules.phases].index(phase)
        for table_id, name in (("route", route), ("weather", weather)):
            if name:
                rows = rules.tables[table_id].rows
                index = [r["result"] for r in rows].index(name)
                turn.rows[table_id] = index
                turn.flags.extend(rows[index].get("flags", []))
                state.armies["p1"].next_turn_flags.extend(rows[index].get("next_turn_flags", []))
        turn.flags.extend(flags)
        state.turn = turn
        state.step = "phase"
        state.resume()
        return state

    return build


def pass_until(state, table: str, seat: str | None = None):
    """Answer "pass" until the window of `table` is open and asks `seat` (default roller)."""
    for _ in range(200):
        w = state.window
        if w and w.table == table and (seat is None or state.pending()[0].seat == seat):
            return state
        decision = state.pending()[0]
        state.apply(decision.seat, "pass" if "pass" in decision.legal else decision.legal[-1])
    raise AssertionError(f"no {table} window came")


def result_event(events, table: str):
    found = [e for e in events if e.type == "result" and e.data.get("table") == table]
    assert found, f"no {table} result among {[e.text for e in events]}"
    return found[-1]


@pytest.fixture(scope="session")
def tt():
    """Helpers for the tests (conftest is not importable under importlib mode)."""
    return SimpleNamespace(play_random=play_random, pass_until=pass_until,
                           result_event=result_event, LoadedDice=LoadedDice)
