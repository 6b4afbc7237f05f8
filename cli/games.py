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
from i18n import N_, _, ngettext

app = App()


def record_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.rglob("*.rollcall.jsonl")))
        else:
            files.append(path)
    return files


EDITED_HELP = N_("Records edited by hand: their `hash` fields are left out and each is taken as a new record, "
                  "chained again as it is stored (an exported record's hashes show any change made to it).")


@app.command("import", help=_("Import game records; each game is checked and stored whole, or not at all."))
def import_(files: Annotated[list[Path], typer.Argument(help=_("Record files or folders of *.rollcall.jsonl."))],
            lenient: Annotated[bool, typer.Option(help=_("Store games that break rules, marking the events."))] = False,
            edited: Annotated[bool, typer.Option("--edited", help=_(EDITED_HELP))] = False,
            data: DataDir = None, key: Key = None) -> None:
    """Import game records; each game is checked and stored whole, or not at all."""
    store = open_app(data, key)
    store.author()  # a missing or wrong key stops the import before any file is read
    if import_records(store, record_files(files), lenient=lenient, edited=edited):
        raise typer.Exit(1)


def import_records(store, paths: list[Path], *, lenient: bool = False, edited: bool = False) -> int:
    """Import record files (service.importing), saying each one's outcome; the number refused."""
    from service.importing import import_files

    failed = 0
    with typer.progressbar(import_files(store, paths, lenient=lenient, edited=edited), length=len(paths),
                           label=_("importing"), file=sys.stderr, hidden=len(paths) < 5) as results:
        for result in results:
            if isinstance(result, RollcallError):
                failed += 1
                typer.echo(_("error: {message}").format(message=result), err=True)
                continue
            said = ngettext("imported {game}: {n} event", "imported {game}: {n} events", result.events)
            if result.violations:
                said += ngettext(", {v} violations marked", ", {v} violations marked", result.violations)
            typer.echo(said.format(game=result.game, n=result.events, v=result.violations))
    if failed and len(paths) > 1:
        refused = ngettext("refused {n} file of {total} (each named above, nothing of them stored)",
                           "refused {n} files of {total} (each named above, nothing of them stored)", failed)
        imported = ngettext("imported {n} game", "imported {n} games", len(paths) - failed)
        typer.echo(refused.format(n=failed, total=len(paths)) + "; " + imported.format(n=len(paths) - failed),
                   err=True)
    return failed


@app.command(help=_("Append one event to a recorded game, with the same checks as import."))
def record(game: Annotated[str, typer.Argument(help=_("Game id."))],
           event: Annotated[str, typer.Argument(help=_("One event as JSON, e.g. '{json}'.").format(json='{"type": "TurnStarted", "turn": 1}'))],
           lenient: Annotated[bool, typer.Option(help=_("Store the event even if it breaks a rule."))] = False,
           data: DataDir = None, key: Key = None) -> None:
    """Append one event to a recorded game, with the same checks as import."""
    try:
        obj, _rest = read_json(event)
    except MalformedRecord as exc:
        raise RecordError(_("<event>"), 0, None, exc) from None
    if not isinstance(obj, dict):
        raise RollcallError(_("the event must be a JSON object"))
    try:
        stored = open_app(data, key).record(game, obj, strict=not lenient)
    except RollcallError as exc:
        if isinstance(exc, (RecordError, StoreUnavailable)) or type(exc).__name__ in ("GameNotFound", "AccessDenied"):
            raise
        raise RecordError(game, 0, obj.get("type") if isinstance(obj.get("type"), str) else None, exc) from None
    typer.echo(json.dumps(stored, ensure_ascii=False))


@app.command(help=_("Roll digital dice: Rollcall computes the faces from the game's committed seed and records them."))
def roll(game: Annotated[str, typer.Argument(help=_("Game id (a digital game)."))],
         player: Annotated[str, typer.Option(help=_("Player who rolls."))],
         purpose: Annotated[str, typer.Option(help=_("{purposes} or other.").format(
                                                   purposes="dodge, stabilisation, explore, vortex_move, casting, "
                                                            "dispel, miscast, initiative, attack"))],
         die: Annotated[str, typer.Option(help=_("Die name of the rules in force, e.g. attack, agility, d6."))],
         count: Annotated[int, typer.Option(help=_("Number of dice."))] = 1,
         data: DataDir = None, key: Key = None) -> None:
    """Roll digital dice: Rollcall computes the faces from the game's committed seed and records them."""
    store = open_app(data, key)
    event = store.roll(game, player, purpose, die, count)
    _presentation, names = game_names(store, game)
    typer.echo(_("seq {seq}: {player} rolls {n} {die}: {faces}").format(
        seq=event["seq"], player=names.player(player), n=count, die=die, faces=" ".join(map(str, event["faces"]))))


