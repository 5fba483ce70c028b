"""`python -m agon`: the same as the `agon` command."""

from agon.cli import run

run()
