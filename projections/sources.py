"""Reading the event store's notification log in batches for the projector, replayed (projections.replay).

A batch is the stored rows (notification id, originator id, topic, state) of a window of notification ids,
turned by the Replayer into the Arrow tables the projector loads. The SQLite store is read directly, read-only.
A long run of batches is read and replayed by child processes, one per core: each replays its own share
of the games (a game's stream goes to one child by its id; the rows of other aggregates to the first) over
the same windows of notification ids and streams its tables to the projector, which loads a window's
tables from every child together in one transaction. The replay overlaps with the projector's DuckDB
work and uses every core (a thread would not: DuckDB and a busy Python thread take turns with the GIL).
A PostgreSQL store is read the same way, each window one statement; other stores through the
application's recorder.

A child is ``python -m projections.reading KIND WHERE AFTER UPTO BATCH_SIZE PART PARTS`` (:func:`main`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from projections.replay import Replayer
from store.rows import Plain, PostgresRows, RecorderRows, SQLiteRows, StoredRows, opened_rows

AHEAD = 2  # replayed batches each child reads ahead of the projector
MAX_PARTS = 4  # replaying children at most (one per core)
F_SETPIPE_SZ = 1031  # Linux: a larger pipe, fewer switches between the child and the projector


@dataclass
class Replayed:
    """One batch as the projector loads it: its tables (projections.replay), the last notification id read,
    and how many stored rows it read."""

    tables: dict[str, pa.Table]
    last_id: int
    read: int


class Source:
    """Replayed batches of the notification log after a notification id, read from the store's rows
    (store.rows: the one place that reads stored rows, their states given back as JSON)."""

    rows: StoredRows

    def max_id(self) -> int:
        return self.rows.max_id()

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[tuple[int, str, str, bytes]]:
        """The stored rows (id, stream id hex, topic, state) of notifications ``after`` < id <= ``upto`` that fall
        to child ``part`` of ``parts`` (by default all of them)."""
        return self.rows.share(after, upto, part, parts)

    def lines(self, stream: str, upto: int) -> list[bytes]:
        """The stored states of a game's aggregate, versions 1 to ``upto``."""
        return self.rows.lines(stream, upto)

    def batches(self, after: int, limit: int, upto: int | None = None) -> Iterator[Replayed]:
        """Every stored row after notification ``after`` (up to ``upto``; None: the last), replayed here in windows
        of ``limit`` ids."""
        return self.shares(after, self.max_id() if upto is None else upto, limit, 0, 1)

    def shares(self, after: int, upto: int, limit: int, part: int, parts: int) -> Iterator[Replayed]:
        """A child's replayed share of every window of ``limit`` notification ids from ``after`` to ``upto``
        (one batch a window, empty or not: the children's batches pair up)."""
        replayer = Replayer(self.lines)
        while after < upto:
            end = min(after + limit, upto)
            with collector_paused():
                rows = self.share(after, end, part, parts)
                tables = replayer.batch(rows).tables()
            yield Replayed(tables, end, len(rows))
            after = end

    def close(self) -> None:
        self.rows.close()


@dataclass(frozen=True)
class Scope:
    """What a cold start projects first (a store too large to wait for): the streams begun since notification
    ``since`` — the current tournament's games, from its first game on, and whatever began meanwhile — and the
    tournament's own stream (``stream``, hex)."""

    since: int
    tournament: str
    stream: str


from domain.topics import GAME_CREATED  # noqa: E402
SCOPE_WINDOW = 200_000  # notification ids looked at at once, backwards, for the current tournament's first game


