"""docs/protocol.md's example transcript is what the referee really sends and receives.

The test runs the command the page shows (with its seeds), turns the bot's
transcript into the page's form and compares it with the page's generated
section, so the example cannot go stale.  The second example (protocol 1.1:
two games in one process) is taken from the tournament command the page shows,
cut to the lines around the games' starts and ends.  After a change to the game or the
protocol, ``AGON_REGENERATE_DOCS=1 pytest tests/docs`` rewrites the section.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "protocol.md"
BEGIN = "<!-- transcript: begin (generated: do not edit by hand) -->"
END = "<!-- transcript: end -->"


BEGIN_11 = "<!-- transcript 1.1: begin (generated: do not edit by hand) -->"
END_11 = "<!-- transcript 1.1: end -->"


def section(text: str, title: str = "## Example transcript\n") -> str:
    return text.split(title, 1)[1].split("\n## ", 1)[0]


def command(text: str, title: str = "## Example transcript\n", verb: str = "play") -> list[str]:
    """The `agon VERB ...` line of the page's example, as arguments."""
    block = re.search(rf"```\n(agon {verb} .*?)\n```", section(text, title), re.S)
    assert block, f"docs/protocol.md's example has no `agon {verb}` command"
    return shlex.split(block.group(1).replace("\\\n", " "))


