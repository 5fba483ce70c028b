"""`agon.pettingzoo_env`: every shipped ruleset as a PettingZoo AEC environment.

PettingZoo's own `api_test` for every ruleset and player count; a seeded
random-agent episode that ends with the engine's points as rewards; secret
simultaneous choices that no later agent can observe; importing agon without
PettingZoo.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import agon
from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset


def player_counts(ruleset_id: str) -> range:
    players = load_ruleset(ruleset_id).players
    return range(int(players["min"]), int(players["max"]) + 1)


def test_pettingzoo_api_test_passes_for_every_player_count(ruleset_id):
    for players in player_counts(ruleset_id):
        env = agon.pettingzoo_env(ruleset_id, players)
        with warnings.catch_warnings():
            # api_test warns about what PettingZoo's own board games also do: observations
            # that are dicts with an action mask, seat names that are not "player_0"
            warnings.simplefilter("ignore")
            api_test(env, num_cycles=300)


def play_random_episode(env, seed: int) -> tuple[list[tuple[str, str]], dict[str, float]]:
    """Random legal actions (from the mask) until every agent is done."""
    env.reset(seed=seed)
    chooser = np.random.default_rng(seed)
    taken, rewards = [], {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(chooser.choice(legal))
        taken.append((agent, env.catalogue[action]))
        env.step(action)
    return taken, rewards


def test_a_random_episode_ends_with_the_engines_points_as_rewards(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    players = max(player_counts(ruleset_id)[0], min(2, player_counts(ruleset_id)[-1]))
    env = agon.pettingzoo_env(ruleset_id, players)
    taken, rewards = play_random_episode(env, seed=11)
    assert set(rewards) == set(env.possible_agents) and env.agents == []
    # the same actions, replayed on the engine itself, give the same points
    engine = engine_class(ruleset.engine)(ruleset)
    state = engine.new_game(env.possible_agents, 11, ruleset.resolve_options({}))
    for seat, action in taken:
        state.apply(seat, action)
    assert state.is_over()
    assert rewards == pytest.approx(state.result().points)
    assert all(0.0 <= r <= 1.0 for r in rewards.values())
    # the episode's record replays to the same result, as `agon replay` checks it
    check = agon.replay(env.record().to_json())
    assert check["replays"] and check["digest"], check["findings"]
    assert check["result"]["points"] == pytest.approx(rewards)


def test_a_seed_makes_the_episode_reproducible():
    first, _ = play_random_episode(agon.pettingzoo_env("earth-and-water"), seed=5)
    again, _ = play_random_episode(agon.pettingzoo_env("earth-and-water"), seed=5)
    assert first == again


def test_a_secret_choice_is_not_seen_by_the_agents_asked_after_it():
    """Epireia's starting figures are chosen at once: the later seats see no earlier choice."""
    env = agon.pettingzoo_env("epireia", 4)
    env.reset(seed=3)
    while len(env.game.pending()) < 2:   # up to the simultaneous choice of starting figures
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    asked = [d.seat for d in env.game.pending()]
    before = {seat: env.observe(seat)["observation"].copy() for seat in asked}
    for i, seat in enumerate(asked[:-1]):
        assert env.agent_selection == seat
        mask = env.observe(seat)["action_mask"]
        env.step(int(np.flatnonzero(mask)[-1]))
        for later in asked[i + 1:]:
            assert np.array_equal(env.observe(later)["observation"], before[later])
    env.step(int(np.flatnonzero(env.observe(asked[-1])["action_mask"])[0]))
    # once the last is in, all are applied: every figure is revealed together
    assert all(env.game.view(s)["players"][s]["figures"] for s in asked)


def test_only_the_agent_asked_has_legal_actions_in_its_mask():
    env = agon.pettingzoo_env("earth-and-water")
    env.reset(seed=2)
    asked = env.agent_selection
    other = next(a for a in env.agents if a != asked)
    assert env.observe(asked)["action_mask"].sum() == len(env.game.pending()[0].legal)
    assert env.observe(other)["action_mask"].sum() == 0


def test_an_illegal_action_is_refused_with_a_clear_message():
    env = agon.pettingzoo_env("earth-and-water")
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal .* use the action_mask"):
        env.step(illegal)


