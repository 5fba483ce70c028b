"""Solo mode: PERS.IA, the automaton that plays Persia inside `apply`.

The ruleset is rulesets/earth-and-water-solo.yaml (`extends: earth-and-water`);
its automaton tables drive everything below.
"""

from __future__ import annotations

import random

import pytest

from referee.games.earth_and_water import EarthAndWaterEngine
from referee.ruleset import load_ruleset

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
    # PERS.IA prepared at once: the first decision is Greece's
    assert s.pending()[0].seat == "greece" and s.step == "buy"


def test_random_greek_games_finish_and_replay(solo):
    greek_wins = 0
    for seed in range(1000):
        s = solo.new_game(["greece"], seed, {})
        chooser = random.Random(seed)
        record = []
        while s.pending():
            d = s.pending()[0]
            assert d.seat == "greece"
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

def test_prep_worked_example_even_score(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Abydos": 1, "Ephesos": 1},
                 ga={"Athenai": 1, "Sparta": 1})
    s.vp, s.bridge = 0, False
    events = run(s)
    assert len(s.hands[P]) == 5 and s.bridge
    raised = [e.text for e in events if e.type == "raise"]
    assert raised == ["Persia raises 1 army in Abydos", "Persia raises 1 army in Ephesos",
                      "Persia raises 1 army in Abydos"]
    assert s.step == "buy" and s.actor == G


