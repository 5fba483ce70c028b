"""Whole games: replays, random games finishing, secrecy, the command line, rule lookups."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import agon.bots.examples
from agon.cli.main import app
from agon.referee.games.city_states import CityStatesEngine
from agon.referee.match import run_match
from agon.referee.players import Limits, SubprocessPlayer
from agon.referee.ruleset import load_ruleset

runner = CliRunner()


def short_engine(turns: int, rename_cards: bool = False) -> CityStatesEngine:
    """The shipped rules over fewer game turns (and cards renamed to markers)."""
    ruleset = load_ruleset("city-states")
    data = copy.deepcopy(ruleset.data)
    data["turns"] = turns
    if rename_cards:
        for card in data["cards"]:
            card["name"] = f"CARD{card['number']:02d}"
            card["id"] = f"card{card['number']:02d}"
    return CityStatesEngine(dataclasses.replace(ruleset, data=data))


def random_game(engine, players: int, seed: int):
    state = engine.new_game(engine.seats(players), seed, {})
    rng = random.Random(seed * 7 + players)
    record = []
    while state.pending():
        decision = state.pending()[0]
        assert decision.legal, f"no legal action in step {state.step}"
        action = rng.choice(list(decision.legal))
        state.apply(decision.seat, action)
        record.append((decision.seat, action))
        assert len(record) < 20000, "the game does not end"
    return state, record


def test_a_seeded_four_player_game_replays_from_its_record(engine):
    state, record = random_game(engine, 4, seed=11)
    assert state.turn == 36 or state.reason.startswith("only one")
    replay = engine.new_game(engine.seats(4), 11, {})
    for seat, action in record:
        replay.apply(seat, action)
    assert replay.to_json() == state.to_json()
    assert replay.result().to_json() == state.result().to_json()


def test_two_hundred_random_games_of_two_to_six_players_finish():
    short = short_engine(turns=3)
    for seed in range(200):
        players = 2 + seed % 5
        state, _ = random_game(short, players, seed)
        result = state.result()
        assert result is not None and set(result.ranks) == set(state.seats)
        assert min(result.ranks.values()) == 1
        assert all(score >= 0 for score in result.scores.values())


@pytest.mark.parametrize("players", [2, 6])
def test_full_length_games_finish_with_a_sound_position(engine, players):
    state, _ = random_game(engine, players, seed=players)
    t = state.t
    for s in range(t.n):
        units = state.arm[s] + state.row[s] + state.flt[s] + state.trn[s] + state.bag[s]
        assert (units > 0) <= (state.occ[s] >= 0)
        if t.sea[s]:
            assert state.arm[s] <= state.trn[s]    # armies at sea ride transports
        assert min(state.arm[s], state.row[s], state.flt[s], state.trn[s], state.bag[s]) >= 0
        if t.city[s] and state.occ[s] >= 0:
            assert state.owner[s] == state.occ[s]   # only the owner's units stand in a city
    assert all(g >= 0 for g in state.gold)



def sound_now(state) -> None:
    """What any player could check on the board at any moment of a game."""
    t = state.t
    for s in range(t.n):
        assert state.stacked(s) <= t.stack[s], (t.ids[s], state.step)   # stacking limits
        if state.flt[s] + state.trn[s]:
            assert t.ships_enter[s]   # ships only at sea and where they may land
    assert all(g >= 0 for g in state.gold)
    for i, owner in enumerate(state.l_owner):
        if state.l_state[i] == 0:   # a free leader stands with his own side, aboard at sea
            s = state.l_space[i]
            assert state.occ[s] == owner
            assert not t.sea[s] or state.flt[s] + state.trn[s]
    # every card is somewhere: in the deck, the discards or one hand
    cards = state.deck + state.discard + [c for hand in state.hands for c in hand]
    assert sorted(cards) == sorted(t.card_numbers)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_keeps_stacks_cards_and_final_scores_sound(players):
    short = short_engine(turns=8)
    state = short.new_game(short.seats(players), 40 + players, {})
    rng = random.Random(players)
    plies = 0
    while state.pending():
        decision = state.pending()[0]
        state.apply(decision.seat, rng.choice(list(decision.legal)))
        plies += 1
        if plies % 25 == 0:
            sound_now(state)
    sound_now(state)
    assert state.turn == 8 or state.reason.startswith("only one")
    result = state.result()
    standings = {}
    for p, seat in enumerate(state.seats):
        historians = sum(1 for i in state.free_leaders(p) if "historian" in state.l_skills[i])
        points = len(state.cities_of(p)) + historians   # rule 14: cities and free Historians
        assert result.scores[seat] == points
        incomes = sum(state.income[c] for c in state.cities_of(p))
        standings[seat] = (points, not state.out[p], incomes, state.gold[p])
    for seat, standing in standings.items():   # ties go to base incomes, then gold
        assert result.ranks[seat] == 1 + sum(other > standing for other in standings.values())

def test_views_are_json_and_boards_are_text_for_every_seat(engine):
    state = engine.new_game(engine.seats(3), 5, {})
    rng = random.Random(5)
    for ply in range(1500):
        if not state.pending():
            break
        if ply % 100 == 0:
            for seat in state.seats:
                json.dumps(state.view(seat))
                board = state.describe(seat)
                assert "None" not in board and seat in board
        decision = state.pending()[0]
        state.apply(decision.seat, rng.choice(list(decision.legal)))


def test_a_position_round_trips_through_json(engine):
    state, _ = random_game(short_engine(turns=2), 3, seed=3)
    state = engine.new_game(engine.seats(3), 3, {})
    rng = random.Random(3)
    for _ in range(400):
        decision = state.pending()[0]
        state.apply(decision.seat, rng.choice(list(decision.legal)))
    copy_ = engine.load(json.loads(json.dumps(state.to_json())))
    assert copy_.to_json() == state.to_json()
    assert copy_.pending()[0].legal == state.pending()[0].legal


# -- secrecy ---------------------------------------------------------------------------------

EXAMPLE_BOT = Path(agon.bots.examples.__file__).parent / "minimal_bot.py"


class Watched(SubprocessPlayer):
    """A bot reading every view and event (the docs' example), each line it receives
    checked against the other hands."""

    def __init__(self, seat: str, game: dict, log_dir: Path) -> None:
        super().__init__([sys.executable, str(EXAMPLE_BOT), "--seed", seat[1:]],
                         log_dir=log_dir, transcript=True)
        self.seat, self.game = seat, game
        self.secrets_seen = 0
        note = self.lines.sent   # every line sent is noted (referee.transcript): checked there too

        def note_and_check(line: bytes) -> None:
            note(line)
            self.check(line)

        self.lines.sent = note_and_check  # type: ignore[method-assign]

    def check(self, line: bytes) -> None:
        state = self.game.get("state")
        if state is None:
            return
        text = line.decode().lower()
        known = state.view(self.seat)["known_hands"]
        for other in state.seats:
            if other == self.seat:
                continue
            for card in state.view(other)["hand"]:
                if card not in known.get(other, []):
                    assert card not in text, (self.seat, other, card, text[:300])
                    self.secrets_seen += 1


def test_no_seat_ever_sees_another_seats_hand(tmp_path):
    engine = short_engine(turns=3, rename_cards=True)
    game: dict = {}
    new_game = engine.new_game

    def remembering_new_game(*args, **kwargs):
        game["state"] = new_game(*args, **kwargs)
        return game["state"]

    engine.new_game = remembering_new_game
    players = {seat: Watched(seat, game, tmp_path) for seat in ("p1", "p2", "p3")}
    record = run_match(engine, players, seed=4, options={},
                       limits=Limits(handshake=10, move=10, game=120))
    assert record.forfeits == {}
    assert all(player.secrets_seen > 50 for player in players.values())
    transcript = (tmp_path / "p1.transcript").read_text()
    assert "you draw card" in transcript.lower()   # the markers do name one's own cards


# -- the command line -------------------------------------------------------------------------

def test_agon_play_with_random_and_mc_bots_runs_to_the_end(tmp_path):
    # a small budget: two playouts of twenty moves for each of mc's decisions
    record = tmp_path / "game.json"
    out = runner.invoke(app, ["play", "city-states", "--seat", "p1=random",
                              "--seat", "p2=mc:iterations=2,moves=20",
                              "--seat", "p3=random", "--seed", "12", "--record", str(record)])
    assert out.exit_code == 0, out.output
    assert "result:" in out.output and "Game turn 36 of 36" in out.output
    game = json.loads(record.read_text())
    assert game["seats"]["p2"]["name"] == "mc" and set(game["result"]["ranks"]) == \
        {"p1", "p2", "p3"}
    verdict = runner.invoke(app, ["replay", str(record), "--quiet"])
    assert verdict.exit_code == 0 and "verified" in verdict.output


@pytest.mark.parametrize("query, found", [
    ("Greek Fire", "trait-greek-fire"),
    ("Heroism", "skill-heroism"),
    ("Long Walls", "trait-long-walls"),
    ("Storms", "card-17"),
    ("card 48", "card-48"),
    ("navigation roll", "table-navigation"),
    ("upkeep roll", "table-upkeep"),
    ("mountain pass", "2.1"),
    ("Organization", "skill-organization"),
    ("Silver Mines", "trait-silver-mines"),
])
def test_agon_rules_finds_tables_traits_skills_and_cards(query, found):
    out = runner.invoke(app, ["rules", "city-states", query, "--format", "json"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.output)
    ids = [s["id"] for s in answer["sections"]] + [m["id"] for m in answer["matches"]]
    assert found in ids[:3], ids


@pytest.mark.parametrize("query, found", [
    ("T1", "2.1"), ("T2", "table-units"), ("T3", "table-upkeep"), ("T10", "table-traits"),
    ("T11", "card-list")])
def test_the_reference_table_ids_find_their_tables_first(query, found):
    out = runner.invoke(app, ["rules", "city-states", query, "--format", "json"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.output)
    ids = [s["id"] for s in answer["sections"]] + [m["id"] for m in answer["matches"]]
    assert ids[0] == found, ids


def test_the_d100_and_d66_rows_are_in_the_tables():
    out = runner.invoke(app, ["rules", "city-states", "table-skills"])
    assert out.exit_code == 0 and "97-00 Historian" in out.output
    out = runner.invoke(app, ["rules", "city-states", "table-traits"])
    assert "63 Silver Mines" in out.output and "64 is blank" in out.output
