"""Score tables from finished games: W/D/L, score %, Elo and its interval."""

from __future__ import annotations

import math
from typing import Any

import pytest

from agon.referee.elo import ELO_C, VIRTUAL_DRAWS
from agon.referee.engine import points_from_ranks
from agon.referee.outcomes import game_outcomes
from agon.referee.ratings import standings


def game(index: int, seating: dict[str, str], ranks: dict[str, int], *, seed_index: int = 0,
         points: dict[str, float] | None = None, teams: dict[str, list[str]] | None = None,
         forfeits: dict[str, dict[str, str]] | None = None,
         scores: dict[str, float] | None = None) -> dict[str, Any]:
    """A journal row as the tournament writes it (only what the tables read)."""
    return {
        "tournament": {"key": f"g{index}", "index": index, "seed_index": seed_index,
                       "seating": seating},
        "teams": teams,
        "result": {"scores": scores or {s: 0.0 for s in seating}, "ranks": ranks,
                   "points": points or points_from_ranks(ranks), "reason": "test"},
        "forfeits": forfeits or {},
    }


def duel(index: int, first: str, second: str, winner: str | None) -> dict[str, Any]:
    seating = {"persia": first, "greece": second}
    if winner is None:
        ranks = {"persia": 1, "greece": 1}
    else:
        ranks = {seat: 1 if bot == winner else 2 for seat, bot in seating.items()}
    return game(index, seating, ranks)


def by_bot(st) -> dict[str, Any]:
    return {line.name: line for line in st.bots}


def test_elo_of_a_bot_that_always_wins_follows_the_documented_formula():
    rows = [duel(i, *(("strong", "weak") if i % 2 else ("weak", "strong")), "strong")
            for i in range(10)]
    lines = by_bot(standings(rows, "duel", ["strong", "weak"], ["persia", "greece"]))
    strong, weak = lines["strong"], lines["weak"]
    assert (strong.wins, strong.draws, strong.losses) == (10, 0, 0)
    assert (weak.wins, weak.draws, weak.losses) == (0, 0, 10)
    # one virtual draw: s = 10.5 / 11, R = 200 log10(s / (1 - s)) each side of 0
    n = 10 + VIRTUAL_DRAWS
    s = (10 + VIRTUAL_DRAWS / 2) / n
    assert strong.elo == pytest.approx(200 * math.log10(s / (1 - s)), abs=1e-6)
    assert weak.elo == pytest.approx(-strong.elo, abs=1e-6)
    assert strong.elo > weak.elo
    ci = 1.96 / (2 * ELO_C * math.sqrt(n * s * (1 - s)))
    assert strong.elo_ci == pytest.approx(ci, rel=1e-4)
    assert weak.elo_ci == pytest.approx(ci, rel=1e-4)
    assert 200 < strong.elo < 700 and 100 < ci < 600  # finite, and wide on 10 games


def test_more_games_narrow_the_interval():
    def ci_after(count: int) -> float:
        rows = [duel(i, "a", "b", "a" if i % 4 else "b") for i in range(count)]
        return by_bot(standings(rows, "duel", ["a", "b"], ["persia", "greece"]))["a"].elo_ci

    assert ci_after(400) < ci_after(100) / 1.8  # roughly 1 / sqrt(n)


def test_three_bots_ratings_order_sum_to_zero_and_counts_add_up():
    rows, index = [], 0
    for winner, loser, wins in (("a", "b", 8), ("b", "c", 8), ("a", "c", 10)):
        for i in range(10):
            result = winner if i < wins else None  # the rest are draws
            rows.append(duel(index, winner, loser, result) if i % 2
                        else duel(index, loser, winner, result))
            index += 1
    st = standings(rows, "duel", ["c", "b", "a"], ["persia", "greece"])
    assert [line.name for line in st.bots] == ["a", "b", "c"]
    lines = by_bot(st)
    assert lines["a"].elo > lines["b"].elo > lines["c"].elo
    assert sum(line.elo for line in st.bots) == pytest.approx(0, abs=1e-6)
    for line in st.bots:
        assert line.wins + line.draws + line.losses == line.games == 20
    assert (lines["b"].wins, lines["b"].draws, lines["b"].losses) == (8, 4, 8)
    assert lines["a"].score == pytest.approx((18 + 2 * 0.5) / 20)
    assert st.pairwise["a"]["b"].score == pytest.approx(0.9)
    assert st.pairwise["b"]["a"].score == pytest.approx(0.1)
    assert st.pairwise["a"]["c"].games == 10