def play(args: list[str], log_dir: Path) -> list[str]:
    """Run the command in a scratch folder (so `-m agon` finds the installed package)."""
    args = [str(log_dir) if previous == "--log-dir" else arg.replace("bots/", f"{REPO}/bots/")
            for previous, arg in zip(["", *args[:-1]], args, strict=True)]
    out = subprocess.run([sys.executable, "-m", "agon", *args[1:]], cwd=log_dir.parent,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return (log_dir / "greece.transcript").read_text(encoding="utf-8").splitlines()


def shown(line: str) -> str:
    """A transcript line as the page shows it: the ruleset's file name, an ask's view cut."""
    line = re.sub(r'"source":"[^"]*?([^/\\"]+)"', r'"source":"…/\1"', line)
    if line.startswith("> ask "):
        head, payload = line.split(" {", 1)
        ask = json.loads("{" + payload)
        ask["view"] = "VIEW"
        body = json.dumps(ask, separators=(",", ":"), ensure_ascii=True)
        line = f"{head} {body.replace(chr(34) + 'VIEW' + chr(34), '{…}')}"
    return line


def pretty(view: dict) -> str:
    """One key per line; a list of records one record per line."""
    lines = []
    for key, value in view.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            inner = ",\n".join(f"  {json.dumps(v, separators=(', ', ': '))}" for v in value)
            lines.append(f' "{key}": [\n{inner}\n ]')
        else:
            lines.append(f' "{key}": {json.dumps(value, separators=(", ", ": "))}')
    return "{\n" + ",\n".join(lines) + "\n}"


def generated(transcript: list[str]) -> str:
    first_ask = next(line for line in transcript if line.startswith("> ask "))
    view = json.loads("{" + first_ask.split(" {", 1)[1])["view"]
    ask_id = first_ask.split()[2]
    return (f"{BEGIN}\n```\n" + "\n".join(shown(line) for line in transcript) + "\n```\n\n"
            f"The `view` of ask {ask_id}, in full (its layout is the Earth & Water engine's,\n"
            "docs/games/earth-and-water.md):\n\n```json\n" + pretty(view) + f"\n```\n{END}")


def comparable(text: str) -> str:
    """What must not change from run to run: everything but the clock's seconds left."""
    return re.sub(r'"remaining":[0-9.]+', '"remaining":_', text)


def test_the_example_transcript_is_what_the_command_produces(tmp_path):
    page = PAGE.read_text(encoding="utf-8")
    assert BEGIN in page and END in page, "docs/protocol.md lost its transcript markers"
    fresh = generated(play(command(page), tmp_path / "logs"))
    start, end = page.index(BEGIN), page.index(END) + len(END)
    if os.environ.get("AGON_REGENERATE_DOCS"):
        page = page[:start] + fresh + page[end:]
        PAGE.write_text(page, encoding="utf-8")
    assert comparable(page[start:page.index(END) + len(END)]) == comparable(fresh), (
        "docs/protocol.md's example transcript is stale: rerun with AGON_REGENERATE_DOCS=1")


def test_the_example_shows_a_whole_game_and_hides_persias_cards(tmp_path):
    """What the page tells the reader about the transcript holds in it."""
    page = PAGE.read_text(encoding="utf-8")
    lines = page[page.index(BEGIN):page.index(END)].splitlines()
    assert any(line.startswith("> agon 1 ") for line in lines)
    assert any(line.startswith("> result ") for line in lines) and "> quit" in lines
    persia_draws = [line for line in lines if '"type":"draw"' in line and "Persia" in line]
    assert persia_draws and all('"count":' in line and '"cards"' not in line
                                for line in persia_draws)
    ask_ids = [int(line.split()[2]) for line in lines if line.startswith("> ask ")]
    assert any(b - a > 1 for a, b in zip(ask_ids, ask_ids[1:], strict=False))


# -- protocol 1.1: two games in one process ----------------------------------------

TITLE_11 = "## Example transcript: two games in one process (1.1)\n"


def tournament_transcript(args: list[str], workdir: Path) -> list[str]:
    """The lines of the example bot's first process, over its games in order: the first
    game and the last (a game goes to the process that played last when that one has
    not seen its seed: the other process plays the two games in between)."""
    args = [arg.replace("bots/", f"{REPO}/bots/") for arg in args]
    out = subprocess.run([sys.executable, "-m", "agon", *args[1:]], cwd=workdir,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    journal = next(arg.split("=", 1)[1] for arg in args if arg.startswith("--out="))
    games = [json.loads(line) for line in (workdir / journal).read_text().splitlines()[1:]]
    games.sort(key=lambda g: g["tournament"]["index"])
    lines = []
    for game in (games[0], games[-1]):
        seat = next(s for s, bot in game["tournament"]["seating"].items() if bot == "mini")
        folder = re.sub(r"[^A-Za-z0-9_.=-]+", "_", game["tournament"]["key"])
        lines += (workdir / f"{journal}.logs" / folder / f"{seat}.transcript").read_text(
            encoding="utf-8").splitlines()
    return lines


def cut(transcript: list[str]) -> list[str]:
    """Each game's start (to its first answer) and end (its last answer to the result)."""
    starts = [n for n, line in enumerate(transcript) if line.startswith(("> agon ", "> newgame "))]
    ends = [n for n, line in enumerate(transcript) if line.startswith("> result ")]
    kept: list[str] = []
    for start, end in zip(starts, ends, strict=True):
        first_act = next(n for n in range(start, end) if transcript[n].startswith("< act "))
        last_ask = max(n for n in range(start, end) if transcript[n].startswith("> ask "))
        kept += transcript[start:first_act + 1] + ["…"] + transcript[last_ask:end + 1]
    return kept + transcript[ends[-1] + 1:]


def generated_11(transcript: list[str]) -> str:
    return f"{BEGIN_11}\n```\n" + "\n".join(shown(line) for line in cut(transcript)) + \
        f"\n```\n{END_11}"


def test_the_newgame_transcript_is_what_the_tournament_produces(tmp_path):
    page = PAGE.read_text(encoding="utf-8")
    assert BEGIN_11 in page and END_11 in page, "docs/protocol.md lost its 1.1 transcript markers"
    transcript = tournament_transcript(command(page, TITLE_11, "tournament"), tmp_path)
    fresh = generated_11(transcript)
    start, end = page.index(BEGIN_11), page.index(END_11) + len(END_11)
    if os.environ.get("AGON_REGENERATE_DOCS"):
        page = page[:start] + fresh + page[end:]
        PAGE.write_text(page, encoding="utf-8")
    assert comparable(page[start:page.index(END_11) + len(END_11)]) == comparable(fresh), (
        "docs/protocol.md's 1.1 transcript is stale: rerun with AGON_REGENERATE_DOCS=1")
    # what the page says of it: one process, one hello, newgame after the first result
    assert sum(line.startswith("> agon 1 ") for line in transcript) == 1
    newgame = next(n for n, line in enumerate(transcript) if line.startswith("> newgame "))
    assert transcript[newgame - 1].startswith("> result ") and transcript[-1] == "> quit"
    seeds = [json.loads(line.split(" ", 3 if line.startswith("> agon") else 2)[-1])["seed"]
             for line in transcript if line.startswith(("> agon ", "> newgame "))]
    assert len(set(seeds)) == 2  # each game its own bot seed
