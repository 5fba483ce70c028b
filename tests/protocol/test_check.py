"""`agon check`: a compliant bot passes; a broken one fails and shows why."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import agon.bots.examples
import agon.cli.check
from agon.referee.compliance import check_bot

EXAMPLES = Path(agon.bots.examples.__file__).resolve().parent
GOOD = {
    "minimal": [sys.executable, str(EXAMPLES / "minimal_bot.py")],
    "bash": ["bash", str(EXAMPLES / "first_legal.sh")],
    "random": [sys.executable, "-m", "agon.bots.random"],
}


@pytest.mark.parametrize("name", GOOD)
def test_the_shipped_bots_pass(kit, name):
    report = check_bot(GOOD[name], kit.CountEngine(kit.ruleset), seat="p1",
                       options={"target": 40}, limits=kit.limits)
    assert report.passed, report.render()
    # each speaks protocol 1.1: its ready asks for newgame, so it plays a second game
    assert [step.name for step in report.steps] == ["handshake", "events", "asks", "newgame",
                                                    "quit"]
    assert "answered legally" in report.render() and report.render().endswith("PASS")


NEWGAME_BOT = """
import sys
for line in sys.stdin:
    word, _, rest = line.partition(" ")
    if word == "agon" or word == "newgame" and sys.argv[1] != "mute":
        print('ready stays {"wants": ["newgame"]}', flush=True)
    elif word == "ask":
        print(f"act {rest.split(' ', 1)[0]} 0", flush=True)
    elif word == "quit" or word == "result" and sys.argv[1] == "leaves":
        break