def test_all_draws_rate_everyone_level():
    rows = [duel(i, "a", "b", None) for i in range(6)]
    lines = by_bot(standings(rows, "duel", ["a", "b"], ["persia", "greece"]))
    assert lines["a"].elo == pytest.approx(0, abs=1e-9)
    assert lines["a"].draws == 6 and lines["a"].score == 0.5


def test_per_seat_split_shows_how_each_bot_did_in_each_seat():
    rows = [duel(0, "a", "b", "a"), duel(1, "b", "a", "b"), duel(2, "a", "b", "a")]
    st = standings(rows, "duel", ["a", "b"], ["persia", "greece"])
    assert st.seats["a"]["persia"].score == 1.0 and st.seats["a"]["persia"].games == 2
    assert st.seats["a"]["greece"].score == 0.0 and st.seats["a"]["greece"].games == 1
    assert st.seats["all"]["persia"].score == 1.0  # persia won all three


def test_multiplayer_scores_are_rank_based_and_a_win_is_first_place_alone():
    seating = {"p1": "a", "p2": "b", "p3": "c"}
    rows = [game(0, seating, {"p1": 1, "p2": 2, "p3": 3}),
            game(1, seating, {"p1": 1, "p2": 1, "p3": 3})]
    st = standings(rows, "multiplayer", ["a", "b", "c"], ["p1", "p2", "p3"])
    lines = by_bot(st)
    assert (lines["a"].wins, lines["a"].draws, lines["a"].losses) == (1, 1, 0)
    assert (lines["b"].wins, lines["b"].draws, lines["b"].losses) == (0, 1, 1)
    assert (lines["c"].wins, lines["c"].draws, lines["c"].losses) == (0, 0, 2)
    assert lines["b"].score == pytest.approx((0.5 + 0.75) / 2)  # beat 1 of 2, then tie + beat
    assert lines["b"].mean_rank == 1.5 and lines["c"].mean_rank == 3
    assert lines["a"].elo is None  # Elo only for two-seat games
    assert st.pairwise["a"]["b"].score == 0.75 and st.pairwise["c"]["a"].score == 0.0


def test_team_games_give_each_bot_its_teams_result():
    teams = {"delian": ["p1", "p3"], "peloponnesian": ["p2", "p4"]}
    seating = {"p1": "a", "p2": "b", "p3": "c", "p4": "d"}
    ranks = {"p1": 1, "p3": 1, "p2": 3, "p4": 3}
    rows = [game(0, seating, ranks, teams=teams,
                 forfeits={"p4": {"reason": "timeout", "detail": "slow"}})]
    outcomes = {o.bot: o for o in game_outcomes(rows[0], "multiplayer")}
    assert outcomes["a"].outcome == outcomes["c"].outcome == "win"  # not a shared-first draw
    assert outcomes["a"].points == 1.0 and outcomes["b"].points == 0.0
    st = standings(rows, "multiplayer", list("abcd"), list(seating))
    lines = by_bot(st)
    assert lines["c"].wins == 1 and lines["b"].losses == 1
    assert lines["d"].forfeits == {"timeout": 1}
    assert st.pairwise["a"]["c"].games == 0  # teammates are not opponents
    assert st.pairwise["a"]["b"].score == 1.0
    assert [(t.name, t.wins, t.losses) for t in st.teams] == [("delian", 1, 0),
                                                              ("peloponnesian", 0, 1)]


