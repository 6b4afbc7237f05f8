"""Access keys: who may record events and rulings."""

from __future__ import annotations

from typing import Annotated

import typer

from cli.options import App, AsJson, DataDir, Key, echo_json, open_app
from i18n import N_, _

# what a new key's holder is told, by role
ADDED = {"scorekeeper": N_("added a scorekeeper key for {name}; keep it secret, it is shown only now:"),
         "judge": N_("added a judge key for {name}; keep it secret, it is shown only now:"),
         "organiser": N_("added an organiser key for {name}; keep it secret, it is shown only now:")}

app = App(name="keys", help=_("Access keys: reading is open; once an organiser has a key, writing needs one."))


@app.command("add", help=_("Create a key and print it (once: only its hash is stored). The first key must be an "
                           "organiser's; later keys need an organiser's key."))
def add(role: Annotated[str, typer.Argument(help=_("scorekeeper, judge or organiser."))],
        name: Annotated[str, typer.Argument(help=_("Who holds the key (recorded as the author of what they write)."))],
        data: DataDir = None, key: Key = None) -> None:
    """Create a key and print it (once: only its hash is stored). The first key must be an organiser's;
    later keys need an organiser's key."""
    new = open_app(data, key).add_key(role, name)
    typer.echo(_(ADDED.get(role, ADDED["scorekeeper"])).format(name=name))
    typer.echo(new)


@app.command("list", help=_("The key holders and their roles (never the keys)."))
def list_(as_json: AsJson = False, data: DataDir = None) -> None:
    """The key holders and their roles (never the keys)."""
    holders = open_app(data).key_holders()
    if as_json:
        echo_json([{"name": holder.name, "role": holder.role} for holder in holders])
        return
    if not holders:
        typer.echo(_("no keys: this is a single-user store (anyone who can open it may write)"))
    for holder in holders:
        typer.echo(f"{holder.role:<12} {holder.name}")


@app.command("revoke", help=_("Revoke a key (needs an organiser's key)."))
def revoke(name: Annotated[str, typer.Argument(help=_("Whose key to revoke."))],
           data: DataDir = None, key: Key = None) -> None:
    """Revoke a key (needs an organiser's key)."""
    open_app(data, key).revoke_key(name)
    typer.echo(_("revoked the key of {name}").format(name=name))
