"""The second audit's decisions (rulesets' decisions sections): the bridge, where a
retreat may go, supply by sea, and the order of PERS.IA's new fleets."""

from __future__ import annotations

import pytest

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.ruleset import load_ruleset

P, G = 0, 1


def test_persia_builds_the_bridge_from_an_empty_abydos(board, play):
    # decision bridge-rulings: an Abydos with no army is Persian, so Persia may build
    s = board.game()
    s.arm[P][s.t.index["Abydos"]] = 0
    s.deck = [2, 3, 4]
    play(s, "done")
    assert "build_bridge" in s.pending()[0].legal
    play(s, "build_bridge")
    assert s.bridge and s.talents == 6


def test_greece_may_break_the_bridge_after_marching_into_an_empty_abydos(board, play):
    s = board.empty(turn=G, hands=([2], [3]), pa={"Ephesos": 1}, ga={"Pella": 2})
    s.bridge = True
    play(s, "play 3 move", "origin_land Pella", "move_land Abydos 1")
    assert s.pending()[0].legal == ["destroy_bridge", "keep_bridge"]


def test_a_fleet_never_retreats_into_a_port_with_enemy_fleets(board, play):
    # Greece attacks the Persian fleet at Naxos; Ephesos' port is Persian-held but
    # Greek fleets lie in Abydos' port: only Ephesos takes the retreating fleet
    s = board.empty(turn=G, hands=([2], [3]), pa={"Ephesos": 1, "Abydos": 1},
                    pf={"Naxos": 2}, gf={"Athenai": 3, "Abydos": 1}, ga={"Athenai": 1})
    s.rigged_dice = [1, 1, 6, 6, 6]   # Persia loses a fleet, both still have some
    play(s, "play 3 move", "origin_sea Athenai", "move_sea Naxos 3 0", "continue")
    assert s.step == "n_def_retreat"
    assert s.pending()[0].legal == ["retreat Ephesos", "continue"]


def test_a_defender_sails_away_only_to_a_port_free_of_enemy_fleets(board, play):
    # Greece holds Naxos with an army, but a Persian fleet lies in its port: the Greek
    # defenders of Athenai may sail to Sparta, not to Naxos
    s = board.empty(turn=P, hands=([2], [3]), pa={"Korinthos": 3},
                    ga={"Athenai": 2, "Naxos": 1}, gf={"Athenai": 2}, pf={"Naxos": 1})
    s.rigged_dice = [4, 1, 1, 1, 1]   # Persia 4 against Greece 1: Greece loses an army
    play(s, "play 2 move", "origin_land Korinthos", "move_land Athenai 3", "continue")
    assert s.step == "l_def_retreat"
    assert s.pending()[0].legal == ["retreat_sea Sparta", "continue"]


@pytest.fixture(scope="module")
def solo():
    return EarthAndWaterEngine(load_ruleset("earth-and-water-solo"))


def test_persia_b_fleets_go_in_map_order_while_talents_last(solo):
    # decision S-fleet-order: 12 - 4 cards - 4 for the bridge leaves 4 fleets; the
    # occupied ports without a fleet are taken in the map's order, Eretria and Naxos last
    s = solo.new_game(["greece"], 1, {})
    t = s.t
    s.arm = [[0] * t.ncity, [0] * t.ncity]
    s.flt = [[0] * t.ncity, [0] * t.ncity]
    for city in ("Abydos", "Ephesos", "Thebai", "Pella", "Eretria", "Naxos"):
        s.arm[P][t.index[city]] = 1
    s.arm[G][t.index["Athenai"]] = 1
    s.hands = [[], []]
    s.deck, s.discard = list(t.card_numbers), []
    s.vp, s.bridge = 2, False
    s.step, s.actor, s._pending = "buy", P, None
    s.after_action()
    fleets = [t.names[c] for c in t.ports if s.flt[P][c]]
    assert fleets == ["Abydos", "Ephesos", "Thebai", "Pella"] and s.bridge
