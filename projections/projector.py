"""The projector: the event store's notification log -> DuckDB read models, in large batches.

Each batch is one Arrow table and one DuckDB transaction: the rows go into a temporary raw table,
the SQL files of ``projections/sql/`` derive every read model from them (set-based, JSON parsed by
DuckDB), and the tracking position is recorded. A kill at any moment loses at most the open batch,
which the next run projects again. After a run the live file ``<data>/rollcall.duckdb`` is published
as ``<data>/rollcall.read.duckdb``, the only file readers open.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from uuid import UUID

import duckdb
import pyarrow as pa
from eventsourcing.persistence import Tracking

from projections.publish import publish
from projections.sqlfiles import statements
from projections.tracking import CREATE_TABLE as CREATE_TRACKING, DuckDBTrackingRecorder

APPLICATION = "Rollcall"
LIVE_FILE = "rollcall.duckdb"
PUBLISHED_FILE = "rollcall.read.duckdb"

# Read models: each file derives its table from the batch; the order is the order of dependence.
TABLES = ("dim_games", "dim_players", "dim_models", "fct_events", "fct_rolls", "fct_dice", "fct_moves",
          "fct_ejections", "fct_model_states", "fct_terrain_states", "fct_marker_states", "fct_vortex_states",
          "fct_player_states")
DERIVE = ("dim_games", "dim_players", "dim_models", "new_events", "fct_events", "fct_dice", "fct_rolls",
          "model_changes", "fct_model_states", "fct_moves", "fct_ejections", "fct_terrain_states",
          "fct_marker_states", "fct_vortex_states", "fct_player_states", "dim_games_stats")
TOPIC = "rollcall:"
# Small row groups: most of a batch's rows fill whole row groups, which DuckDB writes compressed to the
# file at commit instead of logging them to the WAL and rewriting them at the next checkpoint.
ROW_GROUP_ROWS = 16_384
# Checkpoint seldom while projecting (the end of a run checkpoints before publishing).
SETTINGS = ("SET checkpoint_threshold = '1GB'", "SET threads = 1")

SCHEMA = pa.schema([("notification_id", pa.int64()), ("originator_id", pa.string()), ("topic", pa.string()),
                    ("state", pa.string())])

Progress = Callable[[int, int], None]


def data_path(data_dir: str | os.PathLike | None) -> Path:
    return Path(data_dir or os.environ.get("ROLLCALL_DATA") or "data")


class Projector:
    """Projects the Rollcall event store of ``data_dir`` into ``<data_dir>/rollcall.duckdb``."""

    def __init__(self, data_dir: str | os.PathLike | None, *, app=None) -> None:
        self.data_dir = data_path(data_dir)
        self.app = app
        self.live_path = self.data_dir / LIVE_FILE
        self.published_path = self.data_dir / PUBLISHED_FILE

    def run(self, rebuild: bool = False, batch_size: int = 50_000, progress: Progress | None = None) -> int:
        """Project every event after the tracking position (all of them if ``rebuild``); publish; return the count."""
        source = self._source()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        con = _connect(self.live_path)
        try:
            if rebuild:
                _drop_all(con)
            for statement in statements("schema") + statements("macros"):
                con.execute(statement.sql).fetchall()
            con.execute(CREATE_TRACKING).fetchall()  # DuckDBTrackingRecorder(con) would use a cursor (not live)
            tracking = DuckDBTrackingRecorder(con)
            position = tracking.max_tracking_id_in(con, APPLICATION) or 0
            total = max(source.max_id() - position, 0)
            done = 0
            for batch in _prefetched(source, position, batch_size):
                self._project(con, tracking, batch)
                done += batch.num_rows
                if progress is not None:
                    progress(done, max(total, done))
            if done or rebuild or not self.published_path.exists():
                con.execute("CHECKPOINT").fetchall()  # publish() would checkpoint its cursor's catalog, not live
                publish(con, self.live_path, self.published_path)
            return done
        finally:
            source.close()
            con.close()

    def _project(self, cur: duckdb.DuckDBPyConnection, tracking: DuckDBTrackingRecorder, batch: pa.Table) -> int:
        """One batch in one transaction; returns its last notification id."""
        last_id = batch.column("notification_id")[-1].as_py()
        cur.execute("BEGIN TRANSACTION").fetchall()
        try:
            cur.register("arrow_batch", batch)
            types = _load(cur)
            cur.unregister("arrow_batch")
            for name in DERIVE:
                for statement in statements(name):
                    if statement.needed(types):
                        cur.execute(statement.sql).fetchall()
            tracking.insert_tracking_in(cur, Tracking(APPLICATION, last_id))
            cur.execute("COMMIT").fetchall()
        except BaseException:
            try:
                cur.execute("ROLLBACK").fetchall()
            except duckdb.Error:
                pass
            raise
        return last_id

    def _source(self) -> _Source:
        app = self.app
        if app is None and os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") != "eventsourcing.sqlite":
            from domain.application import Rollcall

            app = self.app = Rollcall.open(self.data_dir)
        if app is None:
            return SQLiteSource(self.data_dir / "events.sqlite")
        if app.env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
            name = app.env.get("SQLITE_DBNAME") or ""
            if name and ":memory:" not in name and Path(name).is_file():
                return SQLiteSource(Path(name))
        return RecorderSource(app.recorder)


def _connect(path: Path) -> duckdb.DuckDBPyConnection:
    """The live file attached with small row groups (see ROW_GROUP_ROWS) as this connection's catalog.

    Only this connection uses it: a cursor of it would start in the in-memory catalog."""
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"ATTACH {_sql_string(str(path))} AS live (ROW_GROUP_SIZE {ROW_GROUP_ROWS})").fetchall()
        con.execute("USE live").fetchall()
        for sql in SETTINGS:
            con.execute(sql).fetchall()
    except BaseException:
        con.close()
        raise
    return con


def _sql_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _load(cur: duckdb.DuckDBPyConnection) -> set[str]:
    """Fill raw_events and new_headers from ``arrow_batch``; the batch's event types (see sqlfiles)."""
    *load, list_types = statements("raw_events")
    for statement in load:
        cur.execute(statement.sql).fetchall()
    topics, (markers, vortices) = cur.execute(list_types.sql).fetchall()[0]
    setup = {"SetupMarkers": markers, "SetupVortices": vortices}
    return {t.removeprefix(TOPIC) for t in topics or ()} | {name for name, some in setup.items() if some}


