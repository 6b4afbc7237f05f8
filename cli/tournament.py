"""Tournaments: create, list, standings, results, byes."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from cli.options import App, AsJson, DataDir, Key, echo_json, open_app, plural, read, table

app = App(name="tournament", help="Tournaments: registration, pairings, results and standings.")

STANDING_COLUMNS = (("rank", "#"), ("player", "player"), ("faction", "faction"), ("games", "games"),
                    ("wins", "W"), ("draws", "D"), ("losses", "L"), ("byes", "byes"), ("tournament_points", "TP"),
                    ("vp_for", "VP+"), ("vp_against", "VP-"), ("vp_diff", "VP±"), ("sos", "SoS"))
RESULT_COLUMNS = (("round", "round"), ("table_no", "table"), ("player", "player"), ("faction", "faction"),
                  ("score", "VP"), ("opponent_score", "opp. VP"), ("opponent", "opponent"),
                  ("opponent_faction", "opp. faction"), ("result", "result"), ("game", "game"))


@app.command("create")
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


@app.command("bye")
def bye(name: Annotated[str, typer.Argument(help="Tournament name.")],
        round_no: Annotated[int, typer.Option("--round", help="Round of the bye.")],
        player: Annotated[str, typer.Option(help="Name of the player who sits the round out.")],
        faction: Annotated[Optional[str], typer.Option(help="The player's faction.")] = None,
        data: DataDir = None, key: Key = None) -> None:
    """Record a bye (a round without a game, worth the points of a bye) in a created tournament."""
    open_app(data, key).award_bye(name, round_no, player, faction)
    typer.echo(f"{player} has a bye in round {round_no} of {name}")


@app.command("list")
def list_(as_json: AsJson = False, data: DataDir = None) -> None:
    """Every tournament: created ones and those only named by game headers."""
    from projections.tournaments import list_tournaments

    rows = read(data, list_tournaments)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo("no tournaments yet: `rollcall tournament create NAME --system SYSTEM`")
    for t in rows:
        origin = "" if t["created"] else "  (named by games only)"
        rounds = plural(t["rounds_played"] or 0, "round") + (f" of {t['planned_rounds']}" if t["planned_rounds"] else "")
        typer.echo(f"{t['tournament']}  {t['system']}  {plural(t['games'], 'game')}, {rounds}{origin}")


@app.command("standings")
def standings(name: Annotated[str, typer.Argument(help="Tournament name.")],
              as_json: AsJson = False,
              data: DataDir = None) -> None:
    """Standings: tournament points (win 3, draw 1, loss 0, bye 3), then VP difference, VP for and
    strength of schedule (the sum of the tournament points of the opponents played)."""
    from projections.tournaments import standings as query

    rows = read(data, query, name)
    if as_json:
        echo_json(rows)
        return
    table(f"Standings of {name}", rows, STANDING_COLUMNS)


@app.command("results")
def results(name: Annotated[str, typer.Argument(help="Tournament name.")],
            round_no: Annotated[Optional[int], typer.Option("--round", help="Only this round.")] = None,
            as_json: AsJson = False,
            data: DataDir = None) -> None:
    """Results per round: each game (victory points and result of the player in seat 1) and each bye."""
    from projections.tournaments import results as query

    rows = read(data, query, name, round_no)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo(f"no results of {name}" + (f" in round {round_no}" if round_no else ""))
        return
    table(f"Results of {name}" + (f", round {round_no}" if round_no else ""), rows, RESULT_COLUMNS)
