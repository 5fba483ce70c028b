"""--help speaks in metavariables people read, never in Python types."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from agon.cli.main import COMMANDS, app

PYTHON_TYPES = re.compile(r"<(str|int|float|bool|path|list\[[^>]*\])>|list\[|<Path>")


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)], ids=["agon", *COMMANDS])
def test_help_shows_no_python_types(command):
    result = CliRunner().invoke(app, [*command, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert not PYTHON_TYPES.search(result.output), result.output


@pytest.mark.parametrize("command, metavars", [
    ("play", ["RULESET", "SEAT=BOT", "NAME=VALUE", "SECONDS", "FILE", "DIR"]),
    ("tournament", ["RULESET", "[NAME=]BOT", "NAME=VALUE", "table|json|csv", "SECONDS",
                    "FILE", "SPEC"]),
    ("check", ["BOT", "RULESET", "SEAT", "NAME=VALUE"]),
    ("rulesets", ["[ID | export ID]", "FILE"]),
    ("validate", ["FILE..."]),
])
def test_options_name_what_they_take(command, metavars):
    result = CliRunner().invoke(app, [command, "--help"], terminal_width=120)
    for metavar in metavars:
        assert metavar in result.output, (command, metavar, result.output)
