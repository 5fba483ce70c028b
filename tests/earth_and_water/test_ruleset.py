"""The shipped ruleset: its data, its rule sections, and the semantic checks."""

from __future__ import annotations

import copy

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.ruleset import load_ruleset


def problems(data):
    return [p.message for p in EarthAndWaterEngine.check(data)]


def test_shipped_ruleset_is_clean_and_complete():
    rs = load_ruleset("earth-and-water")
    assert rs.engine == "earth-and-water" and rs.players["seats"] == ["persia", "greece"]
    assert problems(rs.data) == []
    cards = [r for r in rs.rules if r.get("kind") == "card"]
    assert sorted(r["number"] for r in cards) == list(range(1, 17))
    ids = {r["id"] for r in rs.rules}
    assert {str(n) for n in range(1, 11)} <= ids
    assert set(rs.options) >= {"cheap_fleets"}


def test_map_facts():
    data = load_ruleset("earth-and-water").data
    cities = {c["name"]: c for c in data["cities"]}
    assert len(cities) == 11
    assert sorted(n for n, c in cities.items() if c["port"]) == sorted(
        ["Abydos", "Athenai", "Ephesos", "Eretria", "Naxos", "Pella", "Sparta", "Thebai"])
    assert sum(len(v) for v in data["roads"].values()) == 2 * 9   # + the bridge = 10 edges
    assert data["roads"]["Eretria"] == [] and data["roads"]["Naxos"] == []


def test_checks_find_every_problem():
    data = copy.deepcopy(load_ruleset("earth-and-water").data)
    data["roads"]["Thebai"].append("Atlantis")
    data["roads"]["Delphi"].remove("Thebai")           # no longer symmetric
    data["cities"] = [c for c in data["cities"] if c["name"] != "Ephesos"] + [
        {**data["cities"][2], "major": None}]
    data["cities"][0]["major"] = "greece"                  # Persia loses its last major
    data["cards"][3]["number"] = 5                          # duplicate card number
    data["preparation"]["persia"]["army_cost"] = -1
    found = problems(data)
    assert any("Atlantis" in m for m in found)
    assert any("symmetric" in m for m in found)
    assert any("persia has no major" in m for m in found)
    assert any("appears twice" in m for m in found)
    assert any("negative" in m for m in found)


def test_editing_the_yaml_changes_the_game(engine):
    rs = load_ruleset("earth-and-water")
    data = copy.deepcopy(rs.data)
    data["preparation"]["persia"]["budget"] = 20
    data["setup"]["greece"]["armies"]["Thebai"] = 2
    custom = EarthAndWaterEngine(type(rs)(**{**rs.__dict__, "data": data}))
    s = custom.new_game(["persia", "greece"], 1, {})
    assert s.talents == 20 and s.arm[1][s.t.index["Thebai"]] == 2 and s.res_arm[1] == 4


def test_cheap_fleets_option_and_bad_values(engine):
    s = engine.new_game(["persia", "greece"], 1, {"cheap_fleets": "true"})
    assert s.t.fleet_cost == [1, 1]
    try:
        engine.new_game(["persia", "greece"], 1, {"cheap_fleets": "maybe"})
    except Exception as err:   # RulesetError from resolve_options
        assert "cheap_fleets" in str(err)
    else:
        raise AssertionError("accepted cheap_fleets=maybe")
