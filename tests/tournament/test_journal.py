"""The journal: one JSON line per finished game, and --resume to the same table."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from agon.referee.journal import read_journal
from agon.referee.journal_lines import JOURNAL_FORMAT

ARGS = ["picks", "--bot", "r1=random", "--bot", "r2=random", "--bot", "r3=random",
        "--games", "4", "--seed", "5"]


def journal_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_journal_holds_a_header_and_one_record_per_game(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    header, *games = journal_lines(journal)
    assert header["format"] == JOURNAL_FORMAT
    assert header["bots"] == {"r1": "random", "r2": "random", "r3": "random"}
    assert (header["games"], header["seed"], header["players"]) == (4, 5, 2)
    assert len(games) == 3 * 2 * 4
    keys = Counter(game["tournament"]["key"] for game in games)
    assert set(keys.values()) == {1}
    for game in games:  # each line is a full game record plus the tournament's key
        assert game["format"] == "agon-record/1"
        assert game["seed"] == game["tournament"]["seed"]
        assert game["actions"] and game["result"]["ranks"]
        assert set(game["tournament"]["seating"]) == set(game["seats"])
    # duplicate format: every pairing in both seatings on each of the same 4 seeds
    seatings = {(g["seed"], g["tournament"]["seating"]["p1"], g["tournament"]["seating"]["p2"])
                for g in games}
    for a, b in (("r1", "r2"), ("r1", "r3"), ("r2", "r3")):
        seeds_ab = {seed for seed, p1, p2 in seatings if (p1, p2) == (a, b)}
        seeds_ba = {seed for seed, p1, p2 in seatings if (p1, p2) == (b, a)}
        assert seeds_ab == seeds_ba and len(seeds_ab) == 4


def test_resume_after_a_kill_gives_the_identical_table(picks, agon, tmp_path):
    whole = tmp_path / "whole.jsonl"
    uninterrupted = agon(*ARGS, "--out", str(whole))
    assert uninterrupted.exit_code == 0
    # a "killed" run: the header, 10 games and half of the 11th line
    cut = tmp_path / "cut.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:11]) + lines[11][: len(lines[11]) // 2])
    resumed = agon(*ARGS, "--resume", str(cut))
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout == uninterrupted.stdout
    games = journal_lines(cut)[1:]
    assert len(games) == len(lines) - 1  # the torn line was replaced, nothing replayed twice
    assert len({g["tournament"]["key"] for g in games}) == len(games)
    # resuming a finished journal plays nothing and prints the same table again
    again = agon("picks", "--resume", str(cut))  # settings come from the journal header
    assert again.stdout == uninterrupted.stdout
    assert len(journal_lines(cut)) == len(lines)


def test_resume_alone_lists_the_pairs_in_the_order_the_bots_were_given(picks, agon, tmp_path):
    # the bots not in alphabetical order: `zed - abe` must not come back as `abe - zed`
    args = ["picks", "--bot", "zed=random", "--bot", "abe=random", "--games", "2", "--seed", "5"]
    whole = tmp_path / "whole.jsonl"
    uninterrupted = agon(*args, "--out", str(whole))
    assert uninterrupted.exit_code == 0 and "zed - abe" in uninterrupted.stdout
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(whole.read_text().splitlines(keepends=True)[:3]))
    resumed = agon("picks", "--resume", str(cut))   # the settings from the journal alone
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout == uninterrupted.stdout


def test_resume_refuses_a_journal_of_another_tournament(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    other = [arg if arg != "5" else "6" for arg in ARGS]  # another master seed
    result = agon(*other, "--resume", str(journal))
    assert result.exit_code == 1
    assert "another tournament" in result.stderr and "seed" in result.stderr


def test_resume_with_another_ruleset_says_so_not_that_its_options_are_unknown(
        picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    result = agon("earth-and-water", "--resume", str(journal))
    assert result.exit_code == 1
    assert "another tournament" in result.stderr
    assert "ruleset: the journal's games are of picks@1, this run names earth-and-water" \
        in result.stderr
    assert "option" not in result.stderr


def test_resume_with_fewer_bots_names_the_missing_ones_not_the_seat_count(
        picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--players", "3", "--out", str(journal)).exit_code == 0
    result = agon("picks", "--resume", str(journal), "--bot", "r1=random", "--bot", "r2=random")
    assert result.exit_code == 1
    assert "another tournament" in result.stderr
    assert "missing from this run: r3" in result.stderr
    assert "needs at least" not in result.stderr


def test_resume_under_another_sprt_is_refused(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    duel = ["picks", "--bot", "r1=random", "--bot", "r2=random", "--games", "3", "--seed", "5",
            "--sprt", "elo0=0 elo1=10"]
    assert agon(*duel, "--out", str(journal)).exit_code == 0
    same = agon("picks", "--resume", str(journal), "--sprt", "elo0=0 elo1=10 alpha=0.05")
    assert same.exit_code == 0, same.output
    result = agon("picks", "--resume", str(journal), "--sprt", "elo0=0 elo1=20")
    assert result.exit_code == 1
    assert 'sprt: the journal\'s is "elo0=0 elo1=10 alpha=0.05 beta=0.05"' in result.stderr


def test_resuming_a_finished_tournament_says_there_is_nothing_left_to_play(
        picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    first = agon(*ARGS, "--out", str(journal))
    assert first.exit_code == 0 and "nothing left" not in first.stderr
    again = agon("--resume", str(journal))
    assert again.exit_code == 0 and again.stdout == first.stdout
    assert "the tournament is over" in again.stderr and "nothing left to play" in again.stderr


def test_out_never_overwrites_an_existing_journal(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    before = journal.read_bytes()
    result = agon(*ARGS, "--out", str(journal))
    assert result.exit_code != 0 and f"continue it with --resume {journal}" in result.stderr
    assert journal.read_bytes() == before


def test_out_on_a_file_that_is_no_journal_keeps_it_and_suggests_no_resume(picks, agon,
                                                                          tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("precious\n")
    result = agon(*ARGS, "--out", str(notes))
    assert result.exit_code != 0
    assert f"{notes} already exists and is not a journal: choose another --out" in result.stderr
    assert "--resume" not in result.stderr and notes.read_text() == "precious\n"


def test_unreadable_journals_are_reported_not_tracebacks(picks, agon, tmp_path):
    missing = agon(*ARGS, "--resume", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 2 and "no such journal" in missing.stderr
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n{}\n")
    result = agon(*ARGS, "--resume", str(garbage))
    assert result.exit_code == 1 and "not a journal line" in result.stderr
    assert "Traceback" not in result.output
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = agon(*ARGS, "--resume", str(empty))
    assert result.exit_code == 1 and f"{empty}: empty, not a journal" in result.stderr


def test_a_last_line_missing_only_its_newline_is_kept(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    text = journal.read_text()
    journal.write_text(text.rstrip("\n"))
    header, games = read_journal(journal)
    assert len(games) == 24 and journal.read_text() == text


def test_resume_retries_the_games_that_ended_in_an_error(picks, agon, engine_bug, tmp_path):
    journal = tmp_path / "games.jsonl"
    engine_bug(True)
    broken = agon(*ARGS, "--out", str(journal))
    assert broken.exit_code == 1 and "Errors" in broken.stdout
    errors = sum("error" in game for game in journal_lines(journal)[1:])
    assert 0 < errors < 24
    engine_bug(False)  # the bug is fixed: resume plays those games again
    fixed = agon(*ARGS, "--resume", str(journal))
    assert fixed.exit_code == 0 and "Errors" not in fixed.stdout
    assert fixed.stdout == agon(*ARGS).stdout
    assert len(journal_lines(journal)) == 1 + 24 + errors  # retries are appended


# -- journals that prove what they say --------------------------------------------------

def rewrite(path: Path, edit) -> None:
    """Apply `edit(lines)` to the journal's parsed lines and write them back."""
    lines = journal_lines(path)
    edit(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def flip_result(row: dict) -> None:
    ranks = row["result"]["ranks"]
    worst = max(ranks.values())
    row["result"]["ranks"] = {seat: worst + 1 - rank for seat, rank in ranks.items()}
    row["result"]["points"] = {seat: 1.0 - p for seat, p in row["result"]["points"].items()}


def test_every_journal_line_is_signed(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    lines = journal_lines(journal)
    assert all(line["signature"]["alg"] == "hmac-sha256" for line in lines)
    assert len({line["signature"]["value"] for line in lines}) == len(lines)


def test_resume_refuses_an_edited_result_and_names_the_line(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    uninterrupted = agon(*ARGS, "--out", str(journal))
    rewrite(journal, lambda lines: flip_result(lines[5]))
    edited = journal.read_text()
    result = agon(*ARGS, "--resume", str(journal))
    assert result.exit_code == 1
    key = journal_lines(journal)[5]["tournament"]["key"]
    assert f"{journal}:6 (game {key}): it was changed after it was written" in result.stderr
    assert "--verify" in result.stderr
    assert uninterrupted.stdout not in result.stdout and journal.read_text() == edited


def test_resume_verify_replays_unsigned_lines_and_plays_the_false_ones_again(
        picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    uninterrupted = agon(*ARGS, "--out", str(journal))

    def edit(lines):
        flip_result(lines[5])  # a lie: does not replay
        del lines[9]["signature"]  # the truth, unsigned: replays
        lines[12]["forfeits"] = {"p1": {"reason": "crash", "detail": "", "after_actions": 6}}

    rewrite(journal, edit)
    result = agon(*ARGS, "--resume", str(journal), "--verify")
    assert result.exit_code == 0, result.output
    assert result.stdout == uninterrupted.stdout  # the lie is gone, the table is the true one
    assert ":6 (game" in result.stderr and "does not replay" in result.stderr
    assert ":13 (game" in result.stderr and "forfeits" in result.stderr
    # the unsigned line counts, and says so: its moves replay, who played them is not proven
    assert ":10 (game" in result.stderr and "counted because its moves replay" in result.stderr
    assert "who played it and its timings are not proven" in result.stderr
    assert len(journal_lines(journal)) == 25 + 2  # the two false games were played again


def test_resume_verify_leaves_out_an_unsigned_line_of_a_game_not_planned(picks, agon, tmp_path):
    """It was said to be "played again"; no game of the plan stands in its place."""
    journal = tmp_path / "games.jsonl"
    uninterrupted = agon(*ARGS, "--out", str(journal))

    def add(lines):
        extra = json.loads(json.dumps(lines[1]))
        del extra["signature"]
        seats = ",".join(f"{seat}={bot}" for seat, bot in extra["tournament"]["seating"].items())
        extra["tournament"].update(key=f"99:{seats}", seed_index=99, index=999)
        lines.append(extra)

    rewrite(journal, add)
    result = agon(*ARGS, "--resume", str(journal), "--verify")
    assert result.exit_code == 0, result.output
    assert result.stdout == uninterrupted.stdout
    assert ":26 (game 99:" in result.stderr
    assert "it is no game of this tournament; it is left out" in result.stderr
    assert "played again" not in result.stderr


def test_resume_refuses_settings_edited_in_the_header_before_using_them(picks, agon, tmp_path):
    """A header whose bots were changed (a command line slipped in) is not this referee's
    word: resuming from it alone must not start anything it names."""
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    rewrite(journal, lambda lines: lines[0]["bots"].update(r3="sh -c 'touch pwned'"))
    result = agon("--resume", str(journal))
    assert result.exit_code == 1
    assert f"{journal}:1 (the header): it was changed after it was written" in result.stderr
    assert "--verify" in result.stderr and not (tmp_path / "pwned").exists()


def test_a_header_setting_of_the_wrong_kind_is_a_clear_error(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    genuine = journal.read_text()
    for key, value, says in [("jobs", "two", "its jobs setting is not a whole number or null"),
                             ("seed", 1.5, "its seed setting is not a whole number"),
                             ("keep_logs", "some", "its keep_logs setting is not notable or all"),
                             ("limits", {"move": "fast"}, "its time limits are not numbers")]:
        journal.write_text(genuine)
        rewrite(journal, lambda lines, edit={key: value}: lines[0].update(edit))
        for verify in ([], ["--verify"]):
            result = agon("--resume", str(journal), *verify)
            assert result.exit_code == 1, result.output
            assert f"{journal}:1 (the header): {says}" in result.stderr
            assert "internal error" not in result.output


def test_a_row_without_a_result_is_a_clear_error(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    rewrite(journal, lambda lines: lines[3].pop("result"))
    result = agon(*ARGS, "--resume", str(journal))
    assert result.exit_code == 1
    assert f"{journal}:4 (game" in result.stderr and "it has no result" in result.stderr
    assert "internal error" not in result.output
    fixed = agon(*ARGS, "--resume", str(journal), "--verify")
    assert fixed.exit_code == 0 and "has no result; the game is played again" in fixed.stderr


def hold(journal: Path) -> subprocess.Popen:
    """Another process holding the journal, as a running tournament does."""
    code = ("import sys, time; from pathlib import Path; "
            "from agon.referee.journal import Journal; "
            "from agon.referee.signing import Keyring; "
            f"j = Journal.create(Path({str(journal)!r}), {{'format': {JOURNAL_FORMAT!r}}}, "
            "Keyring.load()); print('held', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_two_runs_cannot_write_one_journal(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    holder = hold(journal)
    try:
        for flag in ("--out", "--resume"):
            second = agon(*ARGS, flag, str(journal))
            assert second.exit_code == 1, second.output
            assert f"{journal} is being written by another run (process {holder.pid}" \
                in second.stderr
        assert len(journal_lines(journal)) == 1  # the second run wrote nothing
    finally:
        holder.kill()
        holder.wait()
    # A killed run leaves no lock behind that counts: the journal can be used again.
    assert agon(*ARGS, "--resume", str(journal)).exit_code == 1  # another tournament's header
    assert "is being written" not in agon(*ARGS, "--resume", str(journal)).stderr


def test_a_journal_named_through_a_symbolic_link_is_still_locked(picks, agon, tmp_path):
    """The lock sat beside the name given: a second run through a link to the journal
    took a lock of its own and appended the same games to it."""
    journal = tmp_path / "games.jsonl"
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "elsewhere" / "link.jsonl"
    link.symlink_to(journal)
    holder = hold(journal)
    try:
        second = agon(*ARGS, "--resume", str(link))
        assert second.exit_code == 1, second.output
        assert f"{link} is being written by another run (process {holder.pid}" in second.stderr
        assert len(journal_lines(journal)) == 1
    finally:
        holder.kill()
        holder.wait()


def test_a_journal_named_through_a_hard_link_is_still_locked(picks, agon, tmp_path):
    """A hard link has a lock file of its own name: a second run through it appended
    the games the first was playing, and `agon replay` then failed the journal."""
    journal, link = tmp_path / "games.jsonl", tmp_path / "link.jsonl"
    holder = hold(journal)
    try:
        link.hardlink_to(journal)
        second = agon(*ARGS, "--resume", str(link))
        assert second.exit_code == 1, second.output
        assert f"{link} is being written by another run, which names it otherwise" \
            in second.stderr
        assert len(journal_lines(journal)) == 1
        assert not Path(f"{link}.lock").exists()
    finally:
        holder.kill()
        holder.wait()


def test_resume_needs_only_the_journal_and_keeps_its_jobs_unless_given(picks, agon, tmp_path,
                                                                       monkeypatch):
    from agon.cli import tournament as cli_module

    journal = tmp_path / "games.jsonl"
    whole = agon(*ARGS, "--jobs", "2", "--out", str(journal))
    assert whole.exit_code == 0, whole.output
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:7]))
    asked = []
    real = cli_module.run_tournament

    def spy(*args, **kwargs):
        asked.append(kwargs["jobs"])
        return real(*args, **kwargs)

    monkeypatch.setattr(cli_module, "run_tournament", spy)
    resumed = agon("--resume", str(journal))  # no ruleset, no bots, no settings
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout == whole.stdout and asked == [2]
    assert agon("--resume", str(journal), "--jobs", "1").stdout == whole.stdout
    assert asked == [2, 1]


def test_resume_with_another_ruleset_or_other_bots_says_exactly_that(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    other_rules = agon("picks-teams", "--resume", str(journal))
    assert other_rules.exit_code == 1
    assert "ruleset: the journal's games are of picks" in other_rules.stderr
    assert "this run names picks-teams" in other_rules.stderr
    other_bots = agon("picks", "--bot", "r1=random", "--bot", "r2=random", "--bot", "x=mc",
                      "--resume", str(journal))
    assert other_bots.exit_code == 1
    said = other_bots.stderr
    assert "bots: the journal's are r1=random, r2=random, r3=random" in said
    assert "not in the journal: x" in said and "missing from this run: r3" in said
    assert "--resume " + str(journal) + " alone" in said and "Traceback" not in said
    changed = agon("picks", "--bot", "r1=random", "--bot", "r2=random", "--bot", "r3=mc",
                   "--resume", str(journal))
    assert "r3 was 'random', now 'mc'" in changed.stderr


def test_nan_or_infinity_in_a_line_names_the_line_instead_of_crashing(picks, agon, tmp_path):
    """Python reads NaN and 1e400 as floats that JSON cannot write: no referee signed them."""
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    genuine = journal.read_text()
    for bad, says in (("NaN", "NaN"), ("1e400", "1e400, a number too large for JSON")):
        lines = genuine.splitlines(keepends=True)
        lines[2] = lines[2].replace('"duration":', f'"duration":{bad},"x":', 1)
        journal.write_text("".join(lines))
        for verify in ([], ["--verify"]):
            result = agon("--resume", str(journal), *verify)
            assert result.exit_code == 1, result.output
            assert f"{journal}:3: not a journal line (it holds {says}, which JSON does not " \
                   "allow)" in result.stderr
            assert "internal error" not in result.output


@pytest.mark.parametrize("line, key", [(0, "games"), (2, "result")])
def test_a_key_written_twice_in_a_line_is_refused(picks, agon, tmp_path, line, key):
    """`{"games": 99, "games": 2}`: the signature covers the last value, which Python keeps;
    a person (or another reader) sees 99.  The header or game line is refused by number."""
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    lines = journal.read_text().splitlines(keepends=True)
    lines[line] = lines[line].replace(f'"{key}":', f'"{key}":99,"{key}":', 1)
    journal.write_text("".join(lines))
    for verify in ([], ["--verify"]):
        result = agon("--resume", str(journal), *verify)
        assert result.exit_code == 1, result.output
        assert f"{journal}:{line + 1}: not a journal line (it holds the key '{key}' twice " \
               "in one object)" in result.stderr


def test_only_a_last_line_without_its_newline_counts_as_cut_short(picks, agon, tmp_path):
    """A kill leaves a last line unfinished and without its newline: that line is removed,
    and said to be; a whole last line that is not JSON is an error, never removed."""
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    genuine = journal.read_text()
    journal.write_text(genuine + "GARBAGE GARBAGE\n")
    refused = agon("--resume", str(journal))
    assert refused.exit_code == 1, refused.output
    assert f"{journal}:26: not a journal line (not JSON); it ends with its newline, so no " \
           "kill cut it short" in refused.stderr
    assert journal.read_text() == genuine + "GARBAGE GARBAGE\n"
    journal.write_text(genuine + '{"actions":[["p1","hi')
    resumed = agon("--resume", str(journal))
    assert resumed.exit_code == 0, resumed.output
    assert f"{journal}:26: the last line is cut short (no newline at its end); it was " \
           "removed, and the game it held is played again" in resumed.stderr
    assert journal.read_text() == genuine


def test_resume_verify_refuses_a_header_this_referee_did_not_sign(picks, agon, tmp_path):
    """--verify replays game lines; a header cannot be replayed, so an edited one must not
    relabel signed games, drop some of them, or name a program to start."""
    journal = tmp_path / "games.jsonl"
    assert agon(*ARGS, "--out", str(journal)).exit_code == 0
    genuine = journal.read_text()
    edits = [(lambda h: h["bots"].update(r3="sh -c 'touch pwned'"), "it was changed after"),
             (lambda h: h.update(games=2), "it was changed after"),
             (lambda h: h["bots"].update(r3="mc"), "it was changed after"),
             (lambda h: h.pop("signature"), "not signed")]
    for edit, says in edits:
        journal.write_text(genuine)
        rewrite(journal, lambda lines, edit=edit: edit(lines[0]))
        edited = journal.read_text()
        result = agon("--resume", str(journal), "--verify")
        assert result.exit_code == 1, result.output
        assert f"{journal}:1 (the header): {says}" in result.stderr
        assert "a header cannot be replayed" in result.stderr
        assert not (tmp_path / "pwned").exists() and journal.read_text() == edited
        assert not result.stdout  # no table: not a game was counted


def test_run_tournament_refuses_an_unsigned_header_even_when_verifying(picks, tmp_path):
    """The same refusal where the runner is used without the command line."""
    from agon.referee.journal import JournalError
    from agon.referee.schedule import parse_entrant
    from agon.referee.tournament import run_tournament, setup

    entrants = [parse_entrant(f"r{n}=random") for n in (1, 2, 3)]
    config = setup("picks", entrants, games=1, seed=5)
    journal = tmp_path / "games.jsonl"
    run_tournament(config, journal=journal)
    rewrite(journal, lambda lines: lines[0].pop("signature"))
    with pytest.raises(JournalError, match=r":1 \(the header\): not signed: its settings"):
        run_tournament(config, journal=journal, resume=True, verify=True)


# -- lines of another tournament ("splicing") ---------------------------------------------

def test_resume_refuses_signed_lines_of_another_tournament(picks, agon, tmp_path):
    """Two runs of the very same settings: only the header's digest in each signed line
    tells their games apart."""
    journal, other = tmp_path / "games.jsonl", tmp_path / "other.jsonl"
    uninterrupted = agon(*ARGS, "--out", str(journal))
    assert agon(*ARGS, "--out", str(other)).exit_code == 0
    ours, theirs = journal_lines(journal), other.read_text().splitlines(keepends=True)
    assert ours[1]["header_sha256"] != json.loads(theirs[1])["header_sha256"]
    spliced = "".join(journal.read_text().splitlines(keepends=True)[:1] + theirs[1:])
    journal.write_text(spliced)
    result = agon("--resume", str(journal))
    assert result.exit_code == 1, result.output
    key = json.loads(theirs[1])["tournament"]["key"]
    assert f"{journal}:2 (game {key}): it is not a game of this tournament: it was written " \
           "under another journal's header" in result.stderr
    assert journal.read_text() == spliced and not result.stdout
    verified = agon("--resume", str(journal), "--verify")  # replaying does not make it ours
    assert verified.exit_code == 0, verified.output
    assert f"{journal}:2 (game {key}): it is not a game of this tournament" in verified.stderr
    assert verified.stdout == uninterrupted.stdout
    assert len(journal_lines(journal)) == 1 + 24 + 24  # every game played again


def test_an_older_journal_is_resumed_with_the_checks_it_allows(picks, agon, tmp_path,
                                                             as_old_journal):
    journal = tmp_path / "games.jsonl"
    uninterrupted = agon(*ARGS, "--out", str(journal))
    as_old_journal(journal, lambda lines: lines.pop())  # one game left to play
    resumed = agon("--resume", str(journal))
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout == uninterrupted.stdout
    header, *games = journal_lines(journal)
    assert header["format"] == "agon-tournament/1"
    assert len(games) == 24 and not any("header_sha256" in game for game in games)

    def spliced(lines):  # a game of a tournament whose r1 was mc, with the same seed
        seat = next(s for s, name in lines[3]["tournament"]["seating"].items() if name == "r1")
        lines[3]["seats"][seat] = {"kind": "builtin", "name": "mc", "version": "1.0"}

    as_old_journal(journal, spliced)
    refused = agon("--resume", str(journal))
    assert refused.exit_code == 1, refused.output
    assert f"{journal}:4 (game" in refused.stderr
    assert "it is not a game of this tournament: its " in refused.stderr
    assert "was played by 'mc', and the header's r1 is 'random'" in refused.stderr
