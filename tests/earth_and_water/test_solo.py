"""Solo mode: PERS.IA, the automaton that plays Persia inside `apply`.

The ruleset is rulesets/earth-and-water-solo.yaml (`extends: earth-and-water`);
its automaton tables drive everything below.  Positions are built directly and
PERS.IA's die is fixed with `Die` (it replaces the state's automaton stream).
"""

from __future__ import annotations

import random

import pytest

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.games.earth_and_water.state import EarthAndWaterState
from agon.referee.games.earth_and_water.supply import Supply
from agon.referee.ruleset import load_ruleset

P, G = 0, 1


class Die:
    """Test hook for the automaton stream: rolls the given faces in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def random(self) -> float:
        return (self.faces.pop(0) - 1) / 6 + 0.01


@pytest.fixture(scope="module")
def solo():
    return EarthAndWaterEngine(load_ruleset("earth-and-water-solo"))


def position(solo, step="turn", hands=((2, 3), (7,)), **pieces):
    """A solo position with Persia about to act in `step`; the automaton not yet run."""
    s = solo.new_game(["greece"], 1, {})
    t = s.t
    s.arm = [[0] * t.ncity, [0] * t.ncity]
    s.flt = [[0] * t.ncity, [0] * t.ncity]
    for key, (kind, side) in {"pa": ("arm", P), "ga": ("arm", G),
                              "pf": ("flt", P), "gf": ("flt", G)}.items():
        for city, count in pieces.get(key, {}).items():
            getattr(s, kind)[side][t.index[city]] = count
    s.res_arm = [t.total_armies[x] - sum(s.arm[x]) for x in (P, G)]
    s.res_flt = [t.total_fleets[x] - sum(s.flt[x]) for x in (P, G)]
    s.hands = [list(hands[0]), list(hands[1])]
    s.deck = [n for n in t.card_numbers if n not in hands[0] and n not in hands[1]]
    s.discard = []
    s.passed = [False, False]
    s.step, s.actor, s.active, s._pending = step, P, P, None
    s.events = []
    return s


def run(s, *faces):
    """Let PERS.IA play from the built position, its die showing `faces` in order."""
    if faces:
        s.auto_rng = Die(*faces)
    s.events = []
    s.after_action()
    return s.events


def texts(events):
    return [e.text for e in events]


def n(s, kind, side, city):
    return getattr(s, kind)[side][s.t.index[city]]


# -- setup and whole games ---------------------------------------------------------------

def test_solo_setup(solo):
    s = solo.new_game(["greece"], 1, {})
    assert solo.seats(1) == ["greece"]
    assert (s.campaign, s.vp, s.bridge, s.darius_dead, s.xerxes_dead) == (3, 2, True, True, True)
    # unlimited Persian pieces, fleets at 1 talent, bridge at 4
    assert s.t.total_armies[P] >= 999 and s.t.fleet_cost[P] == 1 and s.t.bridge_cost == 4
    # PERS.IA prepared at once (situation B, Persia leads by 2): the first decision is Greece's
    assert s.pending()[0].seat == "greece" and s.step == "buy"
    assert n(s, "arm", P, "Abydos") == 7 and n(s, "arm", P, "Ephesos") == 7
    assert len(s.hands[P]) == 4


def test_random_greek_games_finish_and_replay(solo):
    greek_wins = 0
    steps = set()
    for seed in range(1000):
        s = solo.new_game(["greece"], seed, {})
        chooser = random.Random(seed)
        record = []
        while s.pending():
            d = s.pending()[0]
            assert d.seat == "greece"
            steps.add(s.step)
            action = chooser.choice(d.legal)
            s.apply("greece", action)
            record.append(action)
        again = solo.new_game(["greece"], seed, {})
        for action in record:
            again.apply("greece", action)
        assert again.to_json() == s.to_json()
        result = s.result()
        assert set(result.points) == {"greece"} and result.points["greece"] in (0.0, 0.5, 1.0)
        greek_wins += result.points["greece"] == 1.0
    assert greek_wins < 100   # a random Greek player mostly loses (about 2% in the bench)
    # Greek battle cards come up against PERS.IA; Themistocles and Molon Labe never can
    assert {"land_react", "artemisia", "auto_discard"} <= steps
    assert not steps & {"themistocles", "molon", "immortals", "tribute", "hippias"}


def test_random_solo_games_score_every_campaign_as_the_rulebook_counts(solo, monkeypatch):
    # an independent count at each scoring: 1 a city, 2 a major city, held by armies or,
    # for an empty major city, by its owner; the marker moves by the difference, at most
    # to 6; both enemy majors held ends the game at once
    scoring = Supply.scoring
    checked = []

    def counted(s):
        t, pts = s.t, [0, 0]
        for c in range(t.ncity):
            worth = 2 if t.major[c] >= 0 else 1
            for side in (P, G):
                if s.arm[side][c] or (not s.arm[1 - side][c] and t.major[c] == side):
                    pts[side] += worth
        wins = [side for side in (P, G)
                if all(s.arm[side][c] for c in range(t.ncity) if t.major[c] == 1 - side)]
        expected = max(-6, min(6, s.vp + pts[P] - pts[G]))
        scoring(s)
        if wins:
            assert s.over and s.winner == wins[0]
        else:
            assert s.vp == expected
        checked.append(s.vp)

    monkeypatch.setattr(Supply, "scoring", counted)
    for seed in range(150):
        s = solo.new_game(["greece"], seed, {})
        chooser = random.Random(seed + 500)
        while s.pending():
            s.apply("greece", chooser.choice(s.pending()[0].legal))
        if not s.reason.endswith("enemy major cities"):
            sign = (s.vp > 0) - (s.vp < 0)
            assert s.result().points["greece"] == {1: 0.0, 0: 0.5, -1: 1.0}[sign]
    assert len(checked) > 400 and len(set(checked)) > 5


def expected_strike(s, result):
    """The city PERS.IA's result must pick, recomputed from the rulebook's lists."""
    orders, t = s.t.automaton, s.t
    names = [t.names[c] for c in range(t.ncity)]
    arm, flt = s.arm, s.flt
    if result == "destroy_army":
        held = [c for c in orders.destroy_army if arm[G][c]]
        lone = [c for c in held if arm[G][c] == 1]   # an isolated army comes first
        return names[(lone or held)[0]] if held else None
    if result == "destroy_fleet":
        ports = [c for c in orders.destroy_fleet if flt[G][c]]
        return names[ports[0]] if ports else None
    free = [c for c in orders.place if not arm[G][c] and not flt[G][c]]
    return names[free[0]] if free else None


def test_random_solo_games_strike_where_the_lists_say(solo, monkeypatch):
    # every army destroyed, fleet replaced and fleet-and-army placed by PERS.IA goes to
    # the first city of its list that qualifies, over 150 random games
    seen = {"destroy_army": 0, "destroy_fleet": 0, "place": 0}
    for result in seen:
        method = getattr(EarthAndWaterState, "auto_" + result)

        def wrapped(s, a, method=method, result=result):
            want = expected_strike(s, result)
            start = len(s.events)
            why = method(s, a)
            cities = [e.data["city"] for e in s.events[start:]
                      if e.type in ("auto_destroy", "auto_place")]
            assert (cities[0] if cities else None) == want, (result, want, cities)
            seen[result] += 1
            return why

        monkeypatch.setattr(EarthAndWaterState, "auto_" + result, wrapped)
    for seed in range(150):
        s = solo.new_game(["greece"], seed, {})
        chooser = random.Random(seed + 900)
        while s.pending():
            s.apply("greece", chooser.choice(s.pending()[0].legal))
    assert min(seen.values()) > 50


def test_solo_round_trip_and_checks(solo):
    s = solo.new_game(["greece"], 4, {})
    chooser = random.Random(4)
    for _ in range(12):
        d = s.pending()[0]
        s.apply("greece", chooser.choice(d.legal))
    loaded = solo.load(s.to_json())
    while s.pending():
        action = chooser.choice(s.pending()[0].legal)
        s.apply("greece", action)
        loaded.apply("greece", action)
    assert loaded.to_json() == s.to_json()
    assert list(EarthAndWaterEngine.check(solo.ruleset.data)) == []
    data = dict(solo.ruleset.data)
    data["automaton"] = {**data["automaton"], "orders": {**data["automaton"]["orders"],
                                                         "place": ["Atlantis"]}}
    assert any("Atlantis" in p.message for p in EarthAndWaterEngine.check(data))


# -- preparation -------------------------------------------------------------------------

def test_prep_c_worked_example(solo):
    # score even, bridge down, Persia holds only Abydos and Ephesos (rulebook example)
    s = position(solo, step="buy", hands=((), ()), pa={"Abydos": 1, "Ephesos": 1},
                 ga={"Athenai": 1, "Sparta": 1})
    s.vp, s.bridge = 0, False
    events = run(s)
    assert len(s.hands[P]) == 5 and s.bridge
    assert (n(s, "arm", P, "Abydos"), n(s, "arm", P, "Ephesos")) == (3, 2)
    said = texts(events)
    assert said[0].startswith("PERS.IA prepares with 12 talents. Situation C, the score is even")
    assert "PERS.IA rebuilds the pontoon bridge for 4 talents [rule S4.C]" in said
    raised = [e for e in events if e.type == "raise"]
    assert [e.data["cities"] for e in raised] == [["Abydos", "Ephesos", "Abydos"]]
    assert raised[0].text.endswith(": Abydos, Ephesos, Abydos [rule S4.C]")
    assert not any("unspent" in x for x in said)   # 5 + 4 + 3 = 12
    assert s.step == "buy" and s.actor == G


def test_prep_c_cycles_through_island_cities_with_a_cap_of_two(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Abydos": 1, "Eretria": 1, "Naxos": 2},
                 ga={"Athenai": 1})
    s.vp, s.bridge = 0, True
    events = run(s)
    # 7 talents after 5 cards: Eretria fills to 2, Naxos is full, Ephesos (empty) is Persian
    raised = [e for e in events if e.type == "raise"][0]
    assert raised.data["cities"] == ["Abydos", "Ephesos", "Eretria", "Abydos", "Ephesos",
                                     "Abydos", "Ephesos"]
    assert (n(s, "arm", P, "Eretria"), n(s, "arm", P, "Naxos")) == (2, 2)


def test_prep_a_greeks_in_a_persian_major(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Ephesos": 1}, ga={"Abydos": 2})
    s.vp = 5   # Persia ahead, but situation A comes first
    events = run(s)
    assert len(s.hands[P]) == 3 and n(s, "arm", P, "Ephesos") == 10
    assert "Situation A, Greek armies stand in Abydos" in texts(events)[0]
    assert ("PERS.IA raises 9 armies in Ephesos, its major city free of Greeks [rule S4.A]"
            in texts(events))


def test_prep_b_persia_ahead(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Thebai": 2, "Pella": 1, "Naxos": 1},
                 pf={"Naxos": 1}, gf={"Pella": 1}, ga={"Athenai": 1})
    s.vp, s.bridge = 3, False
    events = run(s)
    assert "Situation B, Persia leads by 3" in texts(events)[0]
    assert len(s.hands[P]) == 4 and s.bridge   # 4 cards + bridge 4 = 8 talents
    # a fleet where Persia occupies a port city without its own fleet (not Pella: Greek fleet)
    assert n(s, "flt", P, "Thebai") == 1 and n(s, "flt", P, "Pella") == 0
    assert any(x.startswith("PERS.IA raises a fleet at Thebai (1 talent)") for x in texts(events))
    # 3 talents left: Abydos, Ephesos, then Sparta/Athenai are Greek, Korinthos not held,
    # Thebai already holds 2 (minor cap): Pella next
    assert (n(s, "arm", P, "Abydos"), n(s, "arm", P, "Ephesos"), n(s, "arm", P, "Pella")) == (1, 1, 2)
    assert n(s, "arm", P, "Thebai") == 2


def test_prep_d_greece_ahead(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Ephesos": 1}, ga={"Athenai": 1})
    s.vp, s.bridge = -2, True
    events = run(s)
    assert "Situation D, Greece leads by 2" in texts(events)[0]
    assert len(s.hands[P]) == 6 and n(s, "arm", P, "Abydos") == 6
    assert "PERS.IA raises 6 armies in Abydos with the talents left [rule S4.D]" in texts(events)


def test_every_persia_raise_event_names_its_cities_and_piece(solo):
    # a bot reads where PERS.IA's pieces went from the event data, in every situation
    # (only the army cycle of B and C named its cities; A, D and B's fleets had none)
    s = position(solo, step="buy", hands=((), ()), pa={"Ephesos": 1}, ga={"Abydos": 2})
    raised = [e.data for e in run(s) if e.type == "raise"]   # situation A
    assert raised == [{"rule": "S4.A", "cities": ["Ephesos"] * 9, "piece": "army"}]
    s = position(solo, step="buy", hands=((), ()), pa={"Ephesos": 1}, ga={"Athenai": 1})
    s.vp = -2
    raised = [e.data for e in run(s) if e.type == "raise"]   # situation D
    assert raised == [{"rule": "S4.D", "cities": ["Abydos"] * 6, "piece": "army"}]
    s = position(solo, step="buy", hands=((), ()), pa={"Thebai": 1}, ga={"Athenai": 1})
    s.vp = 1
    raised = [e.data for e in run(s) if e.type == "raise"]   # situation B: fleet, then armies
    assert raised[0] == {"rule": "S4.B", "cities": ["Thebai"], "piece": "fleet"}
    assert raised[1]["piece"] == "army" and len(raised[1]["cities"]) == 7


# -- operations: the die -------------------------------------------------------------------

def test_no_cards_passes(solo):
    s = position(solo, hands=((), (7,)), pa={"Abydos": 3}, ga={"Athenai": 1})
    events = run(s)
    assert texts(events)[0] == "PERS.IA has no cards left and passes [rule S5.1]"
    assert s.passed[P] and s.actor == G and s.step == "turn"


def test_roll_1_passes_and_sits_out_the_phase(solo):
    s = position(solo, hands=((2, 3), (7, 10)), pa={"Abydos": 3}, ga={"Athenai": 1})
    events = run(s, 1)
    assert texts(events)[0] == "PERS.IA rolls 1: pass [rule S5.3]"
    assert s.auto_out and len(s.hands[P]) == 1   # it still discards a card
    assert ("PERS.IA discards 2 Tribute of Earth and Water, face up and with no effect "
            "[rule S5.4]") in texts(events)
    s.apply("greece", "play 7 move")
    s.apply("greece", "origin_land Athenai")
    events = s.apply("greece", "move_land Korinthos 1")
    assert ("PERS.IA passes again: it sits out the rest of this phase since it rolled a pass "
            "[rule S5.3]") in texts(events)
    assert s.step == "turn" and s.actor == G and len(s.hands[P]) == 1
    events = s.apply("greece", "pass")   # PERS.IA's pass and Greece's end the operations
    assert "Two passes in a row end the operations" in texts(events)


def test_roll_2_marches_to_the_nearest_empty_city(solo):
    s = position(solo, pa={"Ephesos": 6, "Abydos": 2}, ga={"Athenai": 1})
    s.bridge = True
    events = run(s, 2)
    # Ephesos (most armies) sends half, 3; the nearest empty city not Persian is Pella
    assert ("PERS.IA activates Ephesos (its largest army) and marches half of its 6, rounded "
            "down: 3 armies to Pella, the nearest city with no army [rule S5.3]") in texts(events)
    assert "Persia marches 3 armies from Ephesos to Pella" in texts(events)
    assert n(s, "arm", P, "Pella") == 3 and len(s.hands[P]) == 1


def test_march_breaks_ties_towards_sparta(solo):
    # Larissa has the most armies; Delphi and Thebai are both 1 road away and empty:
    # Thebai is nearer Sparta
    s = position(solo, pa={"Abydos": 3, "Pella": 1, "Larissa": 4}, ga={"Athenai": 1})
    s.bridge = True
    events = run(s, 3)
    assert any("activates Larissa (its largest army) and marches half of its 4, rounded down: "
               "2 armies to Thebai" in x for x in texts(events))
    s = position(solo, pa={"Abydos": 3}, ga={"Athenai": 1})
    s.bridge = True
    events = run(s, 2)
    assert any("marches half of its 3, rounded down: 1 army to Pella" in x for x in texts(events))


def test_march_ties_the_rules_leave_open_go_to_thebai_then_delphi(solo):
    # From Korinthos, empty Athenai and Thebai are both 1 road away and 2 from Sparta:
    # PERS.IA takes Thebai, not the Greek major city (decision S-move-ties)
    s = position(solo, pa={"Korinthos": 4, "Sparta": 1, "Abydos": 2}, ga={"Naxos": 1})
    events = run(s, 2)
    assert any("marches half of its 4, rounded down: 2 armies to Thebai" in x
               for x in texts(events))
    assert n(s, "arm", P, "Athenai") == 0 and n(s, "arm", P, "Thebai") == 2
    # From Thebai, empty Delphi and Larissa are both 1 road away and 3 from Sparta: Delphi
    s = position(solo, pa={"Thebai": 4, "Athenai": 1, "Korinthos": 1, "Abydos": 2},
                 ga={"Sparta": 1})
    events = run(s, 3)
    assert any("2 armies to Delphi, the nearest city with no army" in x for x in texts(events))
    assert n(s, "arm", P, "Larissa") == 0


def test_an_island_army_is_never_activated_to_march(solo):
    # Naxos holds the most Persian armies, but islands have no roads and are not on the
    # activation list: the largest army on it, Ephesos's, marches (decision S-activation)
    s = position(solo, pa={"Naxos": 6, "Ephesos": 4, "Abydos": 2}, ga={"Athenai": 1})
    s.bridge = True
    events = run(s, 2)
    assert any("activates Ephesos (its largest army) and marches half of its 4, rounded "
               "down: 2 armies to Pella" in x for x in texts(events))
    assert n(s, "arm", P, "Naxos") == 6 and n(s, "arm", G, "Athenai") == 1


def test_roll_3_attacks_when_nothing_is_empty(solo):
    s = position(solo, pa={"Abydos": 5, "Pella": 1}, ga={"Larissa": 1, "Athenai": 1})
    s.bridge = True
    s.rigged_dice = [4, 4, 1]
    events = run(s, 3)
    assert any("2 armies to Larissa, the nearest Greek army, as no empty city is in reach" in x
               for x in texts(events))
    assert n(s, "arm", P, "Larissa") == 2 and n(s, "arm", G, "Larissa") == 0


def test_roll_4_destroys_the_first_isolated_greek_army(solo):
    s = position(solo, pa={"Abydos": 3}, ga={"Athenai": 3, "Larissa": 1, "Sparta": 1},
                 hands=((2, 3), (7, 10)))
    events = run(s, 4)
    assert texts(events)[:2] == [
        "PERS.IA rolls 4: destroy a Greek army, and Greece discards a card [rule S5.3]",
        "PERS.IA destroys the isolated Greek army in Larissa, the first lone Greek army on its "
        "list [rule S5.3]"]
    assert n(s, "arm", G, "Larissa") == 0 and n(s, "arm", G, "Sparta") == 1
    # Greece chooses the discard; then PERS.IA discards its own card and Greece plays
    assert s.step == "auto_discard" and s.pending()[0].legal == ["discard 7", "discard 10"]
    events = s.apply("greece", "discard 10")
    assert texts(events)[0] == "Greece discards 10 Evangelion"
    assert s.hands[G] == [7] and len(s.hands[P]) == 1 and s.step == "turn" and s.actor == G


def test_destroy_army_without_isolated_takes_the_first_city(solo):
    # PERS.IA's last card: afterwards both sides are out of cards and the campaign ends
    s = position(solo, pa={"Abydos": 3}, ga={"Sparta": 2, "Thebai": 2}, hands=((2,), ()))
    events = run(s, 4)
    assert ("PERS.IA destroys a Greek army in Thebai: no Greek army stands alone, so it strikes "
            "the first Greek city on its list [rule S5.3]") in texts(events)
    # with no card to discard the army is destroyed anyway
    assert "PERS.IA finds no card in the Greek hand to discard [rule S5.3]" in texts(events)
    assert texts(events)[4] == "Greece has no cards and passes"


def test_roll_5_replaces_a_greek_fleet(solo):
    s = position(solo, pa={"Abydos": 3}, ga={"Athenai": 1}, gf={"Eretria": 1, "Sparta": 1})
    events = run(s, 5)
    assert ("PERS.IA destroys a Greek fleet at Eretria, the first Greek port on its list, and "
            "puts a Persian fleet there [rule S5.3]") in texts(events)
    assert (n(s, "flt", G, "Eretria"), n(s, "flt", P, "Eretria")) == (0, 1)
    assert not any(e.type == "battle" for e in events)


def test_roll_6_places_a_fleet_and_an_army(solo):
    # Athenai holds a Greek army, Sparta a Greek fleet: the first free port is Thebai
    s = position(solo, pa={"Abydos": 3}, ga={"Athenai": 1}, gf={"Sparta": 1})
    events = run(s, 6)
    assert ("PERS.IA places a fleet and an army at Thebai, the first port on its list free of "
            "Greek units [rule S5.3]") in texts(events)
    assert (n(s, "arm", P, "Thebai"), n(s, "flt", P, "Thebai")) == (1, 1)


def test_place_lands_an_army_by_its_fleet_when_no_fleet_is_left(solo):
    # with the shipped unlimited pieces a free port always takes a new fleet first; with no
    # fleet in reserve (a ruleset that limits them) PERS.IA lands an army by its own fleet
    s = position(solo, pa={"Korinthos": 1}, pf={"Naxos": 1}, ga={"Athenai": 1})
    s.res_flt[P] = 0
    events = run(s, 6)
    assert any(x.startswith("PERS.IA lands an army at Naxos") for x in texts(events))
    assert n(s, "arm", P, "Naxos") == 1


# -- operations: the fallbacks ---------------------------------------------------------------

def test_move_impossible_becomes_destroy_army(solo):
    s = position(solo, hands=((2, 3), (7,)), pa={"Abydos": 2}, ga={"Korinthos": 2, "Delphi": 1})
    s.bridge = False
    events = run(s, 2)   # Abydos must keep its 2: no march
    assert ("PERS.IA cannot march (its largest army, in Abydos, must keep its 2 at home), so it "
            "will destroy a Greek army instead [rule S5.3]") in texts(events)
    assert "PERS.IA destroys the isolated Greek army in Delphi" in texts(events)[2]
    assert s.step == "auto_discard" and s.pending()[0].legal == ["discard 7"]
    s.hands[G].append(10)   # keep play at Greece's turn afterwards
    s.apply("greece", "discard 7")
    assert 7 in s.discard and s.step == "turn" and s.actor == G


def test_no_greek_army_becomes_destroy_fleet_with_a_battle(solo):
    s = position(solo, pa={"Abydos": 3}, gf={"Naxos": 2, "Sparta": 1})
    s.rigged_dice = [1, 6]
    events = run(s, 4)
    assert ("PERS.IA cannot destroy a Greek army (Greece has no army on its list of cities), so "
            "it will destroy a Greek fleet instead [rule S5.3]") in texts(events)
    assert any(x.startswith("PERS.IA destroys a Greek fleet at Naxos, the first Greek port on "
                            "its list, and puts a Persian fleet there; 1 Greek fleet still there")
               for x in texts(events))
    assert any(e.type == "battle" for e in events)
    # the Persian fleet lost the round; the battle is over
    assert n(s, "flt", P, "Naxos") == 0 and n(s, "flt", G, "Naxos") == 1


def test_no_greek_fleet_becomes_place(solo):
    s = position(solo, pa={"Abydos": 3}, ga={}, gf={})
    events = run(s, 5)
    assert any(x.startswith("PERS.IA cannot destroy a Greek fleet") and "will place a fleet and "
               "an army instead" in x for x in texts(events))
    assert ("PERS.IA places a fleet and an army at Athenai, the first port on its list free of "
            "Greek units [rule S5.3]") in texts(events)


def test_place_impossible_becomes_move(solo):
    ports = {c: 1 for c in ("Athenai", "Sparta", "Thebai", "Eretria", "Naxos", "Pella",
                            "Abydos", "Ephesos")}
    s = position(solo, pa={"Ephesos": 5}, gf=ports)
    events = run(s, 6)
    assert any(x.startswith("PERS.IA cannot place a fleet and an army (every port on its list "
                            "holds Greek units") and x.endswith("so it will march instead [rule "
                                                                "S5.3]") for x in texts(events))
    assert "Persia marches 2 armies from Ephesos to Pella" in texts(events)


def test_loop_guard_passes(solo):
    # Abydos must keep its 2 armies, Greece has no piece on the map, Persia no reserve
    s = position(solo, pa={"Abydos": 2})
    s.res_arm[P] = s.res_flt[P] = 0
    events = run(s, 2)
    fallbacks = [e for e in events if e.type == "auto_fallback"]
    # every fallback line tells a bot what failed and what comes next, the last one too
    assert [(e.data["failed"], e.data["then"]) for e in fallbacks] == [
        ("move", "destroy_army"), ("destroy_army", "destroy_fleet"), ("destroy_fleet", "place"),
        ("place", "pass")]
    assert texts(events)[-3:] == [
        "PERS.IA cannot place a fleet and an army either (it has no army in reserve); it has "
        "tried every result, so it passes [rule S-loop-guard]",
        "PERS.IA passes and sits out the rest of this operations phase [rule S5.3]",
        "PERS.IA discards 2 Tribute of Earth and Water, face up and with no effect [rule S5.4]"]
    assert s.auto_out and s.actor == G


# -- defence, no retreat, instant victory ------------------------------------------------------

def test_defence_marches_a_third_rounded_up(solo):
    s = position(solo, pa={"Ephesos": 7, "Pella": 1}, ga={"Abydos": 2, "Athenai": 1})
    s.rigged_dice = [4, 4, 4, 1, 1]
    events = run(s)
    assert ("PERS.IA defends Abydos, held by Greek armies, instead of rolling: Ephesos has its "
            "largest army that can reach it and sends 1/3 of its 7, rounded up: 3 armies "
            "[rule S5.2]") in texts(events)
    assert "Persia marches 3 armies from Ephesos to Abydos" in texts(events)
    assert not any(e.type == "auto_roll" for e in events)


def test_defence_impossible_rolls_instead(solo):
    # the bridge is down and Ephesos is empty: nothing can reach Abydos
    s = position(solo, pa={"Pella": 4}, ga={"Abydos": 1, "Athenai": 1})
    s.bridge = False
    events = run(s, 6)
    assert texts(events)[:2] == [
        "PERS.IA cannot defend Abydos: no Persian army can reach it, so it rolls as if it were "
        "free [rule S5.2]",
        "PERS.IA rolls 6: place a fleet and an army [rule S5.3]"]
    # the event carries the fields every auto_defence event has (a bot reads them)
    failed = [e for e in events if e.type == "auto_defence"][0]
    assert {k: failed.data[k] for k in ("origin", "dest", "armies")} == {
        "origin": None, "dest": "Abydos", "armies": 0}


def test_persia_never_retreats_and_wins_at_once(solo):
    held = {c: 1 for c in ("Sparta", "Thebai", "Delphi", "Larissa", "Pella")}
    s = position(solo, pa={"Korinthos": 4, **held}, ga={"Athenai": 2, "Naxos": 1},
                 gf={"Athenai": 2})
    s.rigged_dice = [1, 1, 1, 1]   # a tie: both lose one, both remain
    events = run(s, 2)
    assert any("2 armies to Athenai, the nearest Greek army" in x for x in texts(events))
    assert "Land battle in Athenai: Persia attacks (2 Persian, 2 Greek); Persia never retreats" \
        in texts(events)
    assert s.step == "l_def_retreat" and s.actor == G   # Persia was not asked
    assert "retreat_sea Naxos" in s.pending()[0].legal
    s.rigged_dice = [4, 1]
    events = s.apply("greece", "continue")
    assert s.over and s.winner == P and s.result().points == {"greece": 0.0}
    # the reason names the side as the log does everywhere else (it said "persia controls")
    assert texts(events)[-1] == ("Game over: Persia wins at once (Persia controls both enemy "
                                 "major cities)")
    assert s.result().reason == "Persia controls both enemy major cities"


def test_placing_in_the_last_greek_major_wins_at_once(solo):
    # Persia already holds Sparta; Athenai is empty and first free on the placement list
    s = position(solo, pa={"Abydos": 3, "Sparta": 2}, ga={"Korinthos": 2}, gf={"Eretria": 1})
    s.bridge = True
    events = run(s, 6)
    assert "PERS.IA places a fleet and an army at Athenai" in texts(events)[1]
    assert s.over and s.winner == P and not s.pending()


def test_persia_defending_is_never_asked_to_retreat(solo):
    s = position(solo, pa={"Thebai": 3}, ga={"Athenai": 3}, hands=((2,), (7, 10)))
    s.step, s.actor, s.active = "turn", G, G
    s.rigged_dice = [1, 6, 6, 6, 1, 6, 6, 6]   # Persia loses a round each time
    s.apply("greece", "play 7 move")
    s.apply("greece", "origin_land Athenai")
    s.apply("greece", "move_land Thebai 3")
    # after each round only Greece (the attacker) is asked; Persia fights to the end
    seen = set()
    while s.step in ("l_att_retreat", "l_def_retreat"):
        seen.add((s.step, s.actor))
        s.apply("greece", "continue")
    assert seen == {("l_att_retreat", G)}
    assert n(s, "arm", P, "Thebai") == 0


# -- Greek reactions against PERS.IA ----------------------------------------------------------

def attacked_position(solo, card):
    """PERS.IA (die 2) will march 2 armies from Korinthos into 1 Greek army in Sparta."""
    held = {c: 1 for c in ("Athenai", "Thebai", "Delphi", "Larissa", "Pella")}
    s = position(solo, pa={"Korinthos": 4, **held}, ga={"Sparta": 1, "Eretria": 1},
                 hands=((2, 3), (card, 7)))
    return s


@pytest.mark.parametrize("card, name", [(4, "Miltiades"), (15, "300 Spartans")])
def test_greek_battle_cards_answer_a_persia_attack(solo, card, name):
    s = attacked_position(solo, card)
    events = run(s, 2)
    assert any("2 armies to Sparta" in x for x in texts(events))
    assert s.step == "land_react" and s.actor == G
    assert s.pending()[0].legal == [f"react {card}", "decline"]
    s.rigged_dice = [3, 3, 6, 1, 1]   # Persia rolls 3, 3; Greece rolls three dice: 6, 1, 1
    events = s.apply("greece", f"react {card}")
    assert texts(events)[0].startswith(f"Greece plays {card} {name}")
    rounds = [e for e in events if e.type == "round"]
    assert rounds[0].data["greece"] == [6, 1, 1] and rounds[0].data["persia"] == [3, 3]
    assert card in s.discard


def test_artemisia_sinks_a_second_persian_fleet(solo):
    s = position(solo, pa={"Abydos": 3}, pf={"Abydos": 3}, ga={"Athenai": 1},
                 gf={"Athenai": 3}, hands=((2,), (9, 7)))
    s.step, s.actor, s.active = "turn", G, G
    s.apply("greece", "play 7 move")
    s.apply("greece", "origin_sea Athenai")
    s.rigged_dice = [1, 1, 1, 6, 6, 6]   # Persia loses the first round and keeps 2 fleets
    s.apply("greece", "move_sea Abydos 3 0")
    assert s.step == "artemisia" and s.pending()[0].legal == ["react 9", "decline"]
    events = s.apply("greece", "react 9")
    assert texts(events)[0] == ("Greece plays 9 Artemisia I: another Persian fleet is sunk for "
                                "good")
    assert n(s, "flt", P, "Abydos") == 1
    # the Greek attacker may retreat; PERS.IA, defending, is never asked and fights on
    assert (s.step, s.actor) == ("n_att_retreat", G)
    s.rigged_dice = [1, 6, 6, 6]
    s.apply("greece", "continue")
    assert n(s, "flt", P, "Abydos") == 0 and n(s, "flt", G, "Abydos") == 3


def test_attrition_takes_spare_armies_in_list_order(solo):
    # 6 armies outside Asia on 3 amphorae: 3 go, each from a city keeping another army,
    # in the order Korinthos, Delphi, Thebai, Larissa
    s = position(solo, step="sup_cards", hands=((2,), ()),
                 pa={"Abydos": 1, "Larissa": 2, "Thebai": 2, "Korinthos": 2},
                 ga={"Athenai": 1, "Sparta": 1})
    s.bridge = True
    events = run(s)
    taken = [e.data["city"] for e in events if e.data.get("rule") == "S6" and "city" in e.data]
    assert taken == ["Korinthos", "Thebai", "Larissa"]
    assert ("PERS.IA takes the attrition loss in Korinthos: it keeps another army there, so no "
            "point is lost [rule S6]") in texts(events)
    lost = [x for x in texts(events) if x.endswith("to attrition")]
    assert lost == [f"Persia loses an army in {c} to attrition"
                    for c in ("Korinthos", "Thebai", "Larissa")]


def test_persia_attacking_at_sea_is_never_asked_to_retreat(solo):
    s = position(solo, pa={"Abydos": 3}, gf={"Naxos": 3})
    s.rigged_dice = [6, 1, 1]   # the new Persian fleet wins the first round
    events = run(s, 5)
    assert "Naval battle at Naxos: Persia attacks (1 Persian, 2 Greek); Persia never retreats" \
        in texts(events)
    assert (n(s, "flt", P, "Naxos"), n(s, "flt", G, "Naxos")) == (1, 1)
    # the Greek defender may sail away; Persia, the attacker, was not asked
    assert (s.step, s.actor) == ("n_def_retreat", G)
