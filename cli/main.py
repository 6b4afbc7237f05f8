"""The ``rollcall`` command line: thin commands over the application service and the read models."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.errors import reported
from domain import settings
from domain.application import Rollcall
from domain.errors import GameNotFound, RecordError, RollcallError

app = typer.Typer(help="Rollcall: tamper-evident records, replay and analytics of tabletop tournament games.",
                  no_args_is_help=True, add_completion=False)

DataDir = Annotated[Optional[Path], typer.Option("--data", envvar=settings.DATA_ENV,
                                                 help="Data folder (event store and read models).",
                                                 show_default="./data")]


Key = Annotated[Optional[str], typer.Option("--key", envvar=settings.KEY_ENV, show_envvar=True,
                                            help="Access key for writing, once the store has keys.",
                                            show_default=False)]


def data_dir(data: Path | None) -> Path:
    return settings.data_dir(data)


def open_app(data: Path | None, key: str | None = None) -> Rollcall:
    return Rollcall.open(data_dir(data), key=key)


def record_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.rglob("*.rollcall.jsonl")))
        else:
            files.append(path)
    return files


@app.command("import")
@reported
def import_(files: Annotated[list[Path], typer.Argument(help="Record files or folders of *.rollcall.jsonl.")],
            lenient: Annotated[bool, typer.Option(help="Store games that break rules, marking the events.")] = False,
            data: DataDir = None, key: Key = None) -> None:
    """Import game records; each game is checked and stored whole, or not at all."""
    from domain.bulk import import_files

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
    if failed:
        raise typer.Exit(1)


@app.command()
@reported
def record(game: Annotated[str, typer.Argument(help="Game id.")],
           event: Annotated[str, typer.Argument(help="One event as JSON, e.g. '{\"type\": \"TurnStarted\", \"turn\": 1}'.")],
           lenient: Annotated[bool, typer.Option(help="Store the event even if it breaks a rule.")] = False,
           data: DataDir = None, key: Key = None) -> None:
    """Append one event to a recorded game, with the same checks as import."""
    try:
        obj = json.loads(event)
    except json.JSONDecodeError as exc:
        raise RecordError("<event>", 0, None, RollcallError(f"not valid JSON: {exc.msg}")) from None
    if not isinstance(obj, dict):
        raise RollcallError("the event must be a JSON object")
    try:
        stored = open_app(data, key).record(game, obj, strict=not lenient)
    except RollcallError as exc:
        if isinstance(exc, RecordError) or type(exc).__name__ in ("GameNotFound", "AccessDenied"):
            raise
        raise RecordError(game, 0, obj.get("type") if isinstance(obj.get("type"), str) else None, exc) from None
    typer.echo(json.dumps(stored, ensure_ascii=False))


@app.command()
@reported
def roll(game: Annotated[str, typer.Argument(help="Game id (a digital game).")],
         player: Annotated[str, typer.Option(help="Player who rolls.")],
         purpose: Annotated[str, typer.Option(help="dodge, stabilisation, explore, vortex_move, casting, dispel, "
                                                   "miscast, initiative, attack or other.")],
         die: Annotated[str, typer.Option(help="Die name of the rules in force, e.g. attack, agility, d6.")],
         count: Annotated[int, typer.Option(help="Number of dice.")] = 1,
         data: DataDir = None, key: Key = None) -> None:
    """Roll digital dice: Rollcall computes the faces from the game's committed seed and records them."""
    event = open_app(data, key).roll(game, player, purpose, die, count)
    typer.echo(f"seq {event['seq']}: {player} rolls {count} {die}: {' '.join(map(str, event['faces']))}")


@app.command()
@reported
def draw(game: Annotated[str, typer.Argument(help="Game id (a digital game).")],
         vortex: Annotated[Optional[str], typer.Option(help="Vortex, when one event entered several.")] = None,
         data: DataDir = None, key: Key = None) -> None:
    """Draw the next due card digitally: an ether phenomenon card, or a Flux card in The 9th Age."""
    event = open_app(data, key).draw_card(game, vortex)
    if event["type"] == "FluxCardDrawn":
        typer.echo(f"seq {event['seq']}: Flux card {event['card']}: {event['magic_dice']} magic dice each, "
                   f"{event['veil_tokens']} veil tokens")
        return
    typer.echo(f"seq {event['seq']}: {event['card']} ({event['effect']} effect) for vortex {event['vortex']}, "
               f"{event['relation']} on {event['trigger']}{', deck shuffled' if event['shuffled'] else ''}")


@app.command()
@reported
def export(game: Annotated[str, typer.Argument(help="Game id.")],
           output: Annotated[Optional[Path], typer.Option("-o", "--output", help="File to write (default: stdout).")] = None,
           data: DataDir = None) -> None:
    """Write a game's record with seq, derived fields and integrity hashes."""
    text = "".join(line + "\n" for line in open_app(data).export_lines(game))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}", err=True)


