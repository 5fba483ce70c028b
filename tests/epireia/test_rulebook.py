"""The rulebook's own worked examples and the numbers in its tables, played as positions.

Each test is named after the rulebook section it comes from.  Where the rulebook gives a
number (a threshold, a cost, a reward), the test plays the position on both sides of it:
one pip short fails, exactly on it succeeds, and the lowest and highest die faces too.
"""

from __future__ import annotations

import pytest


def play_turn(state, moves: dict) -> list:
    """Pass development, make `moves` ({seat: [(figure, place)]}) in diplomacy order, and
    return every event until the next turn starts (or the game stops for a question)."""
    events = []
    while state.g["step"] == "develop" and not state.g["queue"]:
        events += state.apply(state.pending()[0].seat, "pass")
    while state.g["step"] == "diplomacy":
        seat = state.pending()[0].seat
        for figure, place in moves.get(seat, []):
            events += state.apply(seat, f"send {figure}")
            events += state.apply(seat, f"to {place}")
        if state.g["step"] == "diplomacy" and state.pending()[0].seat == seat:
            events += state.apply(seat, "done")
    return events


def of(events, kind: str) -> list[dict]:
    return [e.data for e in events if e.type == kind]


# ================================================================ worked examples
# ---------------------------------------------------------------- resolution 1, empires
def test_resolution_1_example_heliodorus_and_themistocles_share_persia(setup_game, load_dice):
    """Two figures on Persia: 9+ instead of 7+; Heliodorus's +2 cancels the penalty."""
    for helio, themis, helio_ok, themis_ok in ((7, 9, True, True), (6, 8, False, False)):
        state = setup_game(cities=["athens", "larissa"], figures=["themistocles", "heliodorus"])
        load_dice(state, [helio, themis])  # the Peloponnesian figure rolls first
        events = play_turn(state, {"p2": [("heliodorus", "persia")],
                                   "p1": [("themistocles", "persia")]})
        rolls = [(d["seat"], d["roll"], d["bonus"], d["target"], d["success"])
                 for d in of(events, "empire")]
        assert rolls == [("p2", helio, 2, 9, helio_ok), ("p1", themis, 0, 9, themis_ok)]
        p1, p2 = state.player("p1"), state.player("p2")
        # Persia pays 3 copper and 1 Prestige; collection adds 1 copper
        assert p2["res"]["copper"] == 2 + 1 + (3 if helio_ok else 0)
        assert p2["prestige"] == 1 + helio_ok
        assert p1["res"]["copper"] == 2 + 1 + (3 if themis_ok else 0)
        assert p1["prestige"] == 1 + themis_ok
        # "regardless of the result, the figure returns to its city"
        assert p1["pos"]["themistocles"] == p2["pos"]["heliodorus"] == "home"


def test_resolution_1_example_alone_on_persia_themistocles_needs_seven(setup_game, load_dice):
    """The same example's baseline: 'a result of 7 or higher is normally required'."""
    for roll, ok in ((6, False), (7, True)):
        state = setup_game(cities=["athens", "larissa"], figures=["themistocles", "heliodorus"])
        load_dice(state, [roll])
        events = play_turn(state, {"p1": [("themistocles", "persia")]})
        assert [(d["target"], d["success"]) for d in of(events, "empire")] == [(7, ok)]


# ---------------------------------------------------------------- resolution 2, territories
def test_resolution_2_example_cleisthenes_and_pericles_against_brasidas(setup_game, h, load_dice):
    """Rolls 4 and 5: 4 + 2 + 3 = 9 against 5 + 2 = 7, the first player wins the territory."""
    state = setup_game(cities=["athens", "sparta"], figures=["pericles", "brasidas"])
    h.give_figures(state, "p1", ["cleisthenes", "pericles"])
    load_dice(state, [4, 5])
    events = play_turn(state, {"p2": [("brasidas", "epirus")],
                               "p1": [("cleisthenes", "epirus"), ("pericles", "epirus")]})
    [conflict] = of(events, "conflict")
    assert conflict["rolls"] == {"delian": 4, "peloponnesian": 5}
    assert conflict["strength"] == {"delian": 5, "peloponnesian": 2}
    assert conflict["winner"] == "delian"
    assert state.g["territories"]["epirus"]["owner"] == "p1"
    # the winner collects Epirus's tax (2 wood, 1 wheat) once, then the turn's income
    assert state.player("p1")["res"] == {"wheat": 2 + 1 + 1, "wood": 2 + 2 + 1, "copper": 3}
    assert state.player("p1")["posts"] == 2
    assert state.player("p2")["pos"]["brasidas"] == "home"


