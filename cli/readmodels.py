"""Read models: project the event store into DuckDB, and dump the read models for analysts."""

from __future__ import annotations

from typing import Annotated

import typer

from cli.options import App, DataDir, plural, project as project_events

app = App()


@app.command()
def project(rebuild: Annotated[bool, typer.Option(help="Drop the read models and rebuild them from scratch.")] = False,
            data: DataDir = None) -> None:
    """Bring the DuckDB read models up to date from the event store."""
    count = project_events(data, rebuild)
    typer.echo(f"projected {plural(count, 'event')}")