def test_solo_bots_are_compared_on_the_same_seeds():
    rows = []
    for seed_index in range(4):
        for bot, won in (("good", seed_index != 3), ("bad", seed_index == 0)):
            rows.append(game(len(rows), {"hero": bot}, {"hero": 1}, seed_index=seed_index,
                             points={"hero": 1.0 if won else 0.0}, scores={"hero": 5.0}))
    st = standings(rows, "solo", ["bad", "good"], ["hero"])
    lines = by_bot(st)
    assert [line.name for line in st.bots] == ["good", "bad"]
    assert (lines["good"].wins, lines["good"].losses) == (3, 1)
    assert lines["bad"].score == 0.25 and lines["good"].mean_score == 5.0
    # seed 0 both won (level), seeds 1-2 only good, seed 3 both lost (level)
    assert st.pairwise["good"]["bad"].score == pytest.approx((0.5 + 1 + 1 + 0.5) / 4)


def test_forfeits_are_counted_by_reason_and_errors_are_not_results():
    rows = [
        game(0, {"persia": "a", "greece": "b"}, {"persia": 1, "greece": 2},
             forfeits={"greece": {"reason": "crash", "detail": "exit 1"}}),
        game(1, {"persia": "b", "greece": "a"}, {"persia": 2, "greece": 1},
             forfeits={"persia": {"reason": "illegal", "detail": "'x'"}}),
        {"tournament": {"key": "g2", "index": 2, "seed_index": 1,
                        "seating": {"persia": "a", "greece": "b"}},
         "error": "RuntimeError: engine bug"},
    ]
    st = standings(rows, "duel", ["a", "b"], ["persia", "greece"])
    lines = by_bot(st)
    assert lines["b"].forfeits == {"crash": 1, "illegal": 1}
    assert lines["b"].games == 2 and lines["b"].errors == 1
    assert st.errors == [{"key": "g2", "error": "RuntimeError: engine bug"}]


def seed_pair(index: int, seed_index: int, first: str, second: str,
              winners: tuple[str | None, str | None]) -> list[dict[str, Any]]:
    """One seed in both seatings: `first` at persia, then `second` at persia."""
    games = [duel(index, first, second, winners[0]), duel(index + 1, second, first, winners[1])]
    for row in games:
        row["tournament"]["seed_index"] = seed_index
    return games


def test_pairs_count_the_pentanomial_of_each_seed_and_the_plain_wins_draws_losses():
    results = [("a", "a"), ("a", "b"), (None, "a"), ("b", None), ("b", "b")]  # WW WL DW LD LL
    rows = [game for i, winners in enumerate(results)
            for game in seed_pair(2 * i, i, "a", "b", winners)]
    st = standings(rows, "duel", ["a", "b"], ["persia", "greece"])
    (pair,) = st.pairs
    assert (pair.first, pair.second) == ("a", "b")
    assert pair.pentanomial == [1, 1, 1, 1, 1]  # LL LD DD+WL WD WW
    assert (pair.wins, pair.draws, pair.losses) == (4, 2, 4)
    # W 4 L 4: LOS = Phi(0) = .5; plain score (4 + 2/2) / 10 = .5 = paired mean
    assert pair.los == 0.5 and pair.plain.score == 0.5 and pair.paired.score == 0.5
    # pair variance (.25 + .0625 + 0 + .0625 + .25) / 5 = .125 per pair (5 pairs),
    # game variance (8 * .25) / 10 = .2 per game (10 games)
    assert pair.paired.variance == pytest.approx(0.125)
    assert pair.plain.variance == pytest.approx(0.2)


def test_a_seat_that_always_wins_cancels_out_within_each_pair():
    # persia wins every game: every pair is WL, so the pairs say "level"; six pairs alike
    # have no spread to estimate an interval from (it is not +-0: a seventh pair could
    # differ), while the games, one by one, look like coin flips.
    rows = [game for i in range(6) for game in seed_pair(2 * i, i, "a", "b", ("a", "b"))]
    (pair,) = standings(rows, "duel", ["a", "b"], ["persia", "greece"]).pairs
    assert pair.pentanomial == [0, 0, 6, 0, 0]
    assert pair.paired.elo == 0 and pair.paired.ci95 is None and not pair.paired.spread
    # games: .5 -+ 1.96 sqrt(.25 / 12) = .5 -+ .282897; the Elo of .782897 is
    # 400 log10(.782897 / .217103) = +222.8, and of .217103 -222.8: half-width 222.8
    assert pair.plain.ci95 == pytest.approx(222.8, abs=0.1)


