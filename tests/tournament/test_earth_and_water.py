"""Real tournaments on the shipped Earth & Water ruleset with the built-in random bot."""

from __future__ import annotations

import json
import sys
from collections import defaultdict

from agon.referee.records import replay
from agon.referee.ruleset import load_ruleset

CRASHER = f'{sys.executable} -c "import sys; sys.exit(1)"'
FIELD = ["earth-and-water", "--bot", "r1=random", "--bot", "r2=random",
         "--bot", f"crasher={CRASHER}", "--games", "2", "--seed", "3"]


def test_parallel_and_serial_tournaments_print_the_same_table(agon, tmp_path):
    serial = agon(*FIELD, "--jobs", "1", "--out", str(tmp_path / "serial.jsonl"))
    parallel = agon(*FIELD, "--jobs", "2", "--out", str(tmp_path / "parallel.jsonl"))
    assert serial.exit_code == parallel.exit_code == 0, serial.output + parallel.output
    assert serial.stdout == parallel.stdout
    crasher = next(ln for ln in serial.stdout.splitlines() if ln.startswith("crasher"))
    assert crasher.split()[1:5] == ["8", "0", "0", "8"]  # games wins draws losses
    assert crasher.rstrip().endswith("crash 8")

    games = [json.loads(line) for line in
             (tmp_path / "parallel.jsonl").read_text().splitlines()[1:]]
    assert len(games) == 3 * 2 * 2
    played = defaultdict(set)  # pairing -> {(seed, persia, greece)}
    for game in games:
        seating = game["tournament"]["seating"]
        played[frozenset(seating.values())].add((game["seed"], seating["persia"],
                                                 seating["greece"]))
    seeds = {game["seed"] for game in games}
    assert len(seeds) == 2
    for pairing, seatings in played.items():
        a, b = sorted(pairing)
        assert seatings == {(s, a, b) for s in seeds} | {(s, b, a) for s in seeds}


def test_journal_lines_are_game_records_that_replay(agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("earth-and-water", "--bot", "r1=random", "--bot", "r2=random",
                  "--games", "1", "--out", str(journal))
    assert result.exit_code == 0, result.output
    ruleset = load_ruleset("earth-and-water")
    for line in journal.read_text().splitlines()[1:]:
        record = json.loads(line)
        assert record["ruleset"]["sha256"] == ruleset.sha256
        check = replay(record, ruleset)
        assert check.verified, check.problems


def test_a_killed_earth_and_water_tournament_resumes_to_the_same_table(agon, tmp_path):
    args = ["earth-and-water", "--bot", "r1=random", "--bot", "r2=random", "--bot", "r3=random",
            "--games", "2", "--format", "json"]
    whole = tmp_path / "whole.jsonl"
    uninterrupted = agon(*args, "--out", str(whole))
    assert uninterrupted.exit_code == 0, uninterrupted.output
    cut = tmp_path / "cut.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:6]) + lines[6][:100])
    resumed = agon(*args, "--resume", str(cut), "--jobs", "2")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == json.loads(uninterrupted.stdout)
