"""Solo mode: setup, Augur cards, enemy figures, objectives and the final battle."""

from __future__ import annotations

import pytest

from agon.referee.games.epireia import registry
from agon.referee.games.epireia.battle import start_battle


def solo(solo_engine, scenario="S1", augurs=None, city="corinth", league="delian",
         admin="merchant", figure=None, seed=1):
    state = solo_engine.new_game(["p1"], seed, {"scenario": scenario})
    if augurs:
        state.g["solo"]["augurs"] = list(augurs) + [15] * 20
    while state.g["step"] != "develop" and not state.g["queue"]:
        decision = state.pending()[0]
        kind = decision.legal[0].split()[0]
        wanted = {"city": f"city {city}", "league": f"league {league}", "admin": f"admin {admin}"}
        if kind == "figure":
            choice = f"figure {figure}" if figure else decision.legal[0]
        else:
            choice = wanted[kind] if wanted[kind] in decision.legal else decision.legal[0]
        state.apply("p1", choice)
    return state


def finish_turn(state, h, moves=()):
    h.pass_development(state)
    for figure, place in moves:
        h.move(state, "p1", figure, place)
    h.end_diplomacy(state)


# ---------------------------------------------------------------- setup
def test_solo_setup_prestige_zero_and_s1_enemy_is_the_rival_capital(solo_engine):
    state = solo(solo_engine, "S1", league="delian")
    assert state.player("p1")["prestige"] == 0 and state.player("p1")["res"]["wheat"] == 2
    assert state.g["enemy"]["cities"] == ["sparta"] and list(state.g["enemy"]["pos"]) == ["brasidas"]
    state = solo(solo_engine, "S1", league="peloponnesian")
    assert state.g["enemy"]["cities"] == ["athens"]


def test_athens_must_be_delian_in_solo(solo_engine):
    state = solo_engine.new_game(["p1"], 1, {"scenario": "S1"})
    state.apply("p1", "city athens")
    assert state.player("p1")["league"] == "delian"  # no league choice was offered
    assert state.g["enemy"]["cities"] == ["sparta"]


def test_scenario_fixes_city_and_league_and_enemies(solo_engine):
    state = solo(solo_engine, "S4")
    p = state.player("p1")
    assert (p["city"], p["league"]) == ("delphi", "delian")
    assert state.g["enemy"]["cities"] == ["sparta", "corinth", "elis"]
    assert sorted(state.g["enemy"]["pos"]) == ["brasidas", "eupolemos", "timoleon"]
    assert state.g["territories"]["epirus"]["brigand"] and state.g["territories"]["ionia"]["brigand"]


def test_enemy_army_is_laid_out_from_the_card(solo_engine):
    state = solo(solo_engine, "S2")
    army = state.g["enemy"]["army"]
    assert len(army) == 18
    assert [army[f"flank-{c}-1"]["deck"] for c in (1, 2, 3)] == ["cavalry-2", "cavalry-2", "cavalry-1"]
    assert {army[f"center-{c}-1"]["deck"] for c in (1, 2, 3)} == {"hoplites-2"}
    assert len(state.g["decks"]["hoplites-1"]) == 14 - 9


def test_augur_deck_has_as_many_cards_as_turns(solo_engine):
    for scenario, turns in (("S1", 10), ("S2", 12), ("S4", 14)):
        state = solo_engine.new_game(["p1"], 3, {"scenario": scenario})
        assert len(set(state.g["solo"]["augurs"])) == turns


def test_no_greek_city_moves_in_solo(solo_engine, h):
    state = solo(solo_engine, "S1", figure="periander")
    h.pass_development(state)
    state.apply("p1", "send periander")
    assert not any(a.split()[-1] in state.t.cities for a in state.pending()[0].legal)