def test_resolution_2_example_same_dice_one_pip_apart(setup_game, h, load_dice):
    """Around the example: 9 against 9 is a tie (everyone home, nobody takes it); 9 against
    10 loses it."""
    for p2_roll, winner in ((7, None), (8, "peloponnesian")):
        state = setup_game(cities=["athens", "sparta"], figures=["pericles", "brasidas"])
        h.give_figures(state, "p1", ["cleisthenes", "pericles"])
        load_dice(state, [4, p2_roll])
        events = play_turn(state, {"p2": [("brasidas", "epirus")],
                                   "p1": [("cleisthenes", "epirus"), ("pericles", "epirus")]})
        assert of(events, "conflict")[0]["winner"] == winner
        owner = state.g["territories"]["epirus"]["owner"]
        assert owner == (None if winner is None else "p2")
        assert state.player("p1")["pos"] == {"cleisthenes": "home", "pericles": "home"}


def test_resolution_2_example_brigands_cleisthenes_and_pericles_need_three(setup_game, h, load_dice):
    """Combined attack 5 (2 + 3) needs 3 or more: 3 wins the territory, 2 sends them home."""
    for roll, ok in ((2, False), (3, True)):
        state = setup_game(cities=["athens", "sparta"])
        h.give_figures(state, "p1", ["cleisthenes", "pericles"])
        state.g["territories"]["illyria"]["brigand"] = True
        load_dice(state, [roll])
        events = play_turn(state, {"p1": [("cleisthenes", "illyria"), ("pericles", "illyria")]})
        [fight] = of(events, "brigands")
        assert (fight["target"], fight["roll"], fight["success"]) == (3, roll, ok)
        spot = state.g["territories"]["illyria"]
        assert spot == ({"owner": "p1", "brigand": False} if ok else {"owner": None, "brigand": True})
        home = {"cleisthenes": "home", "pericles": "home"}
        assert (state.player("p1")["pos"] == home) is not ok


def test_resolution_2_note_two_cities_of_one_league_make_one_brigand_roll(setup_game, h, load_dice):
    """'If the figures belong to several cities of the same league, only one roll is made':
    partners' attacks add up (Pericles 3 + Periander 3 = 6 needs 3+) and the die is rolled
    once, by the player of the strongest figure (the earlier seat on equal attack)."""
    state = setup_game(players=3, cities=["athens", "sparta", "corinth"])
    state.g["territories"]["euboea"]["brigand"] = True
    load_dice(state, [3])   # one die only: a second roll would find the list empty
    events = play_turn(state, {"p1": [("pericles", "euboea")], "p3": [("periander", "euboea")]})
    [fight] = of(events, "brigands")
    assert (fight["seat"], fight["target"], fight["success"]) == ("p1", 3, True)
    assert state.g["territories"]["euboea"]["owner"] == "p1"


def test_resolution_2_note_more_figures_fight_fewer(setup_game, h, load_dice):
    """'Several figures can fight fewer': two partners' figures against one, each league one
    die, all attacks added (3 + 3 against 3 in a 3-player game)."""
    state = setup_game(players=3, cities=["athens", "sparta", "corinth"])
    load_dice(state, [2, 7])   # peloponnesian 2 + 3 = 5 ... delian 7 + 6 = 13, in either order
    events = play_turn(state, {"p2": [("leonidas", "aeolis")],
                               "p1": [("pericles", "aeolis")], "p3": [("periander", "aeolis")]})
    [conflict] = of(events, "conflict")
    assert conflict["strength"] == {"delian": 6, "peloponnesian": 3}
    assert len(conflict["rolls"]) == 2


