"""Fixtures for the City States tests: the engine, a position builder, loaded dice."""

from __future__ import annotations

from typing import Any

import pytest

from agon.referee.games.city_states import CityStatesEngine
from agon.referee.ruleset import load_ruleset


@pytest.fixture(scope="session")
def engine() -> CityStatesEngine:
    return CityStatesEngine(load_ruleset("city-states"))


class Board:
    """Builds positions: homes chosen, then the map emptied and pieces placed by name.

    `units` maps a space id to (player index, {"army": 2, "fleet": 1, ...}).
    Dice are loaded with `state.rigged` (faces used before the dice stream).
    """

    def __init__(self, engine: CityStatesEngine) -> None:
        self.engine = engine

    def game(self, players: int = 3, seed: int = 1, options: dict | None = None,
             homes: tuple[str, ...] = ("athens", "sparta", "troy", "crete", "thrace", "doria")):
        """A game right after setup, homes chosen in seat order (p1 first)."""
        state = self.engine.new_game(self.engine.seats(players), seed, options or {})
        state.order = list(range(players))
        state.wait("home", 0)
        for p in range(players):
            state.apply(state.seats[p], f"home {homes[p]}")
        return state

    def empty(self, players: int = 3, seed: int = 1, options: dict | None = None,
              homes: tuple[str, ...] = ("athens", "sparta", "troy", "crete", "thrace", "doria"),
              units: dict[str, tuple[int, dict[str, int]]] | None = None,
              owners: dict[str, int] | None = None, gold: int = 20, active: int = 0,
              hands: dict[int, list[str]] | None = None, traits: bool = False):
        """A game after setup with nothing on the map but what `units` and `owners` say.

        Homes stay owned by their players; leaders and hands are gone (see add_leader),
        traits too unless `traits`; every player has `gold`.
        """
        s = self.game(players, seed, options, homes)
        t = s.t
        n = t.n
        for name in ("arm", "row", "flt", "trn", "bag", "starve", "razed", "mv_arm", "mv_row",
                     "mv_flt", "mv_trn"):
            setattr(s, name, [0] * n)
        s.occ = [-1] * n
        s.hostile = [False] * n
        s.owner = [-1] * n
        s.mtrait = [""] * n
        for p in range(players):
            s.owner[s.home[p]] = p
            if not traits:
                s.traits[p] = []
        for key in ("l_owner", "l_space", "l_state", "l_name", "l_skills", "l_back", "l_lost",
                    "l_moved"):
            setattr(s, key, [])
        for space, p in (owners or {}).items():
            s.owner[t.index[space]] = p
        for space, (p, pieces) in (units or {}).items():
            self.place(s, space, p, **pieces)
        s.gold = [gold] * players
        s.hands = [[] for _ in range(players)]
        for p, cards in (hands or {}).items():
            s.hands[p] = [t.card_by_id[c] for c in cards]
        used = {c for hand in s.hands for c in hand}
        s.deck = [c for c in t.card_numbers if c not in used]
        s.discard = []
        s.active = active
        s.cur = s.order.index(active)
        s.turn = 1
        s.stack = []
        s.events = []
        s._pending = None
        return s

    @staticmethod
    def place(s, space: str, p: int, **pieces: int) -> None:
        i = s.t.index[space]
        for key, field in (("army", "arm"), ("rowers", "row"), ("fleet", "flt"),
                           ("transport", "trn"), ("baggage", "bag")):
            getattr(s, field)[i] += pieces.get(key, 0)
        s.occ[i] = p

    @staticmethod
    def add_leader(s, p: int, space: str, name: str, skills: list[str]) -> int:
        i = len(s.l_owner)
        s.l_owner.append(p)
        s.l_space.append(s.t.index[space])
        s.l_state.append(0)
        s.l_name.append(name)
        s.l_skills.append(list(skills))
        s.l_back.append(0)
        s.l_lost.append(False)
        s.l_moved.append(False)
        s.occ[s.t.index[space]] = p
        return i

    @staticmethod
    def count(s, field: str, space: str) -> int:
        return getattr(s, field)[s.t.index[space]]


@pytest.fixture
def board(engine: CityStatesEngine) -> Board:
    return Board(engine)


def act(state, *actions: str) -> list:
    """Apply actions, each by whoever must act now; returns all events."""
    events = []
    for action in actions:
        seat = state.pending()[0].seat
        events += state.apply(seat, action)
    return events


@pytest.fixture
def play():
    return act


def all_text(events: list[Any]) -> str:
    return "\n".join(e.text for e in events)


@pytest.fixture
def texts():
    """The events' texts, one per line."""
    return all_text
