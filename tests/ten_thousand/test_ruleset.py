"""The shipped ruleset: its data drives the engine, its sections answer lookups."""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter

import pytest
import yaml

from agon.referee.games.ten_thousand import TenThousandEngine
from agon.referee.games.ten_thousand.army import Turn
from agon.referee.lookup import lookup
from agon.referee.ruleset import RulesetError, load_ruleset, validate_file


def test_the_deck_has_all_163_cards_with_structured_effects(engine):
    cards = engine.ruleset.data["cards"]
    assert [c["number"] for c in cards] == list(range(1, 164))
    assert len({c["name"] for c in cards}) == 163
    kinds = Counter(c["kind"] for c in cards)
    assert kinds == {"modify": 95, "choice": 23, "tokens": 19, "reroll": 12, "extra_roll": 11,
                     "draw": 3}
    by_roll = Counter(c["options"][0]["roll"] for c in cards if c["kind"] == "modify")
    assert by_roll["BR"] == 30 and by_roll["TR"] == 16 and by_roll["MR"] == 10
    assert by_roll["SR"] == 4 and by_roll["ZR"] == 1 and by_roll["DR"] == 1
    penalising = [c for c in engine.rules.cards.values() if c.penalising]
    assert len(penalising) == 45         # the reference's 49 minus the four either-side SR cards
    bravery = engine.rules.cards[118]
    assert [(o.effect, o.target) for o in bravery.options] == [("modify", "opponent"),
                                                                ("extra_roll", "self")]


def test_rule_sections_cover_phases_tables_leaders_and_cards():
    rs = load_ruleset("ten-thousand")
    kinds = Counter(s.get("kind") for s in rs.rules)
    assert kinds["phase"] == 16 and kinds["table"] == 13 and kinds["card"] == 163
    assert kinds["leader"] >= 4
    found = lookup(rs, "Thracian Troops")
    assert found.kind == "card" and found.sections[0]["id"] == "card-17"
    assert lookup(rs, "card 46").sections[0]["title"] == "Treachery"
    assert "Battle Roll" in lookup(rs, "card-17").sections[0]["text"]
    assert lookup(rs, "phase-forage").sections[0]["title"] == "Forage Phase"


def test_editing_the_data_changes_the_game():
    rs = load_ruleset("ten-thousand")
    data = copy.deepcopy(rs.data)
    data["hand"]["limit"] = 2
    data["start"]["men"] = 5000
    data["tables"]["route"]["rows"][0]["columns"]["travel"] = -5
    engine = TenThousandEngine(dataclasses.replace(rs, data=data))
    state = engine.new_game(["p1"], 3, {})
    assert state.armies["p1"].men == 5000
    assert engine.rules.hand_limit == 2
    assert engine.rules.tables["route"].rows[0]["columns"]["travel"] == -5


def test_engine_check_finds_semantic_errors():
    rs = load_ruleset("ten-thousand")
    assert list(TenThousandEngine.check(rs.data)) == []
    data = copy.deepcopy(rs.data)
    data["tables"]["weather"]["rows"][1]["min"] = 5          # a gap at 4
    data["cards"][1]["number"] = 1                           # duplicate number
    data["cards"][2]["options"][0]["roll"] = "QQ"            # no such roll
    data["phases"][1]["table"] = "nowhere"
    del data["tables"]["attack"]["only_if"]                  # an attack against nothing
    messages = [p.message for p in TenThousandEngine.check(data)]
    assert any("gap" in m for m in messages)
    assert any("duplicate card number" in m for m in messages)
    assert any("QQ" in m for m in messages)
    assert any("unknown table" in m for m in messages)
    assert any("attack table needs only_if" in m for m in messages)


def test_schema_rejects_malformed_card_data(tmp_path):
    rs = load_ruleset("ten-thousand")
    doc = copy.deepcopy(rs.raw)
    doc["data"]["cards"][0]["options"][0] = {"effect": "tokens", "tokens": {"gold": 1},
                                             "target": "self"}
    del doc["data"]["hand"]["limit"]
    path = tmp_path / "ten-thousand.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    ruleset, issues = validate_file(path)
    assert ruleset is None
    paths = " ".join(i.path for i in issues)
    assert "cards" in paths and "hand" in paths


def test_bad_option_value_is_a_clear_error(engine):
    with pytest.raises(RulesetError, match="penalising_cards"):
        engine.new_game(["p1"], 1, {"penalising_cards": "never"})



def test_the_attack_token_and_the_carried_weather_flag_are_read_from_the_data(tt):
    """A variant where barbarians answer Mutiny rather than Anger, and where Cold weather
    (not Harsh) is remembered: the engine follows the data, not the shipped words."""
    rs = load_ruleset("ten-thousand")
    data = copy.deepcopy(rs.data)
    data["tables"]["attack"]["only_if"] = {"token": "mutiny"}
    data["tables"]["attack"]["hit"]["lose"] = {"mutiny": 1}
    weather = data["tables"]["weather"]["rows"]
    weather[1]["next_turn_flags"] = weather[2].pop("next_turn_flags")
    assert list(TenThousandEngine.check(data)) == []
    engine = TenThousandEngine(dataclasses.replace(rs, data=data))
    state = engine.new_game(["p1"], 3, {})
    state.leader_queue, state.asking = [], None
    army = state.armies["p1"]
    army.leader, army.hand = "none", []
    army.tokens.update(mutiny=2, anger=0)
    # weather 5 - 1 (early march) = Cold; no satrap; attack 2 <= 2 Mutiny; battle 6 in the
    # Desert: 100 men; then the Forage choice
    state.rngs["dice:p1"] = tt.LoadedDice([5, 1, 2, 6])
    state.turn = Turn(seat="p1", start_space=1, order=["p1"], phase=2, rows={"route": 3})
    state.step = "phase"
    state.resume()
    assert state.pending()[0].legal == ["forage", "skip"]
    assert "attacked" in state.turn.flags and army.men == 9900
    assert army.tokens == {"food": 1, "starvation": 0, "mutiny": 1, "anger": 0}
    assert army.next_turn_flags == ["harsh_last_turn"]   # Cold, in this variant
