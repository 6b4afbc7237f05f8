"""The dashboard's access to the read models: one cached read-only connection, cached queries.

The dashboard only ever opens the *published* copy ``<data>/rollcall.read.duckdb`` (through
``projections.queries.connect_read``), never the projector's live file, so it holds no lock that
could stop the projector. The connection is cached per (data folder, modification time of the
published file): when the projector republishes, the next rerun sees a new modification time,
opens the new copy and releases the old connection.

Query results are cached with ``st.cache_data`` under the same version token, so a republish
invalidates them too. A DuckDB connection is not for concurrent use by several threads (and in
DuckDB 2.0 results stream), so each query runs under the connection's lock and fetches everything.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from domain import settings
from domain.settings import PUBLISHED_FILE



class NoReadModels(RuntimeError):
    """The data folder has no published read models yet."""


class Unreadable(NoReadModels):
    """The published copy does not open or read just now (damaged or removed: the follower publishes it again)."""

    def __init__(self) -> None:
        super().__init__("The games cannot be read just now: they are being published again, and this page shows "
                         "them by itself in a moment.")


def data_dir() -> Path:
    """The data folder (domain.settings), resolved."""
    return settings.data_dir().resolve()


def published_path() -> Path:
    return data_dir() / PUBLISHED_FILE


def version() -> tuple[str, int]:
    """(data folder, mtime of the published file): the key of every cache below."""
    path = published_path()
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        from projections.follow import lag

        if lag(path.parent) is not None:  # a follower follows the folder: it publishes the copy again
            raise Unreadable() from None
        raise NoReadModels(
            f"No read models in {path.parent} yet: run `rollcall project --data {path.parent}` "
            f"(or `rollcall demo --no-serve --data {path.parent}`)."
        ) from None
    return str(path.parent), mtime


@dataclass
class _Reader:
    con: Any
    path: Path
    mtime_ns: int
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, fn, *args):
        import duckdb

        with self.lock:
            try:
                return fn(self.con, *args)
            except duckdb.Error as exc:  # a copy written over since it was opened: Unreadable; otherwise a fault
                try:
                    changed = self.path.stat().st_mtime_ns != self.mtime_ns
                except OSError:
                    changed = True
                if changed:
                    raise Unreadable() from exc
                raise


def _release(reader: _Reader) -> None:
    with reader.lock:
        reader.con.close()


@st.cache_resource(max_entries=4, on_release=_release, show_spinner=False)
def _reader(folder: str, mtime_ns: int) -> _Reader:
    import duckdb

    from projections.queries import connect_read

    try:
        return _Reader(connect_read(Path(folder)), Path(folder) / PUBLISHED_FILE, mtime_ns)
    except (duckdb.Error, OSError) as exc:  # removed, emptied or written over meanwhile
        raise Unreadable() from exc


def _run(ver: tuple[str, int], name: str, *args):
    from projections import queries

    return _reader(*ver).run(getattr(queries, name), *args)


# --- cached queries (``ver`` is part of the cache key) --------------------------------------

@st.cache_data(max_entries=16, show_spinner=False)
def _list_games(ver: tuple[str, int]) -> list[dict]:
    return list(_run(ver, "list_games"))


@st.cache_data(max_entries=64, show_spinner=False)
def _game_events(ver: tuple[str, int], game: str) -> list[dict]:
    return list(_run(ver, "game_events", game))


@st.cache_data(max_entries=64, show_spinner=False)
def _turn_starts(ver: tuple[str, int], game: str) -> list[tuple[int, int]]:
    return [(int(t), int(s)) for t, s in _run(ver, "turn_starts", game)]


@st.cache_data(max_entries=2048, show_spinner=False)
def _state_at(ver: tuple[str, int], game: str, seq: int, as_ruled: bool = False) -> dict:
    from projections import queries

    return _reader(*ver).run(lambda con: queries.state_at(con, game, seq, as_ruled=as_ruled))


@st.cache_data(max_entries=64, show_spinner=False)
def _dispute_query(ver: tuple[str, int], name: str, game: str, about: tuple[int, ...] = ()) -> list | dict:
    from projections import disputes

    fn = getattr(disputes, name)
    return _reader(*ver).run(lambda con: fn(con, game, list(about)) if about else fn(con, game))


@st.cache_data(max_entries=64, show_spinner=False)
def _header(ver: tuple[str, int], game: str) -> dict:
    from projections.queries import rows

    return _reader(*ver).run(lambda con: rows(con, "SELECT header FROM dim_games WHERE game = $game",
                                               {"game": game})[0]["header"])


@st.cache_data(max_entries=64, show_spinner=False)
def _roll_odds(ver: tuple[str, int], game: str) -> dict[int, float]:
    return dict(_run(ver, "roll_odds", game))


def roll_odds(game: str) -> dict[int, float]:
    return _roll_odds(version(), game)


def list_games() -> list[dict]:
    return _list_games(version())


def game_events(game: str) -> list[dict]:
    return _game_events(version(), game)


def turn_starts(game: str) -> list[tuple[int, int]]:
    return _turn_starts(version(), game)


def state_at(game: str, seq: int, as_ruled: bool = False) -> dict:
    return _state_at(version(), game, int(seq), bool(as_ruled))


def header(game: str) -> dict:
    return _header(version(), game)


def disputes(game: str) -> list[dict]:
    return _dispute_query(version(), "disputes", game)


def rulings(game: str) -> list[dict]:
    return _dispute_query(version(), "rulings", game)


def voided(game: str) -> dict[int, str]:
    """seq -> why the as-ruled game leaves it out (voided by a ruling, taken back, rewound)."""
    return _dispute_query(version(), "voided", game)


def rolls_involved(game: str, about: list[int]) -> list[dict]:
    return _dispute_query(version(), "rolls_involved", game, tuple(about))


def casts_involved(game: str, about: list[int]) -> list[dict]:
    return _dispute_query(version(), "casts_involved", game, tuple(about))


# --- the Replay page's game, sent to the browser once ------------------------------------------

@st.cache_data(max_entries=16, show_spinner=False)
def _state_changes(ver: tuple[str, int], game: str, as_ruled: bool) -> list[tuple]:
    from projections import queries

    return _reader(*ver).run(lambda con: queries.state_changes(con, game, as_ruled=as_ruled))


def state_changes(game: str, as_ruled: bool = False) -> list[tuple]:
    """The per-event changes of ``game``'s replay state, ``(seq, part, key, value)`` as
    ``domain.timeline.state_changes`` gives them, from the read models' state rows."""
    return _state_changes(version(), game, bool(as_ruled))


