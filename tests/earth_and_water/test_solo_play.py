"""Solo mode as a player meets it: the terminal game, rule lookups, fair bot
comparisons on identical PERS.IA dice, and an automaton edited in the YAML."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from agon.bots.base import Bot
from agon.bots.random import RandomBot
from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.human import HumanPlayer
from agon.referee.lookup import answer, lookup
from agon.referee.match import run_match
from agon.referee.players import InProcessPlayer
from agon.referee.rng import stream
from agon.referee.ruleset import load_ruleset

P, G = 0, 1


@pytest.fixture(scope="module")
def solo():
    return EarthAndWaterEngine(load_ruleset("earth-and-water-solo"))


def auto_rolls(events) -> list[int]:
    return [e.data["die"] for e in events if e.type == "auto_roll"]


def play_out(engine, seed: int, choose) -> tuple[list, list[str], list[int]]:
    """A whole game: (opening events, Greek actions, PERS.IA's die faces in order)."""
    s = engine.new_game(["greece"], seed, {})
    opening = s.setup_events()
    actions, rolls = [], auto_rolls(opening)
    while s.pending():
        action = choose(s.pending()[0].legal)
        actions.append(action)
        rolls += auto_rolls(s.apply("greece", action))
    return opening, actions, rolls


# -- duplicate comparison: every Greek player meets the same PERS.IA dice -----------------------

def test_different_greek_players_face_the_same_automaton_rolls(solo):
    compared = 0
    for seed in range(20):
        careless = random.Random(seed + 1000)
        opening_a, actions_a, rolls_a = play_out(solo, seed, careless.choice)
        opening_b, actions_b, rolls_b = play_out(solo, seed, lambda legal: legal[-1])
        assert actions_a != actions_b
        # the first PERS.IA preparation is the same whatever Greece will do
        assert [e.text for e in opening_a] == [e.text for e in opening_b]
        # the k-th PERS.IA roll is the k-th draw of the seed's own "automaton" stream,
        # untouched by deck draws and battle dice
        dice = stream(seed, "automaton")
        expected = [int(dice.random() * 6) + 1 for _ in range(max(len(rolls_a), len(rolls_b)))]
        assert rolls_a == expected[:len(rolls_a)] and rolls_b == expected[:len(rolls_b)]
        compared += min(len(rolls_a), len(rolls_b))
    assert compared > 20


class FirstChoiceBot(Bot):
    name = "first"

    def choose(self, decision, view, state=None) -> str:
        return decision.legal[0]


def test_two_bots_refereed_on_one_seed_meet_identical_persia_rolls(solo):
    seen = {}
    for name, bot in (("random", RandomBot(7)), ("first", FirstChoiceBot(0))):
        events = []
        record = run_match(solo, {"greece": InProcessPlayer(bot)}, seed=11, options={},
                           on_event=events.append)
        seen[name] = (auto_rolls(events), record)
    (rolls_a, game_a), (rolls_b, game_b) = seen["random"], seen["first"]
    assert game_a.actions != game_b.actions and rolls_a and rolls_b
    common = min(len(rolls_a), len(rolls_b))
    assert rolls_a[:common] == rolls_b[:common]
    # each record replays to its own result: the comparison is verifiable
    for game in (game_a, game_b):
        s = solo.new_game(["greece"], 11, {})
        for seat, action in game.actions:
            s.apply(seat, action)
        assert s.result().points == game.result.points


# -- the terminal game ---------------------------------------------------------------------------

def test_the_board_shows_the_map_hands_and_score_at_a_glance(solo):
    s = solo.new_game(["greece"], 3, {})
    board = s.describe("greece")
    assert "Campaign 3 of 5 (preparation) | score Persia +2 | bridge built" in board
    assert "  Abydos     P~ Persia   7 armies, 2 fleets   ." in board
    assert "  Athenai    G~ Greece   .                    1 army, 1 fleet" in board
    assert "  Korinthos     Greece   .                    1 army" in board
    assert "Your hand (0): none" in board and "PERS.IA holds 4 cards" in board
    # PERS.IA prepared before Greece's first decision: the referee relays how
    seen = [e.text for e in s.setup_events() if e.visible_to("greece")]
    assert any("Situation B, Persia leads by 2" in text for text in seen)
    # its cards stay hidden
    for num in s.hands[P]:
        assert all(s.t.cards[num][P].name not in text for text in seen)
        assert s.t.cards[num][P].name not in board
    s.apply("greece", "buy_card")
    s.apply("greece", "done")
    board = s.describe("greece")
    assert s.setup_events() == []
    assert f"Your hand (1): {s.card_name(G, s.hands[G][0])}" in board
    assert s.pending()[0].prompt.endswith("(5 talents left)")


def test_a_whole_terminal_game_shows_persia_moves_and_rules(solo):
    rs = solo.ruleset
    typed = "rules S5.3\nrules 7.1\n" + "1\n" * 3000
    shown = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO(typed), stdout=shown,
                        rules_lookup=lambda q: answer(rs, q))
    record = run_match(solo, {"greece": human}, seed=5, options={})
    out = shown.getvalue()
    assert record.result is not None and not record.forfeits
    assert "PERS.IA prepares with 12 talents" in out
    assert "Since your last move:" in out and "PERS.IA rolls " in out
    assert "Section S5.3: Solo operations: the PERS.IA die" in out   # solo rules
    assert "Section 7.1: Land battle" in out                          # and the base rules
    verdict = {1.0: "you win", 0.5: "a draw", 0.0: "you lose"}[record.result.points["greece"]]
    assert out.rstrip().endswith(f"): {verdict}.")
    # the buy step repeats no unchanged board: one board per change, not per click
    assert out.count("Campaign 3 of 5 (preparation)") < out.count("buy_card")


