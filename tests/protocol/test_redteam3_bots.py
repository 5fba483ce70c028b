"""Hostile bots of red team 3: what they leave behind ends with them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agon.referee.match import run_match
from agon.referee.players import Limits, SubprocessPlayer, make_player
from agon.referee.sandbox import remove_tree

DEEP = sys.getrecursionlimit() + 200   # deeper than shutil.rmtree can go on Python 3.11


def nest(top: Path, depth: int) -> None:
    """`depth` folders, one in the other, below `top`."""
    here = os.getcwd()
    top.mkdir()
    os.chdir(top)
    try:
        for _ in range(depth):
            os.mkdir("d")
            os.chdir("d")
    finally:
        os.chdir(here)


def test_a_nest_of_folders_deeper_than_the_recursion_limit_is_removed(tmp_path):
    outside = tmp_path / "ours.txt"
    outside.write_text("keep me")
    top = tmp_path / "cell"
    nest(top, DEEP)
    (top / "d" / "link").symlink_to(outside)
    (top / "d" / "d" / "file").write_text("x")
    try:
        remove_tree(top)
        assert not top.exists()
    finally:   # never leave pytest a nest its own clean-up cannot remove
        subprocess.run(["rm", "-rf", str(top)], check=False)
    assert outside.read_text() == "keep me"   # a link is removed, never followed


def test_a_bot_that_leaves_a_deep_nest_of_folders_does_not_break_the_referee(kit):
    # shutil.rmtree raised RecursionError on its directory: `agon play` ended with
    # "internal error", no record, and the directory left in /tmp
    nester = SubprocessPlayer(kit.faulty("deep-nest", str(DEEP)))
    players = {"p1": nester, "p2": make_player("random", seed=1)}
    record = run_match(kit.CountEngine(kit.ruleset), players, seed=7, options={"target": 12},
                       limits=Limits(handshake=20, move=20, game=120))
    assert record.forfeits == {}
    assert nester.cell is None   # its directory was removed with it


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists and empties any folder anyway")
def test_folders_a_bot_made_unreadable_are_removed_and_no_link_is_followed(tmp_path):
    # a bot under --sandbox none that chmods its folders 000 left them, and all they
    # hold, in /tmp for good: shutil.rmtree (ignore_errors) could neither list nor empty them
    victim = tmp_path / "ours.txt"
    victim.write_text("keep me")
    victim.chmod(0o600)
    top = tmp_path / "cell"
    (top / "a" / "b").mkdir(parents=True)
    (top / "a" / "b" / "f").write_text("x")
    (top / "x").mkdir()
    (top / "x" / "link").symlink_to(victim)
    (top / "a" / "b").chmod(0)
    (top / "a").chmod(0)
    (top / "x").chmod(0o500)
    try:
        remove_tree(top)
        assert not top.exists()
        assert victim.stat().st_mode & 0o777 == 0o600
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(top)], check=False, capture_output=True)
