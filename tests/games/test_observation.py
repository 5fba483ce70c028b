"""Each engine's observation encoder and action catalogue (referee/games/<game>/observation.py).

The encoder turns a view into a fixed-length vector in [-1, 1] and lists every
action a seat may be offered, so that a learning agent's output *i* always
means the same action.  The game's page documents both.
"""

from __future__ import annotations

import pytest

from agon.referee.games import engine_class, load_encoder
from agon.referee.observation import NoEncoder
from agon.referee.ruleset import load_ruleset
from agon.referee.ruleset_model import Ruleset


def player_counts(ruleset: Ruleset) -> range:
    return range(int(ruleset.players["min"]), int(ruleset.players["max"]) + 1)


def encoders(ruleset_id: str):
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    for players in player_counts(ruleset):
        yield players, load_encoder(ruleset, engine.seats(players))


def test_every_view_encodes_into_the_declared_length_within_bounds(survey):
    assert not survey.encoding_errors, "\n".join(survey.encoding_errors[:10])


def test_every_legal_action_is_in_the_catalogue(survey):
    assert not survey.uncatalogued, (
        f"legal actions missing from the catalogue of {survey.ruleset.id}: "
        f"{sorted(survey.uncatalogued)[:20]}")


def test_the_page_gives_the_length_and_catalogue_size_of_every_player_count(ruleset_id, doc):
    for players, encoder in encoders(ruleset_id):
        row = doc.sizes.get((ruleset_id, players))
        assert row is not None, (f"{doc.file.name} (## Observation) has no row for "
                                 f"`{ruleset_id}` with {players} players")
        assert row == (encoder.size, len(encoder.actions)), (ruleset_id, players, row)


def test_the_page_lists_the_feature_groups_in_order(ruleset_id, doc):
    for _, encoder in encoders(ruleset_id):
        assert [name for name, _ in encoder.layout()] == doc.groups


def test_every_catalogue_action_has_a_documented_form_and_every_form_a_catalogue_action(
        ruleset_id, doc):
    _, encoder = next(encoders(ruleset_id))
    undocumented = [a for a in encoder.actions if not doc.forms_of(a, doc.decisions)]
    assert not undocumented, f"catalogue actions {doc.file.name} does not document: {undocumented}"
    used = {form for a in encoder.actions for form in doc.forms_of(a, doc.decisions)}
    forms = {tuple(form) for part in doc.decisions for form in part.forms}
    assert forms <= used, f"documented forms no catalogue action has: {sorted(forms - used)}"


def test_a_game_without_an_encoder_says_what_to_add(monkeypatch):
    from agon.referee import games
    ruleset = load_ruleset("earth-and-water")

    class Unencoded:   # an engine in a package that has no observation module
        __module__ = "agon.referee.games.no_such_game.engine"

    monkeypatch.setattr(games, "engine_class", lambda engine_id: Unencoded)
    with pytest.raises(NoEncoder, match=r"referee/games/no_such_game/observation\.py"):
        load_encoder(ruleset, ["persia", "greece"])


# -- what the numbers say, at the first decision of a game ---------------------------------

def features(encoder, view) -> dict[str, list[float]]:
    vector, out, at = encoder.encode(view), {}, 0
    for name, width in encoder.layout():
        out[name] = vector[at:at + width]
        at += width
    return out


def test_earth_and_water_encodes_cities_hand_and_seat():
    ruleset = load_ruleset("earth-and-water")
    encoder = load_encoder(ruleset, ["persia", "greece"])
    state = engine_class(ruleset.engine)(ruleset).new_game(["persia", "greece"], 3, {})
    view = state.view("greece")
    f = features(encoder, view)
    assert f["seat"] == [0.0, 1.0]
    athenai = [c["name"] for c in ruleset.data["cities"]].index("Athenai")
    row = f["cities"][7 * athenai: 7 * athenai + 7]
    greek_armies = ruleset.data["pieces"]["greece"]["armies"]
    assert row[1] == pytest.approx(1 / greek_armies)   # one Greek army at setup
    assert row[4:] == [0.0, 1.0, 0.0]                  # Greece controls Athenai
    assert sum(f["hand"]) == len(view["hand"])
    persia = features(encoder, state.view("persia"))
    assert persia["cities"] == f["cities"] and persia["seat"] == [1.0, 0.0]


def test_ten_thousand_puts_the_agents_own_army_first():
    ruleset = load_ruleset("ten-thousand")
    encoder = load_encoder(ruleset, ["p1", "p2", "p3"])
    state = engine_class(ruleset.engine)(ruleset).new_game(["p1", "p2", "p3"], 3, {})
    view = state.view("p2")
    view["armies"]["p2"]["men"] = 5000
    army = dict(encoder.layout())["armies"] // 3
    mine = features(encoder, view)["armies"][:army]
    assert mine[0] == pytest.approx(0.5)                # 5,000 of 10,000 men
    hand = features(encoder, view)["hand"]
    assert sum(hand) == len(view["hand"]) == 3


def test_epireia_codes_owners_by_their_relation_to_the_agent():
    ruleset = load_ruleset("epireia")
    encoder = load_encoder(ruleset, ["p1", "p2", "p3", "p4"])
    state = engine_class(ruleset.engine)(ruleset).new_game(["p1", "p2", "p3", "p4"], 3, {})
    view = state.view("p1")
    first = next(iter(view["territories"]))
    relations = {"p1": "me", "p4": "teammate", "p2": "opponent"}   # p1 and p4 are Delian
    for seat, relation in relations.items():
        view["territories"][first]["owner"] = seat
        code = features(encoder, view)["territories"][:6]
        assert code[["me", "teammate", "opponent", "enemy", None].index(relation)] == 1.0
