"""Read models: project the event store into DuckDB, and dump the read models for analysts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.options import App, DataDir, ReadKey, project as project_events, read, read_seen
from domain.errors import RollcallError
from domain.systems.presentation import plural

app = App()


@app.command()
def project(rebuild: Annotated[bool, typer.Option(help="Drop the read models and rebuild them from scratch.")] = False,
            data: DataDir = None) -> None:
    """Bring the DuckDB read models up to date from the event store; names any game its rules pack cannot
    replay (exit status 1), whose read models stop at that event while every other game's are kept."""
    from projections.queries import projection_failures

    count = project_events(data, rebuild)
    typer.echo(f"projected {plural(count, 'event')}")
    failures = read(data, projection_failures)
    for failure in failures:
        game = f"game {failure['game']}" if failure["game"] else f"the game stored as {failure['stream_id']}"
        since = f" from seq {failure['seq']}" if failure["seq"] is not None else ""
        typer.echo(f"error: {game} cannot be replayed{since}: {failure['error']} (`rollcall verify` names the "
                   "damage)", err=True)
    if failures:
        raise typer.Exit(1)


@app.command()
def dump(parquet: Annotated[Optional[Path], typer.Option("--parquet", metavar="DIR",
                                                         help="Write Parquet files into this folder.")] = None,
         csv: Annotated[Optional[Path], typer.Option("--csv", metavar="DIR",
                                                     help="Write CSV files into this folder.")] = None,
         data: DataDir = None, key: ReadKey = None) -> None:
    """Write the read models (events, rolls with odds, dice, moves, casts, dispels, card draws, initiative,
    games, players, results, standings, pairings …) as files for pandas, polars, R or DuckDB, with a
    README.md of their columns. While a tournament's broadcast delay holds games back, a dump (which holds every
    event) needs a key of the store."""
    from projections.dump import FORMATS, dump as write

    targets = [(folder, fmt) for folder, fmt in ((parquet, "parquet"), (csv, "csv")) if folder is not None]
    if not targets:
        raise RollcallError("name a folder: --parquet DIR or --csv DIR")
    held = read_seen(data, key, lambda con, seen: seen.held)
    if held:
        raise RollcallError(f"{plural(len(held), 'game')} ({', '.join(h.game for h in held[:3])}"
                            f"{', …' if len(held) > 3 else ''}) are broadcast with a delay of up to "
                            f"{max(h.delay for h in held)} s and not yet shown whole: a dump holds every event, so it "
                            "needs a key of the store (--key), or the delay to have passed")
    for folder, fmt in targets:
        rows = read(data, write, folder, fmt)
        typer.echo(f"wrote {plural(len(rows), f'{FORMATS[fmt]} file')} ({plural(sum(rows.values()), 'row')}) "
                   f"and README.md to {folder}")