def test_rule_lookups_merge_solo_and_base_rules(solo):
    rs = solo.ruleset
    ids = {section["id"] for section in rs.rules}
    # every rule PERS.IA's log cites can be looked up
    cited = {"S4.A", "S4.B", "S4.C", "S4.D", "S5.1", "S5.2", "S5.3", "S5.4", "S6",
             "S-loop-guard", "S-bridge"}
    assert cited <= ids and {"1", "7.1", "card-9"} <= ids
    s = solo.new_game(["greece"], 2, {})
    chooser = random.Random(2)
    while s.pending():
        for event in s.apply("greece", chooser.choice(s.pending()[0].legal)):
            if "rule" in event.data:
                assert event.data["rule"] in ids and f"[rule {event.data['rule']}]" in event.text
    found = lookup(rs, "Artemisia")
    assert found.kind in ("card", "search")
    assert lookup(rs, "s4.c").sections[0]["title"].startswith("Solo preparation C")


def test_every_section_of_the_solo_rulebook_can_be_looked_up(solo):
    # the solo booklet numbers its sections 1 to 8 (and S4, S5 have lettered or
    # numbered steps); a player looking one up by its number finds it (S7 was missing)
    rs = solo.ruleset
    for number in range(1, 9):
        found = lookup(rs, f"S{number}")
        assert found.sections and found.sections[0]["id"] == f"S{number}", number
    assert "scor" in lookup(rs, "S7").sections[0]["title"].lower()


# -- the automaton is data ----------------------------------------------------------------------

def edited_copy(tmp_path: Path, *edits: tuple[str, str]) -> EarthAndWaterEngine:
    text = Path(load_ruleset("earth-and-water-solo").source).read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "earth-and-water-solo.yaml"
    path.write_text(text)
    return EarthAndWaterEngine(load_ruleset(path))


def position(engine, **pieces):
    s = engine.new_game(["greece"], 1, {})
    t = s.t
    s.arm = [[0] * t.ncity, [0] * t.ncity]
    s.flt = [[0] * t.ncity, [0] * t.ncity]
    for key, (kind, side) in {"pa": ("arm", P), "ga": ("arm", G)}.items():
        for city, count in pieces.get(key, {}).items():
            getattr(s, kind)[side][t.index[city]] = count
    s.hands = [[2, 3], [7, 10]]
    s.deck = [n for n in t.card_numbers if n not in (2, 3, 7, 10)]
    s.step, s.actor, s.active, s._pending, s.passed = "turn", P, P, None, [False, False]
    return s


class Die:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def random(self) -> float:
        return (self.faces.pop(0) - 1) / 6 + 0.01


def persia_turn(s, face: int) -> list[str]:
    s.auto_rng = Die(face)
    s.events = []
    s.after_action()
    return [e.text for e in s.events]


def test_editing_the_automaton_lists_changes_how_persia_plays(tmp_path, solo):
    edited = edited_copy(
        tmp_path,
        ("destroy_army: [Abydos, Ephesos, Pella, Larissa, Thebai, Delphi, Athenai, Korinthos, "
         "Sparta, Naxos, Eretria]",
         "destroy_army: [Eretria, Naxos, Sparta, Korinthos, Athenai, Delphi, Thebai, Larissa, "
         "Pella, Ephesos, Abydos]"),
        ('"1": pass', '"1": place'),
        ("move: {keep_at_home: 2,", "move: {keep_at_home: 4,"),
        ("greece_ahead: {cards: 6, bridge: true, armies_to: Abydos}",
         "greece_ahead: {cards: 2, bridge: true, armies_to: Ephesos}"),
    )
    greeks = {"Larissa": 1, "Sparta": 1, "Athenai": 2}
    # destroy-army order: Larissa comes first in the shipped list, Sparta in the edited one
    said = persia_turn(position(solo, pa={"Abydos": 3}, ga=greeks), 4)
    assert "destroys the isolated Greek army in Larissa" in said[1]
    said = persia_turn(position(edited, pa={"Abydos": 3}, ga=greeks), 4)
    assert "destroys the isolated Greek army in Sparta" in said[1]
    # the die table: a 1 now places instead of passing
    said = persia_turn(position(edited, pa={"Abydos": 3}, ga=greeks), 1)
    assert said[0] == "PERS.IA rolls 1: place a fleet and an army [rule S5.3]"
    # armies kept at home: 6 in Ephesos send 3 in the shipped rules, 2 when 4 must stay
    said = persia_turn(position(solo, pa={"Ephesos": 6}, ga=greeks), 2)
    assert "3 armies to Pella" in said[1]
    said = persia_turn(position(edited, pa={"Ephesos": 6}, ga=greeks), 2)
    assert "rounded down, keeping 4 at home: 2 armies to Pella" in said[1]
    # preparation D: 2 cards and the other 10 talents on armies in Ephesos
    s = position(edited, pa={"Abydos": 1}, ga=greeks)
    s.step, s.hands, s.vp = "buy", [[], []], -3
    s.after_action()
    assert len(s.hands[P]) == 2 and s.arm[P][s.t.index["Ephesos"]] == 10
