"""The edge cases of the reference file, section E (numbered as there)."""

from __future__ import annotations

import pytest

P, G = 0, 1


def finish_operations(s, play):
    """Persia passes with both hands empty: operations end, supply and scoring run."""
    assert not s.hands[G] and not s.hands[P]
    return play(s, "pass")


def test_e01_setup(board):
    s = board.game()
    assert s.res_arm == [20, 6] and s.res_flt == [5, 3]
    assert s.vp == 0 and s.campaign == 1 and not s.bridge
    assert sorted(s.deck) == list(range(1, 17)) and s.hands == [[], []]


@pytest.mark.parametrize("kept, budget", [(True, 10), (False, 12)])
def test_e02_kept_card_cuts_the_budget(board, play, kept, budget):
    s = board.empty(turn=P, hands=([2, 3], []), pa={"Abydos": 2}, ga={"Athenai": 1})
    play(s, "pass")
    assert s.step == "sup_cards" and s.actor == P
    assert "done" not in s.pending()[0].legal   # two cards: one must go
    play(s, "discard 2")
    if kept:
        play(s, "done")
    else:
        play(s, "discard 3")
    assert s.campaign == 2 and s.step == "buy" and s.talents == budget


def test_e03_card_purchase_cap(board, play):
    s = board.game()
    for _ in range(6):
        play(s, "buy_card")
    assert s.pending()[0].legal == ["done"] and s.talents == 6
    s = board.game()
    s.deck, s.discard = [2, 3], [4]
    play(s, "buy_card", "buy_card", "buy_card")
    assert s.pending()[0].legal == ["done"]


def test_e04_fleet_cost_and_cap(board, play):
    for cheap, cost in ((False, 2), (True, 1)):
        s = board.game(cheap_fleets=cheap)
        s.deck = [2, 3, 4]   # no Sudden Death in this draw
        play(s, "done", "raise_fleet Ephesos", "raise_fleet Abydos")
        assert s.talents == 12 - 2 * cost
        assert not any(a.startswith("raise_fleet") for a in s.pending()[0].legal)
    s = board.game()
    s.deck = [2, 3, 4]
    s.flt[G][s.t.index["Ephesos"]] = 1
    play(s, "done")
    legal = s.pending()[0].legal
    assert "raise_fleet Ephesos" not in legal and "raise_fleet Abydos" in legal


def test_e05_bridge_conditions(board, play):
    s = board.game()
    s.deck = [2, 3, 4]
    play(s, "done")
    assert "build_bridge" in s.pending()[0].legal
    for _ in range(7):
        play(s, "raise_army Abydos")
    assert s.talents == 5 and "build_bridge" not in s.pending()[0].legal
    s = board.game()
    s.deck = [2, 3, 4]
    s.arm[P][0], s.arm[G][0] = 0, 1   # Greek army in Abydos
    play(s, "done")
    assert "build_bridge" not in s.pending()[0].legal


def test_e06_bridge_road(board, play):
    s = board.empty(turn=G, hands=([2], [3]), pa={"Abydos": 1}, ga={"Larissa": 2, "Pella": 1})
    s.bridge = True
    play(s, "play 3 move", "origin_land Larissa")
    assert "move_land Abydos 2" in s.pending()[0].legal
    s = board.empty(turn=G, hands=([2], [3]), pa={"Abydos": 1}, ga={"Larissa": 2, "Pella": 1})
    play(s, "play 3 move", "origin_land Larissa")
    assert not any("Abydos" in a for a in s.pending()[0].legal)


def test_e07_sudden_death_in_preparation(board, play):
    s = board.game()
    s.hands[P] = [9]   # kept card
    s.hands[G] = [2, 3]
    s.deck = [11, 4, 5, 6, 7]
    s.discard = [8, 10]
    s.talents = 10
    vp_before = s.vp
    play(s, "buy_card", "buy_card", "buy_card", "buy_card", "buy_card")
    events = play(s, "done")
    assert s.darius_dead and not s.xerxes_dead
    assert s.res_arm[P] == 19 and s.hands[P] == [] and s.discard == []
    assert sorted(s.deck) == sorted([11, 4, 5, 6, 7, 8, 10, 9])
    assert s.hands[G] == [2, 3] and s.vp == vp_before
    assert not any(e.type in ("scoring", "attrition", "cut_off") for e in events)
    assert s.campaign == 2 and s.step == "buy" and s.actor == P and s.talents == 12


