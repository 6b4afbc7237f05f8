"""Reading the event store's notification log in batches for the projector, replayed (projections.replay).

A batch is the stored rows (notification id, originator id, topic, state) after a notification id, turned
by the Replayer into the Arrow tables the projector loads. The SQLite store is read directly, read-only.
A run of several batches is read and replayed by a child process that streams the tables to the
projector, so the replay overlaps with the projector's DuckDB work (a thread would not: DuckDB and a busy
Python thread take turns with the GIL). A PostgreSQL store is read the same way, each batch one statement;
other stores through the application's recorder.

    python -m projections.sources sqlite EVENTS_SQLITE AFTER BATCH_SIZE   (the child: pickled batches on stdout)
    python -m projections.sources postgres DATA_DIR AFTER BATCH_SIZE      (POSTGRES_* from the environment)
"""

from __future__ import annotations

import contextlib
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

READ = "SELECT rowid, originator_id, topic, state FROM stored_events WHERE rowid > ? ORDER BY rowid LIMIT ?"
LINES = ("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version <= ? "
         "ORDER BY originator_version")
AHEAD = 2  # replayed batches read ahead of the projector
F_SETPIPE_SZ = 1031  # Linux: a larger pipe, fewer switches between the child and the projector


@dataclass
class Replayed:
    """One batch as the projector loads it: its tables (projections.replay), the last notification id read,
    and how many stored rows it read."""

    tables: dict[str, pa.Table]
    last_id: int
    read: int


class Source:
    """Replayed batches of the notification log after a notification id."""

    def max_id(self) -> int:
        raise NotImplementedError

    def rows(self, after: int, limit: int) -> list[tuple[int, str, str, bytes]]:
        """Up to ``limit`` stored rows after notification ``after``: (id, stream id hex, topic, state)."""
        raise NotImplementedError

    def lines(self, stream: str, upto: int) -> list[bytes]:
        """The stored states of a game's aggregate, versions 1 to ``upto``."""
        raise NotImplementedError

    def batches(self, after: int, limit: int) -> Iterator[Replayed]:
        replayer = Replayer(self.lines)
        while rows := self.rows(after, limit):
            batch = replayer.batch(rows)
            after = rows[-1][0]
            yield Replayed(batch.tables(), after, len(rows))

    def close(self) -> None:
        pass


