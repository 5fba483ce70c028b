"""How long a search bot thinks: a time per decision, or a fixed number of iterations.

With `iterations` the work done, and so every choice, depends only on the
bot's seed and the positions it is given, never on the machine's speed.
"""

from __future__ import annotations

import time
from typing import Any

from .params import Param, ParamError

TIME = Param("time", float, 0.5, "seconds of search per decision, unless iterations is given",
             low=0.001, high=3600)
ITERATIONS = Param("iterations", int, None, "iterations per decision instead of a time: the "
                                            "same seed then makes the same choices", low=1,
                   high=10_000_000)


class Budget:
    """When a search stops: after `iterations`, else once `time` seconds have passed."""

    def __init__(self, bot: str, settings: dict[str, Any], given: dict[str, Any]) -> None:
        if "time" in given and "iterations" in given:
            raise ParamError(f"{bot}: give time or iterations, not both (iterations makes the "
                             "bot reproducible, time bounds its thinking)")
        self.iterations: int | None = settings["iterations"]
        self.seconds: float = settings["time"]
        self.deadline = 0.0

    def start(self) -> None:
        self.deadline = time.monotonic() + self.seconds

    def more(self, done: int) -> bool:
        """Whether to run another iteration after `done` of them."""
        if self.iterations is not None:
            return done < self.iterations
        return done == 0 or time.monotonic() < self.deadline
