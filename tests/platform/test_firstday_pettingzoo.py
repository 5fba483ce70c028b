"""A researcher's first day with the PettingZoo environment: the mistakes a
newcomer makes get the same clear errors as the rest of the API."""

from __future__ import annotations

import pytest

import agon

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")


def test_an_unknown_agent_is_named_by_every_method_that_takes_one():
    """action_space and observation_space raised a bare KeyError: 'zeus'."""
    env = agon.pettingzoo_env("earth-and-water")
    for call in (env.action_space, env.observation_space):
        with pytest.raises(ValueError, match=r"unknown agent 'zeus' \(agents: persia, greece\)"):
            call("zeus")


def test_the_loop_before_reset_says_to_call_reset():
    """`for agent in env.agent_iter()` without reset() failed inside PettingZoo with
    AttributeError: 'AgonEnv' object has no attribute 'agents'."""
    env = agon.pettingzoo_env("ten-thousand", 2)
    with pytest.raises(RuntimeError, match=r"no game yet: call reset\(\)"):
        next(iter(env.agent_iter()))


def test_the_agents_before_reset_are_none_yet_and_the_possible_ones_are_listed():
    """`env.agents` and `env.num_agents` before reset() were an AttributeError: 'AgonEnv'
    object has no attribute 'agents'."""
    env = agon.pettingzoo_env("ten-thousand", 3)
    assert (env.agents, env.num_agents, env.max_num_agents) == ([], 0, 3)
    env.reset(seed=1)
    assert env.agents == env.possible_agents == ["p1", "p2", "p3"]


def test_a_finished_loop_ends_quietly():
    env = agon.pettingzoo_env("earth-and-water-solo")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated
                 else env.action_space(agent).sample(observation["action_mask"]))
    assert list(env.agent_iter()) == []


def test_true_is_no_action_index():
    """True was taken as action 1 (a bool is an int to Python), which a policy
    returning a flag by mistake would play without a word."""
    env = agon.pettingzoo_env("earth-and-water")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="an action is an index into the catalogue, not True"):
        env.step(True)


def test_seeds_counts_and_indices_are_checked_alike_in_the_api_and_the_environment():
    """One check (agon.api.whole_number): the same words, the same ValueError."""
    env = agon.pettingzoo_env("earth-and-water")
    for bad in ("3", 1.5, True):
        with pytest.raises(ValueError) as from_env:
            env.reset(seed=bad)
        with pytest.raises(ValueError) as from_api:
            agon.new_game("earth-and-water", seed=bad)
        assert str(from_env.value) == str(from_api.value) == f"seed is a whole number, not {bad!r}"


def test_a_trained_agent_plays_in_agon_play_with_the_observations_it_learnt_from():
    """A researcher's next step after training: the agent against a built-in bot.
    `env.observation(view, legal)` turns what a function bot is given into the very
    observation the environment gives at that position (there was no public way)."""
    env = agon.pettingzoo_env("earth-and-water")
    seen = []

    def trained(decision, view):
        observation = env.observation(view, decision.legal)
        seen.append(observation)
        return env.catalogue[int(np.flatnonzero(observation["action_mask"])[-1])]

    record = agon.play("earth-and-water", {"persia": trained, "greece": "greedy"}, seed=4)
    assert record.forfeits == {} and seen
    env.reset(seed=4)   # the same game, stepped from the record
    asked = iter(seen)
    for seat, action in record.actions:
        assert env.agent_selection == seat
        if seat == "persia":
            expected = env.observe("persia")
            given = next(asked)
            assert np.array_equal(given["observation"], expected["observation"])
            assert np.array_equal(given["action_mask"], expected["action_mask"])
        env.step(env.catalogue.index(action))
    assert next(asked, None) is None


def test_an_action_outside_the_catalogue_is_named():
    env = agon.pettingzoo_env("earth-and-water")
    view = agon.new_game("earth-and-water", seed=1).view("persia")
    with pytest.raises(ValueError, match="'fly' is not in the action catalogue of earth-and-water"):
        env.observation(view, ["fly"])
