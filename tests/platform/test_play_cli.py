"""`agon play` and `agon replay` as a user runs them."""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
import subprocess
import sys

AGON = [sys.executable, "-m", "agon"]
RANDOM_PROGRAM = f"{shlex.quote(sys.executable)} -m agon.bots.random"


def agon(*args: str, stdin: str | None = None, timeout: float = 120,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*AGON, *args], capture_output=True, text=True, input=stdin,
                          timeout=timeout, env=env)


def play(*args: str, **kw) -> subprocess.CompletedProcess:
    return agon("play", "earth-and-water", *args, **kw)


def test_a_game_between_built_in_bots_prints_its_log_and_result(tmp_path):
    record = tmp_path / "game.json"
    out = play("--seat", "persia=random", "--seat", "greece=random", "--seed", "5",
               "--record", str(record))
    assert out.returncode == 0, out.stderr
    assert "seed 5" in out.stdout and "result:" in out.stdout
    game = json.loads(record.read_text())
    assert game["seed"] == 5 and game["seats"]["persia"]["name"] == "random"
    assert game["ruleset"]["id"] == "earth-and-water" and len(game["ruleset"]["sha256"]) == 64
    verdict = agon("replay", str(record), "--quiet")
    assert verdict.returncode == 0 and "verified" in verdict.stdout


def test_the_same_seed_plays_the_same_game(tmp_path):
    runs = []
    for name in ("a.json", "b.json"):
        play("-s", "persia=random", "-s", "greece=random", "--seed", "8", "--quiet",
             "--record", str(tmp_path / name))
        runs.append(json.loads((tmp_path / name).read_text()))
    assert runs[0]["actions"] == runs[1]["actions"]
    assert runs[0]["result"] == runs[1]["result"]


def test_a_tampered_record_is_reported(tmp_path):
    record = tmp_path / "game.json"
    play("-s", "persia=random", "-s", "greece=random", "--seed", "2", "-q", "--record", str(record))
    game = json.loads(record.read_text())
    winner = min(game["result"]["ranks"], key=game["result"]["ranks"].get)
    loser = next(seat for seat in game["result"]["ranks"] if seat != winner)
    game["result"]["ranks"] = {winner: 2, loser: 1}
    record.write_text(json.dumps(game))
    out = agon("replay", str(record), "-q")
    assert out.returncode == 1 and "ranks differs" in out.stderr
    game["actions"][3][1] = "fly to the moon"
    record.write_text(json.dumps(game))
    out = agon("replay", str(record), "-q")
    assert out.returncode == 1 and "illegal" in out.stderr
    record.write_text("{not json")
    out = agon("replay", str(record))
    assert out.returncode == 1 and "not a JSON game record" in out.stderr


def test_an_external_program_plays_over_the_protocol(tmp_path):
    out = play("-s", f"persia={RANDOM_PROGRAM}", "-s", "greece=random", "--seed", "4",
               "--log-dir", str(tmp_path), "--record", str(tmp_path / "g.json"))
    assert out.returncode == 0, out.stderr
    game = json.loads((tmp_path / "g.json").read_text())
    assert game["forfeits"] == {}
    assert agon("replay", str(tmp_path / "g.json"), "-q").returncode == 0


def test_a_crashing_program_forfeits_and_the_game_still_has_a_result(tmp_path):
    crash = f"{shlex.quote(sys.executable)} -c 'import sys; sys.exit(3)'"
    out = play("-s", f"persia={crash}", "-s", "greece=random", "--seed", "1",
               "--handshake-time", "2", "--record", str(tmp_path / "g.json"))
    assert out.returncode == 0
    game = json.loads((tmp_path / "g.json").read_text())
    assert game["forfeits"]["persia"]["reason"] in ("handshake", "crash")
    assert game["result"]["points"] == {"persia": 0.0, "greece": 1.0}
    assert "persia forfeited" in out.stderr


