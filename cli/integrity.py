"""Integrity: recompute the games' hash chains, and the heads to keep as anchors outside the store."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.options import App, DataDir, open_app
from service.application import game_uuid
from domain.errors import GameNotFound, RollcallError
from i18n import N_, _, ngettext

app = App()
# how a game's chain is damaged (domain.integrity's kinds), in words
KINDS = {"changed": N_("changed"), "removed": N_("removed"), "reordered": N_("reordered"),
         "inserted": N_("inserted"), "unreplayable": N_("unreplayable")}


@app.command(help=_("Recompute each game's hash chain from the store; exit status 1 if anything is damaged."))
def verify(games: Annotated[Optional[list[str]], typer.Argument(help=_("Game ids (default: every game)."))] = None,
           against: Annotated[Optional[list[Path]], typer.Option(
               "--against", help=_("An anchor kept outside the store: an exported record or a file of `rollcall "
                                   "heads` (repeatable). Finds lost last events and rewritten games."))] = None,
           data: DataDir = None) -> None:
    """Recompute each game's hash chain from the store; exit status 1 if anything is damaged."""
    from domain.record import read_anchors

    store = open_app(data)
    anchors: dict[str, dict[int, str]] = {}
    for path in against or ():
        with path.open(encoding="utf-8") as handle:
            for game_id, hashes in read_anchors(handle, str(path)).items():
                anchors.setdefault(game_id, {}).update(hashes)
    ids = games or list(anchors)
    streams = [(game_uuid(g), g) for g in ids] if ids else list(store.game_streams())
    damaged = 0
    for oid, game_id in streams:
        if anchors and game_id not in anchors:
            raise RollcallError(_("no anchor names game {game}").format(game=game_id))
        try:
            result = store.verify_stream(oid, game_id, anchors.get(game_id))
        except GameNotFound as exc:  # a game the anchor holds is not in the store at all
            damaged += 1
            typer.echo(_("DAMAGED  {game}: {why}").format(game=game_id, why=exc))
            continue
        if result.ok:
            typer.echo(ngettext("OK       {game} ({n} event)", "OK       {game} ({n} events)", result.events).format(
                game=game_id, n=result.events))
        else:
            damaged += 1
            d = result.damage
            kind = _(KINDS[d.kind]) if d.kind in KINDS else d.kind
            typer.echo(_("DAMAGED  {game}: seq {seq} {kind}: {detail}").format(game=game_id, seq=d.seq, kind=kind,
                                                                              detail=d.detail))
    if damaged:
        raise typer.Exit(1)


@app.command(help=_("Each game's last seq and hash, one JSON line per game: keep or publish them, then `verify "
                    "--against`."))
def heads(games: Annotated[Optional[list[str]], typer.Argument(help=_("Game ids (default: every game)."))] = None,
          output: Annotated[Optional[Path], typer.Option("-o", "--output", help=_("Write here, not stdout."))] = None,
          data: DataDir = None) -> None:
    """Each game's last seq and hash, one JSON line per game: keep or publish them, then `verify --against`."""
    text = "".join(json.dumps(head) + "\n" for head in open_app(data).heads(games))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(_("wrote {file}").format(file=output), err=True)


