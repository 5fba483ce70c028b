"""A variant ruleset that `extends: earth-and-water` changes the game through data only
(the hooks the solo rules need: setup, kings already dead, no Persian retreat,
instant victory, unlimited pieces)."""

from __future__ import annotations

import pytest

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.ruleset import load_ruleset

P, G = 0, 1

VARIANT = """\
format: agon-ruleset/1
id: ew-test-variant
name: "Earth & Water test variant"
version: "0.1"
engine: earth-and-water
extends: earth-and-water
data:
  pieces:
    persia: {armies: 999, fleets: 999}
  setup:
    campaign: 3
    score: 2
    bridge: true
    kings_dead: 2
    persia:
      armies: {Abydos: 3, Ephesos: 3}
      fleets: {Abydos: 2, Ephesos: 2}
  battle:
    may_retreat: {persia: false}
  victory:
    instant: [persia]
"""


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    path = tmp_path_factory.mktemp("rulesets") / "ew-test-variant.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    return EarthAndWaterEngine(load_ruleset(path))


def test_variant_setup(variant):
    s = variant.new_game(["persia", "greece"], 1, {})
    assert (s.campaign, s.vp, s.bridge) == (3, 2, True)
    assert s.darius_dead and s.xerxes_dead
    assert s.res_arm[P] == 999 - 6 - 2 and s.res_flt[P] == 999 - 4


def test_variant_persia_never_retreats(variant):
    s = variant.new_game(["persia", "greece"], 1, {})
    t = s.t
    s.arm = [[0] * t.ncity, [0] * t.ncity]
    s.arm[P][t.index["Larissa"]] = 3
    s.arm[G][t.index["Thebai"]] = 3
    s.arm[G][t.index["Athenai"]] = 1
    s.hands = [[2], [7]]
    s.step, s.actor, s.active, s._pending = "turn", P, P, None
    s.rigged_dice = [1, 1, 1, 1, 1, 1]   # a tie: both remain
    for action in ("play 2 move", "origin_land Larissa", "move_land Thebai 3"):
        s.apply(s.pending()[0].seat, action)
    assert s.step == "l_def_retreat" and s.actor == G   # Persia was never asked


def test_variant_instant_victory(variant):
    s = variant.new_game(["persia", "greece"], 1, {})
    t = s.t
    s.arm = [[0] * t.ncity, [0] * t.ncity]
    s.arm[P][t.index["Sparta"]] = 1
    s.arm[P][t.index["Korinthos"]] = 2
    s.arm[G][t.index["Thebai"]] = 1
    s.hands = [[2], [7]]
    s.step, s.actor, s.active, s._pending = "turn", P, P, None
    for action in ("play 2 move", "origin_land Korinthos", "move_land Athenai 2"):
        s.apply(s.pending()[0].seat, action)
    assert s.over and s.winner == P and s.pending() == []


def test_two_player_game_has_no_instant_victory(board, play):
    s = board.empty(turn=P, hands=([2], [7]), pa={"Sparta": 1, "Korinthos": 2}, ga={"Thebai": 1})
    play(s, "play 2 move", "origin_land Korinthos", "move_land Athenai 2")
    assert not s.over


def test_one_seat_needs_an_automaton(engine):
    with pytest.raises(ValueError, match="seats"):
        engine.new_game(["greece"], 1, {})
