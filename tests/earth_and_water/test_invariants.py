"""Random games, two-player and solo, checked after every action: no piece count below
zero or above the box, every card in exactly one place, the score on its track, no
armies (or fleets) of both sides left together once a battle is over, no stuck game,
and the same game again from the same seed."""

from __future__ import annotations

import random

import pytest

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.ruleset import load_ruleset

P, G = 0, 1
NAVAL_STEPS = ("artemisia", "n_att_retreat", "n_def_retreat")
SAILING_STEPS = ("themistocles", "them_pay", "them_origin", "them_dest")
PAYING_STEPS = ("leo_pay", "milt_pay", "them_pay", "sd_sacrifice")
QUIET_STEPS = ("turn", "buy", "build", "sup_cards", "attrit")
LEADERS = ("leonidas", "miltiades", "themistocles")


def afloat(s) -> list[int]:
    """Armies of each side aboard fleets at sea (off the map, not in reserve)."""
    out = [0, 0]
    if s.step in NAVAL_STEPS:
        out[s.b_att] += s.b_carried
    if s.step in SAILING_STEPS:
        out[s.mv_side] += s.mv_carried
    return out


def check(s) -> None:
    t = s.t
    for side in (P, G):
        assert min(s.arm[side]) >= 0 and min(s.flt[side]) >= 0
        assert s.res_arm[side] >= 0 and s.res_flt[side] >= 0
        assert all(s.flt[side][c] == 0 for c in range(t.ncity) if not t.port[c])
    if s.step not in PAYING_STEPS:
        sea = afloat(s)
        leaders = sum(1 for x in LEADERS if x in s.once_used)
        assert sum(s.arm[G]) + s.res_arm[G] + sea[G] + leaders == t.total_armies[G]
        kings = int(s.darius_dead) + int(s.xerxes_dead)
        assert sum(s.arm[P]) + s.res_arm[P] + sea[P] + kings == t.total_armies[P]
    artemisia = int("artemisia" in s.once_used)
    assert sum(s.flt[P]) + s.res_flt[P] + artemisia == t.total_fleets[P]
    assert sum(s.flt[G]) + s.res_flt[G] == t.total_fleets[G]
    held = [s.held_card] if s.held_card else []
    assert sorted(s.hands[P] + s.hands[G] + s.deck + s.discard + held) == t.card_numbers
    assert -t.score_limit <= s.vp <= t.score_limit
    if s.step in QUIET_STEPS:
        for c in range(t.ncity):
            assert not (s.arm[P][c] and s.arm[G][c]) and not (s.flt[P][c] and s.flt[G][c])


def play(engine, seats: list[str], seed: int, options: dict) -> tuple[list[str], dict]:
    s = engine.new_game(seats, seed, options)
    chooser = random.Random(seed * 31 + 7)
    actions: list[str] = []
    while s.pending():
        check(s)
        decision = s.pending()[0]
        assert decision.legal and len(set(decision.legal)) == len(decision.legal)
        actions.append(chooser.choice(decision.legal))
        s.apply(decision.seat, actions[-1])
        assert len(actions) < 5000, "the game does not end"
    check(s)
    assert s.result() is not None
    return actions, s.to_json()


OPTIONS = [{}, {"forced_spend": True}, {"reaction_prompts": "always", "cheap_fleets": True}]


@pytest.mark.parametrize("ruleset, seats", [("earth-and-water", ["persia", "greece"]),
                                            ("earth-and-water-solo", ["greece"])])
def test_random_games_keep_the_invariants_and_replay(ruleset, seats):
    engine = EarthAndWaterEngine(load_ruleset(ruleset))
    for seed in range(150):
        options = OPTIONS[seed % 3] if len(seats) == 2 else {}
        first = play(engine, seats, seed, options)
        assert play(engine, seats, seed, options) == first