def test_e08_sudden_death_with_empty_reserve(board, play):
    s = board.game()
    s.deck = [11]
    s.res_arm[P] = 0
    play(s, "buy_card", "done")
    assert s.step == "sd_sacrifice"
    assert set(s.pending()[0].legal) == {"sacrifice Abydos", "sacrifice Ephesos"}
    play(s, "sacrifice Ephesos")
    assert board.count(s, "arm", P, "Ephesos") == 1 and s.campaign == 2


def test_e09_third_sudden_death_does_nothing(board, play):
    s = board.game()
    s.darius_dead = s.xerxes_dead = True
    s.deck = [11]
    play(s, "buy_card", "done")
    assert s.step == "build" and s.hands[P] == [11] and s.campaign == 1


def test_e10_pacification_into_sudden_death(board, play):
    s = board.empty(turn=P, hands=([16, 2, 3], [7, 4]), pa={"Abydos": 2, "Ephesos": 2},
                    ga={"Athenai": 1, "Sparta": 1})
    s.darius_dead = True
    s.deck = [11, 9, 10]
    play(s, "play 16 event", "discard 2", "discard 3")
    events = play(s, "done")
    assert s.xerxes_dead and s.hands[P] == []
    assert any(e.type == "operations_end" for e in events)
    # supply and scoring happen: Greek hand limit step comes first (Greece holds cards)
    assert s.step == "sup_cards" and s.actor == G
    play(s, "done")
    assert s.campaign == 2
    # The Immortals can no longer be played
    s2 = board.empty(turn=G, hands=([5], [6]), pa={"Thebai": 1}, ga={"Athenai": 2})
    s2.xerxes_dead = True
    s2.rigged_dice = [1, 6]
    play(s2, "play 6 move", "origin_land Athenai", "move_land Thebai 2")
    assert s2.step != "immortals" and board.count(s2, "arm", P, "Thebai") == 0


def test_e11_acropolis_on_fire(board, play):
    s = board.empty(turn=P, hands=([15], [2]), pa={"Athenai": 1, "Abydos": 1},
                    ga={"Korinthos": 2, "Sparta": 1})
    play(s, "play 15 event")
    s.rigged_dice = [1, 6]
    # both hands are now empty, so the operations end after this march
    events = play(s, "play 2 move", "origin_land Korinthos", "move_land Athenai 2")
    assert s.controls(G, s.t.index["Athenai"])
    scoring = [e for e in events if e.type == "scoring"][0]
    # Greece: Sparta 2 + Korinthos... Korinthos is empty now, Athenai unscored: 2
    assert scoring.data == {"persia": 4, "greece": 2}
    s.deck = [2, 3, 4]
    play(s, "done", "done")
    assert s.step == "buy" and s.actor == G and s.talents == 5
    play(s, "done", "done")
    assert not s.acropolis


def test_e11_acropolis_penalty_forfeited_by_sudden_death(board, play):
    s = board.game()
    s.acropolis = True
    s.deck = [11]
    play(s, "buy_card", "done")
    assert not s.acropolis and s.campaign == 2
    s.deck = [2, 3]
    play(s, "done", "done")
    assert s.actor == G and s.talents == 6


def test_e12_automatic_victory_beats_the_score(board, play):
    # Persian fleets in both Greek ports keep the invaders supplied by sea
    s = board.empty(turn=P, pa={"Athenai": 1, "Sparta": 1, "Abydos": 1},
                    pf={"Athenai": 1, "Sparta": 1})
    s.vp = -6
    finish_operations(s, play)
    assert s.over and s.winner == P and s.result().ranks == {"persia": 1, "greece": 2}


def test_e12_persia_is_checked_first(board):
    s = board.empty(turn=P, pa={"Athenai": 1, "Sparta": 1}, ga={"Abydos": 1, "Ephesos": 1})
    s.scoring()
    assert s.over and s.winner == P


