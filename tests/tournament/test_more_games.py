"""`agon tournament --resume FILE --games N --out NEW`: a tournament, typically an
undecided SPRT match, goes on to more games in a new journal."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

MATCH = ["picks", "-b", "random", "-b", "r2=random", "--sprt", "elo0=-5 elo1=5", "--seed", "7"]


def games(journal: Path) -> list[dict]:
    """The journal's game lines without what ties them to it (signature, header digest)."""
    return [{k: v for k, v in json.loads(line).items()
             if k not in ("signature", "header_sha256")}
            for line in journal.read_text().splitlines()[1:]]


def test_an_undecided_match_goes_on_in_a_new_journal_to_a_longer_runs_table(picks, agon,
                                                                            tmp_path):
    short, longer = tmp_path / "short.jsonl", tmp_path / "longer.jsonl"
    first = agon(*MATCH, "--games", "3", "--out", str(short))
    assert first.exit_code == 0 and "no decision yet" in first.stdout, first.output
    before = short.read_bytes()
    more = agon("--resume", str(short), "--games", "8", "--out", str(longer))
    assert more.exit_code == 0, more.output
    straight = agon(*MATCH, "--games", "8")
    assert more.stdout == straight.stdout            # the same table, pairs and LLR
    assert short.read_bytes() == before              # the first journal is left as it was
    # copied, not played again: the same lines, their timings included
    assert games(longer)[:6] == games(short) and len(games(longer)) == 16
    again = agon("--resume", str(longer))            # a journal like any other
    assert again.exit_code == 0 and again.stdout == straight.stdout, again.output
    assert "nothing left to play" in again.stderr


def test_more_games_in_the_same_journal_are_refused_with_the_command_that_goes_on(
        picks, agon, tmp_path):
    journal = tmp_path / "match.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(journal)).exit_code == 0
    result = agon("--resume", str(journal), "--games", "8")
    assert result.exit_code == 1
    assert "games: the journal's is 3, this run's 8" in result.stderr
    assert f"--resume {journal} --games 8 --out {tmp_path / 'match-8.jsonl'}" in result.stderr


def test_a_new_journal_takes_only_games_this_referee_signed(picks, agon, tmp_path):
    short, longer = tmp_path / "short.jsonl", tmp_path / "longer.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    lines = short.read_text().splitlines(keepends=True)
    edited = json.loads(lines[2])
    edited["result"]["points"] = {seat: 1 - points for seat, points
                                  in edited["result"]["points"].items()}
    lines[2] = json.dumps(edited) + "\n"
    short.write_text("".join(lines))
    result = agon("--resume", str(short), "--games", "8", "--out", str(longer))
    assert result.exit_code == 1, result.output
    assert f"{short}:3" in result.stderr and "did not write as they are" in result.stderr
    assert "continue with --verify to play their games again in the new journal" \
        in result.stderr   # not a resume's "keep those that replay"
    assert not longer.exists()


def test_fewer_games_or_another_seed_are_another_tournament_even_in_a_new_journal(
        picks, agon, tmp_path):
    short, other = tmp_path / "short.jsonl", tmp_path / "other.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    for change, named in ((["--games", "2"], "games"), (["--games", "8", "--seed", "9"], "seed")):
        result = agon("--resume", str(short), *change, "--out", str(other))
        assert result.exit_code == 1, result.output
        assert "another tournament" in result.stderr and f"{named}: the journal's" \
            in result.stderr
        assert not other.exists()


def test_with_verify_an_unsigned_line_is_played_again_never_signed_into_the_new_journal(
        picks, agon, tmp_path):
    short, longer = tmp_path / "short.jsonl", tmp_path / "longer.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    lines = short.read_text().splitlines(keepends=True)
    edited = json.loads(lines[2])
    edited["duration"] = 99.0   # its moves still replay: only its timing is not proven
    lines[2] = json.dumps(edited) + "\n"
    short.write_text("".join(lines))
    result = agon("--resume", str(short), "--games", "4", "--out", str(longer), "--verify")
    assert result.exit_code == 0, result.output
    assert f"{short}:3" in result.stderr and "the game is played again" in result.stderr
    durations = {game["tournament"]["key"]: game["duration"] for game in games(longer)}
    assert len(durations) == 8 and durations[edited["tournament"]["key"]] != 99.0


def test_a_journal_named_where_another_journal_keeps_its_lock_is_never_overwritten(
        picks, agon, tmp_path):
    # `foo.lock` is where a run of `foo` holds its lock: continuing the journal
    # foo.lock into foo emptied foo.lock to lock foo, then removed it
    short, longer = tmp_path / "foo.lock", tmp_path / "foo"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    before = short.read_bytes()
    result = agon("--resume", str(short), "--games", "8", "--out", str(longer))
    assert result.exit_code == 1, result.output
    assert f"{short}, where its lock goes, holds something else" in result.stderr
    assert short.read_bytes() == before
    # the other way round: a journal continued into its own lock file's name is
    # kept when the first one is resumed, and its lock file keeps it out
    first, second = tmp_path / "m.jsonl", tmp_path / "m.jsonl.lock"
    assert agon(*MATCH, "--games", "3", "--out", str(first)).exit_code == 0
    assert agon("--resume", str(first), "--games", "8", "--out", str(second)).exit_code == 0
    kept = second.read_bytes()
    resumed = agon("--resume", str(first))
    assert resumed.exit_code == 1 and "holds something else" in resumed.stderr
    assert second.read_bytes() == kept


