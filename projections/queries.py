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

PARTS = ("players", "models", "terrain", "markers", "vortices")  # the objects of the replay state


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
    """The replay JSON of docs/replay.md after event ``seq`` (clamped to 0..last_seq; None: the last).

    The as-played game (the default) keeps every event; ``as_ruled`` leaves out those a ``void``
    ruling removed (anywhere in the game), and adds ``voided``, the seqs left out."""
    head, *parts = statements("state_at")
    found = rows(con, head.sql, {"game": game, "seq": None if seq is None else int(seq)})
    if not found:
        raise GameNotFound(game)
    if as_ruled:
        return found[0] | _ruled(con, game, found[0]["seq"])
    state = found[0] | {part: {} for part in PARTS}
    for statement in parts:
        for row in rows(con, statement.sql, {"game": game, "seq": state["seq"]}):
            state[row["part"]][row["key"]] = row["value"]
    if state["system"] != "tornscape":
        state.update(_folded(con, game, state["seq"]))
    return state


def _folded(con: duckdb.DuckDBPyConnection, game: str, seq: int) -> dict[str, Any]:
    """A magic phase or an initiative has no board to index: its state (pools, Flux cards, wizards;
    warriors and their lines) is the domain's own fold of the game's stored lines up to ``seq``."""
    from domain.game import fold

    header = rows(con, "SELECT header FROM dim_games WHERE game = $game", {"game": game})[0]["header"]
    lines = [e["payload"] for e in game_events(con, game) if e["seq"] <= seq]
    folded = fold(header, lines).to_json()
    return {k: v for k, v in folded.items() if k not in ("game", "system", "seq", "turn", "phase")}


def _ruled(con: duckdb.DuckDBPyConnection, game: str, seq: int) -> dict[str, Any]:
    """The as-ruled state after ``seq``: the domain's fold of the lines no ``void`` ruling removed."""
    from domain.game import fold
    from domain.rulings import as_ruled, voided_seqs

    header = rows(con, "SELECT header FROM dim_games WHERE game = $game", {"game": game})[0]["header"]
    lines = [e["payload"] for e in game_events(con, game)]
    kept = [line for line in as_ruled(lines) if line["seq"] <= seq]
    folded = fold(header, kept).to_json()
    return {k: v for k, v in folded.items() if k not in ("game", "system", "seq")} | {
        "as_ruled": True, "voided": sorted(voided_seqs(lines))}


def turn_starts(con: duckdb.DuckDBPyConnection, game: str) -> list[tuple[int, int]]:
    """(turn, seq) of each TurnStarted of the game."""
    return [(r["turn"], r["seq"]) for r in rows(con, sql_text("turn_starts"), {"game": game})]


def roll_odds(con: duckdb.DuckDBPyConnection, game: str) -> dict[int, float]:
    """seq -> the exact probability of the outcome of each roll of the game (fct_roll_odds)."""
    return {r["seq"]: r["p_outcome"] for r in rows(con, sql_text("roll_odds"), {"game": game})}