def test_e13_no_automatic_victory_mid_phase(board, play):
    s = board.empty(turn=P, hands=([2, 3], [4]), pa={"Korinthos": 4},
                    ga={"Naxos": 3}, gf={"Naxos": 3})
    play(s, "play 2 move", "origin_land Korinthos", "move_land Athenai 2", "pass")
    play(s, "play 3 move", "origin_land Korinthos", "move_land Sparta 2")
    assert s.controls(P, s.t.index["Sparta"]) and s.controls(P, s.t.index["Athenai"])
    assert not s.over
    s.rigged_dice = [1, 1, 6, 6, 6, 1, 6, 6, 6]
    play(s, "play 4 move", "origin_sea Naxos", "move_sea Sparta 3 3", "continue")
    assert s.controls(G, s.t.index["Sparta"])
    assert s.campaign == 2 and not s.over   # scoring came and went without a victory


def test_e14_clamp(board, play):
    s = board.empty(turn=P, pa={"Abydos": 1, "Larissa": 1, "Thebai": 1, "Pella": 1,
                    "Korinthos": 1})
    s.bridge = True
    s.vp = 5
    events = finish_operations(s, play)
    assert [e for e in events if e.type == "scoring"][0].data == {"persia": 8, "greece": 4}
    assert s.vp == 6
    s = board.empty(turn=P, hands=([7], [2]), pa={"Larissa": 3}, ga={"Thebai": 1})
    s.vp = 6
    s.rigged_dice = [4, 1, 1, 1]
    play(s, "play 7 event", "origin_land Larissa", "move_land Thebai 3")
    assert s.vp == 6


def test_e15_final_draw(board, play):
    s = board.empty(turn=P)
    s.campaign = 5
    finish_operations(s, play)
    assert s.over and s.vp == 0 and s.winner == -1
    assert s.result().ranks == {"persia": 1, "greece": 1}
    assert s.result().points == {"persia": 0.5, "greece": 0.5}


def test_e16_land_movement_stops_at_neutral_cities(board, play):
    s = board.empty(turn=G, hands=([2], [3]), pa={"Abydos": 1},
                    ga={"Sparta": 2, "Korinthos": 1, "Thebai": 1})
    play(s, "play 3 move", "origin_land Sparta")
    dests = {a.split()[1] for a in s.pending()[0].legal}
    assert {"Delphi", "Larissa", "Athenai", "Korinthos", "Thebai"} == dests


def test_e17_passing_through_your_empty_major(board, play):
    s = board.empty(turn=P, hands=([2], [3]), pa={"Ephesos": 2}, ga={"Athenai": 1})
    s.bridge = True
    play(s, "play 2 move", "origin_land Ephesos")
    assert {a.split()[1] for a in s.pending()[0].legal} == {"Abydos", "Pella"}
    s = board.empty(turn=G, hands=([2], [3]), pa={"Larissa": 1}, ga={"Pella": 1, "Athenai": 1})
    s.bridge = True
    play(s, "play 3 move", "origin_land Pella")
    assert {a.split()[1] for a in s.pending()[0].legal} == {"Abydos", "Larissa"}
    s = board.empty(turn=P, hands=([2], [3]), pa={"Korinthos": 1}, ga={"Sparta": 1})
    play(s, "play 2 move", "origin_land Korinthos")
    assert {a.split()[1] for a in s.pending()[0].legal} == {"Athenai", "Sparta", "Thebai"}


@pytest.mark.parametrize("city, cavalry, loser", [
    ("Thebai", False, "both"), ("Ephesos", False, "greece"), ("Thebai", True, "greece")])
def test_e18_persian_dice_caps(board, play, city, cavalry, loser):
    start = {"Thebai": "Larissa", "Ephesos": "Abydos"}[city]
    s = board.empty(turn=P, hands=([1 if cavalry else 2], []), pa={start: 2},
                    ga={city: 2, "Athenai": 1})
    card = "play 1 event" if cavalry else "play 2 move"
    play(s, card, f"origin_land {start}")
    s.rigged_dice = [6, 2, 4, 1]
    play(s, f"move_land {city} 2")
    p_left, g_left = board.count(s, "arm", P, city), board.count(s, "arm", G, city)
    assert (p_left, g_left) == {"both": (1, 1), "greece": (2, 1)}[loser]


