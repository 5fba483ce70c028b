"""The SPRT: its settings, bounds, log-likelihood ratio and decisions.

Expected values come from Wald's formulas worked out here.  With pairs that
are only WW or LL the generalized (pentanomial) LLR reduces to the binomial
one, k log(s1 / s0) + (n - k) log((1 - s1) / (1 - s0)), up to the 1e-3
stand-in counts of the unseen outcomes.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from agon.referee.sprt import H0, H1, SequentialTest, SprtError, SprtSpec, generalized_llr

# elo0 = 0, elo1 = 200: s0 = .5, s1 = 1 / (1 + 10^-.5) = 1 / 1.316228 = .759747
S1 = 0.759747
WW_STEP = math.log(S1 / 0.5)  # log 1.519494 = +.41838 per WW pair
LL_STEP = math.log((1 - S1) / 0.5)  # log .480506 = -.73292 per LL pair
BOUND = math.log(0.95 / 0.05)  # alpha = beta = .05: +-log 19 = +-2.94444


def test_settings_parse_with_defaults_and_give_wald_bounds():
    spec = SprtSpec.parse("elo0=0 elo1=10")
    assert (spec.elo0, spec.elo1, spec.alpha, spec.beta) == (0, 10, 0.05, 0.05)
    assert spec.lower == pytest.approx(-BOUND) and spec.upper == pytest.approx(BOUND)
    spec = SprtSpec.parse("elo0=-5,elo1=5, alpha=0.1 beta=0.2")
    # lower = log(.2 / .9) = -1.504077, upper = log(.8 / .1) = 2.079442
    assert spec.lower == pytest.approx(-1.504077) and spec.upper == pytest.approx(2.079442)


@pytest.mark.parametrize("text, message", [
    ("elo1=10", "needs elo0 and elo1"),
    ("elo0=10 elo1=0", "must be below elo1"),
    ("elo0=0 elo1=x", "must be a number"),
    ("elo0=0 elo1=5 gamma=1", "'gamma=1' is not one of"),
    ("elo0=0 elo1=5 alpha=0.6 beta=0.5", "alpha \\+ beta below 1"),
    ("elo0=0 elo1=inf", "between -2000 and 2000"),
    ("elo0=-3000 elo1=0", "between -2000 and 2000"),
    ("elo0=0 elo1=5 elo1=10", "elo1 is given twice"),
    ("elo0=0 elo1=nan", "between -2000 and 2000"),
])
def test_bad_settings_say_what_is_wrong(text, message):
    with pytest.raises(SprtError, match=message):
        SprtSpec.parse(text)


def test_llr_of_ww_and_ll_pairs_is_the_binomial_llr():
    assert WW_STEP == pytest.approx(0.41838, abs=1e-5)
    assert LL_STEP == pytest.approx(-0.73292, abs=1e-5)
    counts = [3, 0, 0, 0, 7]  # 3 LL, 7 WW
    assert generalized_llr(counts, 0, 200) == pytest.approx(7 * WW_STEP + 3 * LL_STEP, abs=0.005)
    assert generalized_llr([0, 0, 0, 0, 5], 0, 200) == pytest.approx(5 * WW_STEP, abs=0.005)


def test_llr_of_mixed_pairs_is_close_to_the_normal_approximation():
    counts = [20, 60, 100, 70, 30]  # 280 pairs, mean .5268, near both hypotheses
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, (0, .25, .5, .75, 1), strict=True)) / n
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, (0, .25, .5, .75, 1), strict=True)) / n
    s0, s1 = 1 / (1 + 10 ** (0 / 400)), 1 / (1 + 10 ** (-20 / 400))
    approximation = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert generalized_llr(counts, 0, 20) == pytest.approx(approximation, rel=0.02)


def test_llr_is_zero_at_the_midpoint_and_has_the_sign_of_the_evidence():
    assert generalized_llr([0, 0, 8, 0, 0], -10, 10) == pytest.approx(0, abs=1e-9)
    assert generalized_llr([0, 2, 8, 4, 0], -10, 10) > 0 > generalized_llr([0, 4, 8, 2, 0],
                                                                             -10, 10)


def pair(seed_index: int, first_points: tuple[float, float]) -> list[dict[str, Any]]:
    """Seed `seed_index` played in both seatings; `first_points` are a's points."""
    games = []
    for number, (seating, points) in enumerate(zip(
            ({"p1": "a", "p2": "b"}, {"p1": "b", "p2": "a"}), first_points, strict=True)):
        seat_a = "p1" if seating["p1"] == "a" else "p2"
        seat_b = "p2" if seat_a == "p1" else "p1"
        ranks = {seat_a: 1, seat_b: 1} if points == 0.5 else \
            {seat_a: 1 if points else 2, seat_b: 2 if points else 1}
        games.append({"tournament": {"key": f"{seed_index}:{number}", "index": 2 * seed_index
                                     + number, "seed_index": seed_index, "seating": seating},
                      "result": {"ranks": ranks}})
    return games


WW, LL = (1.0, 1.0), (0.0, 0.0)