def test_bad_arguments_get_clear_errors():
    with pytest.raises(ValueError, match=re.escape("earth-and-water needs 2 players "
                                                   "(persia, greece), not 3")):
        agon.pettingzoo_env("earth-and-water", 3)
    with pytest.raises(ValueError, match=re.escape("earth-and-water-solo needs 1 player "
                                                   "(greece), not 2")):   # not "1 to 1 players"
        agon.pettingzoo_env("earth-and-water-solo", 2)
    with pytest.raises(Exception, match="no option"):
        agon.pettingzoo_env("earth-and-water", cheapest_fleets=True)


def test_options_reach_the_game():
    env = agon.pettingzoo_env("epireia-solo", scenario="S3")
    env.reset(seed=1)
    assert env.game.view("p1")["solo"]["scenario"] == "S3"


def test_render_ansi_shows_the_position_to_the_agent_asked():
    env = agon.pettingzoo_env("ten-thousand", 2, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert "Your hand" in text


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_importing_agon_does_not_import_pettingzoo():
    out = run_python("import sys, agon; print('pettingzoo' in sys.modules, 'numpy' in sys.modules)")
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_without_the_extra_the_error_says_what_to_install():
    out = run_python("import sys; sys.modules['pettingzoo'] = None\n"
                     "import agon\nagon.pettingzoo_env('earth-and-water')")
    assert out.returncode != 0
    assert "pip install 'agon-referee[pettingzoo]'" in out.stderr


def test_misuse_of_the_environment_gets_clear_errors():
    env = agon.pettingzoo_env("earth-and-water")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("persia"),
                 lambda: env.legal_actions("persia")):
        with pytest.raises(RuntimeError, match="no game yet: call reset\\(\\)"):
            call()
    with pytest.raises(ValueError, match="seed is a whole number, not 'x'"):
        env.reset(seed="x")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="unknown agent 'zeus' \\(agents: persia, greece\\)"):
        env.observe("zeus")
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    with pytest.raises(ValueError, match="an action is an index into the catalogue, not [0-9]+.7"):
        env.step(int(legal[0]) + 0.7)
    play_random_episode(env, seed=1)
    for call in (lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match="the game is over: call reset\\(\\)"):
            call()
    with pytest.raises(ValueError, match="players is a whole number, not '2'"):
        agon.pettingzoo_env("earth-and-water", "2")


def test_numpy_integers_are_seeds_and_player_counts():
    """A seed drawn with numpy (np.int64) seeds the game as the same int would."""
    env = agon.pettingzoo_env("ten-thousand", np.int64(3))
    assert env.possible_agents == ["p1", "p2", "p3"]
    first, _ = play_random_episode(env, seed=np.int64(5))
    again, _ = play_random_episode(agon.pettingzoo_env("ten-thousand", 3), seed=5)
    assert first == again


def test_reset_options_are_not_dropped_without_a_word():
    """The ruleset's options are fixed when the environment is made: reset(options=...)
    used to drop them silently, and the game was played without them.  PettingZoo's
    api_test passes options to reset, so they are accepted, with a warning."""
    env = agon.pettingzoo_env("epireia-solo")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=1, options={})   # nothing asked: no warning
    with pytest.warns(UserWarning, match=re.escape(
            "reset() ignores options ['scenario']: a game's options are set when the "
            "environment is made, agon.pettingzoo_env('epireia-solo', scenario=...)")):
        env.reset(seed=1, options={"scenario": "S2"})
    assert env.game.view("p1")["solo"]["scenario"] == "S1"


def test_a_record_is_of_a_finished_episode():
    env = agon.pettingzoo_env("earth-and-water")
    with pytest.raises(RuntimeError, match="no game yet: call reset\\(\\)"):
        env.record()
    env.reset(seed=1)
    with pytest.raises(RuntimeError, match="the game is not over: a record is of a finished game"):
        env.record()
    taken, _ = play_random_episode(env, seed=1)
    record = env.record()
    assert record.seed == 1 and record.actions == [list(action) for action in taken]
    assert record.seats == {"persia": {"name": "pettingzoo"}, "greece": {"name": "pettingzoo"}}
