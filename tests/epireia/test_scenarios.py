"""Each scenario card's objective, reward and constraint; acts and the end trigger."""

from __future__ import annotations

from agon.referee.games.epireia.scenarios import draw_next_act


def activate(state, card):
    act = state.t.scenarios[card]["act"]
    state.g["scenario"] = {"id": card, "act": act - 1, "done": True, "winner": None} if act > 1 else None
    state.g["scenario_draws"][act - 1] = card
    draw_next_act(state)


def reserve(state, league):
    return [t["deck"] for t in state.g["leagues"][league]["reserve"]]


def test_acts_are_drawn_one_per_act_at_random(engine):
    seen = set()
    for seed in range(30):
        state = engine.new_game(engine.seats(2), seed, {})
        draws = state.g["scenario_draws"]
        assert [engine.tables.scenarios[c]["act"] for c in draws] == [1, 2, 3]
        seen.add(draws[0])
    assert seen == {"olympic-games", "treasury-of-delos", "colonies-of-the-north"}


def test_olympic_games(setup_game):
    state = setup_game(players=2, scenario="olympic-games", active=True)
    state.apply("p1", "pass")
    state.apply("p2", "pass")
    state.apply("p2", "send leonidas")
    legal = state.pending()[0].legal
    assert not [a for a in legal if a.split()[-1] in ("elis", "delphi", "corinth", "larissa")]
    state.apply("p2", "back")
    state.player("p1")["prestige"] = 8
    state.apply("p2", "done")
    assert state.g["scenario"]["winner"] == "delian" and reserve(state, "delian") == ["cavalry-2"]


def test_treasury_of_delos(setup_game):
    state = setup_game(players=3, scenario="treasury-of-delos", active=True)
    state.player("p1")["res"]["wheat"] = 8
    state.apply("p1", "donate wheat 2")
    assert state.player("p1")["prestige"] == 1  # two is not enough under this card
    state.apply("p1", "donate wheat 3")
    assert state.player("p1")["prestige"] == 2
    state.g["leagues"]["delian"]["treasury"]["copper"] = 14  # 5 + 14 < 20 for two cities
    state.apply("p3", "pass")
    assert not state.g["scenario"]["done"]
    state.g["leagues"]["delian"]["treasury"]["copper"] = 15
    state.apply("p2", "pass")
    assert state.g["scenario"]["winner"] == "delian" and reserve(state, "delian") == ["hoplites-2"]


def test_colonies_of_the_north(setup_game):
    state = setup_game(players=3)
    state.g["territories"]["epirus"]["owner"] = "p1"
    state.player("p1")["posts"] = 2
    activate(state, "colonies-of-the-north")
    assert state.g["territories"]["epirus"] == {"owner": None, "brigand": True}
    assert state.g["territories"]["illyria"]["brigand"] and state.player("p1")["posts"] == 3
    for t in ("euboea", "aeolis", "ionia"):
        state.g["territories"][t]["owner"] = "p2"
    for t in ("chalkidiki", "thrakiko-pelagos", "aigaio-pelagos"):
        state.g["territories"][t]["owner"] = "p1"
    state.apply("p1", "pass")  # the Delian league of two cities needs four
    assert state.g["scenario"]["winner"] == "peloponnesian"
    assert reserve(state, "peloponnesian") == ["triremes-2"]


def test_the_plague(setup_game, h):
    state = setup_game(players=2)
    activate(state, "the-plague")
    state.player("p1")["res"] = {"wheat": 4, "wood": 2, "copper": 0}
    state.player("p2")["res"] = {"wheat": 0, "wood": 0, "copper": 0}
    state.player("p2")["prestige"] = 3
    state.apply("p1", "build lumber-camp")
    assert not state.g["scenario"]["done"]
    state.apply("p1", "build granary")
    assert state.g["scenario"]["winner"] == "delian"