# ================================================================ tables
# ---------------------------------------------------------------- setup III
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_iii_starting_resources_prestige_posts_and_empty_treasuries(setup_game, players):
    state = setup_game(players=players)
    for seat in state.g["seats"]:
        p = state.player(seat)
        assert p["res"] == {"wheat": 2, "wood": 2, "copper": 2}
        assert (p["prestige"], p["posts"]) == (1, 3)
    for league in state.g["leagues"].values():
        assert league["treasury"] == {"wheat": 0, "wood": 0, "copper": 0}


# ---------------------------------------------------------------- development 1 and 3
def test_development_1_donate_between_two_and_eight_of_one_resource(setup_game):
    state = setup_game()
    state.player("p1")["res"] = {"wheat": 10, "wood": 1, "copper": 0}
    legal = state.pending()[0].legal
    assert [a for a in legal if a.startswith("donate")] == [f"donate wheat {n}" for n in range(2, 9)]
    state.apply("p1", "donate wheat 8")
    assert state.player("p1")["prestige"] == 2   # 8 gives the same 1 Prestige as 2
    assert state.g["leagues"]["delian"]["treasury"]["wheat"] == 8


@pytest.mark.parametrize("deck,cost", [
    ("hoplites-1", {"copper": 2}), ("hoplites-2", {"copper": 3}),
    ("triremes-1", {"wood": 2}), ("triremes-2", {"wood": 3}),
    ("cavalry-1", {"wheat": 2}), ("cavalry-2", {"wheat": 3})])
def test_development_3_military_token_costs(setup_game, deck, cost):
    """Level I costs 2, level II costs 3 (and its military building): one short is refused."""
    [resource] = cost
    state = setup_game()
    state.player("p1")["buildings"] = ["barracks", "shipyard", "stables"]
    state.player("p1")["res"] = {"wheat": 0, "wood": 0, "copper": 0} | {resource: cost[resource] - 1}
    assert f"produce {deck}" not in state.pending()[0].legal
    state.player("p1")["res"][resource] += 1
    state.apply("p1", f"produce {deck}")
    assert state.player("p1")["res"][resource] == 0
    assert [t["deck"] for t in state.g["leagues"]["delian"]["reserve"]] == [deck]


# ---------------------------------------------------------------- resolution 1: empire table
EMPIRES = {"persia": (7, 9), "phoenicia": (5, 7), "egypt": (5, 7), "carthage": (5, 7),
           "syracuse": (7, 9), "macedonia": (5, 7)}


@pytest.mark.parametrize("empire", sorted(EMPIRES))
def test_resolution_1_empire_table_alone_and_shared(setup_game, load_dice, empire):
    """The table's '1 IF' and '2 IF' numbers, one pip short and exactly on them; a 1 always
    fails and a 12 always succeeds."""
    alone, shared = EMPIRES[empire]
    for figures, target in ((1, alone), (2, shared)):
        for roll in sorted({1, target - 1, target, 12}):
            state = setup_game(cities=["athens", "sparta"], figures=["themistocles", "brasidas"])
            dice = [roll] if figures == 1 else [12, roll]   # the Peloponnesian rolls first
            load_dice(state, dice)
            moves = {"p1": [("themistocles", empire)]}
            if figures == 2:
                moves["p2"] = [("brasidas", empire)]
            events = play_turn(state, moves)
            mine = [d for d in of(events, "empire") if d["seat"] == "p1"]
            assert [(d["target"], d["success"]) for d in mine] == [(target, roll >= target)], roll


# ---------------------------------------------------------------- resolution 2: brigand table
@pytest.mark.parametrize("figures,target", [
    (["cimon"], 7), (["cleisthenes"], 7), (["pericles"], 5),
    (["pericles", "cimon"], 5), (["pericles", "cleisthenes"], 3),
    (["pericles", "cleisthenes", "cimon"], 3)])
