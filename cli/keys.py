"""Access keys: who may record events and rulings."""

from __future__ import annotations

from typing import Annotated

import typer

from cli.options import App, AsJson, DataDir, Key, echo_json, open_app
from domain.systems.presentation import with_article

app = App(name="keys", help="Access keys: reading is open; once an organiser has a key, writing needs one.")


@app.command("add")
def add(role: Annotated[str, typer.Argument(help="scorekeeper, judge or organiser.")],
        name: Annotated[str, typer.Argument(help="Who holds the key (recorded as the author of what they write).")],
        data: DataDir = None, key: Key = None) -> None:
    """Create a key and print it (once: only its hash is stored). The first key must be an organiser's;
    later keys need an organiser's key."""
    new = open_app(data, key).add_key(role, name)
    typer.echo(f"added {with_article(role)} key for {name}; keep it secret, it is shown only now:")
    typer.echo(new)


@app.command("list")
def list_(as_json: AsJson = False, data: DataDir = None) -> None:
    """The key holders and their roles (never the keys)."""
    holders = open_app(data).key_holders()
    if as_json:
        echo_json([{"name": holder.name, "role": holder.role} for holder in holders])
        return
    if not holders:
        typer.echo("no keys: this is a single-user store (anyone who can open it may write)")
    for holder in holders:
        typer.echo(f"{holder.role:<12} {holder.name}")


@app.command("revoke")
def revoke(name: Annotated[str, typer.Argument(help="Whose key to revoke.")],
           data: DataDir = None, key: Key = None) -> None:
    """Revoke a key (needs an organiser's key)."""
    open_app(data, key).revoke_key(name)
    typer.echo(f"revoked the key of {name}")