def test_json_output_is_the_signed_record_alone_and_a_clean_game_leaves_no_logs(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    out = play("-s", f"persia={RANDOM_PROGRAM}", "-s", "greece=random", "--seed", "4",
               "--json", env=env)
    assert out.returncode == 0, out.stderr
    game = json.loads(out.stdout)           # nothing but the record on stdout
    assert game["seed"] == 4 and set(game["result"]["points"]) == {"persia", "greece"}
    assert "signature" in game and "seed 4" in out.stderr
    assert not list(tmp_path.glob("agon-logs-*")), "a clean game's logs are removed"


def test_a_failed_program_keeps_its_logs_and_says_where(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    noisy = f"{shlex.quote(sys.executable)} -c 'import sys; print(\"boom\", file=sys.stderr)'"
    out = play("-s", f"persia={noisy}", "-s", "greece=random", "--seed", "1",
               "--handshake-time", "2", "-q", env=env)
    assert out.returncode == 0
    kept = list(tmp_path.glob("agon-logs-*"))
    assert len(kept) == 1 and f"kept in {kept[0]}" in out.stderr
    assert "boom" in (kept[0] / "persia.log").read_text()


def test_csv_output_is_the_result_table(tmp_path):
    out = play("-s", "persia=random", "-s", "greece=random", "--seed", "5", "--format", "csv")
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert [row["seat"] for row in rows] == ["persia", "greece"]
    assert sorted(row["rank"] for row in rows) == ["1", "2"]


def test_a_person_can_resign_at_the_terminal():
    out = play("-s", "persia=random", "-s", "greece=human", "--seed", "1",
               stdin="help\nquit\ny\n")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert "greece forfeited (resign)" in out.stderr


def test_input_that_ends_at_the_resign_question_saves_the_game_instead(tmp_path):
    saved = tmp_path / "game.json"
    out = play("-s", "persia=random", "-s", "greece=human", "--seed", "1", "--record",
               str(saved), stdin="quit\n")
    assert out.returncode == 130, out.stderr
    assert f"the game so far is saved in {saved}" in out.stderr
    assert json.loads(saved.read_text())["status"] == "unfinished"


def test_wrong_seats_bots_and_options_are_clear_errors():
    out = play("-s", "persia=random", "-s", "athens=random")
    assert out.returncode == 2 and "unknown seat 'athens'" in out.stderr
    out = play("-s", "persia=random")
    assert out.returncode == 2 and "none is given for greece" in out.stderr
    out = play("-s", "persia=random", "-s", "greece=random", "-s", "sparta=random")
    assert out.returncode == 2 and "needs 2 players (persia, greece), not 3" in out.stderr
    out = play("-s", "persia=random", "-s", "greece=no-such-bot-xyz")
    assert out.returncode == 2 and "unknown bot 'no-such-bot-xyz'" in out.stderr
    out = play("-s", "persia=random", "-s", "greece=random", "--option", "nope=1")
    assert out.returncode == 2 and "no option 'nope'" in out.stderr
    out = play("-s", "persia=random", "-s", "greece=random", "--option", "cheap_fleets=maybe")
    assert out.returncode == 2 and "true or false" in out.stderr
    out = play("-s", "persia=ismcts:c=-1", "-s", "greece=random")
    assert out.returncode == 2 and "c must be" in out.stderr and out.stdout == ""
    out = play("-s", "persia=mc:tme=1", "-s", "greece=random")
    assert out.returncode == 2 and "did you mean 'time'" in out.stderr and out.stdout == ""
    for text in (out.stderr,):
        assert "Traceback" not in text


def test_a_log_folder_that_is_a_file_is_refused_before_the_game(tmp_path):
    """Else the game was played without the logs asked for, and exited 0."""
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    for where in (notes, notes / "logs"):
        out = play("-s", f"persia={RANDOM_PROGRAM}", "-s", "greece=random", "--seed", "1",
                   "--sandbox", "none", "--log-dir", str(where))
        assert out.returncode == 2, out.stderr
        assert f"{notes} is a file, not a folder" in out.stderr and "result:" not in out.stdout
    assert notes.read_text() == "mine"


def test_a_record_the_key_cannot_sign_is_kept_but_the_run_fails(tmp_path):
    key_folder = tmp_path / "data" / "agon"
    key_folder.mkdir(parents=True)
    (key_folder / "referee-keys.json").write_text("not a key")
    record = tmp_path / "game.json"
    out = play("-s", "persia=random", "-s", "greece=random", "--seed", "1", "-q",
               "--record", str(record), env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})
    assert out.returncode == 1, out.stderr
    assert "warning: the record is not signed" in out.stderr and "result:" in out.stdout
    assert "signature" not in json.loads(record.read_text())


def test_every_command_has_help_with_an_example():
    for command in ("rulesets", "validate", "rules", "play", "tournament", "replay", "check", "bots"):
        out = agon(command, "--help")
        assert out.returncode == 0, command
        assert "Example" in out.stdout, command


def test_a_record_that_cannot_be_written_after_the_game_is_saved_beside(tmp_path):
    """--record /dev/full: the game is played; its record goes to a new file, and says so."""
    out = subprocess.run([*AGON, "play", "earth-and-water", "-s", "persia=random", "-s",
                          "greece=random", "--seed", "2", "-q", "--record", "/dev/full"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert ("agon: error: cannot write the record to /dev/full (No space left on device); "
            "the game is saved in earth-and-water-record.json") in out.stderr
    assert "result:" in out.stdout
    kept = tmp_path / "earth-and-water-record.json"
    assert agon("replay", "-q", str(kept)).returncode == 0


def test_a_json_record_that_standard_output_cannot_take_is_saved_beside(tmp_path):
    """--json > /dev/full without --record: stdout was the record's only copy."""
    with open("/dev/full", "w") as full:
        out = subprocess.run([*AGON, "play", "earth-and-water", "-s", "persia=random", "-s",
                              "greece=random", "--seed", "2", "--json"], stdout=full,
                             stderr=subprocess.PIPE, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert ("agon: error: cannot write to standard output (No space left on device); "
            "the game is saved in earth-and-water-record.json") in out.stderr
    kept = tmp_path / "earth-and-water-record.json"
    assert json.loads(kept.read_text())["seed"] == 2
    assert agon("replay", "-q", str(kept)).returncode == 0
