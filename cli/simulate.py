"""Simulated games and tournaments, and the demo."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.errors import reported
from cli.main import DataDir, _project, app, dashboard, data_dir, open_app
from domain.application import Rollcall
from domain.errors import RollcallError


DEMO = (("tornscape", "Demo Open", 12), ("t9a", "Demo Magic Cup", 6), ("claustrophobia", "Demo Descent", 6))


@app.command()
@reported
def simulate(tournament: Annotated[str, typer.Option(help="Tournament name (games link to it by header).")],
             system: Annotated[str, typer.Option(help="tornscape, t9a or claustrophobia.")] = "tornscape",
             games: Annotated[int, typer.Option(help="Number of games.")] = 8,
             seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same games.")] = 1,
             tables: Annotated[int, typer.Option(help="Tables per round.")] = 4,
             data: DataDir = None) -> None:
    """Simulate legal games of a system as a tournament and record them."""
    count = _simulate(open_app(data), system, tournament, games, seed, tables)
    typer.echo(f"recorded {count} simulated {system} games of {tournament}")


def _simulate(store: Rollcall, system: str, tournament: str, games: int, seed: int, tables: int) -> int:
    from domain.record import slug
    from domain.simulate import SIMULATORS, record_lines, simulate as play

    if system not in SIMULATORS:
        raise RollcallError(f"unknown system '{system}' (known: {', '.join(SIMULATORS)})")
    recorded = 0
    with typer.progressbar(range(games), label=f"simulating {system}", file=sys.stderr) as bar:
        for i in bar:
            round_no, table = i // tables + 1, i % tables + 1
            game_id = f"{slug(tournament)}-r{round_no}-t{table}"
            if store.exists(game_id):
                continue
            game = play(system, seed * 100_000 + i, game_id, tournament=tournament, round_no=round_no, table=table)
            store.import_record(record_lines(game), f"simulated {game_id}")
            recorded += 1
    return recorded


@app.command()
@reported
def demo(port: Annotated[int, typer.Option(help="Dashboard port on localhost.")] = 8501,
         serve: Annotated[bool, typer.Option(help="Open the dashboard after building the demo.")] = True,
         data: DataDir = None) -> None:
    """Build demo tournaments of simulated games (one per system), project them and open the dashboard."""
    store = open_app(data)
    for seed, (system, tournament, games) in enumerate(DEMO, start=1):
        _simulate(store, system, tournament, games, seed, 4)
    count = _project(data)
    typer.echo(f"demo ready in {data_dir(data)}: {sum(1 for _ in store.headers())} games, {count} events projected")
    if serve:
        dashboard(port=port, data=data)


