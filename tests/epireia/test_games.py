"""Whole games: seeded replays, random games finishing, save/load, teams and secrecy."""

from __future__ import annotations

import json
import random

import pytest

from agon.referee.engine import IllegalAction


def random_game(engine, players: int, seed: int, options: dict | None = None, keep_events=False):
    state = engine.new_game(engine.seats(players), seed, options or {})
    rng = random.Random(seed * 7 + players)
    record, events = [], []
    while True:
        pending = state.pending()
        if not pending:
            return state, record, events
        answers = [(d.seat, rng.choice(list(d.legal))) for d in pending]
        for seat, action in answers:  # simultaneous decisions: collect, then apply in order
            new = state.apply(seat, action)
            record.append((seat, action))
            if keep_events:
                events.append((seat, action, new, [state.view(s) for s in state.g["seats"]]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_game_replays_from_its_record(engine, players):
    state, record, _ = random_game(engine, players, seed=11)
    replay = engine.new_game(engine.seats(players), 11, {})
    for seat, action in record:
        replay.apply(seat, action)
    assert replay.result().to_json() == state.result().to_json()
    assert replay.to_json() == state.to_json()


def test_solo_game_replays_from_its_record(solo_engine):
    state, record, _ = random_game(solo_engine, 1, seed=5, options={"scenario": "S4"})
    replay = solo_engine.new_game(["p1"], 5, {"scenario": "S4"})
    for seat, action in record:
        replay.apply(seat, action)
    assert replay.to_json() == state.to_json()
    assert state.result().points["p1"] in (0.0, 1.0)


def test_five_hundred_random_games_finish(engine, solo_engine):
    finished = 0
    for seed in range(110):
        for players in (2, 3, 4):
            state, _, _ = random_game(engine, players, seed)
            result = state.result()
            assert result is not None and result.teams
            winners = {s for s, r in result.ranks.items() if r == 1}
            leagues = {lg for lg, seats in result.teams.items() if winners & set(seats)}
            assert all(set(result.teams[lg]) <= winners for lg in leagues)
            finished += 1
    for seed in range(170):
        scenario = f"S{seed % 4 + 1}"
        state, _, _ = random_game(solo_engine, 1, seed, {"scenario": scenario})
        assert state.result().points["p1"] in (0.0, 1.0)
        finished += 1
    assert finished == 500


def test_save_and_load_round_trip_mid_game(engine):
    state = engine.new_game(engine.seats(3), 4, {})
    rng = random.Random(4)
    for step in range(400):
        if not state.pending():
            break
        if step % 37 == 0:
            saved = json.loads(json.dumps(state.to_json()))
            loaded = engine.load(saved)
            assert loaded.to_json() == state.to_json()
            assert [(d.seat, list(d.legal)) for d in loaded.pending()] == \
                   [(d.seat, list(d.legal)) for d in state.pending()]
            decision = state.pending()[0]
            action = rng.choice(list(decision.legal))
            assert [e.text for e in loaded.apply(decision.seat, action)] == \
                   [e.text for e in state.apply(decision.seat, action)]
            continue
        decision = state.pending()[0]
        state.apply(decision.seat, rng.choice(list(decision.legal)))


def test_clone_is_independent(engine):
    state = engine.new_game(engine.seats(2), 2, {})
    copy = state.clone()
    copy.apply("p1", "city athens")
    assert state.player("p1")["city"] is None and copy.player("p1")["city"] == "athens"


def test_teams_follow_the_choosing_order(engine, solo_engine):
    assert engine.teams(["p1", "p2"]) == {"delian": ["p1"], "peloponnesian": ["p2"]}
    assert engine.teams(["p1", "p2", "p3"]) == {"delian": ["p1", "p3"], "peloponnesian": ["p2"]}
    assert engine.teams(["p1", "p2", "p3", "p4"]) == {"delian": ["p1", "p4"],
                                                       "peloponnesian": ["p2", "p3"]}
    assert solo_engine.seats(1) == ["p1"] and solo_engine.teams(["p1"]) is None


def test_bad_seat_count_and_bad_scenario_are_clear_errors(engine, solo_engine):
    with pytest.raises(ValueError, match="2 to 4 players"):
        engine.seats(5)
    with pytest.raises(Exception, match="scenario"):
        solo_engine.new_game(["p1"], 1, {"scenario": "S9"})


def test_illegal_action_is_refused(engine):
    state = engine.new_game(engine.seats(2), 1, {})
    with pytest.raises(IllegalAction):
        state.apply("p2", "city athens")  # p1 picks first
    with pytest.raises(IllegalAction):
        state.apply("p1", "city atlantis")


def test_sparta_is_peloponnesian_and_athens_delian(engine):
    state = engine.new_game(engine.seats(2), 1, {})
    assert "city sparta" not in state.pending()[0].legal
    state.apply("p1", "city corinth")
    assert "city athens" not in state.pending()[0].legal
    assert "city sparta" in state.pending()[0].legal


def test_four_players_pick_delian_then_both_peloponnesians_then_delian(engine):
    state = engine.new_game(engine.seats(4), 1, {})
    order = []
    for city in ("athens", "sparta", "corinth", "delphi"):
        seat = state.pending()[0].seat
        order.append((seat, state.player(seat)["league"]))
        state.apply(seat, f"city {city}")
    assert order == [("p1", "delian"), ("p2", "peloponnesian"), ("p3", "peloponnesian"),
                     ("p4", "delian")]
    assert state.pending()[0].prompt.startswith("Choose your administrator")


def test_starting_figure_is_secret_until_all_have_chosen(engine):
    state = engine.new_game(engine.seats(3), 8, {})
    for seat, city in zip(("p1", "p2", "p3"), ("athens", "sparta", "elis"), strict=True):
        state.apply(seat, f"city {city}")
    for seat, admin in zip(("p1", "p2", "p3"), ("archon", "merchant", "architect"), strict=True):
        state.apply(seat, f"admin {admin}")
    pending = state.pending()
    assert sorted(d.seat for d in pending) == ["p1", "p2", "p3"]
    events = state.apply("p1", "figure themistocles") + state.apply("p2", "figure gorgo")
    for other in ("p2", "p3"):
        seen = [e for e in events if e.visible_to(other)]
        assert not any("themistocles" in json.dumps(e.data).lower() or "Themistocles" in e.text
                       for e in seen)
        assert "themistocles" not in json.dumps(state.view(other)).lower()
    assert "themistocles" in json.dumps(state.view("p1")).lower()
    assert state.player("p1")["figures"] == []
    events = state.apply("p3", "figure hippias")
    reveal = [e.text for e in events if e.to is None]
    assert any("Themistocles" in t for t in reveal) and any("Gorgo" in t for t in reveal)
    assert state.player("p1")["figures"] == ["themistocles"]


def test_great_battle_placements_are_secret_in_a_transcript(engine):
    """Scan a whole 4-player game: no face-down choice reaches the other league early."""
    state, record, log = random_game(engine, 4, seed=3, keep_events=True)
    teams = engine.teams(state.g["seats"])
    league_of = {s: lg for lg, seats in teams.items() for s in seats}
    revealed_columns = set()
    figures_revealed = False
    for seat, _action, events, views in log:
        for event in events:
            if event.type == "column":
                revealed_columns.add(f"{event.data['front']}-{event.data['column']}")
            if event.type == "reveal":
                figures_revealed = True
            if event.type == "place":
                assert event.to is not None
                assert {league_of[s] for s in event.to} == {league_of[seat]}
        for viewer, view in zip(state.g["seats"], views, strict=True):
            battle = view["battle"]
            if not battle:
                continue
            for side, info in battle["sides"].items():
                if side == league_of[viewer]:
                    continue
                for key in info["placed"]:
                    assert key.rsplit("-", 1)[0] in revealed_columns
                if not figures_revealed:
                    assert info["figures"] == {}
    assert figures_revealed and len(revealed_columns) == 9


def test_other_leagues_token_powers_are_hidden(engine, setup_game):
    state = setup_game(players=2)
    state.apply("p1", "produce hoplites-1")
    mine = state.view("p1")["leagues"]["delian"]["reserve"]
    theirs = state.view("p2")["leagues"]["delian"]["reserve"]
    assert "power" in mine[0] and theirs == [{"deck": "hoplites-1"}]


def test_determinize_keeps_what_the_seat_knows(engine, setup_game):
    state = setup_game(players=2)
    state.player("p1")["res"]["copper"] = 6
    state.apply("p1", "produce hoplites-1")
    state.apply("p1", "produce hoplites-1")
    sampled = state.determinize("p2", random.Random(1))
    assert sampled.view("p2")["leagues"]["delian"]["reserve"] == \
        state.view("p2")["leagues"]["delian"]["reserve"]
    assert sampled.view("p2")["players"] == state.view("p2")["players"]
    own = state.determinize("p1", random.Random(1))
    assert own.g["leagues"]["delian"]["reserve"] == state.g["leagues"]["delian"]["reserve"]


def test_determinize_resamples_the_other_leagues_face_down_army(engine, setup_game):
    from agon.referee.games.epireia import registry
    from agon.referee.games.epireia.battle import start_battle
    state = setup_game(players=2)
    hoplites = [{"deck": "hoplites-1", "power": p} for p in (1, 1, 1, 3, 3, 3)]
    state.g["leagues"]["delian"]["reserve"] = [dict(t) for t in hoplites]
    state.g["leagues"]["peloponnesian"]["reserve"] = [dict(t) for t in hoplites]
    start_battle(state)
    registry.advance(state)
    while state.g["step"] == "battle-tokens":
        for decision in state.pending():
            state.apply(decision.seat, decision.legal[0])
    mine = state.g["battle"]["placed"]["delian"]
    theirs = state.g["battle"]["placed"]["peloponnesian"]
    changed = False
    for seed in range(10):
        sampled = state.determinize("p1", random.Random(seed))
        assert sampled.g["battle"]["placed"]["delian"] == mine
        other = sampled.g["battle"]["placed"]["peloponnesian"]
        assert set(other) == set(theirs)
        changed |= other != theirs
    assert changed