@app.command()
@reported
def verify(games: Annotated[Optional[list[str]], typer.Argument(help="Game ids (default: every game).")] = None,
           against: Annotated[Optional[list[Path]], typer.Option(
               "--against", help="An anchor kept outside the store: an exported record or a file of `rollcall "
                                 "heads` (repeatable). Finds lost last events and rewritten games.")] = None,
           data: DataDir = None) -> None:
    """Recompute each game's hash chain from the store; exit status 1 if anything is damaged."""
    from domain.record import read_anchors

    store = open_app(data)
    anchors: dict[str, dict[int, str]] = {}
    for path in against or ():
        with path.open(encoding="utf-8") as handle:
            for game_id, hashes in read_anchors(handle, str(path)).items():
                anchors.setdefault(game_id, {}).update(hashes)
    ids = games or (list(anchors) if anchors else [h["game"] for h in store.headers()])
    damaged = 0
    for game_id in ids:
        if anchors and game_id not in anchors:
            raise RollcallError(f"no anchor names game {game_id}")
        try:
            result = store.verify(game_id, anchors.get(game_id))
        except GameNotFound as exc:  # a game the anchor holds is not in the store at all
            damaged += 1
            typer.echo(f"DAMAGED  {game_id}: {exc}")
            continue
        if result.ok:
            typer.echo(f"OK       {game_id} ({result.events} events)")
        else:
            damaged += 1
            d = result.damage
            typer.echo(f"DAMAGED  {game_id}: seq {d.seq} {d.kind}: {d.detail}")
    if damaged:
        raise typer.Exit(1)


@app.command()
@reported
def heads(games: Annotated[Optional[list[str]], typer.Argument(help="Game ids (default: every game).")] = None,
          output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Write here, not stdout.")] = None,
          data: DataDir = None) -> None:
    """Each game's last seq and hash, one JSON line per game: keep or publish them, then `verify --against`."""
    text = "".join(json.dumps(head) + "\n" for head in open_app(data).heads(games))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}", err=True)


@app.command()
@reported
def games(data: DataDir = None) -> None:
    """List the recorded games."""
    for header in open_app(data).headers():
        players = " vs ".join(f"{p.get('name', p['id'])} ({p.get('faction') or '-'})" for p in header["players"])
        where = (f"  {header['tournament']} r{header.get('round')} t{header.get('table')}"
                 if header.get("tournament") else "")
        typer.echo(f"{header['game']}  {header['system']}  {players}{where}")


@app.command()
@reported
def project(rebuild: Annotated[bool, typer.Option(help="Drop the read models and rebuild them from scratch.")] = False,
            data: DataDir = None) -> None:
    """Bring the DuckDB read models up to date from the event store."""
    count = _project(data, rebuild)
    typer.echo(f"projected {count} events")


def _project(data: Path | None, rebuild: bool = False) -> int:
    from rich.progress import Progress

    from projections.projector import Projector

    with Progress(transient=True) as progress:
        task = progress.add_task("projecting", total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return Projector(data_dir(data), app=open_app(data)).run(rebuild=rebuild, progress=tick)


@app.command()
@reported
def replay(game: Annotated[str, typer.Argument(help="Game id.")],
           seq: Annotated[Optional[int], typer.Option(help="Show the state after this event (default: the last).")] = None,
           as_json: Annotated[bool, typer.Option("--json", help="Print the state as JSON.")] = False,
           as_ruled: Annotated[bool, typer.Option("--as-ruled", help="Leave out the events a ruling voided "
                                                                     "(default: the game as played).")] = False,
           data: DataDir = None) -> None:
    """The state after event N, as played or as ruled: a text board, or JSON."""
    from cli.textboard import text_board
    from domain.errors import RollcallError
    from projections.queries import connect_read, game_events, rows, state_at

    _project(data)
    con = connect_read(data_dir(data))
    try:
        state = state_at(con, game, seq, as_ruled=as_ruled)
        if seq is not None and (seq > state["last_seq"] or seq < 0):
            raise RollcallError(f"--seq {seq}: game {game!r} has events 0 to {state['last_seq']} "
                                f"(its last event is seq {state['last_seq']})")
        events = [] if as_json else game_events(con, game)
        header = None if as_json else rows(con, "SELECT header FROM dim_games WHERE game = $game",
                                           {"game": game})[0]["header"]
    finally:
        con.close()
    if as_json:
        typer.echo(json.dumps(state, ensure_ascii=False, indent=2))
        return
    line = next((e for e in events if int(e["seq"]) == state["seq"]), None)
    state["ended"] = any(e["type"] == "GameEnded" and int(e["seq"]) <= state["seq"] for e in events)
    typer.echo(text_board(state, header, line))


@app.command()
def dashboard(port: Annotated[int, typer.Option(help="Port on localhost.")] = 8501, data: DataDir = None) -> None:
    """Open the dashboard on localhost."""
    import dashboard as dashboard_package

    entry = Path(dashboard_package.__file__).parent / "app.py"
    env = {**os.environ, settings.DATA_ENV: str(data_dir(data).resolve())}
    typer.echo(f"dashboard on http://localhost:{port}")
    raise typer.Exit(subprocess.call([sys.executable, "-m", "streamlit", "run", str(entry), "--server.port", str(port),
                                      "--server.address", "localhost", "--server.headless", "true",
                                      "--browser.gatherUsageStats", "false", "--client.toolbarMode", "viewer"], env=env))


# Commands of other nouns live in their own modules, which register on ``app``.
from cli import dispute, keys, simulate, stats, tournament  # noqa: E402,F401

if __name__ == "__main__":
    app()
