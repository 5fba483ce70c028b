"""`extends:` as a ruleset author uses it: records merge by id, errors stay on the author's line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from agon.referee.merge import merge_variant
from agon.referee.ruleset import RulesetError, load_ruleset, validate_file

HEAD = 'format: agon-ruleset/1\nid: v\nname: V\nversion: "1"\n'


def write(folder: Path, name: str, text: str, head: str = "") -> Path:
    path = folder / name
    path.write_text(head + textwrap.dedent(text), encoding="utf-8")
    return path


def merged(base: dict, variant: dict):
    return merge_variant(base, {}, variant, {})


# -- what merges and what replaces ---------------------------------------------------

def test_a_changed_record_replaces_the_one_of_its_id_where_it_stands():
    base = {"cards": [{"id": "a", "cost": 1}, {"id": "b", "cost": 2}, {"id": "c", "cost": 3}]}
    out = merged(base, {"cards": [{"id": "b", "cost": 9}]})
    assert out.value["cards"] == [{"id": "a", "cost": 1}, {"id": "b", "cost": 9},
                                  {"id": "c", "cost": 3}]
    assert out.problems == []


def test_new_ids_are_appended_and_delete_removes_an_entry():
    base = {"cards": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}
    out = merged(base, {"cards": [{"id": "b", "delete": True}, {"id": "d"}]})
    assert [c["id"] for c in out.value["cards"]] == ["a", "c", "d"]


def test_a_replaced_record_is_replaced_whole_not_merged_key_by_key():
    # A card whose effect changes kind must not keep the old effect's amount.
    base = {"cards": [{"id": "a", "effect": {"kind": "gold", "amount": 3}}]}
    out = merged(base, {"cards": [{"id": "a", "effect": {"kind": "storm"}}]})
    assert out.value["cards"] == [{"id": "a", "effect": {"kind": "storm"}}]


def test_lists_without_ids_and_empty_lists_replace_the_base_whole():
    base = {"order": ["x", "y"], "cities": [{"name": "A"}, {"name": "B"}],
            "cards": [{"id": "a"}]}
    out = merged(base, {"order": ["z"], "cities": [{"name": "C"}], "cards": []})
    assert out.value == {"order": ["z"], "cities": [{"name": "C"}], "cards": []}


def test_mappings_still_merge_key_by_key_around_the_lists():
    base = {"data": {"map": {"spaces": [{"id": "s1", "x": 1}], "name": "m"}, "turns": 36}}
    out = merged(base, {"data": {"map": {"spaces": [{"id": "s2", "x": 2}]}}})
    assert out.value == {"data": {"map": {"spaces": [{"id": "s1", "x": 1}, {"id": "s2", "x": 2}],
                                          "name": "m"}, "turns": 36}}


@pytest.mark.parametrize("entry, message", [
    ({"id": "zz", "delete": True}, "nothing to delete"),
    ({"id": "a", "delete": True, "cost": 1}, "{id: ..., delete: true} and nothing else"),
    ({"id": "a", "delete": "yes"}, "{id: ..., delete: true} and nothing else"),
    ({"delete": True}, "{id: ..., delete: true} and nothing else"),
])
def test_a_deletion_that_cannot_apply_is_a_problem(entry, message):
    out = merged({"cards": [{"id": "a"}]}, {"cards": [entry]})
    assert out.value["cards"] == [{"id": "a"}]
    assert len(out.problems) == 1 and message in out.problems[0][1]
    assert out.problems[0][0][:2] == ("cards", 0)


def test_an_id_given_twice_by_the_variant_is_a_problem():
    out = merged({"cards": [{"id": "a"}]}, {"cards": [{"id": "a", "n": 1}, {"id": "a", "n": 2}]})
    assert out.problems == [(("cards", 1, "id"), "id 'a' is given twice in this list: "
                                                 "give each entry once")]


# -- with real rulesets ----------------------------------------------------------------

def test_a_city_states_variant_that_changes_one_card_holds_one_card(tmp_path):
    variant = write(tmp_path, "v.yaml", head=HEAD, text="""\
        extends: city-states
        data:
          cards:
            - {number: 8, id: starvation, name: Famine, effect: {kind: starvation}}
            - {id: cavalry-pursuit, delete: true}  # the last: numbers run 1..87
        """)
    rs = load_ruleset(variant)
    shipped = load_ruleset("city-states")
    names = {card["id"]: card["name"] for card in rs.data["cards"]}
    assert names["starvation"] == "Famine" and "cavalry-pursuit" not in names
    assert len(rs.data["cards"]) == len(shipped.data["cards"]) - 1
    # every other card as shipped, in the shipped order
    others = [c for c in shipped.data["cards"]
              if c["id"] not in ("starvation", "cavalry-pursuit")]
    assert [c for c in rs.data["cards"] if c["id"] != "starvation"] == others


def test_a_rule_section_can_be_deleted_and_the_lookup_loses_it(tmp_path):
    variant = write(tmp_path, "v.yaml", head=HEAD, text="""\
        extends: earth-and-water-solo
        rules:
          - {id: S-pass, delete: true}
        """)
    rs = load_ruleset(variant)
    ids = [s["id"] for s in rs.rules]
    assert "S-pass" not in ids and "S-loop-guard" in ids
    assert len(ids) == len(load_ruleset("earth-and-water-solo").rules) - 1


def test_an_error_in_a_variant_entry_names_its_own_line_and_index(tmp_path):
    variant = write(tmp_path, "v.yaml", head=HEAD, text="""\
        extends: epireia
        data:
          figures:
            - {id: pericles, name: Pericles, city: athens, attack: 3, sea: false}
            - {id: leonidas, name: Leonidas, city: sparta, attack: many, sea: false}
        """)
    _, issues = validate_file(variant)
    assert [(i.file, i.line, i.path) for i in issues] == [
        (str(variant), 9, "$.data.figures[1].attack")], issues


def test_an_integer_option_keeps_to_its_range_in_a_variant_and_on_the_command_line(tmp_path):
    variant = write(tmp_path, "v.yaml", head=HEAD, text="""\
        extends: epireia
        options:
          max_turns: {type: integer, default: 0, min: 1, text: "a cap of zero turns"}
        """)
    _, issues = validate_file(variant)
    assert [(i.line, i.path, i.message) for i in issues] == [
        (7, "$.options.max_turns.default",
         "option max_turns takes a whole number of at least 1, not 0")], issues
    epireia = load_ruleset("epireia")
    assert epireia.resolve_options({"max_turns": "3"})["max_turns"] == 3
    with pytest.raises(RulesetError, match="max_turns takes a whole number of at least 1, not 0"):
        epireia.resolve_options({"max_turns": "0"})
    with pytest.raises(RulesetError, match="max_turns takes a whole number from 1 to "
                                           "9,007,199,254,740,991, not 99999999999999999999"):
        epireia.resolve_options({"max_turns": "99999999999999999999"})


def test_a_base_error_after_a_deletion_names_the_base_line_and_its_own_index(tmp_path):
    base = write(tmp_path, "base.yaml", """\
        format: agon-ruleset/1
        id: base
        name: Base
        version: "1"
        extends: earth-and-water
        rules:
          - {id: h1, title: One, text: First house rule.}
          - {id: h2, title: Two, text: Second, see_also: [nowhere]}
        """)
    variant = write(tmp_path, "v.yaml", head=HEAD, text="""\
        extends: base.yaml
        rules:
          - {id: h1, delete: true}
          - {id: "1", delete: true}
        """)
    _, issues = validate_file(variant)
    assert [(i.file, i.line, i.path) for i in issues] == [
        (str(base), 8, "$.rules[1].see_also[0]")], issues


def test_a_deletion_that_misses_is_reported_on_the_variant_line(tmp_path):
    variant = write(tmp_path, "v.yaml", head=HEAD, text="""\
        extends: epireia
        data:
          cities:
            - {id: atlantis, delete: true}
        """)
    _, issues = validate_file(variant)
    assert len(issues) == 1
    assert (issues[0].line, issues[0].path) == (8, "$.data.cities[0]")
    assert "no entry 'atlantis'" in issues[0].message


def test_version_must_be_text(tmp_path):
    variant = write(tmp_path, "v.yaml", "format: agon-ruleset/1\nid: v\nname: V\n"
                                        "version: 1.0\nextends: earth-and-water\n")
    _, issues = validate_file(variant)
    assert [(i.line, i.path) for i in issues] == [(4, "$.version")]
    assert "is not of type 'string'" in issues[0].message