# ---------------------------------------------------------------- constraints
def test_s2_sacred_truce_blocks_production_for_three_turns(solo_engine, h):
    state = solo(solo_engine, "S2")
    state.player("p1")["res"] = {"wheat": 9, "wood": 9, "copper": 9}
    for turn in (1, 2, 3):
        assert state.g["turn"] == turn
        assert not [a for a in state.pending()[0].legal if a.startswith("produce")]
        finish_turn(state, h)
    assert [a for a in state.pending()[0].legal if a.startswith("produce")]


def test_s3_copper_cannot_be_donated(solo_engine):
    state = solo(solo_engine, "S3")
    state.player("p1")["res"]["copper"] = 5
    legal = state.pending()[0].legal
    assert not [a for a in legal if a.startswith("donate copper")] and "donate wood 2" in legal


# ---------------------------------------------------------------- Augur cards
def test_augur_favourable_and_ill_omens(solo_engine, h, load_dice):
    for number, roll in ((1, 4), (2, 5)):
        state = solo(solo_engine, augurs=[number], figure="periander")
        load_dice(state, [roll])
        load_dice(state, [9], "automaton")  # the enemy goes to Ionia
        finish_turn(state, h, [("periander", "macedonia")])
        # +1 turns a 4 into a success; -1 turns a 5 into a failure at Macedonia (5+)
        assert state.player("p1")["res"]["wood"] == (2 + 2 + 1 if number == 1 else 3)


def test_augur_plague_harvest_and_silver_vein_at_collection(solo_engine, h):
    for number, expected in ((3, {"wheat": 2, "wood": 3, "copper": 3}),
                             (4, {"wheat": 4, "wood": 3, "copper": 3}),
                             (11, {"wheat": 3, "wood": 3, "copper": 4})):
        state = solo(solo_engine, augurs=[number])
        finish_turn(state, h)
        assert state.player("p1")["res"] == expected, number


def test_augur_storm_closes_the_sea(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[5], figure="timoleon")
    h.pass_development(state)
    state.apply("p1", "send timoleon")
    legal = state.pending()[0].legal
    assert "to egypt" not in legal and "to kritiko-pelagos" not in legal and "to persia" in legal
    state.apply("p1", "back")
    load_dice(state, [6], "automaton")  # Aigaio Pelagos: the enemy stays home
    state.apply("p1", "done")
    assert state.g["territories"]["aigaio-pelagos"]["owner"] is None


def test_augur_brigand_raid(solo_engine):
    state = solo(solo_engine, augurs=[15, 6])
    assert not state.g["territories"]["epirus"]["brigand"]
    state = solo(solo_engine, augurs=[6])
    assert state.g["territories"]["epirus"]["brigand"]  # nothing held: Epirus


def test_augur_brigand_raid_hits_your_richest_land(solo_engine, h):
    state = solo(solo_engine, augurs=[15, 6])
    state.g["territories"]["epirus"]["owner"] = "p1"
    state.g["territories"]["aigaio-pelagos"]["owner"] = "p1"
    state.g["territories"]["chalkidiki"]["owner"] = "p1"
    state.player("p1")["posts"] = 0
    state.rng["automaton"].seed(0)
    state.g["enemy"]["pos"] = {}
    finish_turn(state, h)
    assert state.g["territories"]["epirus"] == {"owner": None, "brigand": True}
    assert state.g["territories"]["aigaio-pelagos"]["owner"] == "p1"  # sea: not a land territory
    assert state.player("p1")["posts"] == 1


def test_augur_earthquake_one_action(solo_engine):
    state = solo(solo_engine, augurs=[7])
    state.player("p1")["res"] = {"wheat": 9, "wood": 9, "copper": 9}
    state.apply("p1", "donate wheat 2")
    assert state.g["step"] == "diplomacy"


def test_augur_panhellenic_festival(solo_engine):
    state = solo(solo_engine, augurs=[8])
    state.player("p1")["reached"] = list(range(13))
    state.apply("p1", "donate wheat 2")
    assert state.player("p1")["prestige"] == 2


