"""Reading the event store's notification log in batches for the projector, parsed by DuckDB.

A batch is one Arrow table of stored rows (notification_id, originator_id, topic, state), which
DuckDB parses (sql/parsed_batch.sql) into the Arrow table the projector loads as its raw table.
The SQLite store is read directly, read-only. A run of several batches is read and parsed by a child
process that streams them as Arrow IPC, so reading overlaps with the projector's DuckDB work (a
thread would not: DuckDB and a busy Python thread take turns with the GIL). Other stores are read
through the application recorder.

    python -m projections.sources EVENTS_SQLITE AFTER BATCH_SIZE   (the child: Arrow IPC on stdout)
"""

from __future__ import annotations

import contextlib
import os
import queue
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

try:
    from fcntl import fcntl
except ImportError:  # not POSIX: the default pipe size
    fcntl = None

import duckdb
import pyarrow as pa

from projections.sqlfiles import sql_text, statements

STORED = pa.schema([("notification_id", pa.int64()), ("originator_id", pa.string()), ("topic", pa.string()),
                    ("state", pa.string())])
READ = "SELECT rowid, originator_id, topic, state FROM stored_events WHERE rowid > ? ORDER BY rowid LIMIT ?"
AHEAD = 2  # parsed batches read ahead of the projector
F_SETPIPE_SZ = 1031  # Linux: a larger pipe, fewer switches between the child and the projector


def stored_table(rows: list[tuple]) -> pa.Table:
    """Stored rows as Arrow; ``state`` (UTF-8 JSON bytes) becomes a string column unchanged."""
    if not rows:
        return STORED.empty_table()
    ids, originators, topics, states = zip(*rows)
    return pa.Table.from_arrays([pa.array(ids, pa.int64()), pa.array(originators, pa.string()),
                                 pa.array(topics, pa.string()), pa.array(states, pa.binary()).view(pa.string())],
                                schema=STORED)


class Parser:
    """Parses stored rows with sql/parsed_batch.sql in a private in-memory DuckDB."""

    def __init__(self) -> None:
        self.con = duckdb.connect(":memory:")
        self.con.execute("SET threads = 1").fetchall()
        self.con.execute("SET arrow_lossless_conversion = true").fetchall()  # JSON stays JSON
        for statement in statements("macros"):
            self.con.execute(statement.sql).fetchall()

    def parse(self, rows: pa.Table) -> pa.Table:
        self.con.register("stored_batch", rows)
        try:
            return self.con.sql(sql_text("parsed_batch")).to_arrow_table()
        finally:
            self.con.unregister("stored_batch")

    def close(self) -> None:
        self.con.close()


class Source:
    """Parsed batches of the notification log after a notification id."""

    def max_id(self) -> int:
        raise NotImplementedError

    def rows(self, after: int, limit: int) -> pa.Table:
        """Up to ``limit`` stored rows after notification ``after``."""
        raise NotImplementedError

    def batches(self, after: int, limit: int) -> Iterator[pa.Table]:
        parser = Parser()
        try:
            while (rows := self.rows(after, limit)).num_rows:
                yield parser.parse(rows)
                after = rows.column("notification_id")[-1].as_py()
        finally:
            parser.close()

    def close(self) -> None:
        pass


class SQLiteSource(Source):
    """The fast path: ``<data>/events.sqlite`` read directly."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) if path.is_file() else None
        self.child: subprocess.Popen | None = None
        self.drain: threading.Thread | None = None
        self.ahead: queue.Queue = queue.Queue(AHEAD)

    def max_id(self) -> int:
        if self.con is None:
            return 0
        return self.con.execute("SELECT coalesce(max(rowid), 0) FROM stored_events").fetchone()[0]

    def rows(self, after: int, limit: int) -> pa.Table:
        return stored_table(self.con.execute(READ, (after, limit)).fetchall() if self.con is not None else [])

    def batches(self, after: int, limit: int) -> Iterator[pa.Table]:
        """The batches: the first read here, the others by a child process started at once."""
        if self.max_id() - after <= limit:  # one batch: nothing to overlap
            return super().batches(after, limit)
        first = self.rows(after, limit)
        self._start_child(first.column("notification_id")[-1].as_py(), limit)
        return self._streamed(first)

    def _start_child(self, after: int, limit: int) -> None:
        root = str(Path(__file__).resolve().parents[1])  # importable in the child even if not installed
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self._stop_child()
        self.child = subprocess.Popen([sys.executable, "-m", "projections.sources", str(self.path), str(after),
                                       str(limit)], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
        if fcntl is not None:
            with contextlib.suppress(OSError):
                fcntl(self.child.stdout.fileno(), F_SETPIPE_SZ, 1 << 20)
        # A thread drains the pipe ahead (up to AHEAD batches): the child need not wait for the
        # projector to finish a batch before it writes the next.
        self.drain = threading.Thread(target=_drain, args=(self.child.stdout, self.ahead), daemon=True,
                                      name="rollcall-ipc")
        self.drain.start()

    def _streamed(self, first: pa.Table) -> Iterator[pa.Table]:
        parser = Parser()
        try:
            yield parser.parse(first)
        finally:
            parser.close()
        while (batch := self.ahead.get()) is not None:
            yield pa.Table.from_batches([batch])
        if self.child.wait() != 0:
            raise RuntimeError(f"reading {self.path} failed (exit status {self.child.returncode})")

    def close(self) -> None:
        self._stop_child()
        if self.con is not None:
            self.con.close()
            self.con = None

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


class RecorderSource(Source):
    """Any other event store, through the application recorder's notification log."""

    def __init__(self, recorder) -> None:
        self.recorder = recorder

    def max_id(self) -> int:
        return self.recorder.max_notification_id() or 0

    def rows(self, after: int, limit: int) -> pa.Table:
        found = self.recorder.select_notifications(after + 1, limit)
        return stored_table([(n.id, _stream(n.originator_id), n.topic, bytes(n.state)) for n in found])


def _drain(pipe, ahead: queue.Queue) -> None:
    """Put each record batch of the Arrow IPC stream on ``pipe`` into ``ahead``, then None."""
    try:
        for batch in pa.ipc.open_stream(pipe):
            ahead.put(batch)
    except (pa.ArrowInvalid, OSError, ValueError):  # nothing written, or the child or the pipe went away
        pass
    finally:
        ahead.put(None)


def _stream(originator_id: UUID | str) -> str:
    return originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")


def main(path: str, after: str, limit: str) -> None:
    """The child: every parsed batch after ``after`` as Arrow IPC on stdout."""
    source = SQLiteSource(Path(path))
    writer = None
    try:
        for batch in Source.batches(source, int(after), int(limit)):
            writer = writer or pa.ipc.new_stream(sys.stdout.buffer, batch.schema)
            writer.write_table(batch)
    finally:
        if writer is not None:
            writer.close()
        source.close()


if __name__ == "__main__":
    try:
        main(*sys.argv[1:])
    except BrokenPipeError:  # the projector stopped reading (it failed or was killed)
        sys.exit(1)
