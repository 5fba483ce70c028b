"""Every influential figure ability, and the figure table itself."""

from __future__ import annotations

from collections import Counter


def test_each_city_has_five_figures_attack_nine_two_sea_three_abilities(engine):
    figures = engine.tables.figures.values()
    for city in engine.tables.cities:
        mine = [f for f in figures if f["city"] == city]
        assert len(mine) == 5
        assert sorted(f["attack"] for f in mine) == [1, 1, 2, 2, 3]
        assert sum(f["sea"] for f in mine) == 2
        assert sum(bool(f.get("ability")) for f in mine) == 3
    assert Counter(f["city"] for f in figures if f["id"] in
                   {"themistocles", "brasidas", "timoleon", "pheidon", "xenoclea", "eupolemos"}
                   and f["sea"]) == Counter(list(engine.tables.cities))






def test_themistocles_wooden_walls_at_sea(setup_game, h, load_dice):
    state = setup_game(figures=["themistocles", "brasidas"])
    load_dice(state, [6, 6])  # Delian 6+2+1 = 9 beats 6+2 = 8
    h.diplomacy(state, {"p2": [("brasidas", "kritiko-pelagos")],
                             "p1": [("themistocles", "kritiko-pelagos")]})
    assert state.g["territories"]["kritiko-pelagos"]["owner"] == "p1"
    land = setup_game(figures=["themistocles", "brasidas"])
    load_dice(land, [6, 6])  # on land he has only his 2: a tie
    h.diplomacy(land, {"p2": [("brasidas", "epirus")], "p1": [("themistocles", "epirus")]})
    assert land.g["territories"]["epirus"]["owner"] is None


def test_cimon_brings_a_copper_when_he_takes_a_territory(setup_game, h, load_dice):
    state = setup_game(figures=["cimon", "leonidas"])
    load_dice(state, [])
    h.diplomacy(state, {"p1": [("cimon", "epirus")]})
    assert state.player("p1")["res"]["copper"] == 2 + 1 + 1


def test_aspasia_and_perialla_add_two_to_integration(setup_game, h, load_dice):
    for city, figure, target in (("athens", "aspasia", "elis"), ("delphi", "perialla", "elis")):
        state = setup_game(cities=[city, "sparta"], figures=[figure, "leonidas"])
        load_dice(state, [5])
        h.diplomacy(state, {"p1": [(figure, target)]})
        assert state.g["integrated"][target]["league"] == "delian", figure


def test_token_discount_figures(setup_game):
    for city, figure, deck, resource in (("sparta", "archidamos", "hoplites-1", "copper"),
                                         ("corinth", "adeimantos", "triremes-1", "wood"),
                                         ("larissa", "thorax", "cavalry-1", "wheat")):
        state = setup_game(cities=["athens", city], figures=["pericles", figure])
        state.apply("p1", "pass")
        state.player("p2")["res"] = {"wheat": 1, "wood": 1, "copper": 1}
        state.apply("p2", f"produce {deck}")
        assert state.player("p2")["res"][resource] == 0, figure


def test_pausanias_adds_one_against_brigands_and_in_conflicts(setup_game, h, load_dice):
    state = setup_game(figures=["pericles", "pausanias"])
    state.g["territories"]["euboea"]["brigand"] = True
    h.give_figures(state, "p2", ["pausanias", "archidamos"])  # 1+2 attack, +1: 4 needs 5 instead of 7
    load_dice(state, [5])
    h.diplomacy(state, {"p2": [("pausanias", "euboea"), ("archidamos", "euboea")]})
    assert state.g["territories"]["euboea"]["owner"] == "p2"


def test_gorgo_and_tisamenos_may_reroll_one_failed_roll_per_turn(setup_game, h, load_dice):
    for city, figure in (("sparta", "gorgo"), ("elis", "tisamenos")):
        state = setup_game(cities=["athens", city], figures=["pericles", figure])
        load_dice(state, [2, 6])  # fails Macedonia with 2, rerolls 6
        h.diplomacy(state, {"p2": [(figure, "macedonia")]})
        decision = state.pending()[0]
        assert (decision.seat, decision.legal) == ("p2", ["reroll", "keep"])
        assert "2" in decision.prompt
        state.apply("p2", "reroll")
        assert state.player("p2")["res"]["wood"] == 2 + 2 + 1, figure
        assert state.player("p2")["reroll_used"] is False  # a new turn has begun