def test_resolution_2_brigand_table(setup_game, h, load_dice, figures, target):
    """Attack 1-2 needs 7+, 3-4 needs 5+, 5 or more needs 3+."""
    for roll in sorted({1, target - 1, target, 12}):
        state = setup_game(cities=["athens", "sparta"])
        h.give_figures(state, "p1", figures)
        state.g["territories"]["chalkidiki"]["brigand"] = True
        load_dice(state, [roll])
        events = play_turn(state, {"p1": [(f, "chalkidiki") for f in figures]})
        [fight] = of(events, "brigands")
        assert (fight["target"], fight["success"]) == (target, roll >= target), roll


# ---------------------------------------------------------------- resolution 3: Greek cities
GREEK_CITIES = {"athens": "hoplites-1", "sparta": "hoplites-1", "corinth": "triremes-1",
                "delphi": "cavalry-2", "elis": "triremes-1", "larissa": "cavalry-2"}


@pytest.mark.parametrize("city", sorted(GREEK_CITIES))
def test_resolution_3_greek_city_table(setup_game, load_dice, city):
    """Every city needs 7 or more and pays 1 copper and its military token to the league
    ('Level I1' cavalry read as level II, reference P-17)."""
    capitals = city in ("athens", "sparta")
    cities, figures = (["corinth", "elis"], ["periander", "oxylos"]) if capitals else \
        (["athens", "sparta"], ["pericles", "leonidas"])
    for roll, ok in ((6, False), (7, True)):
        state = setup_game(cities=cities, figures=figures)
        figure = state.player("p1")["figures"][0]
        load_dice(state, [roll])
        events = play_turn(state, {"p1": [(figure, city)]})
        [court] = of(events, "integration")
        assert (court["roll"], court["success"]) == (roll, ok)
        held = state.g["integrated"].get(city)
        assert state.player("p1")["res"]["copper"] == 2 + 1 + ok
        assert (held["league"], held["token"]["deck"]) == ("delian", GREEK_CITIES[city]) if ok \
            else held is None


# ---------------------------------------------------------------- solo: the d12 table
SOLO_D12 = ["epirus", "illyria", "euboea", "chalkidiki", "thrakiko-pelagos", "aigaio-pelagos",
            "kritiko-pelagos", "aeolis", "ionia", "phoenicia", "egypt", "syracuse"]


def test_solo_diplomacy_d12_table_and_its_figures(solo_engine):
    """The table's twelve rows are the same for every enemy figure, and its header names
    one figure per city."""
    solo = solo_engine.tables.solo
    assert solo["d12"] == SOLO_D12
    assert solo["enemy_figures"] == {"athens": "themistocles", "sparta": "brasidas",
                                     "corinth": "timoleon", "larissa": "pheidon",
                                     "delphi": "xenoclea", "elis": "eupolemos"}


@pytest.mark.parametrize("roll", [1, 5, 9, 10, 12])
def test_solo_diplomacy_d12_rolls_send_the_enemy_figure(solo_engine, load_dice, roll):
    """Lowest and highest faces, the first sea row, the last territory and the first empire."""
    state = solo_engine.new_game(["p1"], 1, {"scenario": "S3"})
    for action in ("admin merchant", "figure pericles"):
        state.apply("p1", action)
    state.g["solo"]["augurs"] = [15] * 12
    state.g["augur"] = 15
    load_dice(state, [roll, 1], "automaton")   # Brasidas, then Timoleon
    events = []
    while state.g["step"] == "develop":
        events += state.apply("p1", "pass")
    events += state.apply("p1", "done")
    moves = [(d["figure"], d["roll"], d["to"]) for d in of(events, "enemy-move")]
    assert moves[0] == ("brasidas", roll, SOLO_D12[roll - 1])


