"""`agon key show|rotate`: the referee's signing key."""

from __future__ import annotations

from enum import StrEnum

import typer

from agon.referee.signing import Keyring, KeyringError, data_dir

from .common import fail


class Action(StrEnum):
    show = "show"
    rotate = "rotate"


def key(action: Action = typer.Argument(..., metavar="show|rotate",
                                        help="show, or rotate (start a new key)")) -> None:
    """The key the referee signs records and journals with.

    It lives in $XDG_DATA_HOME/agon/ (default ~/.local/share/agon/), readable
    by you alone, and is made the first time a record is signed.  `show`
    prints where it is and its id (never the secret); `rotate` starts a new
    key and keeps the old ones, retired, so that older records still verify.
    Example: agon key show
    """
    try:
        keyring = Keyring.load() if action == Action.rotate else Keyring.existing()
    except KeyringError as exc:
        fail(str(exc))
    if keyring is None:
        typer.echo(f"no key yet: one is made in {data_dir()} the first time a record "
                   "is signed (or now, with agon key rotate)")
        return
    if action == Action.rotate:
        old = keyring.current.id
        try:
            keyring.rotate()
        except OSError as exc:
            fail(f"cannot write {keyring.path} ({exc.strerror or exc})")
        typer.echo(f"new key {keyring.current.id}; {old} is retired (it still verifies "
                   "the records it signed)")
    typer.echo(f"key file: {keyring.path}")
    typer.echo(f"current key: {keyring.current.id} (created {keyring.current.created})")
    for old_key in keyring.keys.values():
        if old_key.retired:
            typer.echo(f"retired key: {old_key.id} (created {old_key.created}, "
                       f"retired {old_key.retired})")
    if keyring.exposed():
        typer.echo(f"agon: warning: other users may read {keyring.path}: run "
                   f"chmod 600 {keyring.path}", err=True)
