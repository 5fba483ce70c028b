"""`agon tournament` end to end: SPRT, gauntlet, unnamed bots, the statistics' columns."""

from __future__ import annotations

import json

import pytest

# elo0 = 0, elo1 = 200, alpha = beta = .05: bounds -+log 19 = -+2.944.  Each WW pair adds
# log(s1 / .5) = log(.759747 / .5) = .41838 (7 pairs: 2.929, 8 pairs: 3.347: H1 at the 8th);
# each LL pair adds log(.240253 / .5) = -.73292 (4 pairs: -2.932, 5 pairs: -3.665: H0 at the 5th).
SPRT = "elo0=0 elo1=200"


def test_sprt_stops_a_lopsided_match_early_and_accepts_h1(picks, agon, first_legal_bot,
                                                          last_legal_bot):
    args = ["picks", "--bot", f"strong={first_legal_bot}", "--bot", f"weak={last_legal_bot}",
            "--sprt", SPRT, "--games", "50"]
    result = agon(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    table = json.loads(result.stdout)
    sprt = table["sprt"]
    assert sprt["decision"] == "H1" and sprt["pairs"] == 8 and sprt["games"] == 16
    assert sprt["pentanomial"] == [0, 0, 0, 0, 8]
    assert sprt["llr"] == pytest.approx(8 * 0.41838, abs=0.01)
    assert sprt["lower"] == pytest.approx(-2.944, abs=1e-3) and sprt["upper"] == \
        pytest.approx(2.944, abs=1e-3)
    assert (sprt["first"], sprt["elo0"], sprt["elo1"], sprt["alpha"]) == ("strong", 0, 200, 0.05)
    assert table["games"] == 100 and table["played"] == 16
    assert {row["bot"]: row["games"] for row in table["bots"]} == {"strong": 16, "weak": 16}
    text = agon(*args)
    assert "H1 accepted: strong is stronger than weak by elo1 = +200 rather than elo0 = +0" \
        in text.stdout
    assert "stopped the match after 16 of 100 planned games" in text.stdout
    assert "16 of 100 games" in text.stdout.splitlines()[0]


def test_sprt_accepts_h0_when_the_first_bot_is_the_weak_one(picks, agon_json, first_legal_bot,
                                                            last_legal_bot):
    table = agon_json("picks", "--bot", f"weak={last_legal_bot}", "--bot",
                      f"strong={first_legal_bot}", "--sprt", SPRT, "--games", "50")
    assert table["sprt"]["decision"] == "H0" and table["sprt"]["pairs"] == 5
    assert table["played"] == 10


def test_sprt_table_is_the_same_on_two_workers(picks, agon, first_legal_bot, last_legal_bot):
    args = ["picks", "--bot", f"strong={first_legal_bot}", "--bot", f"weak={last_legal_bot}",
            "--sprt", SPRT, "--games", "30", "--seed", "5"]
    one, two = agon(*args, "--jobs", "1"), agon(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout


def test_sprt_without_a_decision_says_more_games_are_needed(picks, agon):
    result = agon("picks", "-b", "random", "-b", "r2=random", "--sprt", "elo0=-5 elo1=5",
                  "--games", "3")
    assert result.exit_code == 0, result.output
    assert "no decision yet (continue)" in result.stdout
    assert "More games are needed for a decision: continue into a new journal with more, " \
        "--resume FILE --games N --out NEW." in result.stdout


def test_a_resumed_sprt_match_keeps_its_test_and_plays_nothing_more(picks, agon, tmp_path,
                                                                     first_legal_bot,
                                                                     last_legal_bot):
    journal = tmp_path / "match.jsonl"
    first = agon("picks", "--bot", f"strong={first_legal_bot}", "--bot",
                 f"weak={last_legal_bot}", "--sprt", SPRT, "--games", "50", "--out", str(journal))
    assert first.exit_code == 0, first.output
    lines = len(journal.read_text().splitlines())
    again = agon("picks", "--resume", str(journal))
    assert again.exit_code == 0, again.output
    assert again.stdout == first.stdout
    assert len(journal.read_text().splitlines()) == lines == 1 + 16


@pytest.mark.parametrize("args, message", [
    (["-b", "random", "-b", "r2=random", "-b", "r3=random", "--sprt", SPRT], "two bots"),
    (["-b", "random", "-b", "r2=random", "--sprt", "elo0=5 elo1=0"], "below elo1"),
    (["-b", "random", "-b", "r2=random", "--sprt", "elo0=0"], "needs elo0 and elo1"),
    (["-b", "random", "-b", "r2=random", "-b", "r3=random", "--players", "3", "--sprt", SPRT],
     "two bots"),
])
def test_sprt_usage_errors(picks, agon, args, message):
    result = agon("picks", *args)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output


def test_gauntlet_plays_only_the_named_bots_games(picks, agon_json):
    table = agon_json("picks", "-b", "hero=random", "-b", "a=random", "-b", "b=random",
                      "-b", "c=random", "--gauntlet", "hero", "--games", "2")
    assert table["games"] == 3 * 2 * 2 and table["gauntlet"] == "hero"
    games = {row["bot"]: row["games"] for row in table["bots"]}
    assert games == {"hero": 12, "a": 4, "b": 4, "c": 4}
    assert table["pairwise"]["a"]["b"]["games"] == 0
    assert [(p["first"], p["second"]) for p in table["pairs"]] == \
        [("hero", "a"), ("hero", "b"), ("hero", "c")]


@pytest.mark.parametrize("args, message", [
    (["picks", "-b", "random", "-b", "r2=random", "--gauntlet", "nobody"], "no bot of that name"),
    (["picks-solo", "-b", "random", "-b", "r2=random", "--gauntlet", "random"], "solo"),
])
def test_gauntlet_usage_errors(picks, agon, args, message):
    result = agon(*args)
    assert result.exit_code == 2 and message in result.stderr, result.output


def test_bots_without_names_take_their_own_and_a_clash_is_a_clear_error(picks, agon,
                                                                        first_legal_bot):
    result = agon("picks", "-b", "random", "-b", first_legal_bot, "--games", "1",
                  "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["entrants"] == {"random": "random",
                                                     "first_bot": first_legal_bot}
    clash = agon("picks", "-b", "random", "-b", "python3 -m agon.bots.random")
    assert clash.exit_code == 2
    assert "bot name 'random' given twice ('random' and 'python3 -m agon.bots.random')" \
        in clash.stderr
    assert "--bot random1=random" in clash.stderr


def test_pairs_table_shows_plain_and_paired_statistics(picks, agon, first_legal_bot):
    result = agon("picks", "-b", "random", "-b", f"first={first_legal_bot}", "--games", "4")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "LOS %" in text and "LL LD DD+WL WD WW" in text and "paired Elo" in text
    line = next(ln for ln in text.splitlines() if ln.startswith("random - first"))
    assert line.split()[3] == "8"  # games


def test_multiplayer_and_solo_tables_show_their_statistics(picks, agon):
    multi = agon("picks", "-p", "3", "-b", "random", "-b", "r2=random", "-b", "r3=random",
                 "--games", "1")
    assert "PL mu" in multi.stdout and "ordinal" in multi.stdout
    assert "mean rank ± 95%" in multi.stdout
    solo = agon("picks-solo", "-b", "random", "--games", "3")
    assert "win % (95%)" in solo.stdout


def test_csv_has_the_kind_specific_columns(picks, agon):
    multi = agon("picks", "-p", "3", "-b", "random", "-b", "r2=random", "-b", "r3=random",
                 "--games", "1", "--format", "csv")
    header = multi.stdout.splitlines()[0].split(",")
    assert {"mean_rank", "mean_rank_ci95", "mu", "sigma", "ordinal"} <= set(header)
    solo = agon("picks-solo", "-b", "random", "--games", "3", "--format", "csv")
    header = solo.stdout.splitlines()[0].split(",")
    assert {"win_rate", "win_rate_low", "win_rate_high", "mean_score"} <= set(header)
