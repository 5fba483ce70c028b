"""Information-set Monte Carlo tree search: one bot for every game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012).  One tree is
grown per decision, from the deciding seat's point of view; each iteration

1. samples a fresh world consistent with what the seat knows
   (`State.determinize`): other hands, deck order and future dice differ from
   one iteration to the next, so the tree holds no hidden fact;
2. walks down the tree, choosing at each node among the actions legal *in
   that world* by UCB1, where an action's exploration term counts the
   iterations in which it was available rather than the parent's visits; the
   seat to act at a node chooses by its own rewards (opponents play their best
   replies as the tree sees them);
3. adds one node and plays on from it (`playout=random`, or the greedy
   evaluation's choices) for at most `moves` moves; a game that has not
   ended by then is scored by the game's evaluation (bots/greedy/), else by
   random play to its end (short playouts measured stronger: a few random
   moves already spoil a position more than they tell about it);
4. credits every node on the way with the reward of the seat that chose it:
   the seat's `Result.points` (its share of the win), a team's mean where
   seats play in teams, so a partner's win counts as one's own.

Before the first iteration each action at the root is judged once by greedy's
look (bots/greedy/bot.py) in a sampled world, and starts as if `prior`
iterations had scored it so: with the few iterations a tenth of a second
allows, the search refines the evaluation's choice instead of spreading them
evenly over tens of actions.

Chance is resolved inside `apply`, so a node stands for the actions that led
to it whatever the dice said (open loop).  Simultaneous secret choices are
decoupled: each seat deciding picks from its own statistics, kept in the node
before the choice, so no seat's choice is conditioned on another's, and the
node after them is keyed by all the choices together.

Nothing survives from one decision to the next but the random generator.
With `iterations` the search does exactly that many iterations, so a seed
and the positions given fix every choice; with `time` it stops on the clock.
"""

from __future__ import annotations

import math
from typing import Any

from agon.referee.engine import Decision, State

from .base import Bot
from .budget import ITERATIONS, TIME, Budget
from .greedy import evaluator_for
from .greedy.bot import greedy_action, judge
from .greedy.evaluator import Evaluator, team_mean
from .params import Param

C = Param("c", float, 0.7, "UCB exploration constant; rewards are shares of a win, 0 to 1",
          low=0.0, high=10.0)
PLAYOUT = Param("playout", str, "random", "how playouts choose: at random, or by the greedy "
                                          "evaluation, slower and better informed",
                choices=("random", "greedy"))
MOVES = Param("moves", int, 4, "moves a playout makes before the game's evaluation scores it; "
                                "a game without one is played to the end", low=0, high=100_000)
PRIOR = Param("prior", int, 4, "iterations' worth of trust each action at the root starts "
                               "with, at the value the game's evaluation gives it (0: none)",
              low=0, high=1000)
GREEDY_WIDTH = 4        # actions a greedy playout step compares
PRIOR_DEPTH = 2         # own decisions the prior looks through (a card, then its movement)
UNSCORED_MOVES = 5000   # a guard for playouts of a game without an evaluation