def test_augur_persian_envoy(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[9], figure="periander")
    load_dice(state, [5])
    load_dice(state, [9], "automaton")
    finish_turn(state, h, [("periander", "persia")])
    assert state.player("p1")["res"]["copper"] == 2 + 3 + 1


def test_augur_drought_buildings_cost_one_more(solo_engine):
    state = solo(solo_engine, augurs=[10])
    state.player("p1")["res"] = {"wheat": 0, "wood": 2, "copper": 0}
    assert "build granary" not in state.pending()[0].legal
    state.player("p1")["res"] = {"wheat": 1, "wood": 3, "copper": 0}
    state.apply("p1", "build granary")
    assert state.pending()[0].legal == ["extra wheat", "extra wood"]
    state.apply("p1", "extra wheat")
    assert state.player("p1")["res"] == {"wheat": 0, "wood": 1, "copper": 0}


def test_augur_timber_shortage_tokens_cost_one_more(solo_engine):
    state = solo(solo_engine, augurs=[12])
    state.player("p1")["res"] = {"wheat": 3, "wood": 2, "copper": 0}
    legal = state.pending()[0].legal
    assert "produce cavalry-1" in legal and "produce triremes-1" not in legal


def test_augur_divine_favour(solo_engine):
    state = solo(solo_engine, augurs=[13])
    assert state.player("p1")["prestige"] == 1


def test_augur_civil_strife(solo_engine):
    state = solo_engine.new_game(["p1"], 1, {"scenario": "S1"})
    state.g["solo"]["augurs"] = [14] + [15] * 9
    for action in ("city corinth", "league delian", "admin merchant", "figure periander"):
        state.apply("p1", action)
    assert state.pending()[0].legal == ["lose wheat", "lose wood", "lose copper"]
    state.apply("p1", "lose wood")
    assert state.player("p1")["res"] == {"wheat": 2, "wood": 1, "copper": 2}


def test_augur_calm_days(solo_engine, h):
    state = solo(solo_engine, augurs=[15])
    assert state.g["augur"] == 15 and state.player("p1")["actions"] == 2
    finish_turn(state, h)
    assert state.player("p1")["res"] == {"wheat": 3, "wood": 3, "copper": 3}


# ---------------------------------------------------------------- enemy figures
def test_enemy_figures_follow_the_d12_table(solo_engine, h, load_dice):
    state = solo(solo_engine, "S4", augurs=[15])
    load_dice(state, [1, 12, 8], "automaton")
    load_dice(state, [6, 6, 6], "automaton-fights")  # Epirus's brigands are fought
    h.pass_development(state)
    events = []
    while state.g["step"] == "diplomacy":
        events += state.apply("p1", "done")
    moves = [e.data["to"] for e in events if e.type == "enemy-move"]
    assert moves == ["epirus", "syracuse", "aeolis"]


def test_enemy_takes_an_undefended_territory_without_tax(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[15])
    load_dice(state, [3], "automaton")  # Euboea
    finish_turn(state, h)
    assert state.g["territories"]["euboea"]["owner"] == "enemy"
    assert state.g["enemy"]["pos"]["brasidas"] == "home"  # back home after resolution


def test_enemy_territory_is_retaken_unopposed(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[15], figure="periander")
    state.g["territories"]["euboea"]["owner"] = "enemy"
    load_dice(state, [9], "automaton")
    finish_turn(state, h, [("periander", "euboea")])
    assert state.g["territories"]["euboea"]["owner"] == "p1"
    assert state.player("p1")["res"]["wheat"] == 2 + 2 + 1


def test_enemy_and_your_figure_fight(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[15], figure="periander")
    load_dice(state, [3], "automaton")  # to Euboea
    load_dice(state, [2], "automaton-fights")  # rolls 2 + 2 (Brasidas)
    load_dice(state, [1])  # Periander 1 + 3 = 4: a tie, everyone goes home
    finish_turn(state, h, [("periander", "euboea")])
    assert state.g["territories"]["euboea"]["owner"] is None
    state = solo(solo_engine, augurs=[15], figure="periander")
    load_dice(state, [3], "automaton")
    load_dice(state, [2], "automaton-fights")
    load_dice(state, [2])  # 5 against 4
    finish_turn(state, h, [("periander", "euboea")])
    assert state.g["territories"]["euboea"]["owner"] == "p1"


