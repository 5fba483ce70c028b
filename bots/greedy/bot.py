"""The greedy bot: plays the action whose outcome its game's evaluation likes best.

For each legal action it samples a world consistent with what its seat knows
(`State.determinize`), applies the action there and judges the seat's view of
the result (bots/greedy/<game>.py).  Where the action opens more decisions of
its own (a card played for a movement, then where from, then where to) it
looks through `depth` of them, trying `width` of the choices at each, so that
"play this card to move" is judged by the best move it allows.  Dice and
hidden cards make one sample noisy: each action is judged over `samples`
worlds.  The look through later decisions is made shallower where the actions
are many, so that a decision costs at most about `LOOKS` judgements.  Ties are
broken at random.
"""

from __future__ import annotations

import random
from typing import Any

from agon.referee.engine import Decision, IllegalAction, State

from ..base import Bot
from ..params import Param
from . import EVALUATORS, evaluator_for
from .evaluator import Evaluator, team_mean

SAMPLES = Param("samples", int, 2, "sampled worlds each action is judged in", low=1, high=100)
DEPTH = Param("depth", int, 2, "own decisions looked through after an action (a card, then "
                               "its movement)", low=0, high=4)
WIDTH = Param("width", int, 4, "choices tried at each of those later decisions", low=1, high=50)
LOOKS = 256   # judgements a decision may cost before the look ahead is cut shorter


class GreedyBot(Bot):
    name = "greedy"
    wants_state = True
    params = (SAMPLES, DEPTH, WIDTH)
    games = tuple(EVALUATORS)

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.evaluator: Evaluator | None = None
        self.files: dict[str, bytes] = {}

    def start(self, hello: dict[str, Any]) -> None:
        self.evaluator = evaluator_for(hello, self.files)

    def choose(self, decision: Decision, view: dict[str, Any], state: State | None = None) -> str:
        legal = list(decision.legal)
        if len(legal) == 1 or state is None or self.evaluator is None:
            return self.rng.choice(legal)
        scores = judge(self.evaluator, state, decision, self.rng, self.settings["samples"],
                       self.settings["depth"], self.settings["width"])
        best = max(scores.values())
        return self.rng.choice([a for a in legal if scores[a] >= best - 1e-9])


def judge(evaluator: Evaluator, state: State, decision: Decision, rng: random.Random,
          samples: int, depth: int, width: int) -> dict[str, float]:
    """Each legal action's mean value for the deciding seat over `samples` sampled worlds."""
    legal = decision.legal
    # Cut the width before the depth: a look that stops halfway through a
    # compound move (a card played, no army moved yet) judges it by its cost only.
    while width > 1 and len(legal) * samples * width ** depth > LOOKS:
        width -= 1
    while depth > 0 and len(legal) * samples * width ** depth > LOOKS:
        depth -= 1
    seat = decision.seat
    return {action: sum(look(evaluator, state.determinize(seat, rng), seat, action, depth,
                             width, rng) for _ in range(samples)) / samples
            for action in legal}


def look(evaluator: Evaluator, world: State, seat: str, action: str, depth: int, width: int,
         rng: random.Random) -> float:
    """`seat`'s value after `action` in `world`, and its best follow-ups (consumes `world`)."""
    try:
        world.apply(seat, action)
    except IllegalAction:   # a sample that contradicts the view: judge it neutral
        return 0.0
    if depth <= 0:   # (the next decision's legal actions are not worked out)
        return value_of(evaluator, world, seat)
    pending = world.pending()
    if len(pending) != 1 or pending[0].seat != seat:
        return value_of(evaluator, world, seat)
    legal = list(pending[0].legal)
    if len(legal) > width:
        legal = rng.sample(legal, width)
    return max(look(evaluator, world.clone(), seat, follow, depth - 1, width, rng)
               for follow in legal)


def value_of(evaluator: Evaluator, world: State, seat: str) -> float:
    """`seat`'s share of the win: the result's once the game is over, else the evaluation."""
    result = world.result()
    if result is not None:
        return team_mean(result.points, result.teams).get(seat, 0.0)
    return team_mean(evaluator.values_in(world, seat), evaluator.teams).get(seat, 0.0)


def greedy_action(evaluator: Evaluator, world: State, decision: Decision, rng: random.Random,
                  width: int) -> str:
    """A cheap greedy choice for playouts: the best of `width` actions, one sample each."""
    legal = decision.legal
    if len(legal) == 1:
        return legal[0]
    candidates = rng.sample(list(legal), width) if len(legal) > width else list(legal)
    best, best_value = candidates[0], -1.0
    for action in candidates:
        trial = world.determinize(decision.seat, rng)
        try:
            trial.apply(decision.seat, action)
        except IllegalAction:
            continue
        value = value_of(evaluator, trial, decision.seat)
        if value > best_value:
            best, best_value = action, value
    return best
