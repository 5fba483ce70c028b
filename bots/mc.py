"""The Monte Carlo bot: tries each legal action in sampled worlds, keeps the best.

For every decision the referee hands this bot a position consistent with what
its seat knows, the unseen rest (other hands, deck order, future dice)
resampled.  The bot resamples again for each playout, plays the action under
test and then random moves to the end, and scores the playout by its seat's
share of the win.  The action with the best average is played.

It knows no game: the same code plays every ruleset, as strong as random
playouts make it.  Its budget is a time per decision or a number of playouts
(`iterations`), shared round robin among the actions tried.
"""

from __future__ import annotations

from typing import Any

from agon.referee.engine import Decision, IllegalAction, State

from .base import Bot
from .budget import ITERATIONS, TIME, Budget
from .params import Param

MOVES = Param("moves", int, 5000, "most moves a playout makes; one cut short scores half a win",
              low=1, high=1_000_000)


class MonteCarloBot(Bot):
    name = "mc"
    wants_state = True
    params = (TIME, ITERATIONS, MOVES)

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.budget = Budget(self.name, self.settings, settings)
        self.playout_moves = self.settings["moves"]

    def choose(self, decision: Decision, view: dict[str, Any], state: State | None = None) -> str:
        legal = list(decision.legal)
        if state is None or len(legal) == 1:
            return self.rng.choice(legal)
        # With more actions than a few playouts each could cover, sample some.
        iterations = self.budget.iterations
        candidates = legal if iterations is None or len(legal) * 4 <= iterations else \
            self.rng.sample(legal, max(1, iterations // 4))
        totals = dict.fromkeys(candidates, 0.0)
        counts = dict.fromkeys(candidates, 0)
        self.budget.start()
        number = 0
        while number < len(candidates) or self.budget.more(number):
            action = candidates[number % len(candidates)]
            points = self.playout(state, decision.seat, action)
            if points is not None:
                totals[action] += points
                counts[action] += 1
            number += 1
        if not any(counts.values()):
            return self.rng.choice(legal)
        return max(candidates, key=lambda a: (totals[a] / counts[a] if counts[a] else -1.0))

    def playout(self, state: State, seat: str, action: str) -> float | None:
        """`seat`'s points after `action` and random play to the end, in a fresh world.

        None when the sampled world does not allow `action` (an engine whose
        resampling contradicts what the seat was shown): that world is skipped.
        """
        world = state.determinize(seat, self.rng)
        try:
            world.apply(seat, action)
        except IllegalAction:
            return None
        choice = self.rng.choice
        for _ in range(self.playout_moves):
            pending = world.pending()
            if not pending:
                break
            for decision in pending:
                world.apply(decision.seat, choice(decision.legal))
        result = world.result()
        return result.points.get(seat, 0.0) if result else 0.5


if __name__ == "__main__":
    from .protocol_main import run

    raise SystemExit(run(MonteCarloBot))