def test_plague_upkeep_is_paid_before_the_turns_income(setup_game, h):
    """The resolution phase ends with the adding of the turn's resources (resolution 4): the
    upkeep comes out of the wheat held before it. With wheat the player chooses; without, the
    Prestige is lost, and the wheat collected afterwards cannot pay it."""
    plague = setup_game(players=2)
    activate(plague, "the-plague")
    plague.player("p2")["res"] = {"wheat": 0, "wood": 0, "copper": 0}
    for seat in ("p1", "p2"):
        plague.player(seat)["prestige"] = 3
        plague.player(seat)["reached"] = list(range(13))
    h.pass_development(plague)
    h.end_diplomacy(plague)
    decision = plague.pending()[0]
    assert (decision.seat, decision.legal) == ("p1", ["pay", "lose prestige"])
    plague.apply("p1", "pay")   # p2 is not asked: the turn goes on
    assert plague.g["step"] == "develop" and plague.g["turn"] == 2
    assert plague.player("p1")["res"]["wheat"] == 2 - 1 + 1 and plague.player("p1")["prestige"] == 3
    assert plague.player("p2")["prestige"] == 2 and plague.player("p2")["res"]["wheat"] == 1
    chooses = setup_game(players=2)
    activate(chooses, "the-plague")
    chooses.player("p1")["prestige"] = 3
    chooses.player("p1")["reached"] = list(range(13))
    h.pass_development(chooses)
    h.end_diplomacy(chooses)
    chooses.apply("p1", "lose prestige")
    chooses.apply("p2", "pay")
    assert chooses.player("p1")["prestige"] == 2 and chooses.player("p1")["res"]["wheat"] == 3


def test_great_earthquake(setup_game, h, load_dice):
    state = setup_game(players=2, figures=["pericles", "leonidas"])
    activate(state, "great-earthquake")
    spots = state.g["territories"]
    assert [t for t, s in spots.items() if s["brigand"]] == ["euboea", "chalkidiki", "aeolis"]
    state.player("p2")["figures"] = ["leonidas", "archidamos"]
    state.player("p2")["pos"] = {"leonidas": "home", "archidamos": "home"}
    load_dice(state, [5, 7])  # attack 3 needs 5, attack 2 needs 7
    h.pass_development(state)
    h.move(state, "p2", "leonidas", "euboea")
    h.move(state, "p2", "archidamos", "aeolis")
    state.apply("p1", "done")
    assert state.g["territories"]["euboea"]["owner"] == "p2"
    assert state.g["territories"]["aeolis"]["owner"] == "p2"
    assert reserve(state, "peloponnesian") == ["cavalry-2"]


def test_persian_gold(setup_game, h, load_dice):
    state = setup_game(players=2)
    activate(state, "persian-gold")
    state.g["leagues"]["delian"]["counters"]["empires"] = 2
    load_dice(state, [5])  # Persia needs only 5 under this card
    h.pass_development(state)
    state.apply("p2", "done")
    h.move(state, "p1", "pericles", "persia")
    assert reserve(state, "delian") == ["triremes-2"]
    assert state.g["scenario"]["act"] == 3  # the turn ended, Act III is drawn


def test_affair_of_corcyra(setup_game, h):
    state = setup_game(players=2, figures=["themistocles", "brasidas"])
    activate(state, "affair-of-corcyra")
    h.pass_development(state)
    state.apply("p2", "send brasidas")
    legal = state.pending()[0].legal
    assert "to syracuse" not in legal and "to carthage" not in legal and "to egypt" in legal
    state = setup_game(players=2)
    activate(state, "affair-of-corcyra")
    state.player("p1")["res"] = {"wheat": 0, "wood": 6, "copper": 0}
    state.player("p1")["reached"] = list(range(13))
    state.apply("p1", "produce triremes-1")
    state.apply("p1", "produce triremes-1")
    assert not state.g["scenario"]["done"]
    state.g["decks"]["triremes-1"] = []
    state.g["decks"]["triremes-2"] = []  # no trireme left: any token counts now
    state.g["leagues"]["delian"]["counters"]["tokens"] += 1
    state.apply("p2", "pass")
    assert state.g["scenario"]["winner"] == "delian"
    assert state.g["battle_after_turn"] is True


