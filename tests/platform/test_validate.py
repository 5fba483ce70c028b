"""`agon validate`: every error with file:line:col, variants, hostile YAML."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agon.cli.main import app
from agon.referee.ruleset import RULESETS_DIR, shipped_rulesets

runner = CliRunner()


def agon(*args: str) -> subprocess.CompletedProcess:
    """The installed command, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "agon", *args],
                          capture_output=True, text=True, timeout=60)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_every_shipped_ruleset_is_valid():
    files = [str(p) for p in shipped_rulesets()]
    assert len(files) >= 2
    out = agon("validate", *files)
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_error_is_listed_with_file_line_column_and_path(tmp_path):
    bad = write(tmp_path, "bad.yaml", """\
        format: agon-ruleset/1
        id: Bad Id
        name: Bad
        version: 1
        engine: earth-and-water
        players: {min: 3, max: 2}
        rules:
          - {id: "1", title: One, text: t, see_also: ["9"]}
        data: {}
        """)
    out = agon("validate", str(bad))
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert any(line.startswith(f"{bad}:2:5: $.id: ") for line in lines), lines
    assert any(line.startswith(f"{bad}:6:10: $.players: min is larger") for line in lines)
    assert any(":8:" in line and "$.rules[0].see_also[0]" in line for line in lines)
    assert any("$.data" in line for line in lines)  # the engine's data schema ran too
    assert len(lines) >= 4
    assert "Traceback" not in out.stderr


def test_json_format_lists_the_same_errors(tmp_path):
    bad = write(tmp_path, "bad.yaml", "format: agon-ruleset/1\nid: x\n")
    result = runner.invoke(app, ["validate", "--format", "json", str(bad)])
    assert result.exit_code == 1
    report = json.loads(result.stdout)[str(bad)]
    assert report["valid"] is False
    missing = {e["message"] for e in report["errors"]}
    assert "'engine' is a required property" in missing and "'data' is a required property" in missing


def test_usage_errors_exit_2():
    assert runner.invoke(app, ["validate"]).exit_code == 2


def test_variant_errors_point_at_the_file_that_holds_the_bad_value(tmp_path):
    base = (RULESETS_DIR / "earth-and-water.yaml").read_text(encoding="utf-8")
    (tmp_path / "base.yaml").write_text(base.replace("id: earth-and-water", "id: base", 1))
    variant = write(tmp_path, "variant.yaml", """\
        format: agon-ruleset/1
        id: my-variant
        name: House rules
        version: "1"
        extends: base.yaml
        players: {min: 2, max: 1}
        """)
    out = agon("validate", str(variant))
    assert out.returncode == 1
    assert f"{variant}:6:10: $.players: min is larger than max" in out.stdout
    # now the bad value lives in the base: the error must name the base file
    write(tmp_path, "variant.yaml", "format: agon-ruleset/1\nid: v\nname: V\nversion: \"1\"\n"
                                    "extends: base.yaml\n")
    broken = base.replace("format: agon-ruleset/1", "format: agon-ruleset/1\nbogus_key: 1", 1)
    (tmp_path / "base.yaml").write_text(broken)
    out = agon("validate", str(variant))
    assert out.returncode == 1
    assert f"{tmp_path / 'base.yaml'}:2:12: $.bogus_key: unknown key 'bogus_key'" in out.stdout, out.stdout


def test_variant_that_names_a_missing_base_is_reported(tmp_path):
    variant = write(tmp_path, "v.yaml", "format: agon-ruleset/1\nid: v\nname: V\nversion: \"1\"\n"
                                        "extends: no-such-game\n")
    out = agon("validate", str(variant))
    assert out.returncode == 1 and "no ruleset 'no-such-game'" in out.stdout


def test_an_id_too_long_for_a_file_name_is_refused_before_a_game_saves_by_it(tmp_path):
    """A game without --record is saved as ID-unfinished.json: with an id of 300
    characters, Ctrl-C ended in "internal error: File name too long"."""
    variant = write(tmp_path, "v.yaml", "format: agon-ruleset/1\nid: " + "v" * 300 +
                    "\nname: V\nversion: \"1\"\nextends: earth-and-water\n")
    out = agon("validate", str(variant))
    assert out.returncode == 1 and f"{variant}:2:5: $.id: " in out.stdout, out.stdout
    assert "is too long" in out.stdout
    played = agon("play", str(variant), "-s", "persia=random", "-s", "greece=random",
                  "--seed", "1")
    assert played.returncode == 1 and "internal error" not in played.stderr


HOSTILE = {
    "object tag": "a: !!python/object/apply:os.system ['echo pwned']\n",
    "alias bomb": "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)),
    "deep nesting": "a: " + "[" * 3000 + "]" * 3000 + "\n",
    "not yaml": "a: [unclosed\n",
    "not a mapping": "- just\n- a list\n",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_yaml_is_refused_with_a_clear_message(tmp_path, kind):
    path = write(tmp_path, "hostile.yaml", HOSTILE[kind])
    out = agon("validate", str(path))
    assert out.returncode == 1
    assert out.stdout.startswith(f"{path}:")
    assert "Traceback" not in out.stderr and "pwned" not in out.stdout + out.stderr
    expected = {"object tag": "not allowed", "alias bomb": "alias bomb",
                "deep nesting": "nested too deeply", "not yaml": "not valid YAML",
                "not a mapping": "mapping"}[kind]
    assert expected in out.stdout


def test_oversized_file_is_refused_without_parsing(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("a: " + "x" * (5 * 1024 * 1024) + "\n")
    out = agon("validate", str(path))
    assert out.returncode == 1 and "limited to" in out.stdout


def test_a_mistyped_key_is_named_with_the_key_it_meant(tmp_path):
    variant = write(tmp_path, "v.yaml", """\
        format: agon-ruleset/1
        id: v
        name: V
        version: "1"
        extends: earth-and-water
        data:
          rodas: {}
        """)
    out = agon("validate", str(variant))
    assert out.returncode == 1
    assert "$.data.rodas: unknown key 'rodas' (did you mean 'roads'?)" in out.stdout


def test_csv_lists_one_row_per_error(tmp_path):
    import csv
    import io

    bad = write(tmp_path, "bad.yaml", "format: agon-ruleset/1\nid: x\n")
    result = runner.invoke(app, ["validate", "--format", "csv", str(bad)])
    assert result.exit_code == 1
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {row["message"] for row in rows} >= {"'engine' is a required property",
                                                "'data' is a required property"}
    assert all(row["file"] == str(bad) and row["line"] == "1" for row in rows)
    good = runner.invoke(app, ["validate", "--format", "csv", str(RULESETS_DIR / "epireia.yaml")])
    assert good.exit_code == 0 and good.stdout == "file,line,col,path,message\n"