def current_scope(source: Source) -> Scope | None:
    """The scope of the tournament whose game began last (None: that game is in no tournament, or no game
    is stored): its first game found by looking back through the store's games window by window until a
    window that holds games but none of it."""
    import orjson

    from domain.tournaments import tournament_uuid

    upto, tournament, since = source.max_id(), None, None
    while upto > 0:
        after = max(upto - SCOPE_WINDOW, 0)
        created = source.rows.of_topic(after, upto, GAME_CREATED)
        mine = []
        for rowid, state in reversed(created):
            name = orjson.loads(state).get("data", {}).get("tournament")
            if tournament is None and name is None:
                return None
            tournament = tournament or name
            if name == tournament:
                mine.append(rowid)
        if mine:
            since = min(mine)
        elif created and since is not None:
            break
        upto = after
    if since is None:
        return None
    return Scope(since, tournament, tournament_uuid(tournament).hex)


class ScopedSource(Source):
    """A source's rows of one scope only (read here, not by children: a scope is a tournament's size)."""

    def __init__(self, source: Source, scope: Scope) -> None:
        self.source, self.scope, self.rows = source, scope, source.rows

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[tuple[int, str, str, bytes]]:
        return self.rows.scoped(after, upto, self.scope.since, self.scope.stream)

    def batches(self, after: int, limit: int, upto: int | None = None) -> Iterator[Replayed]:
        return self.shares(after, self.max_id() if upto is None else upto, limit, 0, 1)

    def close(self) -> None:
        self.source.close()