# ---------------------------------------------------------------- the reference's tables (D1-D11)
# The rulebook lost these pages ("p.XX", "page 35"); reference/epireia.md supplies them.
BUILDING_COSTS = {   # D1
    "barracks": "0 2 2", "shipyard": "0 3 1", "stables": "2 2 0", "altar": "2 1 0",
    "temple": "0 2 2", "sanctuary": "2 2 2", "granary": "0 2 0", "lumber-camp": "2 0 0",
    "mine": "2 1 0", "agora": "2 0 2", "embassy": "1 0 2", "proxenia": "2 0 1",
    "stoa": "1 1 1", "archeion": "0 2 1", "strategeion": "2 0 2"}
FIGURES = {   # D3: attack, sea
    "pericles": (3, 0), "themistocles": (2, 1), "cleisthenes": (2, 0), "cimon": (1, 1),
    "aspasia": (1, 0), "leonidas": (3, 0), "brasidas": (2, 1), "archidamos": (2, 0),
    "pausanias": (1, 1), "gorgo": (1, 0), "periander": (3, 0), "timoleon": (2, 1),
    "aristeus": (2, 0), "adeimantos": (1, 1), "cypselos": (1, 0), "timasitheos": (3, 0),
    "xenoclea": (2, 1), "aristonike": (2, 0), "phemonoe": (1, 1), "perialla": (1, 0),
    "oxylos": (3, 0), "eupolemos": (2, 1), "tisamenos": (2, 0), "hippias": (1, 1),
    "phaedon": (1, 0), "aleuas": (3, 0), "pheidon": (2, 1), "thorax": (2, 0),
    "heliodorus": (1, 1), "medios": (1, 0)}
TOKENS = {   # D5: count, powers
    "hoplites-1": (14, {1: 4, 2: 6, 3: 4}), "hoplites-2": (14, {2: 4, 3: 6, 4: 4}),
    "triremes-1": (6, {1: 1, 2: 4, 3: 1}), "triremes-2": (6, {2: 1, 3: 4, 4: 1}),
    "cavalry-1": (6, {1: 3, 3: 3}), "cavalry-2": (6, {2: 3, 4: 3})}
EMPIRE_REWARDS = {   # D7
    "persia": {"copper": 3, "prestige": 1}, "phoenicia": {"wood": 1, "copper": 1},
    "egypt": {"wheat": 3}, "carthage": {"copper": 2, "wheat": 1},
    "syracuse": {"wheat": 1, "token": "triremes-1"}, "macedonia": {"wood": 2}}
TAXES = {   # D7b
    "epirus": "1 2 0", "illyria": "0 2 1", "euboea": "2 1 0", "chalkidiki": "0 1 2",
    "thrakiko-pelagos": "2 2 0", "aigaio-pelagos": "1 1 2", "kritiko-pelagos": "2 0 2",
    "aeolis": "2 0 1", "ionia": "1 0 2"}
SCENARIOS = {   # D8: act, reward
    "olympic-games": (1, "cavalry-2"), "treasury-of-delos": (1, "hoplites-2"),
    "colonies-of-the-north": (1, "triremes-2"), "the-plague": (2, "hoplites-2"),
    "great-earthquake": (2, "cavalry-2"), "persian-gold": (2, "triremes-2"),
    "affair-of-corcyra": (3, "triremes-2"), "megarian-decree": (3, "hoplites-2"),
    "revolt-of-potidaea": (3, "cavalry-2")}


def resources(spec: dict) -> str:
    return " ".join(str(spec.get(r, 0)) for r in ("wheat", "wood", "copper"))


def test_reference_tables_d1_d3_d5_d7_d8(engine):
    t = engine.tables
    assert {b: resources(spec["cost"]) for b, spec in t.buildings.items()} == BUILDING_COSTS
    assert {f: (spec["attack"], int(spec["sea"])) for f, spec in t.figures.items()} == FIGURES
    assert {d: (sum(spec["powers"].values()), {int(p): n for p, n in spec["powers"].items()})
            for d, spec in t.tokens.items()} == TOKENS
    assert sum(n for n, _ in TOKENS.values()) == 52   # "52 military tokens" (content of the box)
    assert {e: spec["reward"] for e, spec in t.empires.items()} == EMPIRE_REWARDS
    assert {x: resources(spec["tax"]) for x, spec in t.territories.items()} == TAXES
    assert {s: (spec["act"], spec["reward"]) for s, spec in t.scenarios.items()} == SCENARIOS
    assert {b["level"] for b in t.track["bonuses"]} == {2, 4, 5, 6, 8, 10, 12}   # D4
    assert t.track["max"] == 12