def test_h1_is_accepted_at_the_first_pair_whose_llr_reaches_the_upper_bound():
    # WW WW LL then WW...: after 1 LL and w WW pairs, LLR = .41838 w - .73292;
    # >= 2.94444 first at w = 9 (3.0325; at w = 8, 2.6141): the 10th pair.
    sequence = [WW, WW, LL] + [WW] * 10
    test = SequentialTest(SprtSpec(0, 200), "a", "b")
    answers = [test(pair(i, points)) for i, points in enumerate(sequence)]
    assert answers == [False] * 9 + [True] * 4
    assert test.result.decision == H1 and test.result.pairs == 10 and test.result.games == 20
    assert test.result.llr == pytest.approx(9 * WW_STEP + LL_STEP, abs=0.01)
    assert test.result.pentanomial == [1, 0, 0, 0, 9]
    assert test.result.last_seed == 9


def test_h0_is_accepted_at_the_first_pair_whose_llr_reaches_the_lower_bound():
    # WW then LL...: LLR = .41838 - .73292 k; <= -2.94444 first at k = 5 (-3.2462; k = 4: -2.5133)
    test = SequentialTest(SprtSpec(0, 200), "a", "b")
    answers = [test(pair(i, points)) for i, points in enumerate([WW] + [LL] * 8)]
    assert answers.index(True) == 5 and test.result.decision == H0
    assert test.result.llr == pytest.approx(WW_STEP + 5 * LL_STEP, abs=0.01)


def test_pairs_are_judged_in_seed_order_whatever_order_they_finish_in():
    sequence = [WW, WW, LL] + [WW] * 10
    in_order = SequentialTest(SprtSpec(0, 200), "a", "b")
    for i, points in enumerate(sequence):
        in_order(pair(i, points))
    shuffled = SequentialTest(SprtSpec(0, 200), "a", "b")
    order = [3, 1, 12, 0, 2, 11, 5, 4, 7, 6, 10, 9, 8]
    answers = [shuffled(pair(i, sequence[i])) for i in order]
    assert answers.index(True) == order.index(8)  # seeds 0-9 are in once seed 8 arrives
    assert shuffled.result == in_order.result
    rows = [game for i in order for game in pair(i, sequence[i])]
    assert sorted({r["tournament"]["seed_index"] for r in shuffled.played(rows)}) == \
        list(range(10))


def test_a_pair_with_an_error_counts_for_nobody():
    test = SequentialTest(SprtSpec(0, 200), "a", "b")
    broken = pair(0, WW)
    broken[1] = {"tournament": broken[1]["tournament"], "error": "RuntimeError: boom"}
    assert test(broken) is False
    assert test.result.pairs == 0 and test.result.games == 0 and test.result.last_seed == 0
    test(pair(1, WW))
    assert test.result.pentanomial == [0, 0, 0, 0, 1]


@pytest.mark.parametrize("counts, mean", [([5, 1e-3, 3, 1e-3, 9], 0.3), ([1, 2, 3, 4, 5], 0.9),
                                          ([400, 1, 1, 1, 1e-3], 0.5)])
def test_the_hypothesis_distribution_has_the_hypothesis_mean(counts, mean):
    from agon.referee.sprt import constrained_mle

    total = sum(counts)
    q = constrained_mle([c / total for c in counts], (0, .25, .5, .75, 1), mean)
    assert sum(q) == pytest.approx(1, abs=1e-9) and min(q) > 0
    assert sum(p * a for p, a in zip(q, (0, .25, .5, .75, 1), strict=True)) == \
        pytest.approx(mean, abs=1e-9)


def test_the_table_says_the_sprt_cut_the_match_short_only_when_it_did():
    from agon.referee.ratings import standings
    from agon.referee.report import render_table

    # seed 0's pair ends in an error (void), then WW pairs: H1 at the 8th counted pair,
    # seed 8 (8 * .41838 = 3.347 >= 2.944, see test_cli_statistics), 16 counted games
    broken = pair(0, WW)
    broken[1] = {"tournament": broken[1]["tournament"], "error": "RuntimeError: boom"}
    rows = broken + [game for i in range(1, 9) for game in pair(i, WW)]
    test = SequentialTest(SprtSpec(0, 200), "a", "b")
    assert [test(rows[2 * i:2 * i + 2]) for i in range(9)] == [False] * 8 + [True]
    assert test.result.games == 16 and test.result.last_seed == 8

    def table(planned: int) -> str:
        meta = {"games": planned, "played": len(rows)}  # 18: the 16 and the broken pair's
        return render_table(standings(rows, "duel", ["a", "b"], ["p1", "p2"], meta=meta,
                                      sprt=test.result))

    # nine seeds planned: every game was played, nothing was cut (it said "after 16 of 18")
    assert "after 16 games (8 pairs): H1 accepted" in table(18)
    assert "stopped the match" not in table(18)
    # twelve seeds planned: 18 games were played of 24
    assert "The SPRT stopped the match after 18 of 24 planned games." in table(24)
