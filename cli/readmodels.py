"""Read models: project the event store into DuckDB, and dump the read models for analysts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.options import App, DataDir, ReadKey, project as project_events, read, read_seen
from domain.errors import RollcallError
from i18n import _, ngettext

app = App()


@app.command(help=_("Bring the DuckDB read models up to date from the event store; names any game its rules pack "
                    "cannot replay (exit status 1), whose read models stop at that event while every other game's "
                    "are kept."))
def project(rebuild: Annotated[bool, typer.Option(help=_("Drop the read models and rebuild them from scratch."))] = False,
            worker: Annotated[Optional[str], typer.Option(
                "--worker", metavar="w/W", help=_("Project only this worker's share of the games (worker w of W, "
                                                  "each into its own data folder; readers open the folders as one "
                                                  "with ROLLCALL_PARTITIONS)."))] = None,
            data: DataDir = None) -> None:
    """Bring the DuckDB read models up to date from the event store; names any game its rules pack cannot
    replay (exit status 1), whose read models stop at that event while every other game's are kept."""
    import os

    from domain.settings import WORKER_ENV, worker as share
    from projections.queries import projection_failures

    if worker is not None:
        os.environ[WORKER_ENV] = worker
    share()  # a malformed share is refused before anything is read

    count = project_events(data, rebuild)
    typer.echo(ngettext("projected {n} event", "projected {n} events", count).format(n=count))
    failures = read(data, projection_failures)
    for failure in failures:
        game = (_("game {game}").format(game=failure["game"]) if failure["game"] else
                _("the game stored as {stream}").format(stream=failure["stream_id"]))
        said = (_("error: {game} cannot be replayed from seq {seq}: {why} (`rollcall verify` names the damage)")
                if failure["seq"] is not None else
                _("error: {game} cannot be replayed: {why} (`rollcall verify` names the damage)"))
        typer.echo(said.format(game=game, seq=failure["seq"], why=failure["error"]), err=True)
    if failures:
        raise typer.Exit(1)


@app.command(help=_("Write the read models (events, rolls with odds, dice, moves, casts, dispels, card draws, "
                    "initiative, games, players, results, standings, pairings …) as files for pandas, polars, R or "
                    "DuckDB, with a README.md of their columns. While a tournament's broadcast delay holds games "
                    "back, a dump (which holds every event) needs a key of the store."))
def dump(parquet: Annotated[Optional[Path], typer.Option("--parquet", metavar="DIR",
                                                         help=_("Write Parquet files into this folder."))] = None,
         csv: Annotated[Optional[Path], typer.Option("--csv", metavar="DIR",
                                                     help=_("Write CSV files into this folder."))] = None,
         data: DataDir = None, key: ReadKey = None) -> None:
    """Write the read models (events, rolls with odds, dice, moves, casts, dispels, card draws, initiative,
    games, players, results, standings, pairings …) as files for pandas, polars, R or DuckDB, with a
    README.md of their columns. While a tournament's broadcast delay holds games back, a dump (which holds every
    event) needs a key of the store."""
    from projections.dump import FORMATS, dump as write

    targets = [(folder, fmt) for folder, fmt in ((parquet, "parquet"), (csv, "csv")) if folder is not None]
    if not targets:
        raise RollcallError(_("name a folder: --parquet DIR or --csv DIR"))
    held = read_seen(data, key, lambda con, seen: seen.held)
    if held:
        raise RollcallError(ngettext(
            "{n} game ({games}) is broadcast with a delay of up to {delay} s and not yet shown whole: a dump holds "
            "every event, so it needs a key of the store (--key), or the delay to have passed",
            "{n} games ({games}) are broadcast with a delay of up to {delay} s and not yet shown whole: a dump holds "
            "every event, so it needs a key of the store (--key), or the delay to have passed", len(held)).format(
                n=len(held), games=", ".join(h.game for h in held[:3]) + (", …" if len(held) > 3 else ""),
                delay=max(h.delay for h in held)))
    for folder, fmt in targets:
        rows = read(data, write, folder, fmt)
        files = ngettext("{n} {format} file", "{n} {format} files", len(rows)).format(n=len(rows), format=FORMATS[fmt])
        lines = ngettext("{n} row", "{n} rows", sum(rows.values())).format(n=sum(rows.values()))
        typer.echo(_("wrote {files} ({rows}) and README.md to {folder}").format(files=files, rows=lines, folder=folder))
