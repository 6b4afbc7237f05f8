"""Read queries of the Dispute page: the disputes and rulings of a game, and what a dispute involves.

Every query the page runs is in ``DISPUTE_QUERIES`` (name -> function of a read connection, a game
and the disputed seqs), so the benchmark can time each one. Each takes ``upto``, the last seq of the game the
viewer may see (projections.visibility; None: all of it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb

from projections.queries import rows, game_events, state_at
from projections.sqlfiles import sql_text


def disputes(con: duckdb.DuckDBPyConnection, game: str, upto: int | None = None) -> list[dict[str, Any]]:
    """The game's disputes (up to seq ``upto``): seq, by_player, about, claim, at, author, ruled_at (None while
    open, or ruled after ``upto``)."""
    return rows(con, "SELECT * REPLACE (CASE WHEN $upto IS NULL OR ruled_at <= $upto THEN ruled_at END AS ruled_at) "
                     "FROM disputes_of($game) WHERE $upto IS NULL OR seq <= $upto ORDER BY seq",
                {"game": game, "upto": upto})


def rulings(con: duckdb.DuckDBPyConnection, game: str, upto: int | None = None) -> list[dict[str, Any]]:
    """The game's rulings (up to seq ``upto``): seq, judge, about, decision, text, at, author."""
    return rows(con, "SELECT * FROM fct_rulings WHERE game = $game AND ($upto IS NULL OR seq <= $upto) ORDER BY seq",
                {"game": game, "upto": upto})


def voided(con: duckdb.DuckDBPyConnection, game: str, upto: int | None = None) -> dict[int, str]:
    """seq -> why the as-ruled game leaves it out: ``void: ruling 12``, ``taken back at 15``, ``rewound at 20
    by Jules`` (fct_voided); ``upto``: as the game stood after that seq."""
    found = rows(con, "SELECT seq, removed_by_seq, reason, judge FROM fct_voided WHERE game = $game "
                      "AND ($upto IS NULL OR removed_by_seq <= $upto)", {"game": game, "upto": upto})
    return {int(r["seq"]): _why(r) for r in found}


def _why(row: dict) -> str:
    if row["reason"] == "void":
        return f"void: ruling {row['removed_by_seq']}"
    by = f" by {row['judge']}" if row["judge"] else ""
    return f"{row['reason']} at {row['removed_by_seq']}{by}"


def rolls_involved(con: duckdb.DuckDBPyConnection, game: str, about: list[int],
                   upto: int | None = None) -> list[dict[str, Any]]:
    """The rolls among ``about`` and those the events of ``about`` use, with provenance and odds."""
    return rows(con, sql_text("dispute_rolls"), {"game": game, "about": [int(s) for s in about], "upto": upto})


def casts_involved(con: duckdb.DuckDBPyConnection, game: str, about: list[int],
                   upto: int | None = None) -> list[dict[str, Any]]:
    """Casting and dispel attempts among ``about`` with their exact odds of passing."""
    return rows(con, sql_text("dispute_casts"), {"game": game, "about": [int(s) for s in about], "upto": upto})


def clock_around(con: duckdb.DuckDBPyConnection, game: str, about: list[int], upto: int | None = None,
                 around: int = 4) -> list[dict[str, Any]]:
    """The game clock around the disputed events ``about``: the clock events from the ``around`` before them to the
    ``around`` after them (and those among them), each player's time after each (fct_clock): who used how much."""
    return rows(con, sql_text("dispute_clock"), {"game": game, "first": min(about), "final": max(about),
                                                 "around": around, "upto": upto})


DISPUTE_QUERIES: dict[str, Callable[[duckdb.DuckDBPyConnection, str, list[int]], Any]] = {
    "game events": lambda con, game, about: game_events(con, game),
    "state before": lambda con, game, about: state_at(con, game, min(about) - 1),
    "state after": lambda con, game, about: state_at(con, game, max(about)),
    "state after, as ruled": lambda con, game, about: state_at(con, game, max(about), as_ruled=True),
    "disputes": lambda con, game, about: disputes(con, game),
    "rulings": lambda con, game, about: rulings(con, game),
    "voided": lambda con, game, about: voided(con, game),
    "rolls involved": rolls_involved,
    "casts involved": casts_involved,
    "clock around": clock_around,
}
