"""`python -m agon`: the same as the `agon` command."""

from agon.cli.main import run

run()