def test_enemy_on_an_empire_raises_your_number(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[15], figure="periander")
    load_dice(state, [10], "automaton")  # Phoenicia
    load_dice(state, [6])  # 6 is short of the shared 7
    finish_turn(state, h, [("periander", "phoenicia")])
    assert state.player("p1")["res"]["wood"] == 3 and state.player("p1")["res"]["copper"] == 3


def test_enemy_against_brigands(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[15])
    state.g["territories"]["epirus"]["brigand"] = True
    load_dice(state, [1], "automaton")  # to Epirus
    load_dice(state, [7], "automaton-fights")  # attack 2 needs 7
    finish_turn(state, h)
    assert state.g["territories"]["epirus"] == {"owner": "enemy", "brigand": False}


# ---------------------------------------------------------------- end of game
def test_missing_objective_loses_after_the_last_turn(solo_engine, h):
    state = solo(solo_engine, "S1")
    state.g["solo"]["turns"] = 1
    finish_turn(state, h)
    result = state.result()
    assert result.points == {"p1": 0.0} and "Objectives not met" in result.reason


@pytest.mark.parametrize("scenario,setup", [
    ("S1", {"prestige": 7, "territories": ["epirus", "ionia"]}),
    ("S2", {"prestige": 10, "buildings": ["altar", "temple", "sanctuary"]}),
    ("S3", {"territories": ["aigaio-pelagos", "kritiko-pelagos"], "empires": 2}),
    ("S4", {"prestige": 9, "buildings": ["agora", "embassy"],
            "territories": ["euboea", "aeolis", "illyria"]}),
])
def test_each_solo_scenario_objectives_lead_to_the_battle(solo_engine, h, scenario, setup):
    state = solo(solo_engine, scenario, augurs=[15])
    state.g["solo"]["turns"] = 1
    state.g["enemy"]["pos"] = {}
    p = state.player("p1")
    p["reached"] = list(range(13))
    p["prestige"] = setup.get("prestige", 0)
    p["buildings"] = setup.get("buildings", [])
    state.g["solo"]["empire_successes"] = setup.get("empires", 0)
    for territory in setup.get("territories", []):
        state.g["territories"][territory] = {"owner": "p1", "brigand": False}
    p["posts"] = 3 - len(setup.get("territories", []))
    finish_turn(state, h)
    assert all(state.g["solo"]["objectives"]) and state.g["step"].startswith("battle")
    missing = solo(solo_engine, scenario, augurs=[15])
    missing.g["solo"]["turns"] = 1
    finish_turn(missing, h)
    assert not all(missing.g["solo"]["objectives"]) and missing.result().points["p1"] == 0.0


def battle_against(state, placed, figs=None):
    start_battle(state)
    b = state.g["battle"]
    side = state.player("p1")["league"]
    b["placed"][side] = {k: {"deck": "hoplites-2", "power": p} for k, p in placed.items()}
    b["slot"][side] = 18
    b["figs"][side] = figs or {}
    b["fig_front"][side] = 3
    state.g["step"] = "battle-figures"
    registry.advance(state)


def test_win_needs_a_majority_of_fronts_and_a_tie_loses(solo_engine):
    state = solo(solo_engine, "S1")
    army = state.g["enemy"]["army"]
    strong = {k: t["power"] + 1 for k, t in army.items() if not k.startswith("maritime")}
    battle_against(state, strong)
    assert state.result().points == {"p1": 1.0}
    state = solo(solo_engine, "S1")
    army = state.g["enemy"]["army"]
    one = {k: t["power"] + 1 for k, t in army.items() if k.startswith("flank")}
    one.update({k: t["power"] for k, t in army.items() if k.startswith("center")})
    battle_against(state, one)
    assert state.g["battle"]["fronts"] == {"flank": "delian", "center": None, "maritime": "enemy"}
    assert state.result().points == {"p1": 0.0}  # one front each is a loss


