"""`agon map` and `agon replay --html` refuse what they cannot draw truthfully: a clear message,
exit 1 (bad input) or 2 (bad usage), no traceback, nothing written."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest


def written(tmp_path: Path, record: dict[str, Any], name: str = "changed.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


def refused(result: Any, code: int, *words: str) -> None:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    for word in words:
        assert word in result.output, result.output


def test_a_record_of_another_ruleset_is_refused(recorded, kit, tmp_path):
    out = tmp_path / "m.svg"
    result = kit.agon("map", "earth-and-water", "--record", str(recorded["city-states"]),
                      "--out", str(out))
    refused(result, 1, "'city-states'", "'earth-and-water'")
    assert not out.exists()


@pytest.mark.parametrize("at", ["-1", "past the end"])
def test_at_out_of_range_is_a_usage_error(at, recorded, kit):
    path = recorded["earth-and-water"]
    count = len(kit.load(path)["actions"])
    number = str(count + 1) if at == "past the end" else at
    result = kit.agon("map", "earth-and-water", "--record", str(path), "--at", number)
    refused(result, 2)
    if at == "past the end":
        assert f"has {count} actions" in result.output


def test_at_the_last_action_is_allowed(recorded, kit):
    path = recorded["earth-and-water"]
    count = len(kit.load(path)["actions"])
    assert kit.agon("map", "earth-and-water", "--record", str(path), "--at",
                    str(count)).exit_code == 0


def test_at_without_a_record_is_a_usage_error(kit):
    refused(kit.agon("map", "earth-and-water", "--at", "3"), 2, "--record")


@pytest.mark.parametrize("name", ["map.gif", "map"])
def test_an_out_file_must_be_svg_or_png(name, kit, tmp_path):
    refused(kit.agon("map", "epireia", "--out", str(tmp_path / name)), 2, ".svg or .png")


def test_an_unwritable_out_file_is_refused(kit, tmp_path):
    # a folder that does not exist is the command line's mistake, as in play --record
    refused(kit.agon("map", "epireia", "--out", str(tmp_path / "no" / "such" / "m.svg")), 2,
            "cannot write")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = kit.agon("map", "epireia", "--out", str(locked / "m.svg"))
        if result.exit_code == 0:   # root writes anywhere
            pytest.skip("this user may write into a read-only folder")
        refused(result, 1, "cannot write")
    finally:
        locked.chmod(0o700)


def tampered(record: dict[str, Any], how: str) -> dict[str, Any]:
    record = json.loads(json.dumps(record))
    if how == "an action":
        seat, _ = record["actions"][10]
        record["actions"][10] = [seat, "no such action"]
    elif how == "the seed":
        record["seed"] += 1
    elif how == "the bots named":
        first = next(iter(record["seats"]))
        record["seats"][first]["name"] = "greedy"
    elif how == "the result":
        record["result"]["reason"] = "a walk-over"
    elif how == "the last action dropped":
        record["actions"].pop()
    return record


@pytest.mark.parametrize("how", ["an action", "the seed", "the bots named", "the result",
                                 "the last action dropped"])
def test_a_tampered_record_is_refused_by_map_and_replay(how, recorded, kit, tmp_path):
    path = written(tmp_path, tampered(kit.load(recorded["earth-and-water"]), how))
    out, page = tmp_path / "m.svg", tmp_path / "r.html"
    refused(kit.agon("map", "earth-and-water", "--record", str(path), "--out", str(out)), 1,
            "does not show a game as played")
    assert not out.exists()
    result = kit.agon("replay", str(path), "--html", str(page))
    refused(result, 1, "does not show a game as played")
    assert not page.exists()


def test_an_unsigned_record_is_drawn_with_a_warning(recorded, kit, tmp_path):
    record = kit.load(recorded["earth-and-water"])
    del record["signature"]
    result = kit.agon("map", "earth-and-water", "--record", str(written(tmp_path, record)))
    assert result.exit_code == 0, result.output
    assert "warning" in result.stderr and "not signed" in result.stderr
    assert result.stdout.startswith("<svg")


@pytest.mark.parametrize("content", ["{not json", '{"format": "agon-record/1"}', "[]"])
def test_a_file_that_is_no_record_is_refused(content, kit, tmp_path):
    path = tmp_path / "x.json"
    path.write_text(content)
    refused(kit.agon("map", "earth-and-water", "--record", str(path)), 1, "x.json")


def test_png_is_written_when_cairosvg_is_there(kit, tmp_path):
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as exc:   # OSError: no cairo library on the machine
        pytest.skip(f"cairosvg cannot be used here ({exc}): pip install 'agon-referee[png]'")
    out = tmp_path / "m.png"
    result = kit.agon("map", "city-states", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_without_cairosvg_says_what_to_install(kit, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)   # import cairosvg now fails
    out = tmp_path / "m.png"
    refused(kit.agon("map", "city-states", "--out", str(out)), 1, "agon-referee[png]")
    assert not out.exists()


def test_the_help_says_png_needs_cairosvg(kit):
    result = kit.agon("map", "--help")
    assert result.exit_code == 0 and "cairosvg" in result.output
