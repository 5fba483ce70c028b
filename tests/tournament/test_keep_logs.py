"""--keep-logs: a tournament keeps an external bot's log and transcript of a game only
when they say something (stderr, `info`, a forfeit), or with `all` of every game."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

# A 1.1 bot that says in `ready` which game of its process this is; in the game of its
# process numbered NOISY it writes to stderr, in INFO it sends an info line, in CRASH it
# exits at its first ask; it says goodbye on stderr with BYE.
BOT = """
import json, sys
games = 0
for line in sys.stdin:
    keyword = line.split(" ", 1)[0].strip()
    if keyword in ("agon", "newgame"):
        games += 1
        print("ready chatty " + json.dumps({"wants": ["newgame"], "game": games}), flush=True)
        if games == NOISY:
            print(f"game {games}: something odd", file=sys.stderr, flush=True)
    elif keyword == "ask":
        if games == CRASH:
            sys.exit(3)
        if games == INFO:
            print("info thinking hard", flush=True)
        print("act", line.split()[1], 0, flush=True)
    elif keyword == "quit":
        if BYE:
            print("bye", file=sys.stderr, flush=True)
        break
"""


def bot(tmp_path: Path, name: str, noisy: int = 0, info: int = 0, crash: int = 0,
        bye: bool = False) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(BOT.replace("NOISY", str(noisy)).replace("INFO", str(info))
                      .replace("CRASH", str(crash)).replace("BYE", str(bye)))
    return f"{name}={sys.executable} {script}"


def games_of(journal: Path) -> list[dict]:
    games = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    return sorted(games, key=lambda g: g["tournament"]["index"])


def folder(journal: Path, game: dict) -> Path:
    """The game's folder of logs, as docs/protocol.md names it."""
    key = re.sub(r"[^A-Za-z0-9_.=-]+", "_", game["tournament"]["key"])
    return journal.with_name(journal.name + ".logs") / key


def kept(journal: Path) -> dict[str, list[str]]:
    """Each game folder's files, by folder name."""
    logs = journal.with_name(journal.name + ".logs")
    if not logs.exists():
        return {}
    return {path.name: sorted(f.name for f in path.iterdir()) for path in logs.iterdir()}


def seat_of(game: dict, bot_name: str) -> str:
    return next(s for s, name in game["tournament"]["seating"].items() if name == bot_name)


def process_game(game: dict, bot_name: str) -> int:
    """Which game of its process this was for the bot (what its `ready` said)."""
    return game["seats"][seat_of(game, bot_name)]["about"]["game"]


def test_a_clean_tournament_leaves_no_logs_folder(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", bot(tmp_path, "a"), "--bot", bot(tmp_path, "b"),
                  "--bot", "r=random", "--games", "2", "--out", str(journal))
    assert result.exit_code == 0, result.output
    assert len(games_of(journal)) == 12
    assert not journal.with_name("games.jsonl.logs").exists()
    assert json.loads(journal.read_text().splitlines()[0])["keep_logs"] == "notable"


