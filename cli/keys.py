"""Access keys: who may record events and rulings."""

from __future__ import annotations

from typing import Annotated

import typer

from cli.errors import reported
from cli.main import DataDir, Key, app, open_app

keys_app = typer.Typer(help="Access keys: reading is open; once an organiser has a key, writing needs one.",
                       no_args_is_help=True)
app.add_typer(keys_app, name="keys")


@keys_app.command("add")
@reported
def add(role: Annotated[str, typer.Argument(help="scorekeeper, judge or organiser.")],
        name: Annotated[str, typer.Argument(help="Who holds the key (recorded as the author of what they write).")],
        data: DataDir = None, key: Key = None) -> None:
    """Create a key and print it (once: only its hash is stored). The first key must be an organiser's;
    later keys need an organiser's key."""
    new = open_app(data, key).add_key(role, name)
    typer.echo(f"added a {role} key for {name}; keep it secret, it is shown only now:")
    typer.echo(new)


@keys_app.command("list")
@reported
def list_(data: DataDir = None) -> None:
    """The key holders and their roles (never the keys)."""
    holders = open_app(data).key_holders()
    if not holders:
        typer.echo("no keys: this is a single-user store (anyone who can open it may write)")
    for holder in holders:
        typer.echo(f"{holder.role:<12} {holder.name}")


@keys_app.command("revoke")
@reported
def revoke(name: Annotated[str, typer.Argument(help="Whose key to revoke.")],
           data: DataDir = None, key: Key = None) -> None:
    """Revoke a key (needs an organiser's key)."""
    open_app(data, key).revoke_key(name)
    typer.echo(f"revoked the key of {name}")