def test_a_new_journal_that_is_the_old_one_or_no_file_is_a_usage_error(picks, agon, tmp_path):
    short = tmp_path / "short.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    before = short.read_bytes()
    hard, loop = tmp_path / "hard.jsonl", tmp_path / "loop.jsonl"
    hard.hardlink_to(short)   # another name of the same file: it said "already exists"
    loop.symlink_to(loop)     # it was "internal error: RuntimeError: Symlink loop"
    for new, said in ((hard, "is the file this command reads"), (loop, "symbolic-link loop")):
        result = agon("--resume", str(short), "--games", "8", "--out", str(new))
        assert result.exit_code == 2, result.output
        assert said in result.stderr and "internal error" not in result.stderr
    assert short.read_bytes() == before


def test_a_new_journal_that_exists_is_refused_before_the_old_one_is_touched(
        picks, agon, tmp_path):
    short, longer = tmp_path / "short.jsonl", tmp_path / "longer.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    assert agon("--resume", str(short), "--games", "5", "--out", str(longer)).exit_code == 0
    with short.open("ab") as handle:   # a last line cut short by a kill
        handle.write(short.read_bytes().splitlines()[1][:100])
    before = short.read_bytes()
    # the old journal's torn line was removed, "and the game it held is played
    # again", by a run that then refused its --out and played nothing
    result = agon("--resume", str(short), "--games", "8", "--out", str(longer))
    assert result.exit_code == 1, result.output
    assert f"{longer} already exists: continue it with --resume {longer}" in result.stderr
    assert "played again" not in result.stderr
    assert short.read_bytes() == before


def test_ctrl_c_while_the_games_are_copied_names_the_new_journal_to_resume(
        picks, agon, tmp_path, monkeypatch):
    from agon.referee.journal import Journal

    short, longer = tmp_path / "short.jsonl", tmp_path / "longer.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    real, copied, ctrl_c = Journal.write, [], {"after": 2}

    def write(self, entry):   # Ctrl-C after two games copied (a long journal takes time)
        if len(copied) == ctrl_c["after"]:
            raise KeyboardInterrupt
        copied.append(entry)
        real(self, entry)

    monkeypatch.setattr(Journal, "write", write)
    stopped = agon("--resume", str(short), "--games", "8", "--out", str(longer))
    ctrl_c["after"] = None
    # it ended with no word, leaving a new journal nothing named
    assert stopped.exit_code == 130, stopped.output
    assert f"interrupted after 2 of 16 games; the journal is {longer}" in stopped.stderr
    assert f"agon tournament --resume {longer}" in stopped.stderr
    again = agon("--resume", str(longer))
    assert again.exit_code == 0, again.output
    assert again.stdout == agon(*MATCH, "--games", "8").stdout


def test_an_older_journal_carries_only_its_own_games_not_a_longer_runs(
        picks, agon, tmp_path, as_old_journal):
    short, longer, more = tmp_path / "short.jsonl", tmp_path / "longer.jsonl", \
        tmp_path / "more.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    assert agon(*MATCH, "--games", "8", "--out", str(longer)).exit_code == 0
    as_old_journal(longer)
    # a signed game of seed 5 from a longer run of the same settings: no game of
    # short's 3 seeds (`agon replay` says so, --resume leaves it out), yet it was
    # carried and signed into the new journal as if short had played it
    foreign = [{**line, "duration": 1234.5} for line in map(json.loads,
               longer.read_text().splitlines()[1:]) if line["tournament"]["key"][:2] == "5:"]
    as_old_journal(short, lambda lines: lines.extend(foreign))
    result = agon("--resume", str(short), "--games", "8", "--out", str(more))
    assert result.exit_code == 0, result.output
    played = games(more)
    assert len(played) == 16 and all(game["duration"] != 1234.5 for game in played)


@pytest.fixture
def read_only():
    """Make a file read-only even to root (chattr +i), or chmod a-w for another user."""
    made = []

    def freeze(path: Path) -> None:
        if os.geteuid() != 0:
            path.chmod(0o444)
            return
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
            pytest.skip("root, and no chattr +i here: nothing is read-only to root")
        made.append(path)

    yield freeze
    for path in made:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_journal_goes_on_in_a_new_one_and_its_own_resume_says_why_not(
        picks, agon, tmp_path, read_only):
    short, longer = tmp_path / "short.jsonl", tmp_path / "longer.jsonl"
    assert agon(*MATCH, "--games", "3", "--out", str(short)).exit_code == 0
    with short.open("ab") as handle:   # and a last line cut short by a kill
        handle.write(short.read_bytes().splitlines()[1][:100])
    before = short.read_bytes()
    read_only(short)   # an archived journal: both were "internal error: PermissionError"
    more = agon("--resume", str(short), "--games", "8", "--out", str(longer))
    assert more.exit_code == 0, more.output
    assert "the last line is cut short (no newline at its end); it is left out, and the " \
        "game it held is played again" in more.stderr
    assert more.stdout == agon(*MATCH, "--games", "8").stdout
    assert short.read_bytes() == before
    resumed = agon("--resume", str(short))
    assert resumed.exit_code == 1, resumed.output
    assert f"{short}: cannot write it" in resumed.stderr and "internal error" not in \
        resumed.stderr
