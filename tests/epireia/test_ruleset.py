"""The shipped rulesets: they load, their tables hold the reference numbers, checks catch errors."""

from __future__ import annotations

import copy
from collections import Counter

from agon.referee.games.epireia import EpireiaEngine
from agon.referee.ruleset import load_ruleset


def test_both_rulesets_load_and_pass_the_engine_checks():
    for ruleset_id in ("epireia", "epireia-solo"):
        ruleset = load_ruleset(ruleset_id)
        assert ruleset.engine == "epireia"
        assert list(EpireiaEngine.check(ruleset.data)) == []


def test_solo_ruleset_offers_its_scenarios_as_an_option():
    ruleset = load_ruleset("epireia-solo")
    assert ruleset.players == {"min": 1, "max": 1}
    assert ruleset.options["scenario"]["choices"] == ["S1", "S2", "S3", "S4"]
    assert ruleset.resolve_options({"scenario": "S2"})["scenario"] == "S2"
    assert ruleset.data["start"]["prestige"] == 0
    assert load_ruleset("epireia").data["start"]["prestige"] == 1


def test_rule_sections_cover_every_component():
    rules = load_ruleset("epireia-solo").rules
    kinds = Counter(r.get("kind") for r in rules)
    assert kinds["figure"] == 30 and kinds["building"] == 15 and kinds["administrator"] == 6
    assert kinds["scenario"] == 9 + 4 and kinds["card"] == 15
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids))
    assert {"development", "diplomacy", "resolve-empires", "resolve-territories",
            "resolve-cities", "collection", "great-battle", "battle-column", "solo-enemy"} <= set(ids)


def test_empire_and_territory_tables(engine):
    empires = engine.tables.empires
    assert {e: spec["targets"] for e, spec in empires.items()} == {
        "persia": [7, 9], "phoenicia": [5, 7], "egypt": [5, 7], "carthage": [5, 7],
        "syracuse": [7, 9], "macedonia": [5, 7]}
    assert [e for e, spec in empires.items() if spec["sea"]] == ["egypt", "carthage", "syracuse"]
    sea = [t for t, spec in engine.tables.territories.items() if spec["maritime"]]
    assert sea == ["thrakiko-pelagos", "aigaio-pelagos", "kritiko-pelagos"]
    assert engine.tables.city_order == ["elis", "delphi", "larissa", "corinth", "sparta", "athens"]


def test_checks_report_broken_data():
    data = copy.deepcopy(load_ruleset("epireia").data)
    data["figures"][0]["city"] = "troy"
    data["buildings"][0]["cost"] = {"gold": 2}
    data["tokens"][1]["needs"] = "palace"
    data["scenarios"][0]["reward"] = "elephants-1"
    data["city_order"] = data["city_order"][:-1]
    data["figures"][1]["ability"] = {"teleport": True}
    messages = [p.message for p in EpireiaEngine.check(data)]
    for expected in ("unknown city 'troy'", "unknown resource 'gold'", "unknown building 'palace'",
                     "unknown token deck", "must list every city exactly once",
                     "unknown figure ability 'teleport'"):
        assert any(expected in m for m in messages), expected


def test_checks_report_broken_solo_data():
    data = copy.deepcopy(load_ruleset("epireia-solo").data)
    data["solo"]["d12"] = data["solo"]["d12"][:11]
    data["solo"]["scenarios"][0]["army"]["flank"][0] = ["cavalry-1"]
    data["solo"]["scenarios"][0]["turns"] = 99
    messages = [p.message for p in EpireiaEngine.check(data)]
    assert any("one entry per face" in m for m in messages)
    assert any("needs 3 token decks" in m for m in messages)
    assert any("more turns than augur cards" in m for m in messages)


def test_admin_uses_one_per_admin_building(setup_game):
    state = setup_game(admins=["merchant", "archon"])
    state.player("p1")["buildings"] = ["stoa", "archeion", "strategeion"]
    for _ in range(3):
        state.apply("p1", "admin gain")
    assert not [a for a in state.pending()[0].legal if a.startswith("admin")]


def test_views_are_json_and_describe_reads(setup_game):
    import json
    state = setup_game(players=3)
    for seat in ("p1", "p2", "p3"):
        json.dumps(state.view(seat))
        assert "Turn 1" in state.describe(seat)


def test_editing_the_yaml_data_changes_the_game():
    ruleset = load_ruleset("epireia")
    data = copy.deepcopy(ruleset.data)
    data["start"]["resources"]["copper"] = 7
    edited = type(ruleset)(**{**ruleset.__dict__, "data": data})
    state = EpireiaEngine(edited).new_game(["p1", "p2"], 1, {})
    assert state.player("p1")["res"]["copper"] == 7