def test_the_enemy_has_no_figures_but_yours_may_engage(solo_engine):
    state = solo(solo_engine, "S1", figure="periander")
    army = state.g["enemy"]["army"]
    placed = {k: t["power"] for k, t in army.items() if k.startswith(("flank", "center"))}
    battle_against(state, placed, {"flank": "periander"})
    decision = state.pending()[0]
    assert decision.seat == "p1" and decision.legal == ["engage", "hold"]
    state.apply("p1", "engage")
    assert state.g["battle"]["columns"]["flank-1"] == "delian"


def test_enemy_leaves_your_undefended_territory_alone(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[15])
    state.g["territories"]["euboea"]["owner"] = "p1"
    state.player("p1")["posts"] = 2
    load_dice(state, [3], "automaton")  # Euboea
    finish_turn(state, h)
    assert state.g["territories"]["euboea"]["owner"] == "p1"


def test_enemy_beating_your_protector_takes_your_territory(solo_engine, h, load_dice):
    state = solo(solo_engine, augurs=[15], figure="periander")
    state.g["territories"]["euboea"]["owner"] = "p1"
    state.player("p1")["posts"] = 2
    state.player("p1")["pos"]["periander"] = "euboea"
    load_dice(state, [3], "automaton")  # to Euboea
    load_dice(state, [12], "automaton-fights")  # Brasidas 12 + 2 = 14
    load_dice(state, [1])  # Periander 1 + 3 = 4
    finish_turn(state, h)
    assert state.g["territories"]["euboea"]["owner"] == "enemy"
    assert state.player("p1")["posts"] == 3 and state.player("p1")["pos"]["periander"] == "home"


def test_enemy_figure_fights_with_its_attack_only(solo_engine, h, load_dice):
    """An enemy card lies face down beside the map, not on a player board, so its ability
    is off: enemy Themistocles fights at sea with attack 2, not 2 + 1 (D3, D10)."""
    state = solo(solo_engine, "S2", augurs=[15], figure="eupolemos")
    state.g["territories"]["aigaio-pelagos"]["owner"] = "p1"
    state.player("p1")["posts"] = 2
    state.player("p1")["pos"]["eupolemos"] = "aigaio-pelagos"
    load_dice(state, [6, 10], "automaton")  # Themistocles to Aigaio Pelagos, Pheidon away
    load_dice(state, [5], "automaton-fights")  # Themistocles rolls 5
    load_dice(state, [5])  # Eupolemos rolls 5: 5 + 2 = 7 against 5 + 2 = 7
    h.pass_development(state)
    events = state.apply("p1", "done")
    conflict = next(e for e in events if e.type == "conflict")
    assert conflict.data["strength"] == {"peloponnesian": 2, "enemy": 2}
    assert conflict.data["winner"] is None  # a tie: both go home
    assert state.g["territories"]["aigaio-pelagos"]["owner"] == "p1"


def test_the_enemy_goes_to_the_same_places_on_the_same_seed_whatever_you_do(solo_engine):
    """The enemy's moves have their own dice: its fights (which your moves bring about) do not
    shift where it goes in later turns, so two games on one seed face the same enemy moves."""
    import random

    def enemy_moves(policy: int) -> list:
        state = solo_engine.new_game(["p1"], 5, {"scenario": "S4"})
        chooser, moves = random.Random(policy), []
        while state.pending():
            decision = state.pending()[0]
            events = state.apply(decision.seat, chooser.choice(decision.legal))
            moves += [(e.data["figure"], e.data["roll"]) for e in events if e.type == "enemy-move"]
        return moves

    first, second = enemy_moves(1), enemy_moves(2)
    assert len(first) == 3 * 14 and first == second