def test_e19_pausanias_and_300_spartans_together(board, play):
    s = board.empty(turn=P, hands=([1], [6, 15]), pa={"Larissa": 1}, ga={"Thebai": 1})
    play(s, "play 1 event", "origin_land Larissa", "move_land Thebai 1")
    assert s.pending()[0].legal == ["react 6", "react 15", "decline"]
    play(s, "react 6")
    assert s.pending()[0].legal == ["react 15", "decline"]
    s.rigged_dice = [6, 1, 1, 5]
    events = play(s, "react 15")
    rnd = [e for e in events if e.type == "round"][0]
    assert len(rnd.data["greece"]) == 3 and board.count(s, "arm", P, "Thebai") == 0


def test_e20_miltiades_excluded_by_300_and_leonidas(board, play):
    s = board.empty(turn=P, hands=([2], [4, 15]), pa={"Larissa": 1}, ga={"Thebai": 1})
    play(s, "play 2 move", "origin_land Larissa", "move_land Thebai 1")
    assert s.pending()[0].legal == ["react 4", "react 15", "decline"]
    s.rigged_dice = [1, 6, 6, 6]
    play(s, "react 15")
    assert s.step != "land_react"
    s = board.empty(turn=G, hands=([2], [8, 4]), pa={"Thebai": 1}, ga={"Athenai": 2})
    s.rigged_dice = [1, 6, 6]
    play(s, "play 8 event", "origin_land Athenai", "move_land Thebai 1")
    assert s.step != "land_react" and "miltiades" not in s.once_used


def test_e20_miltiades_offered_again_after_the_immortals(board, play):
    s = board.empty(turn=G, hands=([5], [8, 4]), pa={"Thebai": 1}, ga={"Athenai": 2})
    s.rigged_dice = [1, 6, 6]
    play(s, "play 8 event", "origin_land Athenai", "move_land Thebai 1")
    assert s.step == "immortals"
    play(s, "react 5")
    assert s.step == "land_react" and s.pending()[0].legal == ["react 4", "decline"]


def test_e21_miltiades_payment_from_another_city(board, play):
    s = board.empty(turn=P, hands=([2], [4]), pa={"Larissa": 2}, ga={"Thebai": 1, "Sparta": 1})
    s.res_arm[G] = 0
    play(s, "play 2 move", "origin_land Larissa", "move_land Thebai 2", "react 4")
    assert s.pending()[0].legal == ["sacrifice Sparta"]


def test_e22_immortals_not_after_xerxes(board, play):
    s = board.empty(turn=G, hands=([5], [2]), pa={"Thebai": 1}, ga={"Athenai": 2})
    s.xerxes_dead = True
    s.rigged_dice = [1, 6]
    play(s, "play 2 move", "origin_land Athenai", "move_land Thebai 2")
    assert s.step != "immortals"


def test_e23_supply_order(board, play):
    # 5 Greek armies; without Athenai Greece would have only 4 amphorae
    s = board.empty(turn=P, pa={"Athenai": 2, "Abydos": 1},
                    ga={"Thebai": 2, "Korinthos": 2, "Sparta": 1})
    events = finish_operations(s, play)
    assert board.count(s, "arm", P, "Athenai") == 0   # cut off, removed first
    assert s.controls(G, s.t.index["Athenai"])
    assert not any(e.type == "attrition" and "Greece" in e.text for e in events)
    assert sum(s.arm[G]) == 5


def test_e24_persian_attrition_ignores_home(board, play):
    s = board.empty(turn=P, pa={"Abydos": 10, "Pella": 1, "Larissa": 1}, ga={"Athenai": 1})
    s.bridge = True
    events = finish_operations(s, play)
    assert not any(e.type == "attrit" for e in events)
    s = board.empty(turn=P, pa={"Abydos": 10, "Pella": 2, "Larissa": 1}, ga={"Athenai": 1})
    finish_operations(s, play)
    assert s.step == "attrit" and set(s.pending()[0].legal) == {"attrit Pella", "attrit Larissa"}


@pytest.mark.parametrize("blockade, survives", [
    ({"Athenai": 1}, True), ({"Athenai": 1, "Sparta": 1}, False)])
def test_e25_sea_supply(board, play, blockade, survives):
    s = board.empty(turn=P, pa={"Abydos": 1}, ga={"Naxos": 1, "Athenai": 1},
                    gf={"Naxos": 1}, pf=blockade)
    finish_operations(s, play)
    assert (board.count(s, "arm", G, "Naxos") == 1) == survives


