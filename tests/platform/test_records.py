"""Records that prove what they say: digest, signature, and `agon replay`'s verdict.

A forger can replay moves and recompute a digest (its algorithm is public),
so only the referee's signature proves the bots named and the forfeits; every
altered record must exit 1, and a genuine one verify.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agon.cli.main import app
from agon.referee.games import engine_class
from agon.referee.records import forfeit_result, state_digest
from agon.referee.ruleset import load_ruleset
from agon.referee.signing import Keyring, data_dir, digest

runner = CliRunner()


def agon(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A real two-player game, recorded and signed by this referee."""
    with pytest.MonkeyPatch.context() as patch:  # the folder tests/conftest.py gives every test
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))
        path = tmp_path_factory.mktemp("records") / "game.json"
        result = agon("play", "earth-and-water", "--seat", "persia=random", "--seat",
                      "greece=random", "--seed", "11", "--record", str(path), "--quiet")
        assert result.exit_code == 0, result.output
        record = json.loads(path.read_text())
        assert len(record["actions"]) > 40 and not record["forfeits"]
        yield record



def write(tmp_path: Path, record: dict[str, Any], name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


def replayed(tmp_path: Path, record: dict[str, Any]) -> Any:
    return agon("replay", "--quiet", str(write(tmp_path, record)))


def final_digest(record: dict[str, Any], actions: list[list[str]]) -> str:
    """What a forger computes: the digest of the position `actions` reach."""
    ruleset = load_ruleset(record["ruleset"]["id"])
    state = engine_class(ruleset.engine)(ruleset).new_game(list(record["seats"]),
                                                           record["seed"], record["options"])
    for seat, action in actions:
        state.apply(seat, action)
    return state_digest(state)


def test_a_genuine_record_verifies_replay_digest_and_signature(genuine, tmp_path):
    out = replayed(tmp_path, genuine)
    assert out.exit_code == 0, out.output
    verified = [line for line in out.stdout.splitlines() if line.startswith("verified: ")]
    assert len(verified) == 3
    assert f"the {len(genuine['actions'])} actions replay legally" in verified[0]
    assert "matches the digest" in verified[1]
    assert "signed by this referee's key" in verified[2] and "forfeits" in verified[2]
    assert genuine["digest"] == {"state_sha256": final_digest(genuine, genuine["actions"]),
                                 "actions": len(genuine["actions"]), "covers": "position"}


def test_a_record_whose_digest_covers_the_random_streams_too_still_verifies(genuine, tmp_path):
    """Records made before the digest left out the random streams say nothing of what it
    covers: the whole state, streams included, is digested for them."""
    old = json.loads(json.dumps(genuine))
    ruleset = load_ruleset(old["ruleset"]["id"])
    state = engine_class(ruleset.engine)(ruleset).new_game(list(old["seats"]), old["seed"],
                                                           old["options"])
    for seat, action in old["actions"]:
        state.apply(seat, action)
    old["digest"] = {"state_sha256": digest(state.to_json()), "actions": len(old["actions"])}
    assert old["digest"]["state_sha256"] != genuine["digest"]["state_sha256"]
    keyring = Keyring.existing()
    assert keyring is not None
    out = replayed(tmp_path, keyring.sign(old))
    assert out.exit_code == 0, out.output
    assert "verified: the final position matches the digest" in out.stdout
    old["digest"]["covers"] = "position"   # claiming the new kind: the sums disagree
    out = replayed(tmp_path, keyring.sign(old))
    assert out.exit_code == 1 and "final position differs from the digest" in out.stderr


def forged_win(genuine: dict[str, Any], keep_signature: bool) -> dict[str, Any]:
    """The loser's forgery: 20 moves, then the real winner 'timed out'; all consistent."""
    forged = json.loads(json.dumps(genuine))
    winner = min(genuine["result"]["ranks"], key=genuine["result"]["ranks"].get)
    forged["actions"] = genuine["actions"][:20]
    forged["forfeits"] = {winner: {"reason": "timeout", "detail": "answered after 12.0 s",
                                   "after_actions": 20}}
    seats = list(genuine["seats"])
    forged["result"] = forfeit_result(seats, None, None, forged["forfeits"]).to_json()
    forged["digest"] = {"state_sha256": final_digest(genuine, forged["actions"]),
                        "actions": 20, "covers": "position"}
    if not keep_signature:
        del forged["signature"]
    return forged


@pytest.mark.parametrize("keep_signature", [True, False], ids=["stale-signature", "unsigned"])
def test_a_forged_forfeit_win_is_not_verified(genuine, tmp_path, keep_signature):
    forged = forged_win(genuine, keep_signature)
    out = replayed(tmp_path, forged)
    assert out.exit_code == 1
    # The moves and digest hold up: only the signature can tell, and it says so.
    assert "verified: the 20 actions replay legally" in out.stdout
    loser = max(genuine["result"]["ranks"], key=genuine["result"]["ranks"].get)
    winner = next(seat for seat in genuine["seats"] if seat != loser)
    assert f"the forfeits ({winner}: timeout)" in out.stderr
    assert ("not signed" if not keep_signature else "changed after signing") in out.stderr


def test_escape_sequences_in_a_forged_record_reach_the_terminal_as_text(genuine, tmp_path):
    """A record may come from anyone: a forfeit's reason holding a terminal escape (here
    one that sets the window's title) was printed as it is."""
    forged = forged_win(genuine, keep_signature=False)
    winner = next(iter(forged["forfeits"]))
    forged["forfeits"][winner]["reason"] = "\x1b]0;you won\x07timeout"
    out = replayed(tmp_path, forged)
    assert out.exit_code == 1
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr
    assert f"the forfeits ({winner}: \\x1b]0;you won\\x07timeout)" in out.stderr


def tampered(genuine: dict[str, Any], how: str) -> dict[str, Any]:
    record = json.loads(json.dumps(genuine))
    if how == "options":
        record["options"]["cheap_fleets"] = not record["options"].get("cheap_fleets", False)
    elif how == "unknown option":
        record["options"]["house_rule"] = True
    elif how == "option out of range":
        record["options"]["cheap_fleets"] = "sometimes"
    elif how == "a third seat":
        record["seats"]["sparta"] = record["seats"]["greece"]
    elif how == "bot identity":
        record["seats"]["greece"] = {"name": "grandmaster", "version": "9", "kind": "command"}
    elif how == "middle action deleted":
        del record["actions"][len(record["actions"]) // 2]
        record["digest"]["actions"] -= 1
    elif how == "digest edited":
        record["digest"]["state_sha256"] = "0" * 64
    elif how == "result edited":
        ranks = record["result"]["ranks"]
        record["result"]["ranks"] = {seat: 3 - rank for seat, rank in ranks.items()}
    return record


@pytest.mark.parametrize("how", ["options", "unknown option", "option out of range",
                                 "a third seat", "bot identity", "middle action deleted",
                                 "digest edited", "result edited"])
def test_a_tampered_record_is_not_verified(genuine, tmp_path, how):
    out = replayed(tmp_path, tampered(genuine, how))
    assert out.exit_code == 1, out.output
    assert "NOT verified" in out.stderr and "changed after signing" in out.stderr
    if how in ("unknown option", "option out of range", "a third seat"):
        # the game these claim cannot even start: said so, never an internal error
        assert "the game cannot start with the record's seats and options" in out.stderr
    if how == "digest edited":
        assert "final position differs from the digest" in out.stderr


@pytest.mark.parametrize("key", [["a"], {"id": 1}, 7, None])
def test_a_signature_naming_no_key_is_broken_not_a_crash(genuine, tmp_path, key):
    record = json.loads(json.dumps(genuine))
    record["signature"]["key"] = key
    out = replayed(tmp_path, record)
    assert out.exit_code == 1, out.output
    assert "NOT verified" in out.stderr and "changed after signing" in out.stderr
    assert "cannot replay" not in out.stderr


def test_a_record_signed_by_another_key_is_not_verified(genuine, tmp_path):
    other = Keyring.load(folder=tmp_path / "elsewhere")
    resigned = other.sign(tampered(genuine, "bot identity"))
    out = replayed(tmp_path, resigned)
    assert out.exit_code == 1
    assert f"signed by a key this referee does not hold ({other.current.id})" in out.stderr


def test_records_signed_before_a_rotation_still_verify(genuine, tmp_path, monkeypatch):
    (tmp_path / "agon").mkdir(mode=0o700)
    key_file = Keyring.existing().path
    (tmp_path / "agon" / key_file.name).write_bytes(key_file.read_bytes())
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # rotate a copy of the key
    before = agon("key", "show").stdout
    rotated = agon("key", "rotate")
    assert rotated.exit_code == 0 and "retired" in rotated.stdout
    out = replayed(tmp_path, genuine)
    assert out.exit_code == 0, out.output
    assert "retired key" in out.stdout
    assert before.split("current key: ")[1][:16] in rotated.stdout


def test_the_key_is_private_and_never_shown(genuine):
    keyring = Keyring.existing()
    assert keyring is not None and keyring.path.parent == data_dir()
    assert stat.S_IMODE(keyring.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(keyring.path.parent.stat().st_mode) == 0o700
    shown = agon("key", "show").stdout
    assert keyring.current.id in shown and keyring.current.secret.hex() not in shown


def test_a_record_cannot_make_replay_read_a_file_outside_allowed_folders(genuine, tmp_path):
    secret = tmp_path / "private" / "notes.yaml"
    secret.parent.mkdir()
    secret.write_text("password: hunter2\n")
    record = json.loads(json.dumps(genuine))
    record["ruleset"]["source"] = str(secret)
    folder = tmp_path / "records"
    folder.mkdir()
    out = agon("replay", "--quiet", str(write(folder, record)))
    assert "hunter2" not in out.output and "password" not in out.output
    assert out.exit_code == 1  # the source changed: the signature no longer matches
    record["ruleset"]["id"] = str(secret)  # nor through its id
    out = agon("replay", "--quiet", str(write(folder, record)))
    assert out.exit_code == 1 and "give the ruleset with --ruleset" in out.stderr
    assert "hunter2" not in out.output and "password" not in out.output


@pytest.mark.parametrize("text", ["[", "[]", '{"format": "agon-record/1"}',
                                  '{"format": "agon-record/1", "ruleset": {}, "seed": "x", '
                                  '"seats": {}, "actions": [], "result": {}}',
                                  "[" * 100_000])
def test_garbage_records_are_clear_errors(tmp_path, text):
    path = tmp_path / "r.json"
    path.write_text(text)
    out = agon("replay", str(path))
    assert out.exit_code == 1
    assert out.stderr.startswith(f"agon: error: {path}: ") and "internal error" not in out.output


@pytest.mark.parametrize("command", [["replay"], ["map", "earth-and-water", "--record"]])
def test_a_folder_or_binary_file_given_as_a_record_is_named_in_plain_words(tmp_path, command):
    folder = tmp_path / "games"
    folder.mkdir()
    out = agon(*command, str(folder))
    assert out.exit_code == 1 and f"{folder}: a folder, not a game record file" in out.stderr
    binary = tmp_path / "game.json"
    binary.write_bytes(b'{"format": "\xff\xfe"}')
    out = agon(*command, str(binary))
    assert out.exit_code == 1 and "not UTF-8 text: byte 12" in out.stderr
    assert "Errno" not in out.output and "codec" not in out.output


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "1e400"])
def test_nan_or_infinity_in_a_record_is_named(genuine, tmp_path, bad):
    path = write(tmp_path, genuine)
    path.write_text(path.read_text().replace('"duration": ', f'"duration": {bad}, "x": ', 1))
    out = agon("replay", "--quiet", str(path))
    assert out.exit_code == 1
    assert f"{path}: not a JSON game record (it holds {bad}" in out.stderr
    assert "which JSON does not allow" in out.stderr and "internal error" not in out.output


def test_a_key_written_twice_is_refused_not_read_as_its_last_value(genuine, tmp_path):
    """The signature covers what Python keeps of `{"seed": 99, "seed": 11}` (the last
    value); a person or another reader sees 99: such a record is refused, signed or not."""
    path = write(tmp_path, genuine)
    path.write_text(path.read_text().replace('"seed": ', '"seed": 99, "seed": ', 1))
    out = agon("replay", "--quiet", str(path))
    assert out.exit_code == 1
    assert f"{path}: not a JSON game record (it holds the key 'seed' twice" in out.stderr


def test_a_signature_over_nan_is_broken_not_a_crash(genuine):
    from agon.referee.signing import Check, check_signature

    keyring = Keyring.load(data_dir())
    assert check_signature({**genuine, "duration": float("nan")}, keyring) == Check.BROKEN


@pytest.mark.parametrize("key_id", ["keyid-from-file", 'a "quoted" id \\ é'])
def test_a_journal_line_is_signed_as_a_record_is(genuine, key_id):
    """A tournament signs its lines without encoding them again (`signed_line`):
    the bytes must be what signing the record gives, whatever the key's name
    (one read from a hand-edited key file may hold quotes)."""
    from dataclasses import replace

    from agon.referee.signing import Check, canonical, check_signature, unsigned

    keyring = Keyring.load()
    keyring.current = replace(keyring.current, id=key_id)
    keyring.keys = {**keyring.keys, key_id: keyring.current}
    body = canonical(unsigned(genuine))
    line = keyring.signed_line(body)
    assert json.loads(line) == keyring.sign(genuine)   # the signature added as its last key
    assert line.startswith(body[:-1] + b',"signature":{')
    assert check_signature(json.loads(line), keyring) is Check.VALID