def test_prep_a_greeks_in_a_persian_major(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Ephesos": 1}, ga={"Abydos": 2})
    run(s)
    assert len(s.hands[P]) == 3 and n(s, "arm", P, "Ephesos") == 10


def test_prep_b_persia_ahead(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Thebai": 2, "Pella": 1, "Naxos": 1},
                 pf={"Naxos": 1}, gf={"Pella": 1}, ga={"Athenai": 1})
    s.vp, s.bridge = 3, False
    run(s)
    assert len(s.hands[P]) == 4 and s.bridge   # 4 cards + bridge 4 = 8 talents
    # a fleet where Persia occupies a port city without its own fleet (not Pella: Greek fleet)
    assert n(s, "flt", P, "Thebai") == 1 and n(s, "flt", P, "Pella") == 0
    # 3 talents left: Abydos, Ephesos, then Sparta/Athenai are Greek, Korinthos not held,
    # Thebai already holds 2 (minor cap): Pella next
    assert (n(s, "arm", P, "Abydos"), n(s, "arm", P, "Ephesos"), n(s, "arm", P, "Pella")) == (1, 1, 2)
    assert n(s, "arm", P, "Thebai") == 2


def test_prep_d_greece_ahead(solo):
    s = position(solo, step="buy", hands=((), ()), pa={"Ephesos": 1}, ga={"Athenai": 1})
    s.vp, s.bridge = -2, True
    run(s)
    assert len(s.hands[P]) == 6 and n(s, "arm", P, "Abydos") == 6


# -- operations --------------------------------------------------------------------------

def test_no_cards_passes(solo):
    s = position(solo, hands=((), (7,)), pa={"Abydos": 3}, ga={"Athenai": 1})
    events = run(s)
    assert "PERS.IA has no cards and passes" in texts(events)
    assert s.actor == G and s.step == "turn"


def test_roll_pass_sits_out_the_phase(solo):
    s = position(solo, hands=((2, 3), (7, 10)), pa={"Abydos": 3}, ga={"Athenai": 1})
    run(s, 1)
    assert s.auto_out and len(s.hands[P]) == 1   # it still discards a card
    s.apply("greece", "play 7 move")
    s.apply("greece", "origin_land Athenai")
    events = s.apply("greece", "move_land Korinthos 1")
    assert "PERS.IA has passed for this phase and passes" in texts(events)
    assert s.step == "turn" and s.actor == G


def test_roll_move_advances_to_the_nearest_empty_city(solo):
    s = position(solo, pa={"Ephesos": 6, "Abydos": 2}, ga={"Athenai": 1})
    s.bridge = True
    events = run(s, 2)
    # Ephesos (most armies) sends 3 (keeps 2 at home anyway); nearest empty city not
    # Persian: Pella (Abydos is Persian and passed through)
    assert "PERS.IA advances: 3 armies from Ephesos to Pella" in texts(events)
    assert len(s.hands[P]) == 1


def test_roll_move_attacks_when_nothing_is_empty(solo):
    s = position(solo, pa={"Abydos": 5, "Pella": 1}, ga={"Larissa": 1, "Athenai": 1})
    s.bridge = True
    s.rigged_dice = [4, 4, 1]
    events = run(s, 3)
    assert any("attacks: 2 armies from Abydos to Larissa" in x for x in texts(events))
    assert n(s, "arm", P, "Larissa") == 2 and n(s, "arm", G, "Larissa") == 0


def test_move_impossible_becomes_destroy_army(solo):
    s = position(solo, hands=((2, 3), (7,)), pa={"Abydos": 2}, ga={"Korinthos": 2, "Delphi": 1})
    s.bridge = False
    events = run(s, 2)   # Abydos must keep its 2: no march
    assert "PERS.IA destroys the isolated Greek army in Delphi" in texts(events)
    assert s.step == "auto_discard" and s.pending()[0].legal == ["discard 7"]
    s.hands[G].append(10)   # keep play at Greece's turn afterwards
    s.apply("greece", "discard 7")
    assert 7 in s.discard and s.step == "turn" and s.actor == G


def test_destroy_army_without_isolated_takes_the_first_city(solo):
    s = position(solo, pa={"Abydos": 3}, ga={"Sparta": 2, "Thebai": 2})
    events = run(s, 4)
    assert "PERS.IA destroys the Greek army in Thebai" in texts(events)


def test_no_greek_army_becomes_destroy_fleet_with_a_battle(solo):
    s = position(solo, pa={"Abydos": 3}, gf={"Naxos": 2, "Sparta": 1})
    s.rigged_dice = [1, 6]
    events = run(s, 4)
    assert "PERS.IA destroys a Greek fleet at Naxos and puts a Persian fleet there" in texts(events)
    assert any(e.type == "battle" for e in events)
    # the Persian fleet lost the round; Greece (the defender) is asked, Persia never is
    assert n(s, "flt", P, "Naxos") == 0 and n(s, "flt", G, "Naxos") == 1


def test_no_greek_fleet_becomes_place(solo):
    s = position(solo, pa={"Abydos": 3}, ga={}, gf={})
    events = run(s, 5)
    assert "PERS.IA places a fleet and an army at Athenai" in texts(events)


def test_place_impossible_becomes_move(solo):
    ports = {c: 1 for c in ("Athenai", "Sparta", "Thebai", "Eretria", "Naxos", "Pella",
                            "Abydos", "Ephesos")}
    s = position(solo, pa={"Ephesos": 5}, gf=ports)
    events = run(s, 6)
    assert any(x.startswith("PERS.IA cannot do that: move instead") for x in texts(events))
    assert any(x.startswith("PERS.IA advances") for x in texts(events))


def test_loop_guard_passes(solo):
    # Abydos must keep its 2 armies, Greece has no piece on the map, Persia no reserve
    s = position(solo, pa={"Abydos": 2})
    s.res_arm[P] = s.res_flt[P] = 0
    events = run(s, 2)
    assert texts(events)[-3:] == ["PERS.IA finds nothing to do and passes",
                                    "PERS.IA passes for the rest of the phase",
                                    "PERS.IA discards 2 Tribute of Earth and Water"]


def test_defence_marches_a_third_rounded_up(solo):
    s = position(solo, pa={"Ephesos": 7, "Pella": 1}, ga={"Abydos": 2, "Athenai": 1})
    s.rigged_dice = [4, 4, 4, 1, 1]
    events = run(s)
    assert "PERS.IA defends Abydos: 3 armies from Ephesos to Abydos" in texts(events)
    assert not any(e.type == "auto_roll" for e in events)


def test_persia_never_retreats_and_wins_at_once(solo):
    held = {c: 1 for c in ("Sparta", "Thebai", "Delphi", "Larissa", "Pella")}
    s = position(solo, pa={"Korinthos": 4, **held}, ga={"Athenai": 2, "Naxos": 1},
                 gf={"Athenai": 2})
    s.rigged_dice = [1, 1, 1, 1]   # a tie: both lose one, both remain
    events = run(s, 2)
    assert any("attacks: 2 armies from Korinthos to Athenai" in x for x in texts(events))
    assert s.step == "l_def_retreat" and s.actor == G   # Persia was not asked
    assert "retreat_sea Naxos" in s.pending()[0].legal
    s.rigged_dice = [4, 1]
    s.apply("greece", "continue")
    assert s.over and s.winner == P and s.result().points == {"greece": 0.0}


# -- supply ------------------------------------------------------------------------------

def test_attrition_order(solo):
    s = position(solo, step="sup_cards", hands=((2,), ()),
                 pa={"Abydos": 1, "Pella": 1, "Delphi": 1, "Thebai": 2, "Larissa": 1, "Naxos": 1},
                 ga={"Korinthos": 1})
    s.bridge = True
    # 6 armies outside Asia against 5 amphorae: 1 goes; Naxos is cut off (no fleet) anyway
    events = run(s)
    assert "PERS.IA keeps no cards" in texts(events)
    assert "Persia loses an army in Naxos to attrition" in texts(events)
