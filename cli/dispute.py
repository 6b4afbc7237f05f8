"""Disputes, rulings and sealing: judge events recorded without editing the past."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli.options import App, AsJson, DataDir, Key, ReadKey, echo_json, game_names, open_app, store_bound
from domain.errors import MalformedRecord
from i18n import _

app = App()  # `seal`, and the `dispute` group
dispute_app = App(name="dispute", help=_("Disputes and rulings: `void` leaves events out of the as-ruled game."))
app.add_typer(dispute_app)

About = Annotated[str, typer.Option(help=_("The disputed events' seqs, e.g. 12 or 12,13."))]


def seqs(about: str) -> list[int]:
    try:
        found = [int(part) for part in about.replace(" ", "").split(",") if part]
    except ValueError:
        raise MalformedRecord(_("--about must list seqs like 12,13, not {given}").format(given=repr(about)), field="about") from None
    if not found:
        raise MalformedRecord(_("--about needs at least one seq"), field="about")
    return found


@dispute_app.command("open", help=_("A player calls a judge about some events."))
def open_(game: Annotated[str, typer.Argument(help=_("Game id."))],
          by: Annotated[str, typer.Option(help=_("The player calling the judge (player id, e.g. p1)."))],
          about: About,
          claim: Annotated[str, typer.Option(help=_("What the player claims."))],
          data: DataDir = None, key: Key = None) -> None:
    """A player calls a judge about some events."""
    store = open_app(data, key)
    event = store.open_dispute(game, by, seqs(about), claim)
    typer.echo(_("seq {seq}: dispute opened by {player} about {seqs}").format(
        seq=event["seq"], player=game_names(store, game)[1].player(by), seqs=", ".join(map(str, event["about"]))))


@dispute_app.command("rule", help=_("Record a judge's ruling (needs a judge's key once the store has keys). A `void` is "
                                    "refused, naming the rule, when the events that remain would break one."))
def rule(game: Annotated[str, typer.Argument(help=_("Game id."))],
         judge: Annotated[str, typer.Option(help=_("The judge's name."))],
         about: About,
         decision: Annotated[str, typer.Option(help=_("stands or void."))],
         text: Annotated[str, typer.Option(metavar="RULING", help=_("The ruling, in words."))],
         data: DataDir = None, key: Key = None) -> None:
    """Record a judge's ruling (needs a judge's key once the store has keys). A `void` is refused,
    naming the rule, when the events that remain would break one."""
    event = open_app(data, key).make_ruling(game, judge, seqs(about), decision, text)
    typer.echo(_("seq {seq}: {judge} rules {seqs} {decision}").format(
        seq=event["seq"], judge=judge, seqs=", ".join(map(str, event["about"])), decision=decision))


@dispute_app.command("list", help=_("The game's disputes and rulings, and the seqs the as-ruled game leaves out (of "
                                    "a game its tournament broadcasts with a delay: as it stood at its last event "
                                    "older than the delay, unless a key of the store is given)."))
def list_(game: Annotated[str, typer.Argument(help=_("Game id."))],
          as_json: AsJson = False,
          data: DataDir = None, key: ReadKey = None) -> None:
    """The game's disputes and rulings, and the seqs the as-ruled game leaves out (of a game its tournament
    broadcasts with a delay: as it stood at its last event older than the delay, unless a key of the store is
    given)."""
    store = open_app(data)
    current = store.get_game(game)
    bound = store_bound(data, key, game, current.header.get("tournament"))
    if bound is not None:
        typer.echo(_("note: game {game} is broadcast with a delay: shown as it stood at seq {seq} (a key of the store, "
                     "--key, shows it all)").format(game=game, seq=bound), err=True)
        current = store.get_game(game, version=bound + 1)  # version 1 is the header, seq 0
    state, names = current.state, game_names(store, game)[1]
    out = {"disputes": state.disputes, "rulings": state.rulings, "voided": sorted(state.voided)}
    if as_json:
        echo_json(out)
        return
    for d in state.disputes:
        typer.echo(_("seq {seq}: {player} disputes {seqs}: {claim}").format(
            seq=d["seq"], player=names.player(d["by"]), seqs=", ".join(map(str, d["about"])), claim=d["claim"]))
    for r in state.rulings:
        typer.echo(_("seq {seq}: {judge} rules {seqs} {decision}: {text}").format(
            seq=r["seq"], judge=r["judge"], seqs=", ".join(map(str, r["about"])), decision=r["decision"], text=r["text"]))
    if not state.disputes and not state.rulings:
        typer.echo(_("no disputes"))
    if state.voided:
        typer.echo(_("void in the as-ruled game: {seqs}").format(seqs=", ".join(map(str, sorted(state.voided)))))


@app.command(help=_("Both players confirm the record; afterwards only judge events may follow."))
def seal(game: Annotated[str, typer.Argument(help=_("Game id."))],
         confirmed_by: Annotated[Optional[list[str]], typer.Option("--confirmed-by",
                                                                   help=_("A player confirming (give both)."))] = None,
         data: DataDir = None, key: Key = None) -> None:
    """Both players confirm the record; afterwards only judge events may follow."""
    event = open_app(data, key).seal_game(game, confirmed_by or [])
    typer.echo(_("seq {seq}: sealed; head hash {hash}").format(seq=event["seq"], hash=event["hash"]))
