"""The dashboard's access to the read models: one cached read-only connection, cached queries.

The dashboard only ever opens the *published* read models ``<data>/rollcall.read.duckdb`` (through
``projections.queries.connect_read``), a link to one of two files the projector writes in turn
(projections.publish). The connection is cached per (data folder, modification time of the published
file): when the projector publishes the other file, the next rerun sees a new modification time and opens
it. The projector writes the older file next, once no reader holds it: so a connection to a file no longer
published is closed within a quarter of a second (``_let_go``), whether or not any page runs.

Query results are cached with ``st.cache_data`` under the same version token, so a republish
invalidates them too. A DuckDB connection is not for concurrent use by several threads (and in
DuckDB 2.0 results stream), so each query runs under the connection's lock and fetches everything.

Every read of games takes what the viewer may see (``seen``: projections.visibility; the page gets it from
dashboard.viewer), so a tournament's broadcast delay holds on every page: a game kept behind is read up to its
last seq shown, and only that is cached and sent.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from domain import settings
from domain.settings import PUBLISHED_FILE
from projections.visibility import Seen
from i18n import N_, _, current


# what a visitor is told before anything is recorded (never the server's folder, nor commands to run there)
NOTHING_YET = N_("Nothing has been recorded yet: the games appear here as soon as they are.")
UNREADABLE = N_("The games cannot be read just now: they are being published again, and this page shows them by "
                "itself in a moment.")


class NoReadModels(RuntimeError):
    """The data folder has no published read models yet (its message: NOTHING_YET, for any visitor; ``str()``
    says it in the language of the page that shows it)."""

    def __init__(self, message: str = NOTHING_YET) -> None:
        super().__init__(message)

    def __str__(self) -> str:
        return _(super().__str__())


class Unreadable(NoReadModels):
    """The published read models do not open or read just now (damaged or removed: the follower publishes them
    again)."""

    def __init__(self) -> None:
        super().__init__(UNREADABLE)


def data_dir() -> Path:
    """The data folder (domain.settings), resolved."""
    return settings.data_dir().resolve()


def published_path() -> Path:
    return data_dir() / PUBLISHED_FILE


def version() -> tuple[str, int]:
    """(data folder, when its read models were last published: projections.queries.published_version): the key of
    every cache below."""
    from projections.queries import published_version

    path = published_path()
    try:
        mtime = published_version(path.parent)
    except FileNotFoundError:
        from projections.follow import lag

        if lag(path.parent) is not None:  # a follower follows the folder: it publishes the copy again
            raise Unreadable() from None
        raise NoReadModels(NOTHING_YET) from None
    return str(path.parent), mtime


@dataclass(eq=False)
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
                    changed = _published(self.path) != self.mtime_ns
                except OSError:
                    changed = True
                if changed:
                    raise Unreadable() from exc
                raise


def _release(reader: _Reader) -> None:
    with reader.lock:
        reader.con.close()


def _published(path: Path) -> int | None:
    """The version of the read models ``path`` (a data folder's published link) names now (None: none)."""
    from projections.queries import published_version

    try:
        return published_version(path.parent)
    except OSError:
        return None


_OPEN: set[_Reader] = set()  # the connections open now (each one's own lock guards it)
_OPEN_LOCK = threading.Lock()
LET_GO_SECONDS = 0.25  # how often open connections are looked at


def _let_go() -> None:
    """Close every connection to a file no longer published (the projector waits to write it), for as long as
    the dashboard runs."""
    while True:
        with _OPEN_LOCK:
            readers = list(_OPEN)
        for reader in readers:
            published = _published(reader.path) == reader.mtime_ns
            if not published:
                _release(reader)  # a query on it then says Unreadable: the page reads the new file
                with _OPEN_LOCK:
                    _OPEN.discard(reader)
        threading.Event().wait(LET_GO_SECONDS)


@st.cache_resource(show_spinner=False)
def _letting_go() -> threading.Thread:
    thread = threading.Thread(target=_let_go, name="rollcall read models let go", daemon=True)
    thread.start()
    return thread


@st.cache_resource(max_entries=4, on_release=_release, show_spinner=False)
def _reader(folder: str, mtime_ns: int) -> _Reader:
    import duckdb

    from projections.queries import connect_read

    _letting_go()
    try:
        reader = _Reader(connect_read(Path(folder)), Path(folder) / PUBLISHED_FILE, mtime_ns)
    except (duckdb.Error, OSError) as exc:  # removed, emptied or written over meanwhile
        raise Unreadable() from exc
    with _OPEN_LOCK:
        _OPEN.add(reader)
    return reader


def _on(ver: tuple[str, int], fn, *args):
    """``fn(con, *args)`` on the read models of version ``ver``; if they were published over meanwhile (their
    connection let go: the projector writes that file next), on the read models published now."""
    try:
        return _reader(*ver).run(fn, *args)
    except Unreadable:
        now = version()
        if now == ver:
            raise
        return _reader(*now).run(fn, *args)


def _run(ver: tuple[str, int], name: str, *args):
    from projections import queries

    return _on(ver, getattr(queries, name), *args)


# --- cached queries (``ver`` is part of the cache key) --------------------------------------

# --- what the viewer may see (projections.visibility) -------------------------------------------

@st.cache_data(ttl=1.0, max_entries=16, show_spinner=False)
def _seen(ver: tuple[str, int], privileged: bool) -> Seen:
    from projections.visibility import seen

    return _on(ver, lambda con: seen(con, privileged=privileged))


def seen(privileged: bool) -> Seen:
    """What a viewer sees now: everything when ``privileged`` (signed in with a key), else each game of a
    delayed tournament up to its last event older than the delay (looked at again after a second)."""
    return _seen(version(), bool(privileged))


@st.cache_data(max_entries=16, show_spinner=False)
def _list_games(ver: tuple[str, int], seen: Seen) -> list[dict]:
    return list(_run(ver, "list_games", seen))


@st.cache_data(max_entries=64, show_spinner=False)
def _game_events(ver: tuple[str, int], game: str, upto: int | None) -> list[dict]:
    return list(_run(ver, "game_events", game, upto))


@st.cache_data(max_entries=64, show_spinner=False)
def _turn_starts(ver: tuple[str, int], game: str, upto: int | None) -> list[tuple[int, int]]:
    return [(int(t), int(s)) for t, s in _run(ver, "turn_starts", game, upto)]


@st.cache_data(max_entries=2048, show_spinner=False)
def _state_at(ver: tuple[str, int], game: str, seq: int, as_ruled: bool, upto: int | None) -> dict:
    from projections import queries

    return _on(ver, lambda con: queries.state_at(con, game, seq, as_ruled=as_ruled, upto=upto))


@st.cache_data(max_entries=64, show_spinner=False)
def _dispute_query(ver: tuple[str, int], name: str, game: str, upto: int | None,
                   about: tuple[int, ...] = ()) -> list | dict:
    from projections import disputes

    fn = getattr(disputes, name)
    return _on(ver, lambda con: fn(con, game, list(about), upto) if about else fn(con, game, upto))


@st.cache_data(max_entries=64, show_spinner=False)
def _header(ver: tuple[str, int], game: str) -> dict:
    from projections.queries import rows

    return _on(ver, lambda con: rows(con, "SELECT header FROM dim_games WHERE game = $game",
                                               {"game": game})[0]["header"])


@st.cache_data(max_entries=64, show_spinner=False)
def _roll_odds(ver: tuple[str, int], game: str, upto: int | None) -> dict[int, float]:
    return dict(_run(ver, "roll_odds", game, upto))


def roll_odds(game: str, seen: Seen) -> dict[int, float]:
    return _roll_odds(version(), game, seen.upto(game))


def list_games(seen: Seen) -> list[dict]:
    """Every game as ``seen`` sees it (a game kept behind: its events, turn and result then)."""
    return _list_games(version(), seen)


def game_events(game: str, seen: Seen) -> list[dict]:
    return _game_events(version(), game, seen.upto(game))


def turn_starts(game: str, seen: Seen) -> list[tuple[int, int]]:
    return _turn_starts(version(), game, seen.upto(game))


def state_at(game: str, seq: int, seen: Seen, as_ruled: bool = False) -> dict:
    """The state after ``seq``, no later than the last seq ``seen`` shows of the game."""
    return _state_at(version(), game, int(seq), bool(as_ruled), seen.upto(game))


def header(game: str) -> dict:
    """The game's header: its setup (seq 0), which everyone may see."""
    return _header(version(), game)


def disputes(game: str, seen: Seen) -> list[dict]:
    return _dispute_query(version(), "disputes", game, seen.upto(game))


def rulings(game: str, seen: Seen) -> list[dict]:
    return _dispute_query(version(), "rulings", game, seen.upto(game))


def voided(game: str, seen: Seen) -> dict[int, str]:
    """seq -> why the as-ruled game leaves it out (voided by a ruling, taken back, rewound)."""
    return _dispute_query(version(), "voided", game, seen.upto(game))


def rolls_involved(game: str, about: list[int], seen: Seen) -> list[dict]:
    return _dispute_query(version(), "rolls_involved", game, seen.upto(game), tuple(about))


def casts_involved(game: str, about: list[int], seen: Seen) -> list[dict]:
    return _dispute_query(version(), "casts_involved", game, seen.upto(game), tuple(about))


def clock_around(game: str, about: list[int], seen: Seen) -> list[dict]:
    return _dispute_query(version(), "clock_around", game, seen.upto(game), tuple(about))


# --- the Replay page's game, sent to the browser once ------------------------------------------

@st.cache_data(max_entries=16, show_spinner=False)
def _state_changes(ver: tuple[str, int], game: str, as_ruled: bool, upto: int | None) -> list[tuple]:
    from projections import queries

    return _on(ver, lambda con: queries.state_changes(con, game, as_ruled=as_ruled, upto=upto))


def state_changes(game: str, seen: Seen, as_ruled: bool = False) -> list[tuple]:
    """The per-event changes of ``game``'s replay state, ``(seq, part, key, value)`` as
    ``domain.timeline.state_changes`` gives them, from the read models' state rows."""
    return _state_changes(version(), game, bool(as_ruled), seen.upto(game))


@st.cache_data(max_entries=64, show_spinner=False)
def _luck_line(ver: tuple[str, int], game: str, seen: Seen) -> list[dict]:
    from projections.stats import ANALYTICS_QUERIES, Scope

    return _on(ver, lambda con: ANALYTICS_QUERIES["luck_line"](con, Scope(game=game, seen=seen)))


def luck_line(game: str, seen: Seen) -> list[dict]:
    """Every throw of dice of ``game`` with its luck, z and each player's cumulative luck."""
    return _luck_line(version(), game, seen.only(game))


@st.cache_data(max_entries=64, show_spinner=False)
def _swings(ver: tuple[str, int], game: str, upto: int | None) -> list[dict]:
    from projections.stats import swings

    return list(_on(ver, swings, game, upto))


def big_swings(game: str, seen: Seen) -> list[dict]:
    """The throws of ``game`` whose luck swing is big: |z| >= 2, z = (observed - expected) / sd of the throw's
    successes (pips for numbered dice) under the dice in force (projections.stats.swings), an outcome about
    1 throw in 20 would beat: seq, player, unit, observed, expected, luck, z_score."""
    return _swings(version(), game, seen.upto(game))


@st.cache_data(max_entries=8, show_spinner=False)
def _replay_body(ver: tuple[str, int], game: str, as_ruled: bool, seen: Seen, lang: str) -> bytes:
    """(``lang``: the language its words are in, part of the cache's key; the body is made in it)"""
    import orjson

    from dashboard.stepper import payload

    body = payload(header(game), game_events(game, seen), state_changes(game, seen, as_ruled), voided(game, seen),
                   big_swings(game, seen), luck_line(game, seen), as_ruled)
    return orjson.dumps(body)


def replay_body(game: str, seen: Seen, as_ruled: bool = False) -> tuple[str, bytes]:
    """(token, JSON) of the Replay page's whole game (dashboard/stepper.py) as ``seen`` sees it, cached per game
    and last seq shown."""
    ver, upto = version(), seen.upto(game)
    lang = current()
    return (f"{game}|{'ruled' if as_ruled else 'played'}|{ver[1]}|{upto if upto is not None else ''}|{lang}",
            _replay_body(ver, game, bool(as_ruled), seen.only(game), lang))


# --- the spectators' snapshots, as a signed-in viewer sees them (projections.spectators) ------------------------

@st.cache_data(max_entries=32, show_spinner=False)
def _bundle(ver: tuple[str, int], wanted: str, seen: Seen) -> list[bytes]:
    from projections.spectators import bundle

    return _on(ver, lambda con: bundle(con, wanted, seen))


def bundle(wanted: str, seen: Seen) -> list[bytes]:
    """The snapshot ``wanted`` and what it follows (a round and its tables) as ``seen`` sees them now."""
    return _bundle(version(), wanted, seen)