def test_megarian_decree(setup_game, h, load_dice):
    state = setup_game(players=2, figures=["themistocles", "leonidas"])
    state.g["territories"]["kritiko-pelagos"]["owner"] = "p1"  # held before: does not count
    state.player("p1")["posts"] = 2
    activate(state, "megarian-decree")
    state.player("p1")["res"]["copper"] = 5
    assert not [a for a in state.pending()[0].legal if a.startswith("donate copper")]
    state.player("p1")["figures"] = ["themistocles", "cimon"]
    state.player("p1")["pos"] = {"themistocles": "home", "cimon": "home"}
    load_dice(state, [])
    h.pass_development(state)
    state.apply("p2", "done")
    h.move(state, "p1", "themistocles", "aigaio-pelagos")
    h.move(state, "p1", "cimon", "thrakiko-pelagos")
    assert state.g["scenario"]["winner"] == "delian" and reserve(state, "delian") == ["hoplites-2"]


def test_revolt_of_potidaea(setup_game):
    state = setup_game(players=2)
    state.g["territories"]["chalkidiki"]["owner"] = "p2"
    activate(state, "revolt-of-potidaea")
    assert state.g["territories"]["chalkidiki"] == {"owner": None, "brigand": True}
    state.player("p1")["res"] = {"wheat": 4, "wood": 4, "copper": 0}
    state.player("p1")["reached"] = list(range(13))
    for deck in ("cavalry-1", "cavalry-1"):
        state.apply("p1", f"produce {deck}")
    state.g["leagues"]["delian"]["counters"]["tokens"] += 1
    state.player("p2")["res"] = {"wheat": 0, "wood": 0, "copper": 4}
    state.apply("p2", "produce hoplites-1")
    assert not state.g["scenario"]["done"]
    state.g["leagues"]["delian"]["counters"]["tokens"] += 1
    state.apply("p2", "produce hoplites-1")
    assert state.g["scenario"]["winner"] == "delian" and reserve(state, "delian")[-1] == "cavalry-2"


def test_both_leagues_at_once_the_peloponnesian_takes_it(setup_game):
    state = setup_game(players=2, scenario="olympic-games", active=True)
    state.player("p1")["prestige"] = 8
    state.player("p2")["prestige"] = 8
    state.apply("p1", "pass")
    assert state.g["scenario"]["winner"] == "peloponnesian"


def test_next_act_is_drawn_at_the_start_of_the_next_turn(setup_game, h):
    state = setup_game(players=2, scenario="olympic-games", active=True)
    state.g["scenario_draws"][1] = "persian-gold"
    state.player("p1")["prestige"] = 8
    state.apply("p1", "pass")
    assert state.g["scenario"]["act"] == 1
    h.pass_development(state)
    h.end_diplomacy(state)
    assert state.g["scenario"] == {"id": "persian-gold", "act": 2, "done": False, "winner": None}


def test_act_three_ends_the_game_after_the_turn(setup_game, h):
    state = setup_game(players=2, scenario="megarian-decree", active=True)
    state.g["battle_after_turn"] = True
    h.pass_development(state)
    h.end_diplomacy(state)
    assert state.g["step"].startswith("battle") and state.g["turn"] == 1


def test_turn_cap_starts_the_battle(engine):
    state = engine.new_game(engine.seats(2), 1, {"max_turns": "1"})
    for action in ("city athens", "city sparta", "admin archon", "admin merchant"):
        state.apply(state.pending()[0].seat, action)
    state.apply("p1", "figure pericles")
    state.apply("p2", "figure leonidas")
    while state.g["step"] in ("develop", "diplomacy"):
        decision = state.pending()[0]
        state.apply(decision.seat, "pass" if "pass" in decision.legal else "done")
    assert state.g["step"].startswith("battle") and state.g["turn"] == 1


def test_a_guard_caught_by_brigands_fights_them_unless_moved_away(setup_game, h, load_dice):
    state = setup_game(players=2, cities=["athens", "sparta"], figures=["pericles", "leonidas"])
    state.g["territories"]["epirus"]["owner"] = "p1"
    state.player("p1")["posts"] = 2
    state.player("p1")["pos"]["pericles"] = "epirus"   # guarding Epirus
    activate(state, "colonies-of-the-north")
    assert state.g["territories"]["epirus"] == {"owner": None, "brigand": True}
    assert state.player("p1")["pos"]["pericles"] == "epirus"   # still standing there
    load_dice(state, [5])   # attack 3 needs 5: the brigands are beaten, Epirus taken again
    h.diplomacy(state, {})
    assert state.g["territories"]["epirus"] == {"owner": "p1", "brigand": False}
    assert state.g["leagues"]["delian"]["counters"]["brigands"] == 1
