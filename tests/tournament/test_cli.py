"""`agon tournament` end to end on a toy game: what an organiser reads."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

from agon.referee.players import FORFEIT_REASONS


def approx(value: float) -> object:
    """Equal to the 4 decimals the JSON output keeps."""
    import pytest

    return pytest.approx(value, abs=5e-5)

CRASHER = f'{sys.executable} -c "import sys; sys.exit(1)"'


def bots(*names: str) -> list[str]:
    return [arg for name in names for arg in ("--bot", f"{name}={name.rstrip('0123456789')}")]


def test_counts_add_up_and_the_first_legal_bot_rates_above_random(picks, agon_json,
                                                                   first_legal_bot):
    table = agon_json("picks", "--bot", "r1=random", "--bot", "r2=random",
                      "--bot", f"first={first_legal_bot}", "--games", "3")
    assert table["kind"] == "duel" and table["games"] == 3 * 2 * 3
    rows = {row["bot"]: row for row in table["bots"]}
    for row in rows.values():
        assert row["wins"] + row["draws"] + row["losses"] == row["games"] == 12
        assert row["score"] == approx((row["wins"] + row["draws"] / 2) / row["games"])
    # "high" loses only to a lucky roll (a die of 0 against 1): far more wins than losses
    assert rows["first"]["wins"] >= 3 * rows["first"]["losses"]
    assert rows["first"]["elo"] > rows["r1"]["elo"] and rows["first"]["elo"] > rows["r2"]["elo"]
    assert all(row["elo_ci95"] > 0 for row in rows.values())
    assert table["bots"][0]["bot"] == "first"  # the table is ordered by score
    assert sum(row["wins"] for row in rows.values()) == sum(row["losses"] for row in rows.values())


def test_two_copies_of_the_same_bot_score_exactly_even_in_duplicate(picks, agon_json):
    table = agon_json("picks", *bots("random1", "random2"), "--games", "5")
    assert [row["score"] for row in table["bots"]] == [0.5, 0.5]
    assert table["pairwise"]["random1"]["random2"] == {"score": 0.5, "games": 10}


def test_jobs_2_gives_the_same_table_as_jobs_1(picks, agon, first_legal_bot):
    args = ["picks", *bots("random1", "random2"), "--bot", f"first={first_legal_bot}",
            "--games", "3", "--seed", "11"]
    serial, parallel = agon(*args, "--jobs", "1"), agon(*args, "--jobs", "2")
    assert serial.exit_code == parallel.exit_code == 0, serial.output + parallel.output
    assert serial.stdout == parallel.stdout
    assert "Elo ± 95%" in serial.stdout and "Pairwise" in serial.stdout


def test_a_crashing_external_bot_forfeits_every_game_by_reason(picks, agon):
    result = agon("picks", *bots("random1"), "--bot", f"crasher={CRASHER}", "--games", "2",
                  "--format", "json")
    assert result.exit_code == 0, result.output
    rows = {row["bot"]: row for row in json.loads(result.stdout)["bots"]}
    crasher = rows["crasher"]
    assert crasher["losses"] == crasher["games"] == 4
    assert sum(crasher["forfeits"].values()) == 4
    reason = max(crasher["forfeits"], key=crasher["forfeits"].get)
    assert reason in ("handshake", "crash") and crasher["forfeits"][reason] == 4
    assert rows["random1"]["wins"] == 4 and sum(rows["random1"]["forfeits"].values()) == 0
    text = agon("picks", *bots("random1"), "--bot", f"crasher={CRASHER}", "--games", "2")
    line = next(ln for ln in text.stdout.splitlines() if ln.startswith("crasher"))
    assert line.rstrip().endswith(f"{reason} 4")


def against_random(agon, journal: Path, name: str, command: str, *limits: str
                   ) -> tuple[dict[str, dict], dict]:
    """One seed of `name` (a one-line Python program) against random1 with `limits`:
    the table's rows by bot, and the journal's header."""
    program = f'{sys.executable} -c "{command}"'
    result = agon("picks", *bots("random1"), "--bot", f"{name}={program}", "--games", "1",
                  *limits, "--out", str(journal), "--format", "json")
    assert result.exit_code == 0, result.output
    rows = {row["bot"]: row for row in json.loads(result.stdout)["bots"]}
    return rows, json.loads(journal.read_text().splitlines()[0])


def test_move_time_is_enforced_on_a_bot_that_never_answers(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    rows, header = against_random(
        agon, journal, "sleeper",
        "import time; print(\'ready sleeper\', flush=True); time.sleep(30)", "--move-time", "0.2")
    assert rows["sleeper"]["forfeits"]["timeout"] == 2 and rows["sleeper"]["losses"] == 2
    assert header["limits"] == {"move": 0.2, "game": 600.0}
    assert sorted(p.name for p in (tmp_path / "games.jsonl.logs").iterdir()) == \
        ["0_p1=random1_p2=sleeper", "0_p1=sleeper_p2=random1"]  # the bots' stderr logs


def test_handshake_time_is_enforced_and_kept_for_a_resume(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    rows, header = against_random(
        agon, journal, "slow",
        "import time; time.sleep(3); print(\'ready slow\', flush=True); time.sleep(30)",
        "--handshake-time", "0.5")
    assert rows["slow"]["forfeits"]["handshake"] == 2
    assert header["limits"] == {"move": 10.0, "game": 600.0, "handshake": 0.5}
    again = agon("--resume", str(journal), "--games", "1", "--handshake-time", "5")
    assert again.exit_code == 1 and "limits: the journal's is" in again.stderr


def test_csv_and_json_outputs_parse_with_the_same_numbers(picks, agon):
    args = ["picks", *bots("random1", "random2", "random3"), "--games", "2"]
    as_json = json.loads(agon(*args, "--format", "json").stdout)
    as_csv = list(csv.DictReader(io.StringIO(agon(*args, "--format", "csv").stdout)))
    assert [r["bot"] for r in as_csv] == [r["bot"] for r in as_json["bots"]]
    for from_csv, from_json in zip(as_csv, as_json["bots"], strict=True):
        assert int(from_csv["games"]) == from_json["games"] == 8
        assert int(from_csv["wins"]) + int(from_csv["draws"]) + int(from_csv["losses"]) == 8
        assert float(from_csv["elo"]) == from_json["elo"]
        assert all(f"forfeit_{reason}" in from_csv for reason in FORFEIT_REASONS)
    assert set(as_json["seats"]["random1"]) == {"p1", "p2"}
    assert as_json["seats"]["all"]["p1"]["games"] == 12  # one p1 per game


def test_multiplayer_rotates_seats_and_ranks_everyone(picks, agon_json, first_legal_bot):
    table = agon_json("picks", "--players", "3", *bots("random1", "random2", "random3"),
                      "--bot", f"first={first_legal_bot}", "--games", "1")
    assert table["kind"] == "multiplayer" and table["games"] == 4 * 6
    rows = {row["bot"]: row for row in table["bots"]}
    assert all(row["games"] == 3 * 6 for row in rows.values())  # in 3 of the 4 groups
    assert rows["first"]["mean_rank"] == min(row["mean_rank"] for row in rows.values())
    for bot in rows:
        assert {seat: cell["games"] for seat, cell in table["seats"][bot].items()} == \
            {"p1": 6, "p2": 6, "p3": 6}


def test_team_game_results_are_per_team(picks, agon_json, first_legal_bot):
    table = agon_json("picks-teams", "--players", "4", *bots("random1", "random2", "random3"),
                      "--bot", f"first={first_legal_bot}", "--games", "1", "--jobs", "2")
    assert table["games"] == 24
    teams = {team["team"]: team for team in table["teams"]}
    assert set(teams) == {"odd", "even"}
    assert teams["odd"]["wins"] == teams["even"]["losses"]
    assert teams["odd"]["draws"] == teams["even"]["draws"]
    for row in table["bots"]:
        assert row["wins"] + row["draws"] + row["losses"] == 24
        # a bot's points are its team's: 1 or 0 per game, 0.5 for a level game
        assert row["score"] == approx((row["wins"] + row["draws"] / 2) / 24)


def test_solo_ruleset_compares_bots_on_the_same_seeds(picks, agon_json, first_legal_bot):
    table = agon_json("picks-solo", *bots("random1"), "--bot", f"first={first_legal_bot}",
                      "--games", "4")
    assert table["kind"] == "solo" and table["games"] == 8
    rows = {row["bot"]: row for row in table["bots"]}
    assert rows["first"]["wins"] == 4  # 3 x high = 9 >= target 8
    assert rows["first"]["mean_score"] > rows["random1"]["mean_score"]
    assert table["pairwise"]["first"]["random1"]["score"] >= 0.5


def test_a_game_that_raises_is_an_error_row_not_a_crashed_tournament(picks, agon, engine_bug):
    engine_bug(True)
    result = agon("picks", *bots("random1", "random2"), "--games", "6")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "Errors" in result.stdout and "RuntimeError: the engine broke" in result.stdout
    assert "could not be refereed" in result.stderr
    games = [ln for ln in result.stdout.splitlines() if ln.startswith("random1")][0].split()
    assert 0 < int(games[1]) < 12  # some games finished, the broken ones are not counted


def test_usage_errors_are_one_line_on_stderr_with_exit_2(picks, agon):
    cases = [
        (["picks", "--bot", "="], "[NAME=]BOT"),
        (["picks", "--bot", "random"], "at least 2 bots"),
        (["picks", *bots("random1")], "at least 2 bots"),
        (["picks", *bots("random1"), "--bot", "x=human"], "human"),
        (["picks", *bots("random1"), "--bot", "x=no-such-program-here"], "no-such-program"),
        (["picks", *bots("random1", "random2"), "--players", "9"], "2 to 6 players"),
        (["picks", *bots("random1", "random2"), "--option", "nope=1"], "nope"),
        (["picks", "--bot", "a=random", "--bot", "a=random"], "given twice"),
        (["no-such-ruleset", *bots("random1", "random2")], "no-such-ruleset"),
        (["picks", *bots("random1", "random2"), "--jobs", "-1"],
         "agon: error: --jobs takes a number of worker processes, 0 for one per CPU, not -1\n"),
    ]
    for args, message in cases:
        result = agon(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.output and result.stdout == ""
        assert result.stderr.count("\n") == 1, result.stderr  # one line


def test_help_explains_the_duplicate_format_with_an_example(agon):
    result = agon("--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "Example: agon tournament" in text
    assert "--games N) in both seat assignments" in text


def test_without_seed_each_tournament_deals_unguessable_games_and_resume_keeps_them(
        picks, agon_drawn_seed, tmp_path):
    """A default master seed a bot could guess (it was 1) would let it deal the cards
    ahead: it is drawn at random, shown in the title, and a resume plays on with it."""
    agon = agon_drawn_seed
    first, second = (json.loads(agon("picks", *bots("random1", "random2"), "--games", "1",
                                     "--format", "json").stdout) for _ in range(2))
    assert first["seed"] != second["seed"] and min(first["seed"], second["seed"]) > 0
    journal = tmp_path / "games.jsonl"
    started = agon("picks", *bots("random1", "random2"), "--games", "1", "--out", str(journal))
    seed = json.loads(journal.read_text().splitlines()[0])["seed"]
    assert f"seed {seed}" in started.stdout.splitlines()[0]
    resumed = agon("--resume", str(journal))
    assert resumed.exit_code == 0, resumed.output
    assert f"seed {seed}" in resumed.stdout.splitlines()[0]


CRASH_AT_FIRST_ASK = """\
import sys
print("ready crashy", flush=True)
for line in sys.stdin:
    if line.startswith("ask "):
        sys.stderr.write("my bug: no plan for this position\\n")
        sys.exit(3)
