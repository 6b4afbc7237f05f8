"""Games: import and record them, roll and draw digitally, export, list and replay them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.options import (App, AsJson, DataDir, Key, ReadKey, echo_json, game_names, note_held, open_app, read_seen,
                         store_bound)
from domain.errors import MalformedRecord, RecordError, RollcallError, StoreUnavailable
from domain.record import read_json
from domain.systems.presentation import plural

app = App()


def record_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.rglob("*.rollcall.jsonl")))
        else:
            files.append(path)
    return files


@app.command("import")
def import_(files: Annotated[list[Path], typer.Argument(help="Record files or folders of *.rollcall.jsonl.")],
            lenient: Annotated[bool, typer.Option(help="Store games that break rules, marking the events.")] = False,
            data: DataDir = None, key: Key = None) -> None:
    """Import game records; each game is checked and stored whole, or not at all."""
    from store.bulk import import_files

    store = open_app(data, key)
    store.author()  # a missing or wrong key stops the import before any file is read
    failed = 0
    paths = record_files(files)
    with typer.progressbar(import_files(store, paths, lenient=lenient), length=len(paths), label="importing",
                           file=sys.stderr, hidden=len(paths) < 5) as results:
        for result in results:
            if isinstance(result, RollcallError):
                failed += 1
                typer.echo(f"error: {result}", err=True)
                continue
            marks = f", {result.violations} violations marked" if result.violations else ""
            typer.echo(f"imported {result.game}: {result.events} events{marks}")
    if failed and len(paths) > 1:
        typer.echo(f"refused {plural(failed, 'file')} of {len(paths)} (each named above, nothing of them stored); "
                   f"imported {plural(len(paths) - failed, 'game')}", err=True)
    if failed:
        raise typer.Exit(1)


@app.command()
def record(game: Annotated[str, typer.Argument(help="Game id.")],
           event: Annotated[str, typer.Argument(help="One event as JSON, e.g. '{\"type\": \"TurnStarted\", \"turn\": 1}'.")],
           lenient: Annotated[bool, typer.Option(help="Store the event even if it breaks a rule.")] = False,
           data: DataDir = None, key: Key = None) -> None:
    """Append one event to a recorded game, with the same checks as import."""
    try:
        obj, _ = read_json(event)
    except MalformedRecord as exc:
        raise RecordError("<event>", 0, None, exc) from None
    if not isinstance(obj, dict):
        raise RollcallError("the event must be a JSON object")
    try:
        stored = open_app(data, key).record(game, obj, strict=not lenient)
    except RollcallError as exc:
        if isinstance(exc, (RecordError, StoreUnavailable)) or type(exc).__name__ in ("GameNotFound", "AccessDenied"):
            raise
        raise RecordError(game, 0, obj.get("type") if isinstance(obj.get("type"), str) else None, exc) from None
    typer.echo(json.dumps(stored, ensure_ascii=False))


@app.command()
def roll(game: Annotated[str, typer.Argument(help="Game id (a digital game).")],
         player: Annotated[str, typer.Option(help="Player who rolls.")],
         purpose: Annotated[str, typer.Option(help="dodge, stabilisation, explore, vortex_move, casting, dispel, "
                                                   "miscast, initiative, attack or other.")],
         die: Annotated[str, typer.Option(help="Die name of the rules in force, e.g. attack, agility, d6.")],
         count: Annotated[int, typer.Option(help="Number of dice.")] = 1,
         data: DataDir = None, key: Key = None) -> None:
    """Roll digital dice: Rollcall computes the faces from the game's committed seed and records them."""
    store = open_app(data, key)
    event = store.roll(game, player, purpose, die, count)
    _, names = game_names(store, game)
    typer.echo(f"seq {event['seq']}: {names.player(player)} rolls {count} {die}: {' '.join(map(str, event['faces']))}")


