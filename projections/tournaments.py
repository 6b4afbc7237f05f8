"""Read-only queries of tournaments over the published read models (the CLI's ``tournament`` commands and
the dashboard's Standings page): dim_tournaments, fct_results, fct_standings. Each takes what the viewer may see
(``seen``, projections.visibility): a game a broadcast delay keeps behind is as it stood after its last seq shown,
so one that ended within the delay is still being played."""

from __future__ import annotations

from typing import Any

import duckdb

from domain.tournaments import TournamentNotFound
from projections.csvcells import as_text
from projections.queries import rows
from projections.sqlfiles import sql_text
from projections.visibility import EVERYTHING, Seen


def list_tournaments(con: duckdb.DuckDBPyConnection, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """Every tournament: tournament, slug, system, created (False: only named by game headers), planned_rounds,
    notes, games, ended_games, rounds_played, win_points, draw_points, loss_points, bye_points, broadcast_delay."""
    return rows(con, sql_text("list_tournaments"), seen.params())


def find_tournament(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, Any]:
    """The tournament called ``name`` (in any case); TournamentNotFound if it has neither been created nor
    named by a projected game."""
    from domain.record import slug

    found = [t for t in list_tournaments(con) if t["slug"] == slug(name)]
    if not found:
        raise TournamentNotFound(f"no tournament '{name}' (neither created nor named by a projected game)")
    return found[0]


def standings(con: duckdb.DuckDBPyConnection, name: str, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """The standings, best first: rank, player, faction, games, wins, draws, losses, byes, tournament_points,
    vp_for, vp_against, vp_diff, sos (tie-breaks in that order after the points: see fct_standings.sql)."""
    find_tournament(con, name)
    return rows(con, sql_text("tournament_standings"), {"tournament": name, **seen.params()})


def results(con: duckdb.DuckDBPyConnection, name: str, round_no: int | None = None, *,
            seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """One row per game (seen from the player in seat 1) and per bye, by round and table: round, table_no, game,
    player, faction, opponent, opponent_faction, score, opponent_score, result (W/D/L/B; None while the game is
    on), tournament_points."""
    find_tournament(con, name)
    return rows(con, sql_text("tournament_results"), {"tournament": name, "round": round_no, **seen.params()})


def progress(con: duckdb.DuckDBPyConnection, name: str, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """Each player's tournament points after each round they played: round, player, tournament_points."""
    return rows(con, sql_text("tournament_progress"), {"tournament": name, **seen.params()})


def pairings(con: duckdb.DuckDBPyConnection, name: str, round_no: int | None = None, *,
             seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """The current pairing of round ``round_no`` (None: the last round paired), tables first, then the bye: round,
    table_no, game, player, faction, opponent, opponent_faction (p1 then p2 as seated), score, opponent_score,
    result (W/D/L of p1, B for the bye, None while the game is on), scenario."""
    find_tournament(con, name)
    return rows(con, sql_text("tournament_pairings"), {"tournament": name, "round": round_no, **seen.params()})


def players(con: duckdb.DuckDBPyConnection, name: str) -> list[dict[str, Any]]:
    """The registered players in the order they registered: registration, player, faction, club, checked_in,
    dropped_after_round (None: still in)."""
    find_tournament(con, name)
    return rows(con, sql_text("tournament_players"), {"tournament": name})


# The columns of the published CSV files (the command line's --csv and the dashboard's downloads).
STANDINGS_CSV = ("rank", "player", "faction", "club", "games", "wins", "draws", "losses", "byes", "tournament_points",
                 "vp_for", "vp_against", "vp_diff", "sos", "dropped_after_round")
PAIRINGS_CSV = ("round", "table_no", "player", "faction", "opponent", "opponent_faction", "score", "opponent_score",
                "result", "game")


RESULTS_CSV = ("round", "table_no", "game", "player", "faction", "opponent", "opponent_faction", "score",
               "opponent_score", "result", "tournament_points")


def csv_text(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> str:
    """``rows`` as CSV with a header line (empty cells for None); a name a spreadsheet would run as a formula
    is written as text (projections.csvcells)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: as_text(v) for k, v in row.items()} for row in rows)
    return out.getvalue()
