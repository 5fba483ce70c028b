"""Hostile ruleset files: refused with a listed issue, never a crash, never a leak.

Each runs the installed command in a child process with a 1 GiB address-space
limit, so a reader that recurses in C (a segfault) or reads a stream whole
(a memory blow-up) fails the test instead of the machine.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import agon as agon_api
from agon.referee.ruleset import RULESETS_DIR

MEMORY_LIMIT = 1 << 30
ISSUE_LINE = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): (?P<path>\$\S*): ")

VARIANT_HEAD = "format: agon-ruleset/1\nid: v\nname: V\nversion: \"1\"\n"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def agon(*args: str, stdin: int | None = None, input: bytes | None = None,
         cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agon", *args], stdin=stdin, input=input,
                          capture_output=True, timeout=60, preexec_fn=_limited, cwd=cwd)


def refused(out: subprocess.CompletedProcess, file: str, expected: str) -> list[str]:
    """The issue lines of a refusal, after checking it is a clean one."""
    stdout, stderr = out.stdout.decode(), out.stderr.decode()
    assert out.returncode == 1, (out.returncode, stdout, stderr)
    assert "internal error" not in stderr and "Traceback" not in stderr, stderr
    lines = stdout.splitlines()
    assert lines and all(ISSUE_LINE.match(line) for line in lines), stdout
    assert all(line.startswith(f"{file}:") for line in lines), stdout
    assert expected in stdout, stdout
    return lines


# -- depth and size, enforced while reading -----------------------------------------

@pytest.mark.parametrize("text", [
    "a: " + "[" * 30_000 + "]" * 30_000 + "\n",   # flow sequences, 60 KB
    "a: " + "{b: " * 30_000 + "1" + "}" * 30_000 + "\n",  # flow mappings
    "- " * 30_000 + "x\n",  # block sequences on one line
], ids=["flow-sequences", "flow-mappings", "block-sequences"])
def test_a_ruleset_nested_30000_levels_deep_is_refused_not_a_crash(tmp_path, text):
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    lines = refused(agon("validate", str(path)), str(path), "nested too deeply")
    assert lines[0].startswith(f"{path}:1:")  # where the 65th level opens


def test_an_endless_stream_is_read_up_to_the_limit_only():
    out = agon("validate", "/dev/zero")
    refused(out, "/dev/zero", "rulesets are limited to 2,097,152")


def test_a_ruleset_on_a_pipe_is_read_and_an_endless_pipe_refused():
    shipped = (RULESETS_DIR / "earth-and-water.yaml").read_bytes()
    good = agon("validate", "/dev/stdin", input=shipped)
    assert good.returncode == 0, good.stdout + good.stderr
    endless = subprocess.Popen(["yes", "a: 1"], stdout=subprocess.PIPE)
    try:
        out = agon("validate", "/dev/stdin", stdin=endless.stdout.fileno())
    finally:
        endless.kill()
        endless.wait()
    refused(out, "/dev/stdin", "holds more than 2,097,152 bytes")


def test_proc_files_and_folders_are_refused_by_name(tmp_path):
    refused(agon("validate", "/proc/self/mem"), "/proc/self/mem", "cannot read the file")
    refused(agon("validate", str(tmp_path)), str(tmp_path), "folder")


# -- every YAML error a listed issue with its position -----------------------------------

SCALARS = {
    "float tag on null": ("a: !!float ~\n", "$.a", "'~' is not a valid float"),
    "int tag on a word": ('a: !!int "abc"\n', "$.a", "'abc' is not a valid int"),
    "bool tag on a word": ("a: !!bool maybe\n", "$.a", "'maybe' is not a valid bool"),
    "5000-digit integer": ("a: " + "9" * 5000 + "\n", "$.a", "far too long for a number"),
    "integer past 2^53": ("a: 9007199254740993\n", "$.a", "too large"),
    "infinity": ("a: [.inf]\n", "$.a[0]", "not a finite number"),
    "binary tag": ("a: !!binary aGk=\n", "$.a", "not allowed"),
    "set tag": ("a: !!set {x}\n", "$.a", "not allowed"),
}


@pytest.mark.parametrize("kind", sorted(SCALARS))
def test_bad_scalars_are_listed_issues_with_their_path(tmp_path, kind):
    text, json_path, expected = SCALARS[kind]
    path = tmp_path / "bad.yaml"
    path.write_text("id: x\n" + text)
    lines = refused(agon("validate", str(path)), str(path), expected)
    assert lines[0].startswith(f"{path}:2:4: {json_path}: ") or \
        lines[0].startswith(f"{path}:2:"), lines


def test_every_bad_scalar_of_a_file_is_listed_not_only_the_first(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("a: !!float ~\nb: !!int x\nc: .nan\n")
    lines = refused(agon("validate", str(path)), str(path), "not a valid float")
    assert [line.split(": ")[1] for line in lines] == ["$.a", "$.b", "$.c"]


def test_other_yaml_shapes_are_listed_issues(tmp_path):
    cases = {
        "two documents": ("a: 1\n---\nb: 2\n", "one YAML document"),
        "recursive alias": ("a: &a [*a]\n", "alias *a"),
        "list as a key": ("? [a]\n: 1\n", "plain scalars"),
        "duplicate key": ("a: 1\na: 2\n", "duplicate key 'a'"),
        "not UTF-8": (b"a: \xff\xfe\n", "not UTF-8"),
        "empty": ("", "empty"),
    }
    for name, (text, expected) in cases.items():
        path = tmp_path / f"{name.replace(' ', '-')}.yaml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        refused(agon("validate", str(path)), str(path), expected)


def test_a_rule_id_that_is_a_list_is_a_listed_issue_in_a_variant(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT_HEAD + "extends: earth-and-water\nrules:\n"
                    "  - {id: [7, 1], title: House, text: Mine}\n")
    lines = refused(agon("validate", str(path)), str(path), "is not of type 'string'")
    assert lines[0].startswith(f"{path}:7:")  # the variant's own line, not the base's


# -- extends: only where the extending file may reach -------------------------------------

@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A private YAML file elsewhere on the machine, whose contents must not leak."""
    private = tmp_path / "private"
    private.mkdir()
    path = private / "secret.yaml"
    path.write_text("password: hunter2\napi_token: s3cr3t\n")
    return path


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    folder = tmp_path / "shared"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("how", ["relative", "absolute", "symlink"])
def test_extends_outside_the_folder_is_refused_without_showing_the_file(
        secret, shared, how):
    if how == "symlink":
        (shared / "base.yaml").symlink_to(secret)
        ref = "base.yaml"
    else:
        ref = "../private/secret.yaml" if how == "relative" else str(secret)
    variant = shared / "v.yaml"
    variant.write_text(VARIANT_HEAD + f"extends: {ref}\n")
    out = agon("validate", str(variant))
    lines = refused(out, str(variant), "leads outside the folder of v.yaml")
    assert lines[0].startswith(f"{variant}:5:10: $.extends: ")
    everything = out.stdout + out.stderr
    for leaked in (b"password", b"hunter2", b"api_token", b"s3cr3t"):
        assert leaked not in everything