"""


def test_why_a_bot_forfeited_is_said_under_the_table_with_its_logs(picks, agon, tmp_path):
    """The table only counts the reasons ('crash 4'): the organiser is told the first
    game's detail and where the logs are, kept even without --out (whose temporary
    journal is removed once the run ends)."""
    script = tmp_path / "crashy.py"
    script.write_text(CRASH_AT_FIRST_ASK)
    result = agon("picks", *bots("random1"), "--bot", f"crashy={sys.executable} {script}",
                  "--games", "2")
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if "forfeited" in line]
    assert len(notes) == 1, result.stderr
    assert notes[0].startswith("agon: crashy forfeited 4 game(s) (crash 4); the first: crash: ")
    assert "exited with status 3" in notes[0]
    logs = Path(notes[0].split("the logs of those games are in ")[1])
    assert logs.name.startswith("agon-tournament-") and logs.name.endswith(".jsonl.logs")
    assert not list(logs.parent.glob("*.jsonl"))   # the temporary journal itself went
    told = [path.read_text() for path in logs.rglob("*.log")]
    assert len(told) == 4 and all("my bug: no plan for this position" in log for log in told)


def test_a_file_that_cannot_run_is_not_taken_for_a_misspelt_built_in_bot(picks, agon,
                                                                         tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rand.js").write_text("console.log('ready r')\n")
    result = agon("picks", *bots("random1"), "--bot", "j=rand.js", "--games", "1")
    assert result.exit_code == 2
    assert "for the file in this folder" in result.stderr and "did you mean" not in result.stderr
    misspelt = agon("picks", *bots("random1"), "--bot", "j=randm", "--games", "1")
    assert "(did you mean 'random'?)" in misspelt.stderr
