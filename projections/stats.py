"""Statistics of games and tournaments: every query the Analytics page and ``rollcall stats`` run.

The figures come from read models only: the statistics tables (``stat_throws.sql``, …: one row per throw of
dice, faces thrown, first players, turn times), refreshed per game by :func:`refresh` at the end of each
projector run, and the analytic views (``fct_casts``, ``fct_card_draws``, ...). Each query is a file
``projections/sql/analytics_<name>.sql`` taking the scope's games as ``$games``; p-values, Wilson
intervals and verdicts are DuckDB macros (``stat_chi2_sf``, ...), so a plain read-only connection answers.

:data:`ANALYTICS_QUERIES` maps each name to ``fn(con, scope) -> list[dict]``; benchmarks iterate it.

A scope holds what its viewer may see (``Scope.seen``, projections.visibility): the figures of many games leave
out the games a broadcast delay keeps behind (they count once their delay has passed), and a game's luck line
stops at its last seq shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import duckdb

from projections.queries import rows as _rows
from projections.models import fills, refresh_order
from projections.sqlfiles import sql_text, transaction
from projections.visibility import EVERYTHING, Seen

# the sections of the Analytics page (and of `rollcall stats`), each a list of query names
SECTIONS = {
    "Luck": ("luck_by_player", "luck_by_die", "luck_by_game", "luck_line"),
    "Fairness": ("fairness", "face_distribution", "card_fairness", "card_draws"),
    "The games": ("odds_checks", "vortex_allegiance", "vortex_drift", "ether_by_faction", "casting", "dispels",
                  "exhaustion"),
    "Results": ("faction_results", "matchups", "first_player", "turn_times"),
}


@dataclass(frozen=True)
class Scope:
    """What the statistics cover: the games ``games`` if any, else those of ``tournament``, else every game.

    ``game`` is the game whose cumulative luck line (and big swings) is drawn; default: the scope's first.
    ``seen``: what the viewer may see of the games (projections.visibility)."""

    tournament: str | None = None
    games: tuple[str, ...] = field(default_factory=tuple)
    game: str | None = None
    seen: Seen = EVERYTHING


def refresh(con: duckdb.DuckDBPyConnection) -> int:
    """Bring the statistics tables up to date for every game with new events, in one transaction (the
    projector's connection, after its batches): the statistics models (``stat_*.sql``) in their derived order,
    ``stat_touched`` first; the number of games refreshed."""
    refreshed, few = 0, None
    with transaction(con):
        for name in refresh_order():
            for statement in fills(name):
                code = statement.code
                rows = con.execute(statement.sql, {"few": few} if "$few" in code else None).fetchall()
                if code.startswith("SELECT"):  # stat_touched: the number of games to refresh, and the few
                    refreshed, few = rows[0]
                    if not refreshed:
                        return 0
    return int(refreshed)


def _about(name: str) -> str:
    """What query ``name`` answers: the comment lines its file begins with."""
    lines = []
    for line in sql_text(f"analytics_{name}").splitlines():
        if not line.lstrip().startswith("--"):
            break
        lines.append(line.lstrip()[2:].strip())
    return "\n".join(lines)


def tournaments(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Every tournament: tournament, games, system."""
    return _rows(con, sql_text("analytics_tournaments"))


def _scope_params(scope: Scope) -> dict[str, Any]:
    """The scope as the queries take it ($games, $tournament: stat_scope in stat_macros.sql): a scope of a
    tournament or of every game is never listed game by game."""
    return {"games": list(scope.games), "tournament": scope.tournament}


def scope_games(con: duckdb.DuckDBPyConnection, scope: Scope, limit: int | None = None) -> list[str]:
    """The game ids of ``scope``, by round and table (the first ``limit``), those kept behind included."""
    params = _scope_params(scope) | {"limit": limit}
    return [r["game"] for r in _rows(con, sql_text("analytics_scope_games"), params)]


def held_back(con: duckdb.DuckDBPyConnection, scope: Scope) -> list[str]:
    """The games of ``scope`` its figures leave out: those a broadcast delay keeps behind (``scope.seen``)."""
    if not scope.seen.held:
        return []
    games = scope_games(con, scope)
    shown = set(scope.seen.shown(games))
    return [g for g in games if g not in shown]


def _shown_params(con: duckdb.DuckDBPyConnection, scope: Scope) -> dict[str, Any] | None:
    """The scope's parameters without the games kept behind (``held_back``); None when none is left."""
    held = held_back(con, scope)
    if not held:
        return _scope_params(scope)
    shown = scope.seen.shown(scope_games(con, scope))
    return {"games": shown, "tournament": None} if shown else None


def focus_game(con: duckdb.DuckDBPyConnection, scope: Scope) -> str | None:
    """The game whose luck line is drawn: ``scope.game``, else the scope's first game."""
    if scope.game:
        return scope.game
    games = scope_games(con, scope, limit=1)
    return games[0] if games else None


def _scoped(name: str) -> Callable[[duckdb.DuckDBPyConnection, Scope], list[dict[str, Any]]]:
    def query(con: duckdb.DuckDBPyConnection, scope: Scope) -> list[dict[str, Any]]:
        params = _shown_params(con, scope)
        return [] if params is None else _rows(con, sql_text(f"analytics_{name}"), params)

    query.__name__ = name
    query.__doc__ = _about(name)
    return query


def _per_game(name: str) -> Callable[[duckdb.DuckDBPyConnection, Scope], list[dict[str, Any]]]:
    def query(con: duckdb.DuckDBPyConnection, scope: Scope) -> list[dict[str, Any]]:
        game = focus_game(con, scope)
        return _rows(con, sql_text(f"analytics_{name}"), {"game": game, "upto": scope.seen.upto(game)}) if game else []

    query.__name__ = name
    query.__doc__ = _about(name)
    return query


def swings(con: duckdb.DuckDBPyConnection, game: str, upto: int | None = None) -> list[dict[str, Any]]:
    """The throws of ``game`` (up to seq ``upto``) whose luck swing is big: |z| >= 2, z = (observed - expected) / sd."""
    return _rows(con, sql_text("analytics_swings"), {"game": game, "upto": upto})


def time_by_player(con: duckdb.DuckDBPyConnection, scope: Scope) -> list[dict[str, Any]]:
    """Each player's time on the game clock per turn and phase, in the scope's games that have a clock (the
    header's ``clock``): rows of game, player (id), name, faction, turn, phase and seconds their clock ran —
    the domain's own arithmetic over the events as recorded (domain.clock.time_by_turn), up to what the viewer
    may see of each game."""
    from domain.clock import time_by_turn
    import json

    games = scope_games(con, scope)
    if scope.seen.held:
        games = list(scope.seen.shown(games))  # (the games a broadcast delay keeps behind count once it passed)
    if not games:
        return []
    headers = {game: json.loads(header) for game, header in con.execute(
        "SELECT game, header FROM dim_games WHERE list_contains($games, game) AND header ->> 'clock' IS NOT NULL",
        {"games": games}).fetchall()}
    found: list[dict[str, Any]] = []
    for game in games:
        header = headers.get(game)
        if header is None:
            continue
        upto = scope.seen.upto(game)
        lines = [json.loads(payload) for (payload,) in con.execute(
            "SELECT payload FROM fct_events WHERE game = $game AND ($upto IS NULL OR seq <= $upto) ORDER BY seq",
            {"game": game, "upto": upto}).fetchall()]
        players = {p["id"]: p for p in header.get("players", [])}
        for row in time_by_turn(header, lines):
            who = players.get(row["player"], {})
            found.append({"game": game, "player": row["player"], "name": who.get("name") or row["player"],
                          "faction": who.get("faction"), "turn": row["turn"], "phase": row["phase"],
                          "seconds": row["seconds"]})
    return found


def faction_results(con: duckdb.DuckDBPyConnection, scope: Scope) -> list[dict[str, Any]]:
    """The faction results (analytics_faction_results.sql) with each faction's mean game score (``mean_score``):
    every game scored by its tournament's format (domain.formats: its 0–20 under t9a-20-0, 3/1/0 under wins; a game
    of no created tournament by the default), mirror matches left out."""
    from projections.tournaments import tournament_format

    found = _scoped("faction_results")(con, scope)
    params = _shown_params(con, scope)
    if not found or params is None:
        return found
    formats: dict = {}
    scores: dict[str, list] = {}
    for r in _rows(con, sql_text("analytics_faction_scores"), params):
        name = r["tournament"] or ""
        if name not in formats:
            formats[name] = tournament_format(con, name)  # (no tournament: the default)
        winner = {"win": 0, "loss": 1}.get(r["result"])
        mine, _theirs = formats[name].game_scores(r["vp"] or 0, r["opponent_vp"] or 0, winner, r["secondary"])
        scores.setdefault(r["faction"], []).append(mine)
    means = {f: round(float(sum(v) / len(v)), 2) for f, v in scores.items()}
    return [{**r, "mean_score": means.get(r["faction"])} for r in found]


faction_results.__doc__ = f"{_about('faction_results')}\n{faction_results.__doc__}"


ANALYTICS_QUERIES: dict[str, Callable[[duckdb.DuckDBPyConnection, Scope], list[dict[str, Any]]]] = {
    **{name: _per_game(name) if name == "luck_line" else faction_results if name == "faction_results" else _scoped(name)
       for names in SECTIONS.values() for name in names},
    "swings": lambda con, scope: swings(con, g, scope.seen.upto(g)) if (g := focus_game(con, scope)) else [],
    "time_by_player": time_by_player,
}