def test_extends_of_system_files_is_refused_before_opening_them(shared):
    for ref, expected in (("/proc/self/mem", "leads outside"), ("/etc/passwd", "leads outside"),
                          ("a" * 5000, "5,000 characters"), ("../" * 40 + "etc/shadow",
                                                             "leads outside")):
        variant = shared / "v.yaml"
        variant.write_text(VARIANT_HEAD + f"extends: {ref}\n")
        refused(agon("validate", str(variant)), str(variant), expected)


def test_extends_that_is_not_a_name_is_a_listed_issue(shared):
    variant = shared / "v.yaml"
    variant.write_text(VARIANT_HEAD + "extends: [earth-and-water]\n")
    refused(agon("validate", str(variant)), str(variant), "takes a ruleset id or a file name")


@pytest.mark.parametrize("value, words", [("null", "not null"), ("7", "not a number"),
                                          ("[a]", "not a list"), ("''", "not an empty text")])
def test_extends_of_another_kind_is_named_in_yaml_words(shared, value, words):
    variant = shared / "v.yaml"
    variant.write_text(VARIANT_HEAD + f"extends: {value}\n")
    lines = refused(agon("validate", str(variant)), str(variant), f"a file name, {words}")
    assert not any("NoneType" in line or " int " in line for line in lines), lines


