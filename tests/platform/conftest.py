"""A toy game that exercises what every real game needs of the platform.

"Bidding race": each round every seat secretly bids 1, 2 or 3 (simultaneous
decisions); the highest unique bid scores its value.  With `turns` the seats
instead bid one after the other.  First to `target` points ends the game.
Seats may play in two teams (odd and even seats), or alone against the rules
(solo: beat the automaton's fixed bids).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from agon.referee.engine import (
    Decision,
    Engine,
    Event,
    IllegalAction,
    Result,
    State,
    ranks_from_scores,
)
from agon.referee.games import register
from agon.referee.rng import rng_from_state, rng_state, stream
from agon.referee.ruleset import Ruleset


class ToyState(State):
    def __init__(self, engine: ToyEngine, seats: list[str], seed: int, options: dict) -> None:
        self.engine, self.seats, self.options = engine, seats, options
        self.scores = dict.fromkeys(seats, 0)
        self.bids: dict[str, int] = {}
        self.turn = 0
        self.dice = stream(seed, "automaton")

    def pending(self) -> list[Decision]:
        if max(self.scores.values()) >= self.options["target"]:
            return []
        waiting = [s for s in self.seats if s not in self.bids]
        if self.options["turns"]:
            waiting = waiting[:1]
        return [Decision(s, "bid", ["bid 1", "bid 2", "bid 3"]) for s in waiting]

    def apply(self, seat: str, action: str) -> list[Event]:
        if seat not in {d.seat for d in self.pending()} or action not in ("bid 1", "bid 2", "bid 3"):
            raise IllegalAction(f"{seat} cannot {action!r} now")
        self.bids[seat] = int(action.split()[1])
        events = [Event("bid", f"{seat} bids", {"seat": seat, "bid": self.bids[seat]},
                        to=frozenset([seat]))]
        if len(self.bids) < len(self.seats):
            return events
        bids = dict(self.bids)
        if len(self.seats) == 1:
            bids["automaton"] = self.dice.randint(1, 3)
        counts = [v for v in bids.values()]
        unique = [b for b in bids.values() if counts.count(b) == 1]
        winner = next((s for s, b in bids.items() if unique and b == max(unique)), None)
        if winner in self.scores:
            self.scores[winner] += bids[winner]
        self.bids = {}
        events.append(Event("reveal", f"bids {bids}: {winner or 'nobody'} scores",
                            {"bids": bids, "winner": winner}))
        return events

    def view(self, seat: str) -> dict[str, Any]:
        return {"scores": self.scores, "my_bid": self.bids.get(seat),
                "bids_in": len(self.bids)}

    def result(self) -> Result | None:
        if self.pending():
            return None
        scores = {s: float(v) for s, v in self.scores.items()}
        teams = self.engine.teams(self.seats)
        if teams:
            totals = {t: sum(scores[s] for s in members) for t, members in teams.items()}
            team_rank = ranks_from_scores(totals)
            ranks = {s: team_rank[t] for t, members in teams.items() for s in members}
            return Result(scores, ranks, "team race over", teams=teams)
        if len(self.seats) == 1:
            seat = self.seats[0]
            return Result(scores, {seat: 1}, "solo race over", points={seat: 1.0})
        return Result(scores, ranks_from_scores(scores), "race over")

    def clone(self) -> ToyState:
        return self.engine.load(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "options": self.options, "scores": self.scores,
                "bids": self.bids, "dice": rng_state(self.dice)}


class ToyEngine(Engine):
    id = "toy-race"

    def teams(self, seats: Sequence[str]) -> dict[str, list[str]] | None:
        if not self.ruleset.data.get("teams"):
            return None
        return {"odd": list(seats[0::2]), "even": list(seats[1::2])}

    def new_game(self, seats, seed, options) -> ToyState:
        return ToyState(self, list(seats), seed, self.ruleset.resolve_options(options))

    def load(self, data) -> ToyState:
        state = ToyState(self, data["seats"], 0, data["options"])
        state.scores, state.bids = dict(data["scores"]), dict(data["bids"])
        state.dice = rng_from_state(data["dice"])
        return state


register(ToyEngine)


def toy_ruleset(teams: bool = False, **defaults: Any) -> Ruleset:
    options = {"target": {"type": "integer", "default": defaults.get("target", 6), "text": "t"},
               "turns": {"type": "boolean", "default": defaults.get("turns", False), "text": "t"}}
    return Ruleset(id="toy-race", name="Bidding race", version="1", engine="toy-race",
                   players={"min": 1, "max": 6}, options=options, rules=[],
                   data={"teams": teams}, sha256="0" * 64, source="toy-race")


@pytest.fixture
def toy() -> ToyEngine:
    return ToyEngine(toy_ruleset())


@pytest.fixture
def toy_teams() -> ToyEngine:
    return ToyEngine(toy_ruleset(teams=True))


@pytest.fixture
def seeded() -> random.Random:
    return random.Random(7)
