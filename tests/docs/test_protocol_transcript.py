"""docs/protocol.md's example transcript is what the referee really sends and receives.

The test runs the command the page shows (with its seeds), turns the bot's
transcript into the page's form and compares it with the page's generated
section, so the example cannot go stale.  After a change to the game or the
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


def section(text: str) -> str:
    return text.split("## Example transcript", 1)[1].split("\n## ", 1)[0]


def command(text: str) -> list[str]:
    """The `agon play ...` line of the page's example, as arguments."""
    block = re.search(r"```\n(agon play .*?)\n```", section(text), re.S)
    assert block, "docs/protocol.md's example has no `agon play` command"
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
