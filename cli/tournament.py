"""Tournaments: create, list, standings, results, byes."""

from __future__ import annotations

import json
from typing import Annotated, Any, Optional

import typer

from cli.errors import reported
from cli.main import DataDir, Key, _project, app, data_dir, open_app

tournament_app = typer.Typer(help="Tournaments: rounds of games of one system, standings and results.",
                             no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")

STANDING_COLUMNS = (("rank", "#"), ("player", "player"), ("faction", "faction"), ("games", "games"),
                    ("wins", "W"), ("draws", "D"), ("losses", "L"), ("byes", "byes"), ("tournament_points", "TP"),
                    ("vp_for", "VP+"), ("vp_against", "VP-"), ("vp_diff", "VP±"), ("sos", "SoS"))
RESULT_COLUMNS = (("round", "round"), ("table_no", "table"), ("player", "player"), ("faction", "faction"),
                  ("score", "VP"), ("opponent_score", "VP"), ("opponent", "opponent"),
                  ("opponent_faction", "faction"), ("result", "result"), ("game", "game"))


@tournament_app.command("create")
@reported
def create(name: Annotated[str, typer.Argument(help="Tournament name, e.g. 'Autumn Open 2026'.")],
           system: Annotated[str, typer.Option(help="tornscape, t9a or claustrophobia.")],
           rounds: Annotated[Optional[int], typer.Option(help="Rounds planned.")] = None,
           notes: Annotated[Optional[str], typer.Option(help="Free text.")] = None,
           win: Annotated[Optional[int], typer.Option(help="Tournament points for a win (default 3).")] = None,
           draw: Annotated[Optional[int], typer.Option(help="Tournament points for a draw (default 1).")] = None,
           loss: Annotated[Optional[int], typer.Option(help="Tournament points for a loss (default 0).")] = None,
           bye: Annotated[Optional[int], typer.Option(help="Tournament points for a bye (default 3).")] = None,
           data: DataDir = None, key: Key = None) -> None:
    """Create a tournament of one system; games whose header names it must be of that system."""
    points = {k: v for k, v in (("win", win), ("draw", draw), ("loss", loss), ("bye", bye)) if v is not None}
    created = open_app(data, key).create_tournament(name, system, rounds=rounds, notes=notes, points=points or None)
    typer.echo(f"created tournament {created['name']} ({created['system']})")


@tournament_app.command("bye")
@reported
def bye(name: Annotated[str, typer.Argument(help="Tournament name.")],
        round_no: Annotated[int, typer.Option("--round", help="Round of the bye.")],
        player: Annotated[str, typer.Option(help="Name of the player who sits the round out.")],
        faction: Annotated[Optional[str], typer.Option(help="The player's faction.")] = None,
        data: DataDir = None, key: Key = None) -> None:
    """Record a bye (a round without a game, worth the points of a bye) in a created tournament."""
    open_app(data, key).award_bye(name, round_no, player, faction)
    typer.echo(f"{player} has a bye in round {round_no} of {name}")


@tournament_app.command("list")
@reported
def list_(data: DataDir = None) -> None:
    """Every tournament: created ones and those only named by game headers."""
    from projections.tournaments import list_tournaments

    rows = _read(data, list_tournaments)
    if not rows:
        typer.echo("no tournaments yet: `rollcall tournament create NAME --system SYSTEM`")
    for t in rows:
        origin = "" if t["created"] else "  (named by games only)"
        rounds = f"{t['rounds_played'] or 0} rounds" + (f" of {t['planned_rounds']}" if t["planned_rounds"] else "")
        typer.echo(f"{t['tournament']}  {t['system']}  {t['games']} games, {rounds}{origin}")


@tournament_app.command("standings")
@reported
def standings(name: Annotated[str, typer.Argument(help="Tournament name.")],
              as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
              data: DataDir = None) -> None:
    """Standings: tournament points (win 3, draw 1, loss 0, bye 3), then VP difference, VP for and
    strength of schedule (the sum of the tournament points of the opponents played)."""
    from projections.tournaments import standings as query

    rows = _read(data, query, name)
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    _table(f"Standings of {name}", rows, STANDING_COLUMNS)


@tournament_app.command("results")
@reported
def results(name: Annotated[str, typer.Argument(help="Tournament name.")],
            round_no: Annotated[Optional[int], typer.Option("--round", help="Only this round.")] = None,
            as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
            data: DataDir = None) -> None:
    """Results per round: each game (victory points and result of the player in seat 1) and each bye."""
    from projections.tournaments import results as query

    rows = _read(data, query, name, round_no)
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    if not rows:
        typer.echo(f"no results of {name}" + (f" in round {round_no}" if round_no else ""))
        return
    _table(f"Results of {name}" + (f", round {round_no}" if round_no else ""), rows, RESULT_COLUMNS)


def _read(data, query, *args) -> list[dict[str, Any]]:
    """Project what is new, then run ``query`` over the published read models."""
    from projections.queries import connect_read

    _project(data)
    con = connect_read(data_dir(data))
    try:
        return query(con, *args)
    finally:
        con.close()


def _table(title: str, rows: list[dict[str, Any]], columns: tuple[tuple[str, str], ...]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, title_justify="left", title_style="bold")
    for _, label in columns:
        table.add_column(label, overflow="fold")
    for row in rows:
        table.add_row(*("" if row.get(k) is None else str(row[k]) for k, _ in columns))
    Console(width=max(120, Console().width)).print(table)
