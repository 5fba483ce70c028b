"""The random bot: uniform over the legal actions, seeded."""

from __future__ import annotations

from typing import Any

from agon.referee.engine import Decision, State

from .base import Bot


class RandomBot(Bot):
    name = "random"
    wants_view = False  # the legal list is all it reads

    def choose(self, decision: Decision, view: dict[str, Any], state: State | None = None) -> str:
        return self.rng.choice(decision.legal)

    def choose_index(self, count: int) -> int:
        return self.rng.randrange(count)  # the draw of rng.choice over `count` items


if __name__ == "__main__":
    from .protocol_main import run

    raise SystemExit(run(RandomBot))