def test_reference_tables_d9_d11_solo(solo_engine):
    solo = solo_engine.tables.solo
    assert {s["id"]: s["turns"] for s in solo["scenarios"]} == {"S1": 10, "S2": 12, "S3": 12,
                                                               "S4": 14}
    assert [(a["number"], a["name"]) for a in solo["augurs"]][::7] == [
        (1, "Favourable Omens"), (8, "Panhellenic Festival"), (15, "Calm Days")]
    assert len(solo["augurs"]) == 15


# ================================================================ the end of the game
def fight_it_out(state) -> None:
    """Play the great battle through: each token goes to the first slot that takes it, each
    figure to the first front, and nobody engages."""
    while state.pending():
        decision = state.pending()[0]
        legal = decision.legal
        placing = [a for a in legal if a.startswith(("place", "commit"))]
        state.apply(decision.seat, placing[0] if placing else "hold" if "hold" in legal else "empty")


def hoplite(power: int) -> dict:
    return {"deck": "hoplites-1", "power": power}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_great_battle_follows_the_turn_in_which_act_iii_is_completed(setup_game, players):
    """'When the Act III scenario is completed, players finish the current game turn': the
    objective met in development, the turn's diplomacy and resolution still happen."""
    state = setup_game(players=players, scenario="revolt-of-potidaea", active=True)
    cities = 2 if players >= 3 else 1
    state.g["leagues"]["delian"]["counters"]["tokens"] = 4 * cities - 1
    state.apply("p1", "produce hoplites-1")
    assert state.g["scenario"]["winner"] == "delian" and state.g["step"] == "develop"
    assert state.g["battle_after_turn"]
    events = play_turn(state, {})
    assert of(events, "collect") and state.g["turn"] == 1   # the turn was played to its end
    assert state.g["step"] == "battle-tokens"
    assert sorted(t["deck"] for t in state.g["battle"]["pool"]["delian"]) == [
        "cavalry-2", "hoplites-1"]   # the product and the act's reward
    fight_it_out(state)
    result = state.result()
    delian = [s for s in state.g["seats"] if state.player(s)["league"] == "delian"]
    assert {s for s, r in result.ranks.items() if r == 1} == set(delian)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_great_battle_starts_after_the_turn_cap_without_act_iii(setup_game, players):
    state = setup_game(players=players)
    state.g["options"]["max_turns"] = 2
    play_turn(state, {})
    assert state.g["step"] == "develop" and state.g["turn"] == 2
    play_turn(state, {})
    assert state.g["step"].startswith("battle") and state.g["turn"] == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_of_game_the_majority_of_fronts_wins_for_the_whole_league(setup_game, players):
    state = setup_game(players=players)
    state.g["leagues"]["peloponnesian"]["reserve"] = [hoplite(3)]
    state.g["battle_after_turn"] = True
    play_turn(state, {})
    fight_it_out(state)
    result = state.result()
    assert state.g["battle"]["fronts"] == {"flank": "peloponnesian", "center": None,
                                           "maritime": None}
    for seat in state.g["seats"]:
        won = state.player(seat)["league"] == "peloponnesian"
        assert result.ranks[seat] == (1 if won else 2)
        assert result.points[seat] == (1.0 if won else 0.0)
    assert sorted(map(sorted, result.teams.values())) == sorted(
        sorted(s for s in state.g["seats"] if state.player(s)["league"] == lg)
        for lg in ("delian", "peloponnesian"))


