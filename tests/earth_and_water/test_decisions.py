"""The audits' decisions (rulesets' decisions sections): the bridge, where a retreat
may go, supply by sea, the order of PERS.IA's new fleets (second audit); Acropolis on
Fire against a Sudden Death, battle cards in one battle, The Immortals' restart, the
fleets of an attacker from the sea, PERS.IA's defence and attrition (third audit)."""

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


# -- third audit ---------------------------------------------------------------------------

def test_an_attacker_from_the_sea_sails_home_with_every_fleet_in_port(board, play):
    # decision retreat-ports: a Greek fleet already lay at Thebai; two more land two
    # armies there, and the retreat takes all three fleets back to Athenai
    s = board.empty(turn=G, hands=([2], [3]), pa={"Thebai": 2, "Abydos": 1},
                    ga={"Athenai": 2, "Sparta": 1}, gf={"Athenai": 2, "Thebai": 1})
    s.rigged_dice = [1, 1, 6, 6]   # Greece wins the first round
    play(s, "play 3 move", "origin_sea Athenai", "move_sea Thebai 2 2")
    assert s.pending()[0].legal == ["retreat_sea Athenai", "continue"]
    play(s, "retreat_sea Athenai")
    thebai, athenai = s.t.index["Thebai"], s.t.index["Athenai"]
    assert (s.flt[G][athenai], s.flt[G][thebai]) == (3, 0)
    assert (s.arm[G][athenai], s.arm[G][thebai], s.arm[P][thebai]) == (2, 0, 1)


def test_the_immortals_bring_back_only_the_armies_that_began_the_battle(board, play):
    # decision immortals-restart: one Persian army held Thebai, so one comes back,
    # though the reserve holds twenty and the card allows three
    s = board.empty(turn=G, hands=([5], [3]), pa={"Thebai": 1, "Abydos": 1},
                    ga={"Athenai": 2})
    s.rigged_dice = [1, 6, 6]
    play(s, "play 3 move", "origin_land Athenai", "move_land Thebai 2")
    assert s.step == "immortals" and s.res_arm[P] >= 3
    s.rigged_dice = [1, 6, 6]   # the new battle's first round
    events = play(s, "react 5")
    assert [e.data["armies"] for e in events if e.type == "react"] == [1]
    assert [e.text for e in events if e.type == "battle"] == [
        "The land battle in Thebai starts again"]


def test_miltiades_may_answer_a_greek_landing_from_the_sea(board, play):
    # decision battle-cards: the Greek attack after a landing opens the Miltiades window
    s = board.empty(turn=G, hands=([2], [3, 4]), pa={"Thebai": 2, "Abydos": 1},
                    ga={"Athenai": 2}, gf={"Athenai": 2})
    play(s, "play 3 move", "origin_sea Athenai", "move_sea Thebai 2 2")
    assert (s.step, s.pending()[0].legal) == ("land_react", ["react 4", "decline"])
    s.rigged_dice = [1, 1, 6, 6, 6]   # Persia 2 dice, Greece 3 with Miltiades
    play(s, "react 4")
    assert s.b_bonus == "miltiades" and s.arm[P][s.t.index["Thebai"]] == 1


def test_acropolis_still_costs_a_talent_after_a_death_through_pacification(board, play):
    # decision acropolis-penalty: Pacification kills Darius; the campaign is still scored
    # without Athenai, and the next Greek preparation has 5 talents
    s = board.empty(turn=P, hands=([15, 16], [2]), pa={"Athenai": 1, "Abydos": 1},
                    pf={"Athenai": 1}, ga={"Sparta": 1})
    s.discard, s.deck = [n for n in s.deck if n != 11], [11]
    play(s, "play 15 event", "pass", "play 16 event")
    play(s, "done")   # no card discarded, one drawn: the Sudden Death
    assert s.darius_dead and s.acropolis and (s.step, s.actor) == ("sup_cards", G)
    events = play(s, "done")   # Greece keeps its one card; supply and scoring follow
    # Persia: Abydos and Ephesos 4, the burnt Athenai nothing; Greece: Sparta 2
    assert [e.data for e in events if e.type == "scoring"] == [{"persia": 4, "greece": 2}]
    assert s.campaign == 2 and (s.step, s.actor) == ("buy", P)
    play(s, "done", "done")
    assert (s.actor, s.talents) == (G, 5)


def test_persia_defends_from_the_largest_army_that_can_get_there(solo):
    # decision S-defence-source: Pella's six cannot cross the broken bridge, so Ephesos'
    # three defend Abydos (one third, rounded up) instead of PERS.IA rolling
    s = solo.new_game(["greece"], 1, {})
    t = s.t
    s.arm = [[0] * t.ncity, [0] * t.ncity]
    s.flt = [[0] * t.ncity, [0] * t.ncity]
    for side, city, k in ((P, "Pella", 6), (P, "Ephesos", 3), (G, "Abydos", 1), (G, "Athenai", 1)):
        s.arm[side][t.index[city]] = k
    s.bridge = False
    s.hands = [[2, 3], [7]]
    s.deck = [n for n in t.card_numbers if n not in (2, 3, 7)]
    s.step, s.actor, s.active, s._pending = "turn", P, P, None
    s.rigged_dice = [1, 6]   # Persia's one army loses the first round
    s.events = []
    s.after_action()
    texts = [e.text for e in s.events]
    assert any(x.startswith("PERS.IA defends Abydos") and "Ephesos" in x and "1 army" in x
               for x in texts), texts
    assert "Persia marches 1 army from Ephesos to Abydos" in texts
    assert not any(e.type == "auto_roll" for e in s.events)
