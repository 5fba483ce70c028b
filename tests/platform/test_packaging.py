"""What `pip install` puts on a machine: one import name, `agon`, and its data."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

import pytest

import agon

DIST = "agon-referee"


def _editable() -> bool:
    """An editable (development) install, whatever installer made it."""
    dist = metadata.distribution(DIST)
    direct = dist.read_text("direct_url.json")
    if direct and json.loads(direct).get("dir_info", {}).get("editable", False):
        return True
    return not any(str(f) == "agon/referee/engine.py" for f in dist.files or [])


@pytest.mark.skipif(_editable(), reason="an editable install adds its own finder modules; "
                                        "tox tests the wheel")
def test_the_wheel_installs_one_top_level_package_agon():
    tops = set()
    for file in metadata.distribution(DIST).files or []:
        first = file.parts[0]
        if first.endswith(".dist-info") or first == ".." or first == "__pycache__":
            continue  # metadata, and the console script in bin/
        tops.add(first.removesuffix(".py"))
    assert tops == {"agon"}


def test_version_is_the_distribution_version_and_the_cli_prints_it():
    assert agon.__version__ == metadata.version(DIST)
    out = subprocess.run([sys.executable, "-m", "agon", "--version"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == f"agon {agon.__version__}"


def test_built_in_bots_run_as_agon_modules():
    hello = 'agon 1 {"game":"earth-and-water","seat":"persia","seats":["persia","greece"]}\n'
    out = subprocess.run([sys.executable, "-m", "agon.bots.random", "--seed", "1"],
                         input=hello + "quit\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("ready random")