class _Child:
    """A reading child (``python -m projections.reading ...``) and the thread that drains its pipe ahead."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.where = " ".join(args[:2])
        self.process = subprocess.Popen([sys.executable, "-m", "projections.reading", *args],
                                        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
        if hasattr(os, "O_NONBLOCK"):  # Linux: a larger pipe, fewer switches between the child and the projector
            with contextlib.suppress(OSError, ImportError):
                from fcntl import fcntl

                fcntl(self.process.stdout.fileno(), F_SETPIPE_SZ, 1 << 20)
        # A thread drains the pipe ahead (up to AHEAD batches): the child need not wait for the
        # projector to finish a batch before it writes the next.
        self.ahead: queue.Queue = queue.Queue(AHEAD)
        self.drain = threading.Thread(target=_drain, args=(self.process.stdout, self.ahead), daemon=True,
                                      name="rollcall-replay")
        self.drain.start()

    def next(self) -> Replayed | None:
        """Its next batch; None at its end (an error if it failed)."""
        batch = self.ahead.get()
        if isinstance(batch, Exception):
            raise RuntimeError(f"reading {self.where} failed: {batch}") from batch  # untranslated: the follower's log
        if batch is None and self.process.wait() != 0:
            raise RuntimeError(f"reading {self.where} failed (exit status {self.process.returncode})")  # untranslated: the follower's log
        return batch

    def stop(self) -> None:
        """Stop it and its drain: done, or the projector failed."""
        self.process.kill()
        self.process.wait()
        while self.drain.is_alive():  # it ends once it can put its last None
            with contextlib.suppress(queue.Empty):
                self.ahead.get(timeout=0.1)
        self.process.stdout.close()


class _Streamed(Source):
    """A source whose long runs of batches children read and replay ahead, each its share of the games."""

    def __init__(self) -> None:
        self.children: list[_Child] = []

    def child_args(self) -> list[str]:
        """KIND and WHERE: what the child opens (see :func:`opened`)."""
        raise NotImplementedError

    def child_env(self) -> dict[str, str]:
        """The settings the child needs beyond the environment's."""
        return {}

    def batches(self, after: int, limit: int, upto: int | None = None) -> Iterator[Replayed]:
        """One batch read here; more by children started at once, which replay them ahead."""
        upto = self.max_id() if upto is None else upto
        if upto - after <= limit:  # one batch: nothing to overlap
            return self.shares(after, upto, limit, 0, 1)
        self._start_children(after, upto, limit)
        return self._streamed()

    def _start_children(self, after: int, upto: int, limit: int) -> None:
        root = str(Path(__file__).resolve().parents[1])  # importable in the child even if not installed
        env = {**os.environ, **self.child_env(),
               "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self._stop_children()
        parts = max(1, min(os.cpu_count() or 1, MAX_PARTS))
        self.children = [_Child([*self.child_args(), str(after), str(upto), str(limit), str(part), str(parts)], env)
                         for part in range(parts)]

    def _streamed(self) -> Iterator[Replayed]:
        """Each window's batches of every child, loaded as one."""
        while True:
            got = [child.next() for child in self.children]
            if all(batch is None for batch in got):
                return
            if any(batch is None for batch in got):
                raise RuntimeError("a reading child ended early")  # untranslated: the follower's log
            yield got[0] if len(got) == 1 else Replayed(
                {name: pa.concat_tables([batch.tables[name] for batch in got]) for name in got[0].tables},
                got[0].last_id, sum(batch.read for batch in got))

    def close(self) -> None:
        self._stop_children()

    def _stop_children(self) -> None:
        for child in self.children:
            child.stop()
        self.children = []


class SQLiteSource(_Streamed):
    """The fast path: ``<data>/events.sqlite`` read directly."""

    def __init__(self, path: Path, plain: Plain | None = None) -> None:
        super().__init__()
        self.path = path
        self.rows = SQLiteRows(path, plain)

    def child_args(self) -> list[str]:
        return ["sqlite", str(self.path)]


class PostgresSource(_Streamed):
    """A PostgreSQL store (store.rows.PostgresRows). A child opens the store alone, not the application
    (``name``: the application's, whose settings it reads), with the settings of ``env`` (the application's:
    PERSISTENCE_MODULE and POSTGRES_*)."""

    def __init__(self, recorder, env: dict[str, str] | None, name: str, plain: Plain | None = None) -> None:
        super().__init__()
        self.name = name
        self.rows = PostgresRows(recorder, plain)
        self.env = {k: str(v) for k, v in (env or {}).items() if k.startswith("POSTGRES_") or k == "PERSISTENCE_MODULE"}

    def child_args(self) -> list[str]:
        return ["postgres", f"{self.name}:{self.rows.recorder.events_table_name}"]

    def child_env(self) -> dict[str, str]:
        return self.env


def opened(kind: str, where: str) -> Source:
    """The source a reading child opens: ``sqlite PATH``, or ``postgres APP_NAME:EVENTS_TABLE`` — the store
    alone, with the application's settings from the environment (store.rows.opened)."""
    if kind == "sqlite":
        return SQLiteSource(Path(where))
    source = Source()
    source.rows = opened_rows(kind, where)
    return source


class RecorderSource(Source):
    """Any other event store, through the application recorder's notification log."""

    def __init__(self, recorder, plain: Plain | None = None) -> None:
        self.rows = RecorderRows(recorder, plain)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a batch is read and replayed. A batch makes many
    objects and frees few until it ends (its rows, the games' lines), so the collector would walk them again
    and again: about 40% of a reading child's time (measured: bench/postgres_follow.py). What a batch
    leaves is freed by reference counting, and any cycles at the next collection after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _drain(pipe, ahead: queue.Queue) -> None:
    """Put each pickled batch on ``pipe`` into ``ahead``, then None (whatever happens: the projector waits)."""
    try:
        while True:
            ahead.put(pickle.load(pipe))
    except EOFError:  # the end, or the child went away (the projector then checks its exit status)
        pass
    except Exception as exc:  # noqa: BLE001  given to the projector, which raises it
        ahead.put(exc)
    finally:
        ahead.put(None)


def main(kind: str, where: str, after: str, upto: str, limit: str, part: str, parts: str) -> None:
    """A child: its replayed share of every window from ``after`` to ``upto``, pickled on stdout. It lives
    for one run and its replay makes no cyclic garbage (measured: the same peak memory with the collector and
    without), so the cyclic collector stays off: what survives a batch is not walked again after each."""
    gc.disable()
    source = opened(kind, where)
    out = sys.stdout.buffer
    try:
        for batch in source.shares(int(after), int(upto), int(limit), int(part), int(parts)):  # replayed here
            pickle.dump(batch, out, protocol=pickle.HIGHEST_PROTOCOL)
            out.flush()
    finally:
        source.close()