def test_extends_into_a_symbolic_link_loop_is_a_listed_issue(shared):
    (shared / "loop2.yaml").symlink_to("loop1.yaml")
    (shared / "loop1.yaml").symlink_to("loop2.yaml")
    variant = shared / "v.yaml"
    variant.write_text(VARIANT_HEAD + "extends: loop1.yaml\n")
    lines = refused(agon("validate", str(variant)), str(variant), "a symbolic-link loop")
    assert lines == [f"{variant}:5:10: $.extends: extends 'loop1.yaml': a symbolic-link loop"]
    played = agon("play", str(variant), "-s", "persia=random", "-s", "greece=random")
    assert played.returncode == 1, played.stderr
    assert b"5:10: $.extends: extends 'loop1.yaml': a symbolic-link loop" in played.stderr
    with pytest.raises(agon_api.RulesetError, match="'loop1.yaml': a symbolic-link loop"):
        agon_api.load_ruleset(variant)


def test_rulesets_path_allows_a_folder_for_extends_and_ids(tmp_path, shared):
    library = tmp_path / "library"
    library.mkdir()
    base = (RULESETS_DIR / "earth-and-water.yaml").read_text()
    (library / "house-base.yaml").write_text(base.replace("id: earth-and-water", "id: house-base", 1))
    variant = shared / "v.yaml"
    variant.write_text(VARIANT_HEAD + "extends: ../library/house-base.yaml\n")
    assert agon("validate", str(variant)).returncode == 1
    allowed = agon("validate", str(variant), "--rulesets-path", str(library))
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    by_id = shared / "w.yaml"
    by_id.write_text(VARIANT_HEAD.replace("id: v", "id: w") + "extends: house-base\n")
    assert agon("validate", str(by_id), "--rulesets-path", str(library)).returncode == 0
    env_run = subprocess.run([sys.executable, "-m", "agon", "rules", "house-base"],
                             capture_output=True, text=True, timeout=60,
                             env={**os.environ, "AGON_RULESETS_PATH": str(library)})
    assert env_run.returncode == 0 and "sections" in env_run.stdout, env_run.stderr


def test_an_id_not_found_names_the_rulesets_path_folders_looked_in(tmp_path):
    """A mistyped --rulesets-path is accepted (the variable may name folders not made
    yet): the id's error is where the mistake shows."""
    library = tmp_path / "library"
    library.mkdir()
    out = agon("rules", "house-base", "--rulesets-path", str(tmp_path / "libary"),
               "--rulesets-path", str(library), "--rulesets-path", str(library))
    assert out.returncode == 2, out.stderr
    assert (f"looked in {tmp_path / 'libary'} (no such folder); looked in {library}\n"
            .encode() in out.stderr), out.stderr   # each folder once


def test_extends_may_name_a_file_beside_it_or_a_shipped_id(shared):
    base = (RULESETS_DIR / "earth-and-water.yaml").read_text()
    (shared / "base.yaml").write_text(base.replace("id: earth-and-water", "id: base", 1))
    for ref in ("base.yaml", "base", "./base.yaml", "earth-and-water"):
        variant = shared / "v.yaml"
        variant.write_text(VARIANT_HEAD + f"extends: {ref}\n")
        out = agon("validate", str(variant))
        assert out.returncode == 0, (ref, out.stdout, out.stderr)