def test_end_of_game_ties_with_three_players_count_league_totals(setup_game):
    """No front won: Prestige (league totals, reference P-13) then copper (players and
    treasury) decide; the two-city Delian league adds both its players."""
    state = setup_game(players=3)
    state.player("p2")["prestige"] = 2          # 1 + 1 against 2: still equal
    state.g["leagues"]["peloponnesian"]["treasury"]["copper"] = 1
    state.g["battle_after_turn"] = True
    play_turn(state, {})
    assert state.player("p1")["res"]["copper"] == state.player("p2")["res"]["copper"]
    fight_it_out(state)
    result = state.result()
    # copper: delian 3 + 3 against peloponnesian 3 + 1 in its treasury
    assert result.ranks == {"p1": 1, "p3": 1, "p2": 2} and "copper 6" in result.reason


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_of_game_nothing_to_tell_the_leagues_apart_is_a_draw(setup_game, players):
    """No front, equal league Prestige and equal league copper: every seat shares first place
    and half a point."""
    state = setup_game(players=players)
    if players == 3:   # the lone Peloponnesian matches the two Delians' totals
        state.player("p2")["prestige"] = 2
        state.g["leagues"]["peloponnesian"]["treasury"]["copper"] = 3
    state.g["battle_after_turn"] = True
    play_turn(state, {})
    fight_it_out(state)
    result = state.result()
    assert "drawn" in result.reason
    assert set(result.ranks.values()) == {1} and set(result.points.values()) == {0.5}


@pytest.mark.parametrize("scenario,turns", [("S1", 10), ("S2", 12), ("S3", 12), ("S4", 14)])
def test_solo_the_game_ends_after_exactly_the_cards_turns(solo_engine, scenario, turns):
    """'The final battle is triggered once the number of turns on the card is reached; it
    cannot be triggered before': objectives unmet, the game is lost after that turn."""
    state = solo_engine.new_game(["p1"], 2, {"scenario": scenario})
    while state.g["step"] != "over":
        decision = state.pending()[0]
        assert state.g["turn"] <= turns
        legal = decision.legal
        choice = next((a for a in ("pass", "done", "keep", "pay") if a in legal), legal[0])
        state.apply(decision.seat, choice)
    assert state.g["turn"] == turns
    assert "Objectives not met after" in state.result().reason


# ---------------------------------------------------------------- scenario objectives (D8)
def set_measure(state, card: str, amount: int) -> None:
    """Give the Delian league `amount` of what `card`'s objective counts."""
    g = state.g
    delian = [s for s in g["seats"] if state.player(s)["league"] == "delian"]
    counters = g["leagues"]["delian"]["counters"]
    if card == "olympic-games":   # every city at 8 but the first, which has `amount`
        for seat in delian:
            state.player(seat)["prestige"] = 8
            state.player(seat)["reached"] = list(range(13))
        state.player(delian[0])["prestige"] = amount
    elif card == "treasury-of-delos":
        g["leagues"]["delian"]["treasury"]["wheat"] = amount
    elif card == "colonies-of-the-north":
        for territory in ("euboea", "chalkidiki", "aeolis", "ionia")[:amount]:
            g["territories"][territory]["owner"] = delian[0]
    elif card == "megarian-decree":
        for territory in ("thrakiko-pelagos", "aigaio-pelagos")[:amount]:
            g["territories"][territory]["owner"] = delian[0]
            counters["maritime_taken"].append(territory)
    elif card == "affair-of-corcyra":
        counters["tokens_by_type"]["triremes"] = amount
    else:
        key = {"the-plague": "buildings", "great-earthquake": "brigands",
               "persian-gold": "empires", "revolt-of-potidaea": "tokens"}[card]
        counters[key] = amount


