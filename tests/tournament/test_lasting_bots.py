"""Protocol 1.1 in tournaments: one process per bot for game after game, restarted
after a fault; a bot seed in every hello, so external random bots give the same table."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from agon.referee.match import player_seed
from agon.referee.tournament import Entrant, setup
from agon.referee.worker import KeptBots, Settings, play

# A 1.1 bot: it counts the games its process has played and says so in `ready`
# (with the seed it was sent); it exits (a crash) at its first ask of game CRASH_AT.
# It spends BURN seconds of CPU time at the start of each game.
LASTING_BOT = """
import json, os, sys, time
games, process = 0, os.urandom(8).hex()   # a pid would be 1 in its own pid namespace
for line in sys.stdin:
    keyword = line.split(" ", 1)[0].strip()
    if keyword in ("agon", "newgame"):
        hello = json.loads(line.split(" ", 2 if keyword == "agon" else 1)[-1])
        games += 1
        burn = time.process_time() + BURN
        while time.process_time() < burn:
            pass
        about = {"wants": ["newgame"], "game": games, "seed": hello["seed"],
                 "seat": hello["seat"], "process": process}
        print("ready lasting " + json.dumps(about), flush=True)
    elif keyword == "ask":
        if games == CRASH_AT:
            sys.exit(3)
        print("act", line.split()[1], 0, flush=True)
    elif keyword == "quit":
        break
"""


def lasting_bot(tmp_path: Path, crash_at: int = 0, burn: float = 0.0) -> str:
    script = tmp_path / f"lasting_{crash_at}_{burn}.py"
    script.write_text(LASTING_BOT.replace("CRASH_AT", str(crash_at)).replace("BURN", str(burn)))
    return f"{sys.executable} {script}"


def games_of(journal: Path) -> list[dict]:
    games = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    return sorted(games, key=lambda g: g["tournament"]["index"])


def told(game: dict, bot: str) -> dict:
    """What the bot's `ready` said in this game (its identity's `about`)."""
    seat = next(s for s, name in game["tournament"]["seating"].items() if name == bot)
    return game["seats"][seat]["about"]


def test_a_bot_that_asks_for_newgame_plays_game_after_game_but_never_one_deal_twice(
        picks, agon, tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", f"a={lasting_bot(tmp_path)}", "--bot",
                  f"b={lasting_bot(tmp_path)}", "--games", "3", "--keep-logs", "all",
                  "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = games_of(journal)
    assert len(games) == 6 and not any(g["forfeits"] for g in games)
    for bot in ("a", "b"):  # two processes take turns, each game after game...
        assert [told(g, bot)["game"] for g in games] == [1, 1, 2, 2, 3, 3]
        assert len({told(g, bot)["process"] for g in games}) == 2
        for seed in {g["seed"] for g in games}:  # ...and never both seatings of a seed
            pair = [told(g, bot)["process"] for g in games if g["seed"] == seed]
            assert len(pair) == 2 and pair[0] != pair[1]
        # the process that played last plays on when it may: X Y Y X X Y, so that each
        # comes back to two games in a row rather than to every other game
        processes = [told(g, bot)["process"] for g in games]
        assert processes[1] == processes[2] and processes[3] == processes[4]
    for game in games:  # each game: its own seat, its own seed, in the hello or newgame
        for seat, bot in game["tournament"]["seating"].items():
            assert told(game, bot)["seat"] == seat
            assert told(game, bot)["seed"] == player_seed(game["seed"], seat)
            assert told(game, bot)["seed"] != game["seed"]
        # both took the first pick every time: a correct game, nothing left over
        assert len(game["actions"]) == 3 * 2
    # each game's transcript is that game's alone: one greeting, one result
    logs = journal.with_name(journal.name + ".logs")
    for game in games:
        folder = logs / re.sub(r"[^A-Za-z0-9_.=-]+", "_", game["tournament"]["key"])
        for seat in game["seats"]:
            lines = (folder / f"{seat}.transcript").read_text().splitlines()
            greetings = [line for line in lines if line.startswith(("> agon ", "> newgame "))]
            assert len(greetings) == 1 and sum(x.startswith("> result ") for x in lines) == 1
            assert f'"seat":"{seat}"' in greetings[0]


def test_a_bot_that_crashes_in_its_third_game_is_started_again_for_the_next(picks, agon,
                                                                           tmp_path):
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", f"c={lasting_bot(tmp_path, crash_at=3)}", "--bot",
                  "r=random", "--games", "4", "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = games_of(journal)
    crashed = [g["tournament"]["index"] for g in games if g["forfeits"]]
    assert crashed and all(told(games[i], "c")["game"] == 3 for i in crashed)
    for index in crashed:   # only its third game in a process; that process ends there
        assert next(iter(games[index]["forfeits"].values()))["reason"] == "crash"
        later = [told(g, "c") for g in games[index + 1:]]
        assert all(about["process"] != told(games[index], "c")["process"] for about in later)
    assert [told(g, "c")["game"] for g in games] == [1, 1, 2, 2, 3, 3, 1, 1]


def test_a_bot_is_started_again_before_a_game_could_exhaust_its_cpu_time(picks, agon,
                                                                        tmp_path):
    # --bot-limit cpu=1: one game may take 1 CPU second, a lasting process 2 in all.
    # After one game (0.6 s) a whole game's worth is left, after two (1.2 s) it is not:
    # the bot is started again rather than killed by its limit halfway through game 3.
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", f"c={lasting_bot(tmp_path, burn=0.6)}", "--bot", "r=random",
                  "--games", "3", "--bot-limit", "cpu=1", "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = games_of(journal)
    assert not any(g["forfeits"] for g in games)
    assert [told(g, "c")["game"] for g in games] == [1, 1, 2, 2, 1, 1]


def test_a_version_1_bot_is_started_for_every_game(picks, agon, first_legal_bot, tmp_path):
    journal = tmp_path / "games.jsonl"
    assert agon("picks", "--bot", f"f={first_legal_bot}", "--bot", "r=random", "--games", "2",
                "--keep-logs", "all", "--out", str(journal)).exit_code == 0
    logs = journal.with_name(journal.name + ".logs")
    transcripts = sorted(logs.glob("*/*.transcript"))
    assert len(transcripts) == 4
    for path in transcripts:  # each its own process: a hello, and quit at the end
        lines = path.read_text().splitlines()
        assert lines[0].startswith("> agon 1 ") and lines[-1] == "> quit"
        assert not any(line.startswith("> newgame") for line in lines)


def test_an_external_random_bot_gives_the_same_table_every_time(picks, agon, tmp_path):
    args = ["picks", "--bot", f"ext={sys.executable} -m agon.bots.random", "--bot",
            "r=random", "--games", "4", "--seed", "11", "--format", "json"]
    first = agon(*args)
    assert first.exit_code == 0, first.output
    again, on_two = agon(*args), agon(*args, "--jobs", "2")
    assert first.stdout == again.stdout == on_two.stdout
    table = json.loads(first.stdout)
    # the external random bot is seeded as the built-in one is: from swapped chairs they
    # play the same games, so every seed's pair of games is split evenly
    (pair,) = table["pairs"]
    assert pair["wins"] == pair["losses"] and pair["pentanomial"][2] == pair["pairs"] == 4



def test_the_next_games_programs_are_greeted_as_soon_as_a_game_ends(picks, tmp_path):
    """While a game is recorded, the programs of the next game are already sent its
    `newgame` (their seat, their seed), and that game is played on that greeting."""
    bot = lasting_bot(tmp_path)
    config = setup("picks", [Entrant("a", bot), Entrant("b", bot)], games=2, seed=5)
    first, second = config.plan().tasks[0], config.plan().tasks[2]   # another seed
    settings = Settings(config.ruleset, config.options, config.limits, {"a": bot, "b": bot},
                        None)
    bots = KeptBots()
    try:
        play(settings, first, bots, upcoming=second)
        for seat, name in second.seating:
            kind, line = bots.players[name, bot][0].player.recent[-1]
            assert kind == ">" and line.startswith(b"newgame ")
            hello = json.loads(line.split(b" ", 1)[1])
            assert hello["seat"] == seat and hello["seed"] == player_seed(second.seed, seat)
        played = play(settings, second, bots)
        assert played.row["result"] and not played.row["forfeits"]
        for _, name in second.seating:   # greeted once for it, and it played in that process
            kept = bots.players[name, bot][0].player
            sent = [line for kind, line in kept.recent if kind == ">"]
            assert sum(line.startswith(b"newgame ") for line in sent) == 1
            assert kept.starts == 1
    finally:
        bots.close()


# A beginner's 1.1 bot: it asks for newgame, then exits after the result as a
# version 1 bot may after quit.
ONE_GAME_BOT = """
import sys
for line in sys.stdin:
    if line.startswith(("agon ", "newgame ")):
        print('ready once {"wants":["newgame"]}', flush=True)
    elif line.startswith("ask "):
        print("act", line.split()[1], 0, flush=True)
    elif line.startswith(("result", "quit")):
        break