@app.command(help=_("Draw the next card the game's rules pack says is due, digitally (an ether phenomenon card in "
                    "Tornscape, a Flux card in The 9th Age)."))
def draw(game: Annotated[str, typer.Argument(help=_("Game id (a digital game)."))],
         vortex: Annotated[Optional[str], typer.Option(help=_("Vortex, when one event entered several."))] = None,
         data: DataDir = None, key: Key = None) -> None:
    """Draw the next card the game's rules pack says is due, digitally (an ether phenomenon card in
    Tornscape, a Flux card in The 9th Age)."""
    store = open_app(data, key)
    event = store.draw_card(game, vortex)
    presentation, names = game_names(store, game)
    typer.echo(_("seq {seq}: {summary}").format(seq=event["seq"], summary=presentation.summary(event, names=names)))



@app.command(help=_("Write a game's record with seq, derived fields and integrity hashes. A game its tournament "
                    "broadcasts with a delay is written up to its events older than the delay (a record that "
                    "verifies), unless a key of the store is given."))
def export(game: Annotated[str, typer.Argument(help=_("Game id."))],
           output: Annotated[Optional[Path], typer.Option("-o", "--output", help=_("File to write (default: stdout)."))] = None,
           data: DataDir = None, key: ReadKey = None) -> None:
    """Write a game's record with seq, derived fields and integrity hashes. A game its tournament broadcasts with a
    delay is written up to its events older than the delay (a record that verifies), unless a key of the store
    is given."""
    from domain.record import export_line

    header, *events = open_app(data).stored_lines(game)
    bound = store_bound(data, key, game, header.get("tournament"))
    if bound is not None:
        typer.echo(_("note: game {game} is broadcast with a delay: written up to seq {seq} (a key of the store, --key, "
                     "writes it all)").format(game=game, seq=bound), err=True)
        events = [e for e in events if int(e.get("seq") or 0) <= bound]
    text = "".join(export_line(line) + "\n" for line in (header, *events))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(_("wrote {file}").format(file=output), err=True)


@app.command(help=_("List the recorded games (--json: their headers)."))
def games(as_json: AsJson = False, data: DataDir = None) -> None:
    """List the recorded games (--json: their headers)."""
    headers = list(open_app(data).headers())
    if as_json:
        echo_json(headers)
        return
    if not headers:
        typer.echo(_("no games yet: `rollcall import FILES`"))
    for header in headers:
        players = _(" vs ").join(f"{p.get('name', p['id'])} ({p.get('faction') or '-'})" for p in header["players"])
        parts = [header["tournament"]] if header.get("tournament") else []
        parts += [_(word).format(n=header[part]) for part, word in (("round", N_("round {n}")), ("table", N_("table {n}")))
                  if header.get(part) is not None]
        where = f"  {', '.join(parts)}" if parts else ""
        typer.echo(f"{header['game']}  {header['system']}  {players}{where}")


@app.command(help=_("The state after event N, as played or as ruled: a text board, or JSON. A game its tournament "
                    "broadcasts with a delay is shown up to its events older than the delay, unless a key of the "
                    "store is given."))
def replay(game: Annotated[str, typer.Argument(help=_("Game id."))],
           seq: Annotated[Optional[int], typer.Option(help=_("Show the state after this event (default: the last)."))] = None,
           as_json: Annotated[bool, typer.Option("--json", help=_("Print the state as JSON."))] = False,
           as_ruled: Annotated[bool, typer.Option("--as-ruled", help=_("Leave out the events a ruling voided "
                                                                       "(default: the game as played)."))] = False,
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
            said = (_("--seq {seq}: game {game} has events 0 to {last} (its last event shown is seq {last})")
                    if upto is not None else
                    _("--seq {seq}: game {game} has events 0 to {last} (its last event is seq {last})"))
            raise RollcallError(said.format(seq=seq, game=repr(game), last=state["last_seq"]))
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


