"""`agon replay RECORD --html FILE`: one page, nothing fetched, every step, public events only."""

from __future__ import annotations

import json
import re

import pytest

from agon.referee.games import engine_class
from agon.referee.records import replay_steps
from agon.referee.ruleset import load_ruleset, shipped_rulesets

SHIPPED = [path.stem for path in shipped_rulesets()]


def page_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="agon-data">(.*?)</script>', page,
                      re.S)
    assert match, "the page carries its data"
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def pages(recorded, tmp_path_factory) -> dict[str, str]:
    """Ruleset id -> the replay page written by the command line."""
    from typer.testing import CliRunner

    from agon.cli.main import app
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    with pytest.MonkeyPatch.context() as patch:  # the key that signed the records
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))
        for ruleset_id, record in recorded.items():
            path = folder / f"{ruleset_id}.html"
            result = CliRunner().invoke(app, ["replay", "--quiet", str(record), "--html",
                                              str(path)])
            assert result.exit_code == 0, result.output
            out[ruleset_id] = path.read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_the_page_has_one_step_per_action_and_the_start(ruleset_id, pages, recorded, kit):
    data = page_data(pages[ruleset_id])
    actions = kit.load(recorded[ruleset_id])["actions"]
    assert len(data["steps"]) == len(data["log"]) == len(actions) + 1
    assert data["log"][0][0] == "The start"
    assert [entry[0] for entry in data["log"][1:]] == [
        f"{n}. {seat}" for n, (seat, _) in enumerate(actions, 1)]
    assert data["log"][-1][1][-1].startswith("Result: ")


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_the_page_needs_no_network(ruleset_id, pages):
    page = pages[ruleset_id]
    addresses = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert addresses <= {"http://www.w3.org/2000/svg"}   # the SVG namespace names, fetches nothing
    assert not re.search(r"<(link|img|iframe)\b|\bsrc\s*=|@import|url\(", page)


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_the_log_holds_no_event_meant_for_one_seat(ruleset_id, pages, recorded, kit):
    """A card drawn, a starting figure chosen in secret: the page shows what everyone saw."""
    record = kit.load(recorded[ruleset_id])
    ruleset = load_ruleset(ruleset_id)
    seats = set(record["seats"])
    public, private = set(), set()
    for step in replay_steps(record, engine_class(ruleset.engine)(ruleset)):
        for event in step.events:
            (public if event.to is None or event.to >= seats else private).add(event.text)
    shown = {text for _, texts in page_data(pages[ruleset_id])["log"] for text in texts}
    assert not (private - public) & shown
    assert public <= shown


def test_a_page_stores_each_drawing_once(pages):
    """City States: thousands of actions, yet far less than one map per step."""
    page = pages["city-states"]
    data = page_data(page)
    board = len(page[page.index("<svg"):page.index("</svg>")])
    assert len(data["fragments"]) == len(set(data["fragments"]))
    assert len(page) < board * len(data["steps"]) / 20


def test_names_cannot_break_out_of_the_page(recorded, kit):
    """A '</script>' in a seat's bot name stays text."""
    from agon.referee.replay_page import fill
    record = kit.load(recorded["earth-and-water"])
    record["seats"]["persia"]["name"] = "</script><script>alert(1)</script>"
    ruleset = load_ruleset("earth-and-water")
    page = fill(ruleset, record, "<svg></svg>", {"log": [["</script>", []]]})
    assert page.count("</script>") == 2   # the data's and the code's own
    assert "alert(1)" in page and "<script>alert" not in page