class _Streamed(Source):
    """A source whose runs of several batches a child process reads and replays ahead
    (``python -m projections.sources KIND WHERE AFTER BATCH_SIZE``)."""

    def __init__(self) -> None:
        self.child: subprocess.Popen | None = None
        self.drain: threading.Thread | None = None
        self.ahead: queue.Queue = queue.Queue(AHEAD)

    def child_args(self) -> list[str]:
        """KIND and WHERE: what the child opens (see :func:`opened`)."""
        raise NotImplementedError

    def child_env(self) -> dict[str, str]:
        """The settings the child needs beyond the environment's."""
        return {}

    def batches(self, after: int, limit: int) -> Iterator[Replayed]:
        """One batch read here; more by a child process started at once, which replays them ahead."""
        if self.max_id() - after <= limit:  # one batch: nothing to overlap
            return super().batches(after, limit)
        self._start_child(after, limit)
        return self._streamed()

    def _start_child(self, after: int, limit: int) -> None:
        root = str(Path(__file__).resolve().parents[1])  # importable in the child even if not installed
        env = {**os.environ, **self.child_env(),
               "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self._stop_child()
        self.child = subprocess.Popen([sys.executable, "-m", "projections.sources", *self.child_args(), str(after),
                                       str(limit)], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
        if hasattr(os, "O_NONBLOCK"):  # Linux: a larger pipe
            with contextlib.suppress(OSError, ImportError):
                from fcntl import fcntl

                fcntl(self.child.stdout.fileno(), F_SETPIPE_SZ, 1 << 20)
        # A thread drains the pipe ahead (up to AHEAD batches): the child need not wait for the
        # projector to finish a batch before it writes the next.
        self.drain = threading.Thread(target=_drain, args=(self.child.stdout, self.ahead), daemon=True,
                                      name="rollcall-replay")
        self.drain.start()

    def _streamed(self) -> Iterator[Replayed]:
        where = " ".join(self.child_args())
        while (batch := self.ahead.get()) is not None:
            if isinstance(batch, Exception):
                raise RuntimeError(f"reading {where} failed: {batch}") from batch
            yield batch
        if self.child.wait() != 0:
            raise RuntimeError(f"reading {where} failed (exit status {self.child.returncode})")

    def close(self) -> None:
        self._stop_child()

    def _stop_child(self) -> None:
        """Stop the reading child and its drain, if any: done, or the projector failed."""
        if self.child is not None:
            self.child.kill()
            self.child.wait()
        if self.drain is not None:
            while self.drain.is_alive():  # it ends once it can put its last None
                with contextlib.suppress(queue.Empty):
                    self.ahead.get(timeout=0.1)
            self.drain = None
        if self.child is not None:
            self.child.stdout.close()
            self.child = None
        self.ahead = queue.Queue(AHEAD)


class SQLiteSource(_Streamed):
    """The fast path: ``<data>/events.sqlite`` read directly."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) if path.is_file() else None

    def child_args(self) -> list[str]:
        return ["sqlite", str(self.path)]

    def max_id(self) -> int:
        if self.con is None:
            return 0
        return self.con.execute("SELECT coalesce(max(rowid), 0) FROM stored_events").fetchone()[0]

    def rows(self, after: int, limit: int) -> list[tuple[int, str, str, bytes]]:
        return self.con.execute(READ, (after, limit)).fetchall() if self.con is not None else []

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
    row). With psycopg's C implementation this reads twice as fast as COPY's rows (measured:
    bench/postgres_follow.py). The child opens the application of ``data_dir`` with the store's
    settings of ``env`` (the application's: PERSISTENCE_MODULE and POSTGRES_*)."""

    def __init__(self, recorder, data_dir: Path, env: dict[str, str] | None = None) -> None:
        from psycopg import sql

        super().__init__()
        self.recorder, self.data_dir, self.app = recorder, data_dir, None
        self.env = {k: str(v) for k, v in (env or {}).items() if k.startswith("POSTGRES_") or k == "PERSISTENCE_MODULE"}
        table = sql.SQL("{}.{}").format(sql.Identifier(recorder.datastore.schema),
                                        sql.Identifier(recorder.events_table_name))
        self.read = sql.SQL("SELECT notification_id, replace(originator_id::text, '-', ''), topic, state FROM {} "
                            "WHERE notification_id > %s ORDER BY notification_id LIMIT %s").format(table)
        self.last = sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {}").format(table)

    def _fetch(self, statement, params=()) -> list[tuple]:
        from psycopg.rows import tuple_row

        with self.recorder.datastore.get_connection() as con, con.cursor(row_factory=tuple_row) as cur:
            cur.execute(statement, params, prepare=True, binary=True)
            return cur.fetchall()

    def max_id(self) -> int:
        return int(self._fetch(self.last)[0][0])

    def rows(self, after: int, limit: int) -> list[tuple[int, str, str, bytes]]:
        return self._fetch(self.read, (after, limit))

    def child_args(self) -> list[str]:
        return ["postgres", str(self.data_dir)]

    def child_env(self) -> dict[str, str]:
        return self.env

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [bytes(s.state) for s in self.recorder.select_events(UUID(stream), lte=upto)]

    def close(self) -> None:
        super().close()
        if self.app is not None:
            self.app.close()
            self.app = None


def opened(kind: str, where: str) -> Source:
    """The source a reading child opens: ``sqlite PATH`` or ``postgres DATA_DIR``."""
    if kind == "sqlite":
        return SQLiteSource(Path(where))
    from domain.application import Rollcall

    app = Rollcall.open(where)
    source = PostgresSource(app.recorder, Path(where))
    source.app = app  # closed with the source (a dropped application closes its connections)
    return source


class RecorderSource(Source):
    """Any other event store, through the application recorder's notification log."""

    def __init__(self, recorder) -> None:
        self.recorder = recorder

    def max_id(self) -> int:
        return self.recorder.max_notification_id() or 0

    def rows(self, after: int, limit: int) -> list[tuple[int, str, str, bytes]]:
        found = self.recorder.select_notifications(after + 1, limit)
        return [(n.id, _stream(n.originator_id), n.topic, bytes(n.state)) for n in found]

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [bytes(s.state) for s in self.recorder.select_events(UUID(stream), lte=upto)]


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


def main(kind: str, where: str, after: str, limit: str) -> None:
    """The child: every replayed batch after ``after``, pickled on stdout."""
    source = opened(kind, where)
    out = sys.stdout.buffer
    try:
        for batch in Source.batches(source, int(after), int(limit)):  # read and replayed here
            pickle.dump(batch, out, protocol=pickle.HIGHEST_PROTOCOL)
            out.flush()
    finally:
        source.close()


if __name__ == "__main__":
    from projections import sources  # the batches' classes as the projector knows them (not __main__'s)

    try:
        sources.main(*sys.argv[1:])
    except BrokenPipeError:  # the projector stopped reading (it failed or was killed)
        sys.exit(1)
