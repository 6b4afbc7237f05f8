"""Disputes, rulings and sealing: judge events recorded without editing the past."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli.options import App, AsJson, DataDir, Key, ReadKey, echo_json, game_names, open_app, store_bound
from domain.errors import MalformedRecord

app = App()  # `seal`, and the `dispute` group
dispute_app = App(name="dispute", help="Disputes and rulings: `void` leaves events out of the as-ruled game.")
app.add_typer(dispute_app)

About = Annotated[str, typer.Option(help="The disputed events' seqs, e.g. 12 or 12,13.")]


def seqs(about: str) -> list[int]:
    try:
        found = [int(part) for part in about.replace(" ", "").split(",") if part]
    except ValueError:
        raise MalformedRecord(f"--about must list seqs like 12,13, not {about!r}", field="about") from None
    if not found:
        raise MalformedRecord("--about needs at least one seq", field="about")
    return found


@dispute_app.command("open")
def open_(game: Annotated[str, typer.Argument(help="Game id.")],
          by: Annotated[str, typer.Option(help="The player calling the judge (player id, e.g. p1).")],
          about: About,
          claim: Annotated[str, typer.Option(help="What the player claims.")],
          data: DataDir = None, key: Key = None) -> None:
    """A player calls a judge about some events."""
    store = open_app(data, key)
    event = store.open_dispute(game, by, seqs(about), claim)
    typer.echo(f"seq {event['seq']}: dispute opened by {game_names(store, game)[1].player(by)} about "
               f"{', '.join(map(str, event['about']))}")


@dispute_app.command("rule")
def rule(game: Annotated[str, typer.Argument(help="Game id.")],
         judge: Annotated[str, typer.Option(help="The judge's name.")],
         about: About,
         decision: Annotated[str, typer.Option(help="stands or void.")],
         text: Annotated[str, typer.Option(metavar="RULING", help="The ruling, in words.")],
         data: DataDir = None, key: Key = None) -> None:
    """Record a judge's ruling (needs a judge's key once the store has keys). A `void` is refused,
    naming the rule, when the events that remain would break one."""
    event = open_app(data, key).make_ruling(game, judge, seqs(about), decision, text)
    typer.echo(f"seq {event['seq']}: {judge} rules {', '.join(map(str, event['about']))} {decision}")


@dispute_app.command("list")
def list_(game: Annotated[str, typer.Argument(help="Game id.")],
          as_json: AsJson = False,
          data: DataDir = None, key: ReadKey = None) -> None:
    """The game's disputes and rulings, and the seqs the as-ruled game leaves out (of a game its tournament
    broadcasts with a delay: as it stood at its last event older than the delay, unless a key of the store is
    given)."""
    store = open_app(data)
    current = store.get_game(game)
    bound = store_bound(data, key, game, current.header.get("tournament"))
    if bound is not None:
        typer.echo(f"note: game {game} is broadcast with a delay: shown as it stood at seq {bound} (a key of the "
                   "store, --key, shows it all)", err=True)
        current = store.get_game(game, version=bound + 1)  # version 1 is the header, seq 0
    state, names = current.state, game_names(store, game)[1]
    out = {"disputes": state.disputes, "rulings": state.rulings, "voided": sorted(state.voided)}
    if as_json:
        echo_json(out)
        return
    for d in state.disputes:
        typer.echo(f"seq {d['seq']}: {names.player(d['by'])} disputes {', '.join(map(str, d['about']))}: {d['claim']}")
    for r in state.rulings:
        typer.echo(f"seq {r['seq']}: {r['judge']} rules {', '.join(map(str, r['about']))} {r['decision']}: {r['text']}")
    if not state.disputes and not state.rulings:
        typer.echo("no disputes")
    if state.voided:
        typer.echo(f"void in the as-ruled game: {', '.join(map(str, sorted(state.voided)))}")


@app.command()
def seal(game: Annotated[str, typer.Argument(help="Game id.")],
         confirmed_by: Annotated[Optional[list[str]], typer.Option("--confirmed-by",
                                                                   help="A player confirming (give both).")] = None,
         data: DataDir = None, key: Key = None) -> None:
    """Both players confirm the record; afterwards only judge events may follow."""
    event = open_app(data, key).seal_game(game, confirmed_by or [])
    typer.echo(f"seq {event['seq']}: sealed; head hash {event['hash']}")