@app.command()
def draw(game: Annotated[str, typer.Argument(help="Game id (a digital game).")],
         vortex: Annotated[Optional[str], typer.Option(help="Vortex, when one event entered several.")] = None,
         data: DataDir = None, key: Key = None) -> None:
    """Draw the next card the game's rules pack says is due, digitally (an ether phenomenon card in
    Tornscape, a Flux card in The 9th Age)."""
    store = open_app(data, key)
    event = store.draw_card(game, vortex)
    presentation, names = game_names(store, game)
    typer.echo(f"seq {event['seq']}: {presentation.summary(event, names=names)}")



@app.command()
def export(game: Annotated[str, typer.Argument(help="Game id.")],
           output: Annotated[Optional[Path], typer.Option("-o", "--output", help="File to write (default: stdout).")] = None,
           data: DataDir = None, key: ReadKey = None) -> None:
    """Write a game's record with seq, derived fields and integrity hashes. A game its tournament broadcasts with a
    delay is written up to its events older than the delay (a record that verifies), unless a key of the store
    is given."""
    from domain.record import export_line

    header, *events = open_app(data).stored_lines(game)
    bound = store_bound(data, key, game, header.get("tournament"))
    if bound is not None:
        typer.echo(f"note: game {game} is broadcast with a delay: written up to seq {bound} (a key of the store, "
                   "--key, writes it all)", err=True)
        events = [e for e in events if int(e.get("seq") or 0) <= bound]
    text = "".join(export_line(line) + "\n" for line in (header, *events))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}", err=True)


@app.command()
def games(as_json: AsJson = False, data: DataDir = None) -> None:
    """List the recorded games (--json: their headers)."""
    headers = list(open_app(data).headers())
    if as_json:
        echo_json(headers)
        return
    if not headers:
        typer.echo("no games yet: `rollcall import FILES`")
    for header in headers:
        players = " vs ".join(f"{p.get('name', p['id'])} ({p.get('faction') or '-'})" for p in header["players"])
        parts = [header["tournament"]] if header.get("tournament") else []
        parts += [f"{part} {header[part]}" for part in ("round", "table") if header.get(part) is not None]
        where = f"  {', '.join(parts)}" if parts else ""
        typer.echo(f"{header['game']}  {header['system']}  {players}{where}")


@app.command()
def replay(game: Annotated[str, typer.Argument(help="Game id.")],
           seq: Annotated[Optional[int], typer.Option(help="Show the state after this event (default: the last).")] = None,
           as_json: Annotated[bool, typer.Option("--json", help="Print the state as JSON.")] = False,
           as_ruled: Annotated[bool, typer.Option("--as-ruled", help="Leave out the events a ruling voided "
                                                                     "(default: the game as played).")] = False,
           data: DataDir = None, key: ReadKey = None) -> None:
    """The state after event N, as played or as ruled: a text board, or JSON. A game its tournament broadcasts
    with a delay is shown up to its events older than the delay, unless a key of the store is given."""
    from cli.textboard import text_board
    from projections.queries import game_events, rows, state_at

    def query(con, seen):
        upto = seen.upto(game)
        state = state_at(con, game, seq, as_ruled=as_ruled, upto=upto)
        if seq is not None and (seq > state["last_seq"] or seq < 0):
            note_held(seen, [game])
            raise RollcallError(f"--seq {seq}: game {game!r} has events 0 to {state['last_seq']} "
                                f"(its last event{' shown' if upto is not None else ''} is seq {state['last_seq']})")
        events = [] if as_json else game_events(con, game, upto)
        header = None if as_json else rows(con, "SELECT header FROM dim_games WHERE game = $game",
                                           {"game": game})[0]["header"]
        note_held(seen, [game])
        return state, events, header

    state, events, header = read_seen(data, key, query)
    if as_json:
        typer.echo(json.dumps(state, ensure_ascii=False, indent=2))
        return
    line = next((e for e in events if int(e["seq"]) == state["seq"]), None)
    state["ended"] = any(e["type"] == "GameEnded" and int(e["seq"]) <= state["seq"] for e in events)
    typer.echo(text_board(state, header, line))