def test_keeping_a_failed_roll_and_only_once_per_turn(setup_game, h, load_dice):
    state = setup_game(cities=["athens", "sparta"], figures=["pericles", "gorgo"])
    state.player("p2")["figures"] = ["gorgo", "brasidas"]
    state.player("p2")["pos"]["brasidas"] = "home"
    load_dice(state, [2, 3, 4])  # Persia first: 2, rerolled into 3; then Macedonia 4
    h.diplomacy(state, {"p2": [("gorgo", "macedonia"), ("brasidas", "persia")]})
    state.apply("p2", "reroll")
    assert state.g["turn"] == 2  # no second question: Macedonia's failed 4 stands
    assert state.player("p2")["res"]["wood"] == 3 and state.player("p2")["res"]["copper"] == 3


def test_reroll_in_a_territory_conflict_replays_the_same_dice(setup_game, h, load_dice):
    state = setup_game(cities=["athens", "sparta"], figures=["pericles", "gorgo"])
    load_dice(state, [5, 3, 9])  # Pericles 5+3 = 8, Gorgo 3+1 = 4, rerolled 9+1 = 10
    h.diplomacy(state, {"p2": [("gorgo", "epirus")], "p1": [("pericles", "epirus")]})
    assert state.pending()[0].seat == "p2"
    # the dice are rolled in the open: Gorgo's owner sees both sides before deciding
    assert "peloponnesian 3 + 1 = 4 against delian 5 + 3 = 8" in state.pending()[0].prompt
    state.apply("p2", "keep")
    assert state.g["territories"]["epirus"]["owner"] == "p1"
    state = setup_game(cities=["athens", "sparta"], figures=["pericles", "gorgo"])
    load_dice(state, [5, 3, 9])
    h.diplomacy(state, {"p2": [("gorgo", "epirus")], "p1": [("pericles", "epirus")]})
    events = state.apply("p2", "reroll")
    assert state.g["territories"]["epirus"]["owner"] == "p2"
    assert sum(e.type == "conflict" for e in events) == 1


def test_timoleon_helps_only_at_syracuse_and_carthage(setup_game, h, load_dice):
    state = setup_game(cities=["athens", "corinth"], figures=["pericles", "timoleon"])
    load_dice(state, [3])
    h.diplomacy(state, {"p2": [("timoleon", "carthage")]})
    assert state.player("p2")["res"]["copper"] == 2 + 2 + 1
    state = setup_game(cities=["athens", "corinth"], figures=["pericles", "timoleon"])
    load_dice(state, [3])
    h.diplomacy(state, {"p2": [("timoleon", "egypt")]})
    assert state.player("p2")["res"]["wheat"] == 2 + 1


def test_cypselos_and_medios_add_to_collection(setup_game, h):
    for city, figure, resource in (("corinth", "cypselos", "copper"), ("larissa", "medios", "wheat")):
        state = setup_game(cities=["athens", city], figures=["pericles", figure])
        h.diplomacy(state, {})
        assert state.player("p2")["res"][resource] == 2 + 1 + 1, figure


def test_xenoclea_wins_ties(setup_game, h, load_dice):
    state = setup_game(cities=["athens", "delphi"], figures=["cleisthenes", "xenoclea"])
    load_dice(state, [6, 6])
    h.diplomacy(state, {"p2": [("xenoclea", "epirus")], "p1": [("cleisthenes", "epirus")]})
    assert state.g["territories"]["epirus"]["owner"] == "p2"


def test_xenoclea_tie_at_a_greek_city_sends_everyone_home(setup_game, h, load_dice):
    # Reference D3: her tie ability holds in Territory conflicts only.
    state = setup_game(cities=["athens", "delphi"], figures=["cleisthenes", "xenoclea"])
    dice = load_dice(state, [6, 6, 12])   # 6 + 2 against 6 + 2; a 12 would integrate Corinth
    h.pass_development(state)
    h.move(state, "p2", "xenoclea", "corinth")
    state.apply("p1", "send cleisthenes")
    events = state.apply("p1", "to corinth")   # his last figure moved: resolution follows
    conflict = next(e for e in events if e.type == "conflict")
    assert conflict.data["winner"] is None and "everyone goes home" in conflict.text
    assert "corinth" not in state.g["integrated"] and dice.values == [12]
    assert state.player("p2")["pos"]["xenoclea"] == "home"
    assert state.player("p1")["pos"]["cleisthenes"] == "home"