"""


def test_a_bot_that_asks_for_newgame_but_exits_after_a_game_is_told_so(picks, agon, tmp_path):
    script = tmp_path / "once.py"
    script.write_text(ONE_GAME_BOT)
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", f"o={sys.executable} {script}", "--bot", "r=random",
                  "--games", "2", "--seed", "3", "--out", str(journal))
    assert result.exit_code == 0, result.output
    assert not any(g["forfeits"] for g in games_of(journal))   # it is started again...
    logs = journal.with_name(journal.name + ".logs")
    said = "".join(path.read_text() for path in logs.glob("*/*.log"))
    # ...and its log (kept: it is notable) says why and what to do, whichever way the
    # referee found it gone: before it sent the newgame, or when sending it
    assert "after a result, " in said and "until newgame or quit" in said


# A 1.1 bot that asks for newgame, then never answers one (it waits for quit).
DEAF_BOT = """
import sys
for line in sys.stdin:
    if line.startswith("agon "):
        print('ready deaf {"wants":["newgame"]}', flush=True)
    elif line.startswith("ask "):
        print("act", line.split()[1], 0, flush=True)
    elif line.startswith("quit"):
        break
"""


def test_a_bot_that_leaves_newgame_unanswered_is_not_sent_one_again(picks, agon, tmp_path):
    """It is waited for once (the handshake limit), then started afresh for each game:
    one 1.1 bot that ignores newgame does not cost the limit game after game."""
    script = tmp_path / "deaf.py"
    script.write_text(DEAF_BOT)
    journal = tmp_path / "games.jsonl"
    result = agon("picks", "--bot", f"d={sys.executable} {script}", "--bot", "r=random",
                  "--games", "4", "--seed", "3", "--handshake-time", "0.5",
                  "--out", str(journal))
    assert result.exit_code == 0, result.output
    games = games_of(journal)
    assert len(games) == 8 and not any(g["forfeits"] for g in games)
    logs = journal.with_name(journal.name + ".logs")
    said = "".join(path.read_text() for path in logs.glob("*/*.log"))
    assert said.count("did not take the next game") == 1, said
    assert "no 'ready' within 0.5 s" in said and "no longer sent newgame" in said