# the number each card needs for a league of one city and of two ("per city" doubles)
OBJECTIVES = {"olympic-games": (8, 8), "treasury-of-delos": (10, 20),
              "colonies-of-the-north": (3, 4), "the-plague": (2, 4), "great-earthquake": (2, 2),
              "persian-gold": (3, 6), "affair-of-corcyra": (3, 6), "megarian-decree": (2, 2),
              "revolt-of-potidaea": (4, 8)}


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("card", sorted(OBJECTIVES))
def test_scenario_objective_is_met_exactly_on_its_number(setup_game, card, players):
    need = OBJECTIVES[card][players - 2]
    for amount, met in ((need - 1, False), (need, True)):
        state = setup_game(players=players, scenario=card, active=True)
        set_measure(state, card, amount)
        state.apply("p1", "pass")
        assert state.g["scenario"]["done"] is met, amount
        if met:
            assert state.g["scenario"]["winner"] == "delian"
            reward = state.t.scenarios[card]["reward"]
            assert [t["deck"] for t in state.g["leagues"]["delian"]["reserve"]] == [reward]


def test_solo_end_of_game_one_front_to_none_is_a_majority(solo_engine):
    """'A majority of fronts' is counted against the enemy's fronts, as in the multiplayer
    game where only a tie in fronts won goes to the tie-breaks: 1 to 0 wins, 1 to 1 loses."""
    from agon.referee.games.epireia import registry
    from agon.referee.games.epireia.battle import start_battle
    for enemy_maritime, points in ((False, 1.0), (True, 0.0)):
        state = solo_engine.new_game(["p1"], 1, {"scenario": "S1"})
        for action in ("city corinth", "league delian", "admin merchant", "figure periander"):
            state.apply("p1", action)
        army = state.g["enemy"]["army"]
        start_battle(state)
        b = state.g["battle"]
        mine = {k: {"deck": "hoplites-2", "power": t["power"]} for k, t in army.items()}
        mine.update({k: {"deck": "hoplites-2", "power": t["power"] + 1}
                     for k, t in army.items() if k.startswith("flank")})
        if not enemy_maritime:
            mine.update({k: t for k, t in army.items() if k.startswith("maritime")})
        else:
            mine.update({k: {"deck": "hoplites-2", "power": 0}
                         for k in army if k.startswith("maritime")})
        b["placed"]["delian"], b["slot"]["delian"] = mine, 18
        b["figs"]["delian"], b["fig_front"]["delian"] = {}, 3
        state.g["step"] = "battle-figures"
        registry.advance(state)
        expected = {"flank": "delian", "center": None,
                    "maritime": "enemy" if enemy_maritime else None}
        assert state.g["battle"]["fronts"] == expected
        assert state.result().points == {"p1": points}


# ---------------------------------------------------------------- player board captions
@pytest.mark.parametrize("shared,needed", [(False, 5), (True, 7)])
def test_player_board_political_embassy_adds_two_to_empire_rolls(setup_game, load_dice,
                                                                 shared, needed):
    """'The second increases the success chance of a dice roll with an Empire by 2': Persia
    (7+ alone, 9+ shared) then needs a die of 5, or 7."""
    for roll in (needed - 1, needed):
        state = setup_game(cities=["athens", "sparta"], figures=["pericles", "leonidas"])
        state.player("p1")["buildings"] = ["embassy"]
        load_dice(state, [1, roll] if shared else [roll])
        moves = {"p1": [("pericles", "persia")]}
        if shared:
            moves["p2"] = [("leonidas", "persia")]
        events = play_turn(state, moves)
        [mine] = [d for d in of(events, "empire") if d["seat"] == "p1"]
        assert (mine["bonus"], mine["success"]) == (2, roll == needed)


def test_player_board_political_proxenia_adds_two_to_greek_city_rolls(setup_game, load_dice):
    """'The third increases the success chance of a dice roll for integrating a Greek City by
    2': 7+ becomes a die of 5."""
    for roll in (4, 5):
        state = setup_game(cities=["athens", "sparta"], figures=["pericles", "leonidas"])
        state.player("p1")["buildings"] = ["proxenia"]
        load_dice(state, [roll])
        events = play_turn(state, {"p1": [("pericles", "delphi")]})
        [court] = of(events, "integration")
        assert (court["bonus"], court["success"]) == (2, roll == 5)
