"""The ``rollcall`` command line: thin commands over the application service and the read models.

Each noun has its own module and Typer app; this module adds them all. Apps without a name (games,
integrity, read models, simulation, statistics, the dashboard, sealing) put their commands at the top
level (``rollcall import``); named ones are groups (``rollcall tournament …``, ``dispute …``, ``keys …``).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as package_version
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli import broadcast, dispute, games, integrity, keys, readmodels, serve, simulate, stats, tournament
from cli.options import GIVEN, App
from domain import settings
from domain.errors import RollcallError
import i18n
from i18n import _

HELP = _("Rollcall: tamper-evident records, replay and analytics of tabletop tournament games.")
app = App(help=HELP, add_completion=True)
for noun in (games, integrity, readmodels, simulate, stats, serve, broadcast, dispute, tournament, keys):
    app.add_typer(noun.app)


def rollcall_version() -> str:
    try:
        return package_version("rollcall")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def _show_version(show: bool) -> None:
    if show:
        typer.echo(f"rollcall {rollcall_version()}")  # untranslated: the name and a number
        raise typer.Exit()


@app.callback(help=HELP)
def main(ctx: typer.Context,
         version: Annotated[Optional[bool], typer.Option("--version", callback=_show_version, is_eager=True,
                                                         help=_("Print Rollcall's version and exit."))] = None,
         lang: Annotated[Optional[str], typer.Option(
             "--lang", metavar="LANG", envvar=settings.LANG_ENV, show_envvar=True, show_default=False,
             help=_("The language Rollcall speaks: en or ru (else the locale's); before the command or after it."))] = None,
         data: Annotated[Optional[Path], typer.Option(
             "--data", metavar="DIR", show_default=False,
             help=_("Data folder of the command (before the command or after it)."))] = None,
         key: Annotated[Optional[str], typer.Option(
             "--key", metavar="KEY", show_default=False,
             help=_("Access key of the command (before the command or after it)."))] = None) -> None:
    """Rollcall: tamper-evident records, replay and analytics of tabletop tournament games."""
    ctx.meta[GIVEN] = {"--data": None if data is None else str(data), "--key": key}
    try:
        i18n.use(settings.language(lang))  # `rollcall` chose it already (cli.entry); a caller of this app may not have
    except RollcallError as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang") from None


if __name__ == "__main__":
    app()