def test_only_the_games_where_a_bot_wrote_stderr_or_info_keep_its_files(picks, agon,
                                                                        tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", bot(tmp_path, "a", noisy=2, info=3), "--bot",
                  bot(tmp_path, "b"), "--games", "3", "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = games_of(journal)
    # two processes take turns (never one deal twice), each plays 3 games
    assert [process_game(g, "a") for g in games] == [1, 1, 2, 2, 3, 3]
    noisy, chatty = games[2:4], games[4:6]
    # b said nothing in those games either: only a's files, and only those games
    assert kept(journal) == {folder(journal, g).name: [f"{seat_of(g, 'a')}.log",
                                                       f"{seat_of(g, 'a')}.transcript"]
                             for g in noisy + chatty}
    for game in noisy:
        log = (folder(journal, game) / f"{seat_of(game, 'a')}.log").read_text()
        assert "game 2: something odd" in log and "info" not in log
    for game in chatty:
        log = (folder(journal, game) / f"{seat_of(game, 'a')}.log").read_text()
        assert "info: thinking hard" in log and "something odd" not in log
    for game in noisy + chatty:  # the game's own lines, whole
        seat = seat_of(game, "a")
        lines = (folder(journal, game) / f"{seat}.transcript").read_text().splitlines()
        assert lines[0].startswith("> newgame ") and f'"seat":"{seat}"' in lines[0]
        assert sum(line.startswith("> result ") for line in lines) == 1
        assert sum(line.startswith("< act ") for line in lines) == 3


def test_a_bot_that_crashes_keeps_the_files_of_that_game(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", bot(tmp_path, "c", crash=2), "--bot", "r=random",
                  "--games", "3", "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = games_of(journal)
    crashed = [g for g in games if g["forfeits"]]
    # the second game of each of its two processes; both started again for the last seed
    assert [g["tournament"]["index"] for g in crashed] == [2, 3]
    assert [process_game(g, "c") for g in games[4:]] == [1, 1]
    assert kept(journal) == {folder(journal, g).name: [f"{seat_of(g, 'c')}.log",
                                                       f"{seat_of(g, 'c')}.transcript"]
                             for g in crashed}
    for game in crashed:
        transcript = (folder(journal, game) / f"{seat_of(game, 'c')}.transcript").read_text()
        assert transcript.splitlines()[-1].startswith("> ask ")  # the ask it died on


def test_what_a_lasting_bot_says_after_its_last_game_goes_to_that_game(picks, agon,
                                                                      tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", bot(tmp_path, "a", bye=True), "--bot", "r=random",
                  "--games", "2", "--out", str(journal))
    assert result.exit_code == 0, result.output
    last = games_of(journal)[-2:]   # the last game of each of its two processes
    assert kept(journal) == {folder(journal, g).name: [f"{seat_of(g, 'a')}.log",
                                                       f"{seat_of(g, 'a')}.transcript"]
                             for g in last}
    for game in last:
        log = (folder(journal, game) / f"{seat_of(game, 'a')}.log").read_text()
        assert log.splitlines()[-1] == "bye"


def test_keep_logs_all_keeps_every_game_of_every_program(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", bot(tmp_path, "a"), "--bot", "r=random", "--games", "2",
                  "--keep-logs", "all", "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = games_of(journal)
    assert kept(journal) == {folder(journal, g).name: [f"{seat_of(g, 'a')}.log",
                                                       f"{seat_of(g, 'a')}.transcript"]
                             for g in games}
    for game in games:
        log = (folder(journal, game) / f"{seat_of(game, 'a')}.log").read_text()
        assert log.startswith("# ") and "chatty" not in log  # its command line, nothing said


def test_resume_keeps_the_journals_choice_unless_given(picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    args = ["picks", "--bot", bot(tmp_path, "a"), "--bot", "r=random", "--games", "3"]
    assert agon(*args, "--keep-logs", "all", "--out", str(journal)).exit_code == 0
    lines = journal.read_text().splitlines(keepends=True)
    assert json.loads(lines[0])["keep_logs"] == "all"
    for given, folders in (([], 4), (["--keep-logs", "notable"], 0)):
        journal.write_text("".join(lines[:3]))  # the header and two of six games
        for path in journal.with_name("games.jsonl.logs").glob("*/*"):
            path.unlink()
        for path in journal.with_name("games.jsonl.logs").glob("*"):
            path.rmdir()
        resumed = agon("--resume", str(journal), *given)
        assert resumed.exit_code == 0, resumed.output
        assert len(kept(journal)) == folders  # the four games played again


def test_a_bad_keep_logs_value_is_a_usage_error(picks, agon, tmp_path):
    result = agon("picks", "--bot", "r1=random", "--bot", "r2=random", "--keep-logs", "some")
    assert result.exit_code == 2
    assert "'some' is not one of 'notable', 'all'" in result.output


def test_the_logs_folder_exists_before_any_bot_starts(tmp_path):
    """A sandbox can only cover a folder that exists when a bot starts: one made at the
    end of the first game would be in sight of every bot started before it."""
    from agon.referee.tournament import log_directory

    journal = tmp_path / "games.jsonl"
    with log_directory(journal) as logs:
        assert Path(logs).is_dir()
    assert not Path(logs).exists()  # nothing kept in it: no empty folder left behind
    with log_directory(journal) as logs:
        (Path(logs) / "game-1").mkdir()
    assert (Path(logs) / "game-1").is_dir()  # a game's logs are kept