def test_a_pair_cut_short_or_broken_is_not_in_the_pentanomial():
    rows = seed_pair(0, 0, "a", "b", ("a", "a")) + seed_pair(2, 1, "a", "b", ("a", "a"))[:1]
    broken = seed_pair(4, 2, "a", "b", ("a", "a"))
    broken[1] = {"tournament": broken[1]["tournament"], "error": "RuntimeError: boom"}
    (pair,) = standings(rows + broken, "duel", ["a", "b"], ["persia", "greece"]).pairs
    assert pair.pentanomial == [0, 0, 0, 0, 1]
    assert pair.wins == 4  # every finished game still counts one by one


def test_solo_win_rate_has_a_wilson_interval_and_multiplayer_ranks_an_interval():
    rows = [game(i, {"hero": "a"}, {"hero": 1}, seed_index=i,
                 points={"hero": 1.0 if i < 8 else 0.0}, scores={"hero": float(i)})
            for i in range(10)]
    (line,) = standings(rows, "solo", ["a"], ["hero"]).bots
    assert line.win_rate == 0.8
    low, high = line.win_rate_ci95  # 8 of 10, see test_stats
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert line.mean_score == 4.5  # (0 + 1 + ... + 9) / 10
    # sample variance of 0..9 = 82.5 / 9 = 9.1667: 1.96 sqrt(9.1667 / 10) = 1.8765
    assert line.mean_score_ci95 == pytest.approx(1.8765, abs=1e-4)
    seating = {"p1": "a", "p2": "b", "p3": "c"}
    rows = [game(0, seating, {"p1": 1, "p2": 2, "p3": 3}),
            game(1, seating, {"p1": 3, "p2": 2, "p3": 1})]
    lines = by_bot(standings(rows, "multiplayer", ["a", "b", "c"], list(seating)))
    # a: ranks 1 and 3, mean 2, sample sd sqrt(2): 1.96 * sqrt(2 / 2) = 1.96
    assert lines["a"].mean_rank == 2 and lines["a"].mean_rank_ci95 == pytest.approx(1.959964)
    assert lines["b"].mean_rank_ci95 is None  # ranks 2 and 2: no spread, no interval
    assert lines["a"].skill is not None and lines["a"].elo is None


def test_a_teams_rank_is_its_place_among_the_teams_also_after_a_forfeit():
    from agon.referee.records import forfeit_result

    # two leagues of two: d forfeits, the referee ends the game and ranks the seats
    # 1, 1, 3, 3 (ranks among four seats); the leagues are first and second
    teams = {"delian": ["p1", "p3"], "peloponnesian": ["p2", "p4"]}
    seating = {"p1": "a", "p2": "b", "p3": "c", "p4": "d"}
    forfeits = {"p4": {"reason": "crash", "detail": "exit 3"}}
    result = forfeit_result(list(seating), teams, None, forfeits)
    assert result.ranks == {"p1": 1, "p3": 1, "p2": 3, "p4": 3}
    lost = game(0, seating, result.ranks, teams=teams, forfeits=forfeits)
    won = game(1, seating, {"p1": 2, "p3": 2, "p2": 1, "p4": 1}, teams=teams)  # as epireia ranks
    lines = by_bot(standings([lost, won], "multiplayer", list("abcd"), list(seating)))
    # b: second, then first: mean rank 1.5 (it said (3 + 1) / 2 = 2 with ranks among seats)
    assert lines["b"].mean_rank == 1.5 and lines["d"].mean_rank == 1.5
    assert lines["a"].mean_rank == 1.5 and (lines["a"].wins, lines["a"].losses) == (1, 1)
    assert lines["b"].score == 0.5 and lines["d"].forfeits == {"crash": 1}
