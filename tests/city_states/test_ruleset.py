"""The shipped ruleset (map, tables, cards, rule sections) and what `agon validate` rejects."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from agon.referee.games.city_states import CityStatesEngine
from agon.referee.ruleset import RULESETS_DIR, load_ruleset, validate_file

SHIPPED = Path(RULESETS_DIR) / "city-states.yaml"


def problems(data):
    return [p.message for p in CityStatesEngine.check(data)]


def test_shipped_ruleset_is_clean():
    rs = load_ruleset("city-states")
    assert rs.engine == "city-states" and rs.players == {"min": 2, "max": 6}
    assert problems(rs.data) == []
    assert set(rs.options) == {"incomes", "reaction_prompts"}


def test_the_map_follows_the_reference():
    spaces = load_ruleset("city-states").data["map"]["spaces"]
    assert len(spaces) == 86
    assert sum(s["terrain"] == "water" for s in spaces) == 18
    named = {s["id"] for s in spaces if s.get("city") == "named"}
    assert named == {"athens", "sparta", "troy", "archea", "ionia", "thebes", "corinth",
                     "thrace", "crete", "doria", "amazonia", "macedonia"}
    assert sum(s.get("city") == "minor" for s in spaces) == 22
    by_id = {s["id"]: s for s in spaces}
    assert by_id["thebes"]["sea"] == [] and by_id["sparta"]["sea"] == []   # landlocked
    assert by_id["gulf-of-corinth"]["sea"] == ["ionian-sea"]
    # a drawing position for every space, no two on the same spot
    spots = {(s["x"], s["y"]) for s in spaces}
    assert len(spots) == 86
    assert by_id["corcyra"]["x"] < by_id["athens"]["x"] < by_id["troy"]["x"]   # west to east
    assert by_id["thrace"]["y"] < by_id["athens"]["y"] < by_id["crete"]["y"]   # north to south


def test_terrain_and_unit_tables():
    data = load_ruleset("city-states").data
    terrain = data["terrain"]
    assert [terrain["mountain-pass"][k] for k in ("move", "stack", "defence")] == [2, 1, 7]
    assert [terrain["city"][k] for k in ("move", "stack", "defence")] == [2, 4, 5]
    assert terrain["swamp"]["defence"] == -2 and terrain["mountainous"]["impassable"]
    assert terrain["sandy-coast"]["ships"] == "beach" and "ships" not in terrain["rocky-coast"]
    units = data["units"]
    assert [units[k]["cost"] for k in ("army", "rowers", "fleet", "transport", "baggage")] == \
        [2, 2, 4, 2, 1]
    assert units["fleet"]["carries"] == {"rowers": 1, "baggage": 2}
    assert units["transport"]["carries"] == {"army": 1, "baggage": 8}
    assert data["turns"] == 36 and data["home"]["income"] == 7 and data["home"]["defence"] == 8


def test_dice_tables_read_as_the_rulebook_says(engine):
    t = engine.tables()
    tables = t.tables
    assert [tables["upkeep"].read(r) for r in (1, 5, 6, 9)] == ["starve", "starve", "disband",
                                                                "disband"]
    assert [tables["casualty"].read(r) for r in (0, 4, 5, 7)] == ["lost", "lost", "retreat",
                                                                  "retreat"]
    assert [tables["leader_roll"].read(r) for r in (3, 4, 5, 6)] == [1, 2, 2, 3]
    assert tables["leader_skills"].read(1) == "heroism"
    assert tables["leader_skills"].read(100) == "historian"
    assert tables["leader_skills"].read(55) == "organization"
    assert tables["city_traits"].read(64) == "reroll"
    assert tables["city_traits"].read(63) == "silver-mines"
    assert tables["rebels"].read(2) == 1 and tables["rebels"].read(5) == 3
    assert len(t.skills) == 25 and len(t.traits) == 35


def test_every_card_has_an_effect_and_a_rule_section():
    rs = load_ruleset("city-states")
    cards = rs.data["cards"]
    assert [c["number"] for c in cards] == list(range(1, 89))
    assert len({c["name"] for c in cards}) == 88
    sections = {r["number"]: r for r in rs.rules if r.get("kind") == "card"}
    assert sorted(sections) == list(range(1, 89))
    assert all(sections[c["number"]]["title"] == c["name"] for c in cards)
    kinds = [c["effect"]["kind"] for c in cards]
    assert kinds.count("diplomacy_roll") == 12 and kinds.count("deny_diplomacy") == 8
    assert kinds.count("take_neutral") == 5 and kinds.count("revolt") == 4
    battle = sum(k in ("battle_total", "battle_roll") for k in kinds)
    assert battle == 27 and kinds.count("casualty") == 6


def test_rule_sections_follow_the_rulebook_and_record_our_rulings():
    rs = load_ruleset("city-states")
    ids = [r["id"] for r in rs.rules]
    phases = [f"9.{k}" for k in range(1, 10)]
    assert ids[:ids.index("9.9") + 1] == ["1", "2", "2.1", "3", "4", "5", "6", "7", "8", "9",
                                          *phases]
    decisions = next(r for r in rs.rules if r["id"] == "decisions")
    assert len(decisions["text"]) > 1000
    assert {f"skill-{k}" for k in rs.data["skills"]} <= set(ids)
    assert {f"trait-{k}" for k in rs.data["traits"]} <= set(ids)


def test_editing_the_yaml_changes_the_game(board):
    rs = load_ruleset("city-states")
    data = copy.deepcopy(rs.data)
    data["home"]["gold"] = 30
    data["home"]["coastal"] = {"army": 1, "transport": 3}
    custom = CityStatesEngine(type(rs)(**{**rs.__dict__, "data": data}))
    s = custom.new_game(["p1", "p2"], 1, {})
    s.wait("home", 0)
    s.apply("p1", "home athens")
    s.apply("p2", "home sparta")
    athens = s.t.index["athens"]
    assert (s.arm[athens], s.trn[athens], s.flt[athens]) == (1, 3, 0)
    assert s.gold[1] >= 30   # (Silver Mines may add more)


def test_printed_incomes_option(engine):
    s = engine.new_game(["p1", "p2"], 4, {"incomes": "printed"})
    s.order = [0, 1]
    s.wait("home", 0)
    s.apply("p1", "home athens")
    s.apply("p2", "home sparta")
    income = {s.t.ids[c]: s.income[c] for c in s.t.cities}
    assert income["byzantium"] == 5 and income["pylos"] == 2 and income["corinth"] == 5
    assert income["athens"] == 7 and income["sparta"] == 7


# -- validation: each mistake a map editor makes is found, at its line -------------------------

def broken(tmp_path: Path, *edits: tuple[str, str]) -> tuple[Path, str]:
    text = SHIPPED.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "city-states-edited.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def line_of(text: str, pattern: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if re.search(pattern, line):
            return number
    raise AssertionError(pattern)


def issues_of(path: Path):
    ruleset, issues = validate_file(path)
    assert ruleset is None and issues
    return issues


def test_an_asymmetric_edge_is_rejected_where_it_is_listed(tmp_path):
    path, text = broken(tmp_path, ("land: [boeotia, thebes, athens, laurion]",
                                   "land: [boeotia, thebes, laurion]"))
    issues = issues_of(path)
    [issue] = [i for i in issues if "symmetric" in i.message]
    assert issue.line == line_of(text, r"- \{id: athens,")
    assert issue.path == "$.data.map.spaces[37].land[0]"
    assert "athens borders marathon but marathon does not list athens" in issue.message


def test_an_isolated_land_space_is_rejected(tmp_path):
    path, text = broken(tmp_path, ("y: 480, sea: [cyclades-sea], land: []}", "y: 480, sea: [], land: []}"),
                        ("land: [eretria, naxos, delos]", "land: [eretria, naxos]"))
    issues = issues_of(path)
    isolated = [i for i in issues if "isolated" in i.message]
    assert len(isolated) == 1 and isolated[0].line == line_of(text, r"- \{id: delos,")
    assert "delos is isolated" in isolated[0].message
    # a beach nobody can sail to is a second mistake on the same line
    assert any("touches no sea zone" in i.message and i.line == isolated[0].line for i in issues)


def test_a_land_mass_cut_by_mountains_is_rejected(tmp_path):
    path, text = broken(tmp_path, ("id: messara, code: F03, name: Messara, terrain: farms",
                                   "id: messara, code: F03, name: Messara, terrain: mountainous"))
    issues = issues_of(path)
    assert any("cut in two" in i.message for i in issues), issues


def test_two_adjacent_named_cities_are_rejected(tmp_path):
    path, text = broken(tmp_path, ("city: minor, income: 3, x: 420, y: 430",
                                   "city: named, income: 3, x: 420, y: 430"))
    issues = issues_of(path)
    adjacent = [i for i in issues if "are adjacent" in i.message]
    assert {i.line for i in adjacent} == {line_of(text, r"- \{id: athens,"),
                                          line_of(text, r"- \{id: megara,"),
                                          line_of(text, r"- \{id: corinth,")}
    assert any("athens and megara" in i.message for i in adjacent)


def test_a_d66_table_with_a_gap_is_rejected(tmp_path):
    path, text = broken(tmp_path, ("        - {roll: [64, 64], result: reroll}\n", ""))
    issues = issues_of(path)
    [issue] = issues
    assert issue.message == "d66 faces not covered: 64"
    assert issue.path == "$.data.tables.city_traits.rows"
    assert issue.line == line_of(text, r"^    city_traits:") + 3   # where the rows start


def test_a_d100_table_covering_a_face_twice_is_rejected(tmp_path):
    path, _ = broken(tmp_path, ("- {roll: [5, 8], result: strategist}",
                                "- {roll: [4, 8], result: strategist}"))
    [issue] = issues_of(path)
    assert issue.message == "d100 faces covered more than once: 4"


def test_an_unknown_card_effect_is_rejected(tmp_path):
    path, text = broken(tmp_path, ("effect: {kind: storm}}", "effect: {kind: teleport}}"))
    [issue] = issues_of(path)
    assert issue.line == line_of(text, r"number: 17, id: storms")
    assert issue.path == "$.data.cards[16].effect.kind"
    assert issue.message.startswith("unknown card effect kind 'teleport'")


def test_a_card_effect_without_its_dice_is_rejected(tmp_path):
    path, _ = broken(tmp_path, ("effect: {kind: gain_gold, count: 2, die: 6}",
                                "effect: {kind: gain_gold, count: 2}"))
    [issue] = issues_of(path)
    assert issue.message == "card effect gain_gold needs die"


def test_ships_only_where_they_may_enter(tmp_path):
    path, text = broken(tmp_path, (
        "id: boeotia, code: B06, name: Boeotia, terrain: farms",
        "id: boeotia, code: B06, name: Boeotia, terrain: fishing-village"))
    [issue] = issues_of(path)
    assert "ships land, but touches no sea zone" in issue.message
    assert issue.line == line_of(text, r"- \{id: boeotia,")


def test_sea_zones_must_be_connected(tmp_path):
    data = copy.deepcopy(load_ruleset("city-states").data)
    spaces = {s["id"]: s for s in data["map"]["spaces"]}
    spaces["gulf-of-corinth"]["sea"] = []
    spaces["ionian-sea"]["sea"] = ["messenian-sea"]
    assert any("not connected" in m and "gulf-of-corinth" in m for m in problems(data))


@pytest.mark.parametrize("edit, expected", [
    (lambda d: d["map"]["spaces"][0]["land"].append("atlantis"), "unknown space 'atlantis'"),
    (lambda d: d["map"]["spaces"][20].update(terrain="lava"), "unknown terrain 'lava'"),
    (lambda d: d["tables"]["leader_skills"]["rows"][0].update(result="luck"), "unknown skill"),
    (lambda d: d["skills"]["heroism"]["effects"][0].update(kind="magic"),
     "unknown effect kind 'magic'"),
    (lambda d: d["cards"][1].update(number=1), "card number 1 is used twice"),
    (lambda d: d["leader_names"].append("Pericles"), "leader name 'Pericles' is used twice"),
])
def test_other_mistakes_are_named(edit, expected):
    data = copy.deepcopy(load_ruleset("city-states").data)
    edit(data)
    assert any(expected in m for m in problems(data)), problems(data)


def test_a_trait_table_smaller_than_the_traits_dealt_runs_out_without_hanging(board):
    # rule 11: a trait already held is rolled again; a variant whose table gives fewer
    # traits than a home is dealt (or a leader roll asking for more skills than the skills
    # table has) deals what there is instead of rerolling for ever
    rs = load_ruleset("city-states")
    data = copy.deepcopy(rs.data)
    data["tables"]["city_traits"]["rows"] = [{"roll": [11, 36], "result": "wine"},
                                             {"roll": [41, 66], "result": "pottery"}]
    data["tables"]["leader_skills"]["rows"] = [{"roll": [1, 100], "result": "heroism"}]
    data["tables"]["leader_roll"]["rows"] = [{"roll": [1, 6], "result": 3}]
    custom = CityStatesEngine(type(rs)(**{**rs.__dict__, "data": data}))
    s = custom.new_game(["p1", "p2"], 1, {})
    s.wait("home", 0)
    s.apply("p1", "home athens")
    s.apply("p2", "home sparta")
    assert sorted(s.traits[0]) == ["pottery", "wine"]
    assert all(skills == ["heroism"] for skills in s.l_skills)
    s.gain_trait(0)   # the experience roll's trait: none is left to gain
    assert sorted(s.traits[0]) == ["pottery", "wine"]