def test_e25_sea_supply_lost_when_sparta_is_persian(board, play):
    s = board.empty(turn=P, pa={"Abydos": 1, "Sparta": 1}, ga={"Naxos": 1, "Athenai": 1},
                    gf={"Naxos": 1}, pf={"Athenai": 1, "Sparta": 1})
    finish_operations(s, play)
    assert board.count(s, "arm", G, "Naxos") == 0


def test_e26_transport_cap_and_losses(board, play):
    s = board.empty(turn=G, hands=([2], [3]), pa={"Eretria": 1}, pf={"Eretria": 2},
                    ga={"Athenai": 4}, gf={"Athenai": 4})
    play(s, "play 3 move", "origin_sea Athenai")
    legal = s.pending()[0].legal
    assert "move_sea Eretria 4 3" in legal and "move_sea Eretria 4 4" not in legal
    s.rigged_dice = [4, 4, 1, 1, 1]   # round 1: Persia 4 against 1: Greece loses a fleet
    play(s, "move_sea Eretria 4 3")
    assert s.b_carried == 3 and board.count(s, "flt", G, "Eretria") == 3
    s.rigged_dice = [4, 4, 1, 1, 1]
    play(s, "continue", "continue")
    assert s.b_carried == 2 and board.count(s, "flt", G, "Eretria") == 2
    # Greece wins the next two naval rounds, then the landing's first land round
    s.rigged_dice = [1, 1, 6, 6, 1, 6, 6, 1, 6, 6]
    play(s, "continue", "continue", "continue", "continue")
    assert board.count(s, "flt", P, "Eretria") == 0
    assert board.count(s, "arm", P, "Eretria") == 0 and board.count(s, "arm", G, "Eretria") == 2


def test_e27_attacker_retreat_by_sea_after_landing(board, play):
    s = board.empty(turn=G, hands=([2], [3]), pa={"Eretria": 3}, ga={"Athenai": 2},
                    gf={"Athenai": 2, "Eretria": 1})
    play(s, "play 3 move", "origin_sea Athenai")
    s.rigged_dice = [4, 4, 4, 1, 1]
    play(s, "move_sea Eretria 2 2")
    assert s.pending()[0].legal == ["retreat_sea Athenai", "continue"]
    play(s, "retreat_sea Athenai")
    assert board.count(s, "flt", G, "Athenai") == 3 and board.count(s, "arm", G, "Athenai") == 1
    assert board.count(s, "flt", G, "Eretria") == 0


@pytest.mark.parametrize("armies, can_sail", [(4, False), (3, True)])
def test_e28_defender_sea_retreat_needs_enough_fleets(board, play, armies, can_sail):
    s = board.empty(turn=P, hands=([2], []), pa={"Larissa": 3}, ga={"Thebai": armies},
                    gf={"Thebai": 2})
    s.rigged_dice = [1, 1, 1, 1, 1, 1]   # tie: both lose one
    play(s, "play 2 move", "origin_land Larissa", "move_land Thebai 3", "continue")
    legal = s.pending()[0].legal
    assert ("retreat_sea Sparta" in legal) == can_sail   # 2 fleets for armies - 1 armies


def test_e29_attacker_land_retreat_choices(board, play):
    s = board.empty(turn=P, hands=([2], []), pa={"Pella": 2, "Larissa": 1}, ga={"Thebai": 2})
    s.rigged_dice = [1, 1, 1]   # a tie: both sides lose one and both remain
    play(s, "play 2 move", "origin_land Pella", "move_land Thebai 2")
    # Pella is not adjacent; Larissa (Persian, on the way) is; Delphi was reachable but neutral
    assert s.pending()[0].legal == ["retreat Larissa", "continue"]
    s = board.empty(turn=P, hands=([2], []), pa={"Larissa": 3}, ga={"Thebai": 2})
    s.rigged_dice = [1, 1, 1, 1, 1]
    play(s, "play 2 move", "origin_land Larissa", "move_land Thebai 3")
    assert s.pending()[0].legal == ["retreat Larissa", "continue"]
    play(s, "retreat Larissa")
    assert board.count(s, "arm", P, "Larissa") == 2 and board.count(s, "arm", P, "Thebai") == 0


def test_e30_leonidas_with_an_empty_reserve(board, play):
    s = board.empty(turn=G, hands=([2], [8]), pa={"Thebai": 1}, ga={"Athenai": 1, "Naxos": 1})
    s.res_arm[G] = 0
    play(s, "play 8 event")
    assert s.pending()[0].legal == ["sacrifice Naxos"]   # Athenai's army must stay to march


