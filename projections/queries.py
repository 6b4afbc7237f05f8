"""Read-only queries over the published read models (the CLI's ``replay`` and the dashboard).

Each query a spectator can reach takes what the viewer may see (projections.visibility): a query of one game
the last seq shown (``upto``: None for all), a query of many games the :class:`Seen` itself. The default is
everything: the dashboard and the command line always pass the viewer's."""

from __future__ import annotations

import json
import os
from typing import Any

import duckdb

from domain.errors import GameNotFound
from domain.settings import PUBLISHED_FILE, data_dir as data_folder, partitions
from projections.publish import open_published
from projections.sqlfiles import sql_text, statements
from projections.visibility import EVERYTHING, Seen



def connect_read(data_dir: str | os.PathLike | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection to ``<data>/rollcall.read.duckdb`` (FileNotFoundError before the first projection),
    or to the union of the projector workers' folders that ``ROLLCALL_PARTITIONS`` names (projections.union)."""
    folders = partitions()
    if folders:
        from projections.union import open_union

        return open_union(folders)
    return open_published(data_folder(data_dir) / PUBLISHED_FILE)


def published_version(data_dir: str | os.PathLike | None = None) -> int:
    """When what readers open was last published (ns; the latest of the partitions'): a cache key of what they
    read (FileNotFoundError before the first projection)."""
    return max((folder / PUBLISHED_FILE).stat().st_mtime_ns for folder in partitions() or [data_folder(data_dir)])


def rows(con: duckdb.DuckDBPyConnection, sql: str, params: dict | None = None) -> list[dict[str, Any]]:
    result = con.execute(sql, params or {})  # not a cursor: it would not see the published catalog
    names = [d[0] for d in result.description]
    is_json = [str(d[1]) == "JSON" for d in result.description]
    return [{k: json.loads(v) if j and v is not None else v for k, j, v in zip(names, is_json, row)}
            for row in result.fetchall()]


def list_games(con: duckdb.DuckDBPyConnection, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """Every game as ``seen`` sees it: game, system, tournament, round, table_no, started, players, events, last_seq,
    turn, phase, violations (count), ended, winner, score."""
    return rows(con, sql_text("list_games"), seen.params())


def game_events(con: duckdb.DuckDBPyConnection, game: str, upto: int | None = None) -> list[dict[str, Any]]:
    """The game's events in order (up to seq ``upto``): seq, type, turn, phase, player, payload (the record line),
    violations."""
    return rows(con, sql_text("game_events"), {"game": game, "upto": upto})


def ruled_shown(con: duckdb.DuckDBPyConnection, game: str, upto: int | None) -> bool:
    """Whether the as-ruled game may be shown up to seq ``upto``: the state rows as ruled leave out every event a
    ruling, take-back or rewind removed, so they are shown only when none of those came after ``upto``
    (otherwise the game is shown as played)."""
    return upto is None or not rows(con, "SELECT 1 AS x FROM fct_voided WHERE game = $game AND removed_by_seq > $upto "
                                         "LIMIT 1", {"game": game, "upto": upto})


def state_at(con: duckdb.DuckDBPyConnection, game: str, seq: int | None = None, *,
             as_ruled: bool = False, upto: int | None = None) -> dict[str, Any]:
    """The replay JSON of docs/replay.md after event ``seq`` (clamped to 0..last_seq, and to ``upto``: the last
    seq the viewer may see; None: the last): one range query over the state rows the projector made with the
    rules packs' own apply.

    The as-played game (the default) keeps every event; ``as_ruled`` leaves out those a ``void``
    ruling removed (anywhere in the game, or up to ``upto``: ``ruled_shown``), and adds ``voided``, the seqs
    left out."""
    from domain.systems import system_for
    from domain.systems.state import SCALAR

    head, parts = statements("state_at")
    if upto is not None:
        seq = upto if seq is None else min(int(seq), upto)
        as_ruled = as_ruled and ruled_shown(con, game, upto)
    found = rows(con, head.sql, {"game": game, "seq": None if seq is None else int(seq)})
    if not found:
        raise GameNotFound(game)
    game_row = found[0]
    if upto is not None:
        game_row["last_seq"] = min(game_row["last_seq"], upto)
    ruled = as_ruled and game_row.pop("has_ruled")
    game_row.pop("has_ruled", None)
    state = game_row | {part: {} for part in system_for(game_row["system"]).state_class.OBJECT_PARTS}
    for row in rows(con, parts.sql, {"game": game, "seq": state["seq"], "ruled": bool(ruled)}):
        if row["key"] == SCALAR:
            state[row["part"]] = row["value"]
        elif row["value"] is not None:
            state.setdefault(row["part"], {})[row["key"]] = row["value"]
    if as_ruled:
        voided = rows(con, "SELECT DISTINCT seq FROM fct_voided WHERE game = $game "
                           "AND ($upto IS NULL OR removed_by_seq <= $upto) ORDER BY seq", {"game": game, "upto": upto})
        state |= {"as_ruled": True, "voided": [r["seq"] for r in voided]}
    return state


def projection_failures(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """The games the replay could not follow: game, from which seq, and why (the projector went on)."""
    return rows(con, "SELECT game, stream_id, seq, error FROM fct_projection_failures ORDER BY game")


def state_changes(con: duckdb.DuckDBPyConnection, game: str, *, as_ruled: bool = False,
                  upto: int | None = None) -> list[tuple]:
    """The per-event changes of the game's replay state up to seq ``upto`` (None: all), ``(seq, part, key,
    value)`` in order (as ``domain.timeline.state_changes`` gives them), from the state rows the projector made;
    as ruled only where a ruling voided events (otherwise the game as played; ``ruled_shown``)."""
    ruled = as_ruled and ruled_shown(con, game, upto) and bool(
        rows(con, "SELECT 1 AS x FROM fct_states WHERE game = $game AND ruled LIMIT 1", {"game": game}))
    return [(r["seq"], r["part"], r["key"], r["value"])
            for r in rows(con, sql_text("state_changes"), {"game": game, "ruled": ruled, "upto": upto})]


def turn_starts(con: duckdb.DuckDBPyConnection, game: str, upto: int | None = None) -> list[tuple[int, int]]:
    """(turn, seq) of each TurnStarted of the game (up to seq ``upto``)."""
    return [(r["turn"], r["seq"]) for r in rows(con, sql_text("turn_starts"), {"game": game, "upto": upto})]


def roll_odds(con: duckdb.DuckDBPyConnection, game: str, upto: int | None = None) -> dict[int, float]:
    """seq -> the exact probability of the outcome of each roll of the game (fct_roll_odds), up to seq ``upto``."""
    return {r["seq"]: r["p_outcome"] for r in rows(con, sql_text("roll_odds"), {"game": game, "upto": upto})}
