"""Read-only queries over the published read models (the CLI's ``replay`` and the dashboard)."""

from __future__ import annotations

import json
import os
from typing import Any

import duckdb

from domain.errors import GameNotFound
from domain.settings import PUBLISHED_FILE, data_dir as data_folder
from projections.publish import open_published
from projections.sqlfiles import sql_text, statements



def connect_read(data_dir: str | os.PathLike | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection to ``<data>/rollcall.read.duckdb`` (FileNotFoundError before the first projection)."""
    return open_published(data_folder(data_dir) / PUBLISHED_FILE)


def rows(con: duckdb.DuckDBPyConnection, sql: str, params: dict | None = None) -> list[dict[str, Any]]:
    result = con.execute(sql, params or {})  # not a cursor: it would not see the published catalog
    names = [d[0] for d in result.description]
    is_json = [str(d[1]) == "JSON" for d in result.description]
    return [{k: json.loads(v) if j and v is not None else v for k, j, v in zip(names, is_json, row)}
            for row in result.fetchall()]


def list_games(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Every game: game, system, tournament, round, table_no, started, players, events, last_seq, turn, phase,
    violations (count), ended, winner, score."""
    return rows(con, sql_text("list_games"))


def game_events(con: duckdb.DuckDBPyConnection, game: str) -> list[dict[str, Any]]:
    """The game's events in order: seq, type, turn, phase, player, payload (the record line), violations."""
    return rows(con, sql_text("game_events"), {"game": game})


def state_at(con: duckdb.DuckDBPyConnection, game: str, seq: int | None = None, *,
             as_ruled: bool = False) -> dict[str, Any]:
    """The replay JSON of docs/replay.md after event ``seq`` (clamped to 0..last_seq; None: the last): one
    range query over the state rows the projector made with the rules packs' own apply.

    The as-played game (the default) keeps every event; ``as_ruled`` leaves out those a ``void``
    ruling removed (anywhere in the game), and adds ``voided``, the seqs left out."""
    from domain.systems import system_for
    from domain.systems.state import SCALAR

    head, parts = statements("state_at")
    found = rows(con, head.sql, {"game": game, "seq": None if seq is None else int(seq)})
    if not found:
        raise GameNotFound(game)
    game_row = found[0]
    ruled = as_ruled and game_row.pop("has_ruled")
    game_row.pop("has_ruled", None)
    state = game_row | {part: {} for part in system_for(game_row["system"]).state_class.OBJECT_PARTS}
    for row in rows(con, parts.sql, {"game": game, "seq": state["seq"], "ruled": bool(ruled)}):
        if row["key"] == SCALAR:
            state[row["part"]] = row["value"]
        elif row["value"] is not None:
            state.setdefault(row["part"], {})[row["key"]] = row["value"]
    if as_ruled:
        voided = rows(con, "SELECT DISTINCT seq FROM fct_voided WHERE game = $game ORDER BY seq", {"game": game})
        state |= {"as_ruled": True, "voided": [r["seq"] for r in voided]}
    return state


def broadcast(con: duckdb.DuckDBPyConnection, game: str | None = None, now: str | None = None) -> dict[str, tuple]:
    """game -> (its tournament's broadcast delay in seconds, the last seq spectators may see at ``now``: an
    ISO time, default the present) of one game or of every game."""
    from datetime import datetime, timezone

    moment = now or datetime.now(timezone.utc).isoformat()
    return {r["game"]: (int(r["delay"]), int(r["visible_seq"]))
            for r in rows(con, sql_text("broadcast"), {"game": game, "now": moment})}


def projection_failures(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """The games the replay could not follow: game, from which seq, and why (the projector went on)."""
    return rows(con, "SELECT game, stream_id, seq, error FROM fct_projection_failures ORDER BY game")


def state_changes(con: duckdb.DuckDBPyConnection, game: str, *, as_ruled: bool = False) -> list[tuple]:
    """The per-event changes of the game's replay state, ``(seq, part, key, value)`` in order (as
    ``domain.timeline.state_changes`` gives them), from the state rows the projector made; as ruled only
    where a ruling voided events (otherwise the game as played)."""
    ruled = as_ruled and bool(rows(con, "SELECT 1 AS x FROM fct_states WHERE game = $game AND ruled LIMIT 1",
                                   {"game": game}))
    return [(r["seq"], r["part"], r["key"], r["value"])
            for r in rows(con, sql_text("state_changes"), {"game": game, "ruled": ruled})]


def turn_starts(con: duckdb.DuckDBPyConnection, game: str) -> list[tuple[int, int]]:
    """(turn, seq) of each TurnStarted of the game."""
    return [(r["turn"], r["seq"]) for r in rows(con, sql_text("turn_starts"), {"game": game})]


def roll_odds(con: duckdb.DuckDBPyConnection, game: str) -> dict[int, float]:
    """seq -> the exact probability of the outcome of each roll of the game (fct_roll_odds)."""
    return {r["seq"]: r["p_outcome"] for r in rows(con, sql_text("roll_odds"), {"game": game})}
