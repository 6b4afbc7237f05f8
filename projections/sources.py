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
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import pyarrow as pa

from projections.replay import Replayer
from store.rows import Plain, as_stored, of_settings

# A share of a window of notification ids: the events of the games whose stream id ends in a hex digit that
# falls to it, and (the first share) every row of other aggregates. One share of one: the whole window.
READ_SHARE = ("SELECT rowid, originator_id, topic, state FROM stored_events WHERE rowid > ? AND rowid <= ? AND "
              "(CASE WHEN substr(topic, 1, 9) = 'rollcall:' "
              "THEN (instr('0123456789abcdef', lower(substr(originator_id, -1, 1))) - 1) % ? ELSE 0 END) = ? "
              "ORDER BY rowid")
LINES = ("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version <= ? "
         "ORDER BY originator_version")
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
    """Replayed batches of the notification log after a notification id. ``plain`` reads a stored state back
    as its JSON (store.rows: a cipher or compressor the store's settings configure, undone)."""

    plain: Plain = as_stored

    def max_id(self) -> int:
        raise NotImplementedError

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[tuple[int, str, str, bytes]]:
        """The stored rows (id, stream id hex, topic, state) of notifications ``after`` < id <= ``upto`` that fall
        to child ``part`` of ``parts`` (READ_SHARE; by default all of them)."""
        raise NotImplementedError

    def lines(self, stream: str, upto: int) -> list[bytes]:
        """The stored states of a game's aggregate, versions 1 to ``upto``."""
        raise NotImplementedError

    def batches(self, after: int, limit: int) -> Iterator[Replayed]:
        """Every stored row after notification ``after``, replayed here in windows of ``limit`` ids."""
        return self.shares(after, self.max_id(), limit, 0, 1)

    def shares(self, after: int, upto: int, limit: int, part: int, parts: int) -> Iterator[Replayed]:
        """A child's replayed share of every window of ``limit`` notification ids from ``after`` to ``upto``
        (one batch a window, empty or not: the children's batches pair up)."""
        plain = self.plain
        replayer = Replayer(self.lines if plain is as_stored else lambda stream, n: [plain(s) for s in self.lines(stream, n)])
        while after < upto:
            end = min(after + limit, upto)
            with collector_paused():
                rows = self.share(after, end, part, parts)
                if plain is not as_stored:
                    rows = [(i, stream, topic, plain(state)) for i, stream, topic, state in rows]
                tables = replayer.batch(rows).tables()
            yield Replayed(tables, end, len(rows))
            after = end

    def close(self) -> None:
        pass


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
            raise RuntimeError(f"reading {self.where} failed: {batch}") from batch
        if batch is None and self.process.wait() != 0:
            raise RuntimeError(f"reading {self.where} failed (exit status {self.process.returncode})")
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

    def batches(self, after: int, limit: int) -> Iterator[Replayed]:
        """One batch read here; more by children started at once, which replay them ahead."""
        upto = self.max_id()
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
                raise RuntimeError("a reading child ended early")
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
        self.plain = of_settings() if plain is None else plain
        self.con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) if path.is_file() else None

    def child_args(self) -> list[str]:
        return ["sqlite", str(self.path)]

    def max_id(self) -> int:
        if self.con is None:
            return 0
        return self.con.execute("SELECT coalesce(max(rowid), 0) FROM stored_events").fetchone()[0]

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[tuple[int, str, str, bytes]]:
        return self.con.execute(READ_SHARE, (after, upto, parts, part)).fetchall() if self.con is not None else []

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [state for (state,) in self.con.execute(LINES, (stream, upto))]

    def close(self) -> None:
        super().close()
        if self.con is not None:
            self.con.close()
            self.con = None


class PostgresSource(_Streamed):
    """A PostgreSQL store (eventsourcing.postgres): each batch one prepared statement fetched whole in
    binary, rows as plain tuples (the recorder's notifications build a Notification and a UUID for each
    row), the stream id made hex by the server. With psycopg's C implementation this reads twice as fast as
    COPY's rows (measured: bench/postgres_follow.py). A child opens the store alone, not the application
    (``name``: the application's, whose settings it reads), with the settings of ``env`` (the application's:
    PERSISTENCE_MODULE and POSTGRES_*)."""

    def __init__(self, recorder, env: dict[str, str] | None, name: str, plain: Plain | None = None) -> None:
        from psycopg import sql

        super().__init__()
        self.recorder, self.name, self.factory = recorder, name, None
        self.env = {k: str(v) for k, v in (env or {}).items() if k.startswith("POSTGRES_") or k == "PERSISTENCE_MODULE"}
        self.plain = of_settings() if plain is None else plain
        table = sql.SQL("{}.{}").format(sql.Identifier(recorder.datastore.schema),
                                        sql.Identifier(recorder.events_table_name))
        self.read_share = sql.SQL(
            "SELECT notification_id, encode(uuid_send(originator_id), 'hex'), topic, state FROM {} "
            "WHERE notification_id > %s AND notification_id <= %s AND (CASE WHEN left(topic, 9) = 'rollcall:' "
            "THEN get_byte(uuid_send(originator_id), 15) %% %s ELSE 0 END) = %s ORDER BY notification_id").format(table)
        self.last = sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {}").format(table)

    def _fetch(self, statement, params=()) -> list[tuple]:
        from psycopg.rows import tuple_row

        with self.recorder.datastore.get_connection() as con, con.cursor(row_factory=tuple_row) as cur:
            cur.execute(statement, params, prepare=True, binary=True)
            return cur.fetchall()

    def max_id(self) -> int:
        return int(self._fetch(self.last)[0][0])

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[tuple[int, str, str, bytes]]:
        return self._fetch(self.read_share, (after, upto, parts, part))

    def child_args(self) -> list[str]:
        return ["postgres", f"{self.name}:{self.recorder.events_table_name}"]

    def child_env(self) -> dict[str, str]:
        return self.env

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [bytes(s.state) for s in self.recorder.select_events(UUID(stream), lte=upto)]

    def close(self) -> None:
        super().close()
        if self.factory is not None:
            self.factory.close()
            self.factory = None


def opened(kind: str, where: str) -> Source:
    """The source a reading child opens: ``sqlite PATH``, or ``postgres APP_NAME:EVENTS_TABLE`` — the store
    alone, with the application's settings from the environment (opening the application would import and
    set up all of it, and ask the server to create its tables: a third of a second per child)."""
    if kind == "sqlite":
        return SQLiteSource(Path(where))
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresFactory
    from eventsourcing.utils import Environment

    name, _, table = where.partition(":")
    factory = PostgresFactory(Environment(name, os.environ))
    source = PostgresSource(PostgresApplicationRecorder(factory.datastore, events_table_name=table), None, name)
    source.factory = factory  # closed with the source
    return source


class RecorderSource(Source):
    """Any other event store, through the application recorder's notification log."""

    def __init__(self, recorder, plain: Plain = as_stored) -> None:
        self.recorder, self.plain = recorder, plain

    def max_id(self) -> int:
        return self.recorder.max_notification_id() or 0

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[tuple[int, str, str, bytes]]:
        if parts != 1:
            raise ValueError("the recorder's notifications are read whole, not shared")
        found = self.recorder.select_notifications(after + 1, max(upto - after, 0), stop=upto)
        return [(n.id, _stream(n.originator_id), n.topic, bytes(n.state)) for n in found]

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [bytes(s.state) for s in self.recorder.select_events(UUID(stream), lte=upto)]


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


def _stream(originator_id: UUID | str) -> str:
    return originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")


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