"""


@pytest.mark.parametrize("how, said", [
    ("stays", "ok    newgame: a second game in the same process: 10 asks answered legally"),
    ("leaves", "FAIL  newgame: its ready asked for newgame, but it did not take the next "
               "game (crash: the program closed its output and exited with status 0): answer "
               "`newgame {...}` with `ready`, as the hello, and after a `result` read on "
               "until `newgame` or `quit`; or leave newgame out of `wants`"),
    ("mute", "FAIL  newgame: its ready asked for newgame, but it did not take the next game "
             "(handshake: no 'ready' "),
])
def test_a_bot_that_asks_for_newgame_is_checked_on_a_second_game(kit, tmp_path, how, said):
    """A 1.1 bot that left after its first game (or never answered `newgame`) passed the
    check, and was started anew before every game of a tournament without a word."""
    (tmp_path / "bot.py").write_text(NEWGAME_BOT)
    report = check_bot([sys.executable, str(tmp_path / "bot.py"), how],
                       kit.CountEngine(kit.ruleset), limits=kit.limits)
    assert said in report.render()
    assert report.passed == (how == "stays")
    # the referee's note on it is not shown as what the bot wrote to stderr
    assert report.render().endswith("bot stderr (last lines):\n  (empty)\nFAIL") or report.passed


def test_answers_by_index_and_by_text_both_pass_and_are_counted(kit):
    by_index = check_bot(kit.faulty("ok"), kit.CountEngine(kit.ruleset), limits=kit.limits)
    by_text = check_bot(kit.faulty("by-text"), kit.CountEngine(kit.ruleset), limits=kit.limits)
    assert by_index.passed and by_text.passed
    # a solo game of the toy: the bot adds 1 ten times, or (by text) 3, 3, 3 and 1
    assert "10 answered legally (10 by index, 0 by text)" in by_index.render()
    assert "4 answered legally (0 by index, 4 by text)" in by_text.render()


def test_the_hello_is_the_one_a_real_game_sends_seed_included(kit, tmp_path):
    # a bot that seeds its random choices with the hello's `seed` (as docs/bots.md
    # advises) crashed under `agon check`, whose hello had no seed, and not in a game
    report = check_bot(kit.faulty("needs-seed"), kit.CountEngine(kit.ruleset), seed=5,
                       limits=kit.limits, log_dir=tmp_path)
    assert report.passed, report.render()
    hello = (tmp_path / "p1.transcript").read_text().splitlines()[0]
    assert hello.startswith("> agon 1 ") and '"seed":' in hello and '"options":' in hello


def test_info_lines_do_not_count_as_answers(kit):
    report = check_bot(kit.faulty("chatty"), kit.CountEngine(kit.ruleset), limits=kit.limits)
    assert report.passed and report.infos[0] == "thinking about ask 1"


def test_a_garbage_answer_fails_and_shows_the_exchange(kit):
    report = check_bot(kit.faulty("garbage"), kit.CountEngine(kit.ruleset), limits=kit.limits)
    text = report.render()
    assert not report.passed and text.endswith("FAIL")
    assert "FAIL  asks: protocol: unknown message 'I'" in text
    assert "< I think I will add two" in text and "> ask 1 3 {" in text


@pytest.mark.parametrize("mode, said", [
    ("redy", "FAIL  handshake: unknown message 'redy': 'redy typo' "
             "(did you mean 'ready'?)"),
    ("debug-stdout", "FAIL  asks: protocol: unknown message 'DEBUG:': 'DEBUG: thinking about "
                     "ask 1' (expected 'act ID K' or 'info TEXT': every line on stdout is "
                     "read as a message; write debugging output to stderr)"),
    ("quoted-text", "FAIL  asks: illegal: '\"add 1\"' is not a legal action of ask 1 (did "
                    "you mean 'add 1'? answer with an index 0 to 2, or an action's text "
                    "exactly as listed)"),
])
def test_a_beginners_mistake_is_named_with_what_to_do(kit, mode, said):
    report = check_bot(kit.faulty(mode), kit.CountEngine(kit.ruleset), limits=kit.limits)
    assert not report.passed and said in report.render(), report.render()


def test_a_crash_at_start_fails_and_shows_the_stderr(kit):
    report = check_bot(kit.faulty("crash-at-start"), kit.CountEngine(kit.ruleset),
                       limits=kit.limits)
    assert not report.passed
    text = report.render()
    assert "FAIL  handshake: crash" in text
    assert "crash-at-start: giving up before ready" in text


def test_a_bot_that_ignores_quit_fails(kit):
    report = check_bot(kit.faulty("ignore-quit"), kit.CountEngine(kit.ruleset),
                       limits=kit.limits, quit_wait=0.3)
    assert not report.passed
    assert "FAIL  quit: still running 0.3 s after 'quit'" in report.render()


def test_an_unknown_seat_is_a_usage_error(kit):
    with pytest.raises(ValueError, match="no seat 'p9'"):
        check_bot(GOOD["minimal"], kit.CountEngine(kit.ruleset), seat="p9")


def app_with_toy_game(kit, monkeypatch) -> typer.Typer:
    monkeypatch.setattr(agon.cli.check, "load_ruleset", lambda ref, *_: kit.ruleset)
    monkeypatch.setattr(agon.cli.check, "engine_class", lambda engine_id: kit.CountEngine)
    app = typer.Typer()
    app.command()(agon.cli.check.check)
    app.command("other")(lambda: None)  # two commands, so `check` is a subcommand
    return app


def test_the_command_exits_0_for_a_compliant_bot_and_1_otherwise(kit, monkeypatch):
    app = app_with_toy_game(kit, monkeypatch)
    runner = CliRunner()
    passed = runner.invoke(app, ["check", "random", "--ruleset", "toy", "--move-time", "0.5"])
    assert passed.exit_code == 0, passed.output
    assert "-m agon.bots.random as p1" in passed.output and "PASS" in passed.output
    failed = runner.invoke(app, ["check", " ".join(kit.faulty("illegal-index")),
                                 "--ruleset", "toy", "--move-time", "0.5"])
    assert failed.exit_code == 1 and "FAIL  asks: illegal: index 3" in failed.output


def test_the_command_reports_usage_errors_with_status_2(tmp_path):
    app = typer.Typer()
    app.command()(agon.cli.check.check)
    app.command("other")(lambda: None)
    result = CliRunner().invoke(app, ["check", "random", "--ruleset",
                                      str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_log_folder_that_is_a_file_is_a_usage_error(kit, monkeypatch, tmp_path):
    app = app_with_toy_game(kit, monkeypatch)
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    result = CliRunner().invoke(app, ["check", "random", "--ruleset", "toy",
                                      "--log-dir", str(notes)])
    assert result.exit_code == 2 and "is a file, not a folder" in result.output


@pytest.mark.parametrize("decisions", ["0", "-5"])
def test_no_decisions_to_check_is_a_usage_error_not_a_failing_bot(kit, monkeypatch, decisions):
    app = app_with_toy_game(kit, monkeypatch)
    result = CliRunner().invoke(app, ["check", "random", "--ruleset", "toy",
                                      "--decisions", decisions])
    assert result.exit_code == 2 and "--decisions" in result.output
    assert "FAIL" not in result.output


def test_a_program_that_does_not_exist_is_a_usage_error(kit, monkeypatch):
    app = app_with_toy_game(kit, monkeypatch)
    result = CliRunner().invoke(app, ["check", "no-such-bot --fast", "--ruleset", "toy"])
    assert result.exit_code == 2 and "'no-such-bot' is not a program" in result.output


def test_the_command_checks_every_seat_by_default_and_one_with_seat(kit, monkeypatch):
    app = app_with_toy_game(kit, monkeypatch)
    runner = CliRunner()
    every = runner.invoke(app, ["check", "random", "-r", "toy", "--move-time", "0.5"])
    assert every.exit_code == 0, every.output
    # the toy is played by 1 to 4: two seats by default, one session each
    assert "random as p1" in every.output and "random as p2" in every.output
    assert "PASS: 2 of 2 seats passed" in every.output
    three = runner.invoke(app, ["check", "random", "-r", "toy", "--players", "3"])
    assert "random as p3" in three.output and "3 of 3 seats passed" in three.output
    one = runner.invoke(app, ["check", "random", "-r", "toy", "--players", "3", "--seat", "p3"])
    assert one.exit_code == 0 and "as p3" in one.output and "as p1" not in one.output


def test_seats_and_player_counts_the_ruleset_lacks_are_usage_errors(kit, monkeypatch):
    app = app_with_toy_game(kit, monkeypatch)
    runner = CliRunner()
    seat = runner.invoke(app, ["check", "random", "-r", "toy", "--seat", "p22"])
    assert seat.exit_code == 2 and "no seat 'p22' (did you mean 'p2'?)" in seat.output
    count = runner.invoke(app, ["check", "random", "-r", "toy", "--players", "9"])
    assert count.exit_code == 2 and "needs 1 to 4 players (seats p1 ... p4), not 9" in count.output


def test_a_timeout_lists_its_usual_causes_and_other_failures_do_not(kit):
    hung = check_bot(kit.faulty("hang"), kit.CountEngine(kit.ruleset), limits=kit.limits)
    assert not hung.passed and "FAIL  asks: timeout" in hung.render()
    assert "did not flush stdout" in hung.render() and "read one line at a time" in hung.render()
    assert "awk -W interactive" in hung.render() and "(--move-time)" in hung.render()
    mute = check_bot(kit.faulty("no-ready"), kit.CountEngine(kit.ruleset), limits=kit.limits)
    assert "FAIL  handshake" in mute.render() and "did not flush stdout" in mute.render()
    crashed = check_bot(kit.faulty("crash-at-start"), kit.CountEngine(kit.ruleset),
                        limits=kit.limits)
    assert "did not flush stdout" not in crashed.render()


SKIPPING_BOT = """
import sys
for line in sys.stdin:
    word, _, rest = line.partition(" ")
    if word == "agon":
        print('ready skipper {"skip": ["events", "view"]}', flush=True)
    elif word == "ask":
        print(f"act {rest.split(' ', 1)[0]} 0", flush=True)
    elif word == "quit":
        break
"""


def test_a_bot_that_skips_events_is_not_told_it_was_sent_them(kit, tmp_path):
    (tmp_path / "bot.py").write_text(SKIPPING_BOT)
    report = check_bot([sys.executable, str(tmp_path / "bot.py")],
                       kit.CountEngine(kit.ruleset), limits=kit.limits)
    assert report.passed, report.render()
    assert "ok    events: none sent: its ready skips events" in report.render()


def test_a_handshake_timeout_names_its_limit_and_lists_the_causes_once(kit, tmp_path):
    (tmp_path / "bot.py").write_text("import sys\nfor line in sys.stdin:\n    print('ready x')\n")
    report = check_bot([sys.executable, str(tmp_path / "bot.py")],
                       kit.CountEngine(kit.ruleset), limits=kit.limits)
    text = report.render()
    # the unflushed `ready`: its step names the limit, the list below says why
    assert "FAIL  handshake: no 'ready' within 0.5 s\n" in text
    assert "did not flush stdout" in text and "`agon check` lists" not in text
