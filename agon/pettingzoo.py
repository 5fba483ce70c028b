"""Every agon ruleset as a PettingZoo AEC environment (`agon.pettingzoo_env`).

Needs the optional extra: ``pip install 'agon-referee[pettingzoo]'``.

The agents are the ruleset's seats.  An action is an index into the ruleset's
action catalogue (`ObservationEncoder.actions`), so index *i* means the same
action at every decision; the observation is ``{"observation": the seat's view
as a vector, "action_mask": 1 for the catalogue entries legal now}``.  Each
game's page in docs/games/ lists what the vector holds.

Simultaneous decisions (several seats choosing in secret at once) are asked one
after the other in AEC order and applied together once the last is in, as the
referee does: a seat asked later observes the position before anyone's choice.
Rewards are the engine's `Result.points` (each seat's share of the win, 0 to 1),
given when the game ends; every step before pays 0.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

try:
    import numpy as np
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv
except ImportError as exc:   # the extra is not installed
    raise ImportError("agon.pettingzoo_env needs PettingZoo: "
                      "pip install 'agon-referee[pettingzoo]'") from exc

from agon.api import RulesetLike, game_setup, whole_number
from agon.referee.engine import Decision
from agon.referee.games import engine_class, load_encoder
from agon.referee.records import GameRecord, state_digest
from agon.referee.ruleset_model import Ruleset


def pettingzoo_env(ruleset: RulesetLike, players: int | None = None, *,
                   render_mode: str | None = None, **options: Any) -> AgonEnv:
    """A PettingZoo AEC environment for one shipped ruleset (an id), a file, or a `Ruleset`.

    `players` is the number of seats (default: two where the ruleset allows it,
    else its only count; ValueError saying the counts it is played by);
    `options` are the ruleset's options (``forced_spend=True``).
    """
    rs, engine, seats = game_setup(ruleset, players)   # checked as new_game checks them
    return AgonEnv(rs, len(seats), rs.resolve_options(options), render_mode=render_mode)


class AgonEnv(AECEnv):
    """One agon game as an agent-environment-cycle: one seat acts per step."""

    metadata = {"render_modes": ["ansi", "human"], "name": "agon_v0", "is_parallelizable": False}

    def __init__(self, ruleset: Ruleset, players: int, options: dict[str, Any],
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.ruleset = ruleset
        self.options = options
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"agon_{ruleset.id.replace('-', '_')}_v0"}
        self.engine = engine_class(ruleset.engine)(ruleset)
        self.possible_agents = self.engine.seats(players)
        self.encoder = load_encoder(ruleset, self.possible_agents, options)
        self.catalogue = self.encoder.actions
        self.index = {action: i for i, action in enumerate(self.catalogue)}
        observation = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.catalogue),), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(len(self.catalogue)) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game = None
        self.agents: list[str] = []   # none until reset() makes a game (len: num_agents)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self._agent(agent)]

    def agent_iter(self, max_iter: int = 2**63):
        """The agents in turn; RuntimeError before reset() (PettingZoo's loop would
        fail inside with an AttributeError)."""
        self._started()
        return super().agent_iter(max_iter)

    # -- the cycle -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` makes it (and the unseeded resets after it) reproducible.

        `options` is in the PettingZoo signature (its api_test passes some), but
        the ruleset's options are fixed when the environment is made: any given
        are ignored with a warning that says where they go.
        """
        seed = whole_number("seed", seed)
        if options:
            logger.warn(f"reset() ignores options {sorted(map(str, options))}: a game's options "
                        f"are set when the environment is made, "
                        f"agon.pettingzoo_env({self.ruleset.id!r}, {next(iter(options))}=...)")
        if seed is not None:
            self._seeds.seed(seed)
        game_seed = seed if seed is not None else self._seeds.randrange(1 << 31)
        self.game = self.engine.new_game(self.possible_agents, game_seed, self.options)
        self._seed = game_seed
        self._actions: list[list[str]] = []    # [seat, action] as applied: the record's
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._open: list[Decision] = []        # the decisions asked together
        self._chosen: list[tuple[str, str]] = []   # answers held until the last is in
        self._ask_next()

    def _ask_next(self) -> None:
        """Select the seat of the next open decision, opening the next set when needed."""
        if len(self._chosen) == len(self._open):
            self._open, self._chosen = list(self.game.pending()), []
        if not self._open:
            self._finish()
        else:
            self.agent_selection = self._open[len(self._chosen)].seat

    def _decision(self, agent: str) -> Decision | None:
        """`agent`'s decision if it is the one being asked now."""
        if self._open and agent == self.agent_selection and len(self._chosen) < len(self._open):
            return self._open[len(self._chosen)]
        return None

    def _current(self) -> str:
        """The agent whose turn it is; RuntimeError before reset() and once every
        agent is done (PettingZoo removes them as they step)."""
        self._started()
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        return self.agent_selection

    def _started(self) -> None:
        if self.game is None:
            raise RuntimeError("no game yet: call reset()")

    def _agent(self, agent: str) -> str:
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        return agent

    def _known(self, agent: str) -> str:
        self._agent(agent)
        self._started()
        return agent

    def last(self, observe: bool = True):
        self._current()
        return super().last(observe)

    def step(self, action: int | None) -> None:
        agent = self._current()
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self._decision(agent)
        text = self._action_text(decision, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._chosen.append((agent, text))
        if len(self._chosen) == len(self._open):
            for seat, chosen in self._chosen:   # a set of secret choices is applied together
                self.game.apply(seat, chosen)
                self._actions.append([seat, chosen])
        self._ask_next()
        self._accumulate_rewards()

    def _action_text(self, decision: Decision | None, action: Any) -> str:
        if decision is None:
            raise RuntimeError("no decision is open: call reset()")
        try:   # 1.7 is no index, nor is True: neither is action 1
            index = whole_number("an action", action, none=False)
        except ValueError:
            raise ValueError(f"an action is an index into the catalogue, not {action!r}") from None
        if not 0 <= index < len(self.catalogue) or self.catalogue[index] not in decision.legal:
            shown = self.catalogue[index] if 0 <= index < len(self.catalogue) else "out of range"
            raise ValueError(f"action {index} ({shown}) is not legal for {decision.seat} now "
                             f"({decision.prompt}); use the action_mask")
        return self.catalogue[index]

    def _finish(self) -> None:
        """The game is over: every seat is terminated with its points as reward."""
        result = self.game.result()
        for agent in self.agents:
            self.rewards[agent] = float(result.points.get(agent, 0.0))
            self.terminations[agent] = True
            self.infos[agent] = {"result": result.to_json()}
        self.agent_selection = self.agents[0]

    def record(self) -> GameRecord:
        """The finished episode as a game record, the one `agon play --record` writes:
        ``record.save(path, None)`` writes it (unsigned), `agon replay` re-runs it and
        `agon map --record` draws it.  Each seat is named ``pettingzoo``."""
        self._started()
        result = self.game.result()
        if result is None:
            raise RuntimeError("the game is not over: a record is of a finished game")
        return GameRecord(ruleset=self.ruleset, options=self.options, seed=self._seed,
                          seats={agent: {"name": "pettingzoo"} for agent in self.possible_agents},
                          teams=self.engine.teams(self.possible_agents),
                          actions=[list(action) for action in self._actions], result=result,
                          state_sha256=state_digest(self.game))

    # -- what an agent sees --------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._known(agent)
        return self.observation(self.game.view(agent), self.legal_actions(agent))

    def observation(self, view: dict[str, Any], legal: Iterable[str] = ()
                    ) -> dict[str, np.ndarray]:
        """The observation of a seat's `view` with its `legal` actions in the mask: what
        observe() gives, for a view met elsewhere, e.g. by a function bot
        ``choose(decision, view)`` that plays a trained agent in `agon.play`."""
        vector = np.asarray(self.encoder.encode(view), dtype=np.float32)
        mask = np.zeros(len(self.catalogue), dtype=np.int8)
        for action in legal:
            if action not in self.index:   # from the engine itself: its observation.py's bug
                raise ValueError(f"{action!r} is not in the action catalogue of "
                                 f"{self.ruleset.id} (a legal action missing there is a bug "
                                 f"of its engine's observation.py)")
            mask[self.index[action]] = 1
        return {"observation": vector, "action_mask": mask}

    def legal_actions(self, agent: str) -> list[str]:
        """The texts of `agent`'s legal actions now (empty when it is not asked)."""
        self._known(agent)
        decision = self._decision(agent)
        return list(decision.legal) if decision else []

    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
            return None
        self._started()
        text = self.game.describe(self.agent_selection)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in this process."""