def test_e31_themistocles_reinforces_the_destination(board, play):
    s = board.empty(turn=P, hands=([2], [5]), pa={"Ephesos": 1}, pf={"Ephesos": 2},
                    ga={"Athenai": 1}, gf={"Athenai": 2})
    play(s, "play 2 move", "origin_sea Ephesos", "move_sea Naxos 2 1", "react 5",
         "origin_sea Athenai")
    s.rigged_dice = [4, 4, 1, 1] * 4
    play(s, "move_sea Naxos 2 0")
    assert board.count(s, "flt", G, "Naxos") == 0 and board.count(s, "flt", P, "Naxos") == 2
    assert board.count(s, "arm", P, "Naxos") == 1   # Persia won: its army lands


def test_e32_themistocles_elsewhere(board, play):
    s = board.empty(turn=P, hands=([2], [5]), pa={"Ephesos": 1}, pf={"Ephesos": 2, "Abydos": 1},
                    ga={"Athenai": 1}, gf={"Athenai": 2})
    play(s, "play 2 move", "origin_sea Ephesos", "move_sea Naxos 2 1", "react 5",
         "origin_sea Athenai")
    s.rigged_dice = [6, 5, 1]   # Persian 6 counts 5 at Abydos: Greece loses, no retreat
    events = play(s, "move_sea Abydos 2 0")
    battles = [e for e in events if e.type == "battle"]
    assert battles[0].data["city"] == "Abydos"
    assert board.count(s, "arm", P, "Naxos") == 1   # then the Persian move completes


def test_e33_artemisia_with_carried_armies(board, play):
    s = board.empty(turn=P, hands=([2], [9]), pa={"Ephesos": 3}, pf={"Ephesos": 3},
                    gf={"Naxos": 1}, ga={"Athenai": 1})
    s.rigged_dice = [1, 1, 1, 6]
    play(s, "play 2 move", "origin_sea Ephesos", "move_sea Naxos 3 3")
    assert s.b_carried == 2
    play(s, "react 9")
    assert s.b_carried == 1 and s.res_flt[P] + sum(s.flt[P]) == 5


def test_e36_carneia_blocks_300_spartans_until_campaign_end(board, play):
    s = board.empty(turn=P, hands=([4, 2], [15, 3]), pa={"Korinthos": 2}, ga={"Sparta": 1})
    play(s, "play 4 event", "pass")
    s.rigged_dice = [1, 1, 6]
    play(s, "play 2 move", "origin_land Korinthos", "move_land Sparta 2")
    assert s.step == "l_att_retreat"   # no 300 Spartans window: Carneia holds Sparta
    play(s, "retreat Korinthos", "pass")
    assert s.carneia and s.step == "sup_cards" and s.actor == G
    play(s, "done")
    assert s.campaign == 2 and not s.carneia


def test_e38_defection_not_playable_without_a_refuge(board):
    s = board.empty(turn=P, hands=([12], [2]), pa={"Athenai": 1, "Sparta": 1}, ga={"Thebai": 2})
    assert "play 12 event" not in s.pending()[0].legal


def test_e39_royal_road_removes_greeks(board, play):
    s = board.empty(turn=P, hands=([8], [2]), pa={"Abydos": 1}, ga={"Ephesos": 2, "Athenai": 1})
    play(s, "play 8 event")
    legal = s.pending()[0].legal
    assert "target Ephesos" in legal and "target Abydos 1" in legal
    assert not any(a.startswith("target Ephesos ") for a in legal)
    play(s, "target Ephesos")
    assert board.count(s, "arm", G, "Ephesos") == 0 and board.count(s, "arm", P, "Ephesos") == 0


@pytest.mark.parametrize("dice, actions, vp", [
    ([1, 6], [], -1),                      # Greeks win
    ([6, 1, 1], ["retreat Athenai"], 1),   # Greek attacker retreats (Persia 4 beats 1)
    ([3, 3], [], 0)])                      # both wiped out in a minor city