@st.cache_data(max_entries=64, show_spinner=False)
def _luck_line(ver: tuple[str, int], game: str) -> list[dict]:
    from projections.stats import ANALYTICS_QUERIES, Scope

    return _reader(*ver).run(lambda con: ANALYTICS_QUERIES["luck_line"](con, Scope(game=game)))


def luck_line(game: str) -> list[dict]:
    """Every throw of dice of ``game`` with its luck, z and each player's cumulative luck."""
    return _luck_line(version(), game)


@st.cache_data(max_entries=64, show_spinner=False)
def _swings(ver: tuple[str, int], game: str) -> list[dict]:
    from projections.stats import swings

    return list(_reader(*ver).run(swings, game))


def big_swings(game: str) -> list[dict]:
    """The throws of ``game`` whose luck swing is big: |z| >= 2, z = (observed - expected) / sd of the throw's
    successes (pips for numbered dice) under the dice in force (projections.stats.swings), an outcome about
    1 throw in 20 would beat: seq, player, unit, observed, expected, luck, z_score."""
    return _swings(version(), game)


@st.cache_data(max_entries=8, show_spinner=False)
def _replay_body(ver: tuple[str, int], game: str, as_ruled: bool, upto: int | None) -> bytes:
    import orjson

    from dashboard.stepper import payload

    def shown(rows: list, seq=lambda r: r["seq"]) -> list:
        return rows if upto is None else [r for r in rows if int(seq(r)) <= upto]
    struck = voided(game) if upto is None else _reader(*ver).run(_voided_upto, game, upto)
    body = payload(header(game), shown(game_events(game)), shown(state_changes(game, as_ruled), lambda c: c[0]),
                   struck, shown(big_swings(game)), shown(luck_line(game)), as_ruled)
    return orjson.dumps(body)


def _voided_upto(con, game: str, upto: int) -> dict[int, str]:
    from projections.disputes import voided as query

    return {seq: why for seq, why in query(con, game, upto).items() if seq <= upto}


def replay_body(game: str, as_ruled: bool = False, upto: int | None = None) -> tuple[str, bytes]:
    """(token, JSON) of the Replay page's whole game (dashboard/stepper.py), cached per game; ``upto``: only
    its events up to that seq (a broadcast delay)."""
    ver = version()
    return (f"{game}|{'ruled' if as_ruled else 'played'}|{ver[1]}|{upto if upto is not None else ''}",
            _replay_body(ver, game, bool(as_ruled), upto))


@st.cache_data(ttl=1.0, max_entries=64, show_spinner=False)
def _broadcast(ver: tuple[str, int], game: str | None) -> dict[str, tuple[int, int]]:
    from projections import queries

    return _reader(*ver).run(queries.broadcast, game)


def broadcast(game: str | None = None) -> dict[str, tuple[int, int]]:
    """game -> (broadcast delay in seconds, the last seq spectators may see now) (projections.queries)."""
    return _broadcast(version(), game)


def visible_seq(game: str, privileged: bool) -> tuple[int, int | None]:
    """(the delay, the last seq this viewer may see: None for all) of ``game``: a viewer with a key sees
    everything, a spectator only the events older than its tournament's broadcast delay."""
    delay, seq = broadcast(game).get(game, (0, 0))
    return delay, None if privileged or delay == 0 else seq