def test_aristonike_adds_prestige_to_donations(setup_game):
    state = setup_game(cities=["delphi", "sparta"], figures=["aristonike", "leonidas"])
    state.player("p1")["reached"] = list(range(13))
    state.apply("p1", "donate wheat 2")
    assert state.player("p1")["prestige"] == 3


def test_eupolemos_gains_prestige_when_taking(setup_game, h, load_dice):
    state = setup_game(cities=["elis", "sparta"], figures=["eupolemos", "leonidas"])
    state.player("p1")["reached"] = list(range(13))
    load_dice(state, [])
    h.diplomacy(state, {"p1": [("eupolemos", "aeolis")]})
    assert state.player("p1")["prestige"] == 2


def test_hippias_and_heliodorus_add_two_at_empires(setup_game, h, load_dice):
    for city, figure in (("elis", "hippias"), ("larissa", "heliodorus")):
        state = setup_game(cities=[city, "sparta"], figures=[figure, "leonidas"])
        load_dice(state, [3])
        h.diplomacy(state, {"p1": [(figure, "phoenicia")]})
        assert state.player("p1")["res"]["wood"] == 2 + 1 + 1, figure


def test_figures_without_abilities_only_fight(engine):
    plain = [f for f in engine.tables.figures.values() if not f.get("ability")]
    assert {f["id"] for f in plain if f["attack"] == 3} == {
        "pericles", "leonidas", "periander", "timasitheos", "oxylos", "aleuas"}


def test_cimon_and_eupolemos_pay_only_the_player_who_takes_the_territory(setup_game, h, load_dice):
    """The territory goes to one player, whose city token is placed and who collects the tax
    (resolution 2, collecting from territories): a partner's stronger figure takes it for
    its own player, and Cimon's copper stays unpaid."""
    def three():
        state = setup_game(players=3, cities=["athens", "sparta", "elis"],
                           figures=["pericles", "leonidas", "oxylos"])
        for seat in ("p1", "p3"):
            state.player(seat)["reached"] = list(range(13))
        return state

    state = three()
    h.give_figures(state, "p1", ["cimon"])
    load_dice(state, [])
    h.diplomacy(state, {"p1": [("cimon", "epirus")], "p3": [("oxylos", "epirus")]})
    assert state.g["territories"]["epirus"]["owner"] == "p3"
    assert state.player("p1")["res"]["copper"] == 2 + 1   # Cimon was there, but p3 took it

    state = three()
    h.give_figures(state, "p1", ["pericles", "cimon"])
    load_dice(state, [])
    h.diplomacy(state, {"p1": [("pericles", "epirus"), ("cimon", "epirus")]})
    assert state.g["territories"]["epirus"]["owner"] == "p1"
    assert state.player("p1")["res"]["copper"] == 2 + 1 + 1   # his own player took it

    state = three()
    h.give_figures(state, "p3", ["eupolemos"])
    state.g["territories"]["euboea"]["brigand"] = True
    load_dice(state, [7])   # attack 2 needs 7
    h.diplomacy(state, {"p3": [("eupolemos", "euboea")]})
    assert state.g["territories"]["euboea"]["owner"] == "p3"
    assert state.player("p3")["prestige"] == 2   # one Prestige for the brigands and the taking


def test_eupolemos_gains_prestige_for_brigands_he_helps_defeat(setup_game, h, load_dice):
    """D3 (reference): Eupolemos earns 1 Prestige each time he takes a territory or defeats
    brigands.  Beside a partner's stronger figure the partner takes the territory, but
    Eupolemos fought the brigands too, so his player still gains the Prestige; with
    no brigands there, the partner's taking pays him nothing."""
    for brigands, prestige in ((True, 2), (False, 1)):
        state = setup_game(players=3, cities=["athens", "sparta", "elis"],
                           figures=["pericles", "leonidas", "eupolemos"])
        state.player("p3")["reached"] = list(range(13))
        state.g["territories"]["euboea"]["brigand"] = brigands
        load_dice(state, [3] if brigands else [])   # Pericles 3 + Eupolemos 2 = 5 needs 3
        h.diplomacy(state, {"p1": [("pericles", "euboea")], "p3": [("eupolemos", "euboea")]})
        assert state.g["territories"]["euboea"]["owner"] == "p1"
        assert state.player("p3")["prestige"] == prestige, brigands