def test_e40_evangelion_outcomes(board, play, dice, actions, vp):
    armies = 2 if actions else 1
    s = board.empty(turn=G, hands=([2], [10]), pa={"Thebai": 1}, ga={"Athenai": armies})
    s.rigged_dice = list(dice)
    play(s, "play 10 event", "origin_land Athenai", f"move_land Thebai {armies}", *actions)
    assert s.vp == vp


def test_e41_great_king_settled_before_the_immortals(board, play):
    s = board.empty(turn=P, hands=([7, 5], [2]), pa={"Larissa": 1}, ga={"Thebai": 2})
    s.rigged_dice = [1, 6, 6]
    play(s, "play 7 event", "origin_land Larissa", "move_land Thebai 1")
    assert s.vp == -1 and s.step == "immortals"   # Persians wiped out: Greece scored already
    s.rigged_dice = [4, 1, 1, 4, 1]   # the re-fight: Persia wins two rounds
    play(s, "react 5", "continue", "continue")
    assert board.count(s, "arm", G, "Thebai") == 0 and board.count(s, "arm", P, "Thebai") == 1
    assert s.vp == -1   # no +1 for Persia after the Immortals


def test_e42_mines_without_cards(board, play):
    s = board.empty(turn=G, hands=([2], [1]), ga={"Athenai": 1}, pa={"Abydos": 1})
    s.res_flt[G] = 3
    play(s, "play 1 event", "done", "raise_fleet Athenai", "raise_fleet Athenai",
         "raise_fleet Athenai")
    assert s.pending()[0].legal == ["done"]
    play(s, "done")
    assert s.discard[-1] == 1 and s.actor == P and s.step == "turn"


def test_e45_greek_hand_limit(board, play):
    s = board.empty(turn=P, hands=([2], [3, 4, 5, 6, 7, 8]), pa={"Abydos": 1}, ga={"Athenai": 1})
    play(s, "pass", "pass", "done")
    assert s.step == "sup_cards" and s.actor == G and "done" not in s.pending()[0].legal
    play(s, "discard 3")
    assert "done" not in s.pending()[0].legal
    play(s, "discard 4", "done")
    assert len(s.hands[G]) == 4 and s.campaign == 2
    s = board.empty(turn=P, hands=([2], [3, 4, 5, 6, 7, 8]), pa={"Abydos": 1}, ga={"Athenai": 1})
    s.campaign = 5
    play(s, "pass", "pass")
    assert s.over and len(s.hands[G]) == 6


def test_e46_two_passes_end_operations(board, play):
    s = board.empty(turn=P, hands=([2, 3], [4, 6]), pa={"Abydos": 1}, ga={"Athenai": 1})
    play(s, "pass", "play 4 move", "origin_land Athenai", "move_land Korinthos 1", "pass")
    assert s.step == "turn" and s.actor == G
    play(s, "pass")
    assert s.step == "sup_cards"
    s = board.empty(turn=P, hands=([], [4, 6]), pa={"Abydos": 1}, ga={"Athenai": 1})
    s.start_turn(P)
    assert s.actor == G and s.step == "turn"
    play(s, "play 4 move", "origin_land Athenai", "move_land Korinthos 1")
    assert s.actor == G and s.step == "turn"


def test_e47_bridge_destruction(board, play):
    s = board.empty(turn=G, hands=([2], [3]), pa={"Ephesos": 1}, ga={"Athenai": 2},
                    gf={"Athenai": 1})
    s.bridge = True
    play(s, "play 3 move", "origin_sea Athenai", "move_sea Abydos 1 1")
    assert s.pending()[0].legal == ["destroy_bridge", "keep_bridge"]
    play(s, "destroy_bridge")
    assert not s.bridge


def test_r23_reaction_prompts_always_hide_the_hand(board, play):
    opts = {"reaction_prompts": "always"}
    s = board.empty(turn=P, hands=([2], [7]), pa={"Larissa": 2}, ga={"Thebai": 1},
                    options=opts)
    play(s, "play 2 move", "origin_land Larissa", "move_land Thebai 2")
    assert s.step == "land_react" and s.pending()[0].legal == ["decline"]   # asked anyway
    # by default (held) the same position is not asked at all
    s = board.empty(turn=P, hands=([2], [7]), pa={"Larissa": 2}, ga={"Thebai": 1})
    s.rigged_dice = [1, 1, 6]
    play(s, "play 2 move", "origin_land Larissa", "move_land Thebai 2")
    assert s.step != "land_react"
