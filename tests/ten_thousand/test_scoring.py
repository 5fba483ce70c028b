"""Time Track, finishing, zero men and the final score (men / turns)."""

from __future__ import annotations

import random

import pytest


def finished(engine, players, armies):
    """A game over with each seat's (men, turns or None for destroyed, arrival order)."""
    state = engine.new_game(engine.seats(players), 1, {})
    state.asking = None
    state.step = "over"
    for seat, (men, turns, seq) in armies.items():
        army = state.armies[seat]
        army.men, army.arrived, army.arrival_seq = men, turns, seq
        army.destroyed = turns is None
    return state.result()


@pytest.mark.parametrize("men, turns, points, verdict", [
    (6000, 30, 1.0, "victory"), (5900, 30, 0.0, "defeat"), (8400, 30, 1.0, "great victory"),
    (0, None, 0.0, "defeat")])
def test_solo_score_against_the_victory_line(engine, men, turns, points, verdict):
    result = finished(engine, 1, {"p1": (men, turns, 0)})
    assert result.points == {"p1": points}
    assert result.reason.startswith(verdict + ":")
    assert result.scores["p1"] == (round(men / turns, 3) if turns else 0)


def test_scores_are_men_per_turn_and_ties_go_to_more_men_then_earlier_arrival(engine):
    result = finished(engine, 4, {"p1": (6000, 30, 2), "p2": (4000, 20, 0),
                                  "p3": (0, None, None), "p4": (4000, 20, 1)})
    assert result.scores == {"p1": 200.0, "p2": 200.0, "p3": 0.0, "p4": 200.0}
    assert result.ranks == {"p1": 1, "p2": 2, "p4": 3, "p3": 4}
    assert result.points["p1"] == 1.0 and result.points["p3"] == 0.0


def test_time_pawn_moves_after_every_marching_player_has_had_a_turn(engine, tt):
    state = engine.new_game(engine.seats(3), 21, {})
    chooser = random.Random(2)
    turns = []
    while state.pending():
        decision = state.pending()[0]
        for event in state.apply(decision.seat, chooser.choice(decision.legal)):
            if event.type == "turn":
                turns.append((event.data["round"], event.data["seat"]))
    by_round = {}
    for round_, seat in turns:
        by_round.setdefault(round_, []).append(seat)
    for seats in by_round.values():
        assert len(seats) == len(set(seats))                 # one turn each per space
        assert seats == [s for s in state.order if s in seats]  # in turn order
    for seat, army in state.armies.items():
        if army.arrived:
            assert max(r for r, s in turns if s == seat) == army.arrived


def test_men_never_go_below_zero_and_a_wiped_out_army_leaves(position, tt):
    state = position(players=2, phase="battle", hands={"p1": [119]}, route="Desert",
                     flags=["attacked"], dice=[1, 6], men=500)
    state.apply("p1", "pass")
    army = state.armies["p1"]
    assert army.men == 0 and army.destroyed and army.hand == []
    assert state.turn.seat == "p2" and "p1" not in state.marching()


def test_when_every_army_is_destroyed_nobody_wins_and_the_result_says_so(engine):
    result = finished(engine, 3, {"p1": (0, None, None), "p2": (0, None, None),
                                  "p3": (0, None, None)})
    assert result.scores == {"p1": 0.0, "p2": 0.0, "p3": 0.0}
    assert result.ranks == {"p1": 1, "p2": 1, "p3": 1}
    assert "nobody reached the sea" in result.reason