def _drop_all(cur: duckdb.DuckDBPyConnection) -> None:
    names = [r[0] for r in cur.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND NOT temporary"
    ).fetchall()]
    cur.execute("BEGIN TRANSACTION").fetchall()
    for name in names:
        cur.execute(f'DROP TABLE IF EXISTS "{name}"').fetchall()  # names from the catalog, not values
    cur.execute("COMMIT").fetchall()


# --- reading the notification log ------------------------------------------------------------

def _prefetched(source: _Source, after: int, limit: int) -> Iterator[pa.Table]:
    """The batches after ``after``; the next one is read by a thread while DuckDB works on this one."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="rollcall-read") as reader:
        pending = reader.submit(source.read, after, limit)
        while True:
            batch = pending.result()
            if batch.num_rows == 0:
                return
            pending = reader.submit(source.read, batch.column("notification_id")[-1].as_py(), limit)
            yield batch


class _Source:
    def max_id(self) -> int:
        raise NotImplementedError

    def read(self, after: int, limit: int) -> pa.Table:
        raise NotImplementedError

    def close(self) -> None:
        pass


def _table(columns: list[tuple]) -> pa.Table:
    """Arrow columns of the store's rows; ``state`` (UTF-8 JSON bytes) becomes a string column unchanged."""
    if not columns:
        return SCHEMA.empty_table()
    ids, originators, topics, states = columns
    return pa.Table.from_arrays([pa.array(ids, pa.int64()), pa.array(originators, pa.string()),
                                 pa.array(topics, pa.string()), pa.array(states, pa.binary()).view(pa.string())],
                                schema=SCHEMA)


class SQLiteSource(_Source):
    """The fast path: the SQLite file read directly, read-only."""

    READ = "SELECT rowid, originator_id, topic, state FROM stored_events WHERE rowid > ? ORDER BY rowid LIMIT ?"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.con = None
        if path.is_file():
            self.con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)

    def max_id(self) -> int:
        if self.con is None:
            return 0
        return self.con.execute("SELECT coalesce(max(rowid), 0) FROM stored_events").fetchone()[0]

    def read(self, after: int, limit: int) -> pa.Table:
        if self.con is None:
            return _table([])
        rows = self.con.execute(self.READ, (after, limit)).fetchall()
        return _table(list(zip(*rows)))

    def close(self) -> None:
        if self.con is not None:
            self.con.close()


class RecorderSource(_Source):
    """Any other event store, through the application recorder's notification log."""

    def __init__(self, recorder) -> None:
        self.recorder = recorder

    def max_id(self) -> int:
        return self.recorder.max_notification_id() or 0

    def read(self, after: int, limit: int) -> pa.Table:
        found = self.recorder.select_notifications(after + 1, limit)
        columns = ([n.id for n in found], [_stream(n.originator_id) for n in found], [n.topic for n in found],
                   [bytes(n.state) for n in found])
        return _table(list(columns) if found else [])


def _stream(originator_id: UUID | str) -> str:
    return originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")