class Node:
    """Statistics of the action that leads here, and the nodes below it."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0       # rewards of the seat that chose the action
        self.available = 0     # iterations in which that action was legal at the parent


class IsmctsBot(Bot):
    name = "ismcts"
    wants_state = True
    params = (TIME, ITERATIONS, C, PLAYOUT, MOVES, PRIOR)

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.budget = Budget(self.name, self.settings, settings)
        self.c = self.settings["c"]
        self.evaluator: Evaluator | None = None
        self.teams: dict[str, list[str]] | None = None
        self.files: dict[str, bytes] = {}
        self.iterations_done: list[int] = []   # per decision searched, for benches

    def start(self, hello: dict[str, Any]) -> None:
        self.teams = hello.get("teams")
        self.evaluator = evaluator_for(hello, self.files)

    def choose(self, decision: Decision, view: dict[str, Any], state: State | None = None) -> str:
        legal = decision.legal
        if state is None or len(legal) == 1:
            return self.rng.choice(legal)
        seat = decision.seat
        root = Node()
        # a choice made with others' secret ones keeps its statistics apart (see iterate)
        stats = root.children.setdefault(("secret", seat), Node()) \
            if len(state.pending()) > 1 else root
        self.budget.start()
        self.seed_prior(stats, decision, state)
        done = 0
        while self.budget.more(done):
            self.iterate(root, state.determinize(seat, self.rng), seat)
            done += 1
        self.iterations_done.append(done)
        return self.most_visited(stats, legal)

    def seed_prior(self, stats: Node, decision: Decision, state: State) -> None:
        """Start each root action as if `prior` iterations had scored it at the evaluation's
        judgement (greedy's look, one sampled world): the few iterations a short budget
        allows then go to the actions worth a closer look."""
        weight = self.settings["prior"]
        if weight <= 0 or self.evaluator is None:
            return
        judged = judge(self.evaluator, state, decision, self.rng, samples=1, depth=PRIOR_DEPTH,
                       width=GREEDY_WIDTH)
        for action, value in judged.items():
            child = stats.children[action] = Node()
            child.visits = child.available = weight
            child.total = weight * value

    def most_visited(self, node: Node, legal: list[str]) -> str:
        tried = [a for a in legal if a in node.children]
        if not tried:
            return self.rng.choice(legal)
        return max(tried, key=lambda a: (node.children[a].visits,
                                         node.children[a].total / max(1, node.children[a].visits)))

    # -- one iteration ------------------------------------------------------

    def iterate(self, root: Node, world: State, me: str) -> None:
        node = root
        path: list[tuple[Node, str]] = []   # (the node of a choice, the seat that made it)
        expanded = False
        while not expanded:
            pending = world.pending()
            if not pending:
                break
            if len(pending) == 1:
                seat = pending[0].seat
                action, node, expanded = self.select(node, pending[0].legal)
                path.append((node, seat))
                world.apply(seat, action)
                continue
            # Simultaneous secret choices: each from its own statistics.
            chosen = []
            for decision in pending:
                own = node.children.setdefault(("secret", decision.seat), Node())
                action, child, new = self.select(own, decision.legal)
                expanded = expanded or new
                path.append((child, decision.seat))
                chosen.append((decision.seat, action))
            for seat, action in chosen:
                # should one seat's action change what the next may do, a choice no
                # longer legal is dropped, and chosen again next time round
                if action in next((d.legal for d in world.pending() if d.seat == seat), ()):
                    world.apply(seat, action)
            node = node.children.setdefault(tuple(chosen), Node())
        rewards = self.playout(world, me)
        for step, seat in path:
            step.visits += 1
            step.total += rewards.get(seat, 0.5)

    def select(self, node: Node, legal: list[str]) -> tuple[str, Node, bool]:
        """The action to play among `legal` (UCB1 over availability), its node, and
        whether that node is new."""
        children = node.children
        untried = []
        for action in legal:
            child = children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.available += 1
        if untried:
            action = self.rng.choice(untried)
            child = children[action] = Node()
            child.available = 1
            return action, child, True
        c = self.c
        best, best_score = legal[0], -1.0
        for action in legal:
            child = children[action]
            score = child.total / child.visits + c * math.sqrt(math.log(child.available)
                                                                / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best, children[best], False

    def playout(self, world: State, me: str) -> dict[str, float]:
        """Every seat's reward after play from `world`: the result's, or the evaluation's."""
        evaluator = self.evaluator
        moves = self.settings["moves"] if evaluator is not None else UNSCORED_MOVES
        greedy = self.settings["playout"] == "greedy" and evaluator is not None
        choice = self.rng.choice
        for _ in range(moves):
            pending = world.pending()
            if not pending:
                break
            for decision in pending:
                action = greedy_action(evaluator, world, decision, self.rng, GREEDY_WIDTH) \
                    if greedy else choice(decision.legal)
                world.apply(decision.seat, action)
        result = world.result()
        if result is not None:
            return team_mean(result.points, result.teams or self.teams)
        if evaluator is not None:
            return team_mean(evaluator.values_in(world, me), self.teams)
        return {}


if __name__ == "__main__":
    from .protocol_main import run

    raise SystemExit(run(IsmctsBot))
