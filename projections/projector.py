"""The projector: the event store's notification log -> DuckDB read models, in large batches.

Each batch is replayed by the rules packs' own apply (projections.replay: the events with their turn,
phase and player, the state rows of every game, the rolls) and loaded in one DuckDB transaction: the SQL
files of ``projections/sql/`` fill every read model from those tables (set-based; SQL does no rule), and
the tracking position is recorded. A kill at any moment loses at most the open batch, which the next run
projects again. One game that cannot be replayed is named (``fct_projection_failures``) and never stops
the others. After a run the live file ``<data>/rollcall.duckdb`` is published as
``<data>/rollcall.read.duckdb``, the only file readers open. The read models are derived data: a live
file that is empty, damaged or not Rollcall's is rebuilt from the event store.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow.compute as pc
from eventsourcing.persistence import Tracking

from domain import settings
from domain.settings import EVENTS_FILE, LIVE_FILE, PUBLISHED_FILE
from domain.systems import fact_names_of
from projections.models import SETUP, defined, definitions, fills, run_order
from projections.publish import Copier, open_published, publish
from projections.sources import PostgresSource, RecorderSource, Replayed, Source, SQLiteSource
from projections.sqlfiles import statements, transaction
from projections.tracking import CREATE_TABLE as CREATE_TRACKING, DuckDBTrackingRecorder
from projections.tracking import SELECT_MAX as SELECT_MAX_TRACKING
from store import rows

APPLICATION = "Rollcall"

TABLES = ("dim_games", "dim_players", "dim_models", "dim_dice", "dim_spells", "dim_wizards", "fct_events", "fct_rolls",
          "fct_dice", "fct_moves", "fct_ejections", "fct_states")
# The SQL files run for each batch over the batch's tables (batch_events, batch_changes, batch_closes,
# batch_rolls, batch_resets, batch_failures: projections.replay), and the views and macros over the tables,
# created once: each in the order derived from what it reads (projections.models).
DERIVE, VIEWS = run_order()
# Small row groups: most of a batch's rows fill whole row groups, which DuckDB writes compressed to the
# file at commit instead of logging them to the WAL and rewriting them at the next checkpoint.
ROW_GROUP_ROWS = 16_384
# Events per batch (one transaction): large enough that the per-batch cost of the SQL files is small.
BATCH_ROWS = 100_000
# Checkpoint once, at the end of a run.
SETTINGS = ("SET checkpoint_threshold = '1GB'",)

Progress = Callable[[int, int], None]


class LiveFileDamaged(RuntimeError):
    """The live file no longer holds the read models its connection shows (written over, truncated): rebuild it."""


class Projector:
    """Projects the Rollcall event store of ``data_dir`` into ``<data_dir>/rollcall.duckdb``."""

    def __init__(self, data_dir: str | os.PathLike | None, *, app=None) -> None:
        self.data_dir = settings.data_dir(data_dir)
        self.app = app
        self.live_path = self.data_dir / LIVE_FILE
        self.published_path = self.data_dir / PUBLISHED_FILE
        self.position: int | None = None  # the last notification id projected by this projector's last run

    def run(self, rebuild: bool = False, batch_size: int = BATCH_ROWS, progress: Progress | None = None) -> int:
        """Project every event after the tracking position (all if ``rebuild``), publish; the number of stored
        rows read. ``progress(done, total)`` is called after each committed batch."""
        with self.session(rebuild, read_ahead=batch_size) as session:
            done = session.step(batch_size, progress)
            session.verify()
            return done

    @contextlib.contextmanager
    def session(self, rebuild: bool = False, copier: Copier | None = None, *,
                read_ahead: int | None = None) -> Iterator[Session]:
        """The live file open and its read models set up, for one run or for a follower's many steps. With
        ``read_ahead`` (a batch size) the store is read for the first step at once: its reading children start
        while the read models are set up."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        version = definitions_version()
        if not rebuild and self.live_path.exists() and _stored_version(self.live_path) != version:
            rebuild = True  # other SQL (a new Rollcall), or a file that is not Rollcall's read models: derived data
        if rebuild:
            _readable(self.live_path)  # refuses while another projector holds the file
            for path in (self.live_path, self.live_path.with_name(LIVE_FILE + ".wal")):
                path.unlink(missing_ok=True)  # a new file: dropped tables would leave the old one's size
        con = _connect(self.live_path)
        ahead = None
        try:
            con.execute(CREATE_TRACKING).fetchall()  # DuckDBTrackingRecorder(con) would use a cursor (not live)
            if read_ahead:
                ahead = self._reading(con, read_ahead)
            for name in SETUP:
                for statement in statements(name):
                    con.execute(statement.sql).fetchall()
            for name in defined():  # every stored table, from its model's file
                for statement in definitions(name):
                    con.execute(statement.sql).fetchall()
            _load_default_dice(con)
            _load_facts(con)
            con.execute(slug_macro()).fetchall()
            con.execute("CREATE OR REPLACE TABLE read_model_version AS SELECT $v AS version", {"v": version}).fetchall()
            for name in VIEWS:
                for statement in fills(name):
                    con.execute(statement.sql).fetchall()
            # the copy readers open, if it holds what the live file holds (else: missing, empty, damaged, foreign, or
            # older: a projector stopped between a batch and its publish)
            published = None if rebuild else _published_identity(self.published_path, version, _position(con))
            yield Session(self, con, version, published=published, copier=copier, ahead=ahead)
        finally:
            if ahead is not None:
                ahead.source.close()  # read by the first step, or left unread (the set-up failed)
            con.close()

    def _reading(self, con: duckdb.DuckDBPyConnection, batch_size: int) -> Reading:
        """The store read from the tracking position of ``con`` on, in batches of ``batch_size``."""
        source = self._source()
        try:
            position = DuckDBTrackingRecorder(con).max_tracking_id_in(con, APPLICATION) or 0
            total = max(source.max_id() - position, 0)
            return Reading(source, position, total, source.batches(position, batch_size))
        except BaseException:
            source.close()
            raise

    def behind(self) -> bool:
        """Whether the store holds events this projector has not projected (a cheap look: the store's last
        notification id against the position of this projector's last run; True before its first)."""
        if self.position is None:
            return True
        source = self._source()
        try:
            return source.max_id() > self.position
        finally:
            source.close()

    def _source(self) -> Source:
        app = self.app
        if app is None and not settings.uses_embedded_store():
            from service.application import Rollcall

            app = self.app = Rollcall.open(self.data_dir)
        if app is None:
            return SQLiteSource(self.data_dir / EVENTS_FILE)
        plain = rows.of_mapper(app.mapper)
        if app.env.get(settings.PERSISTENCE_ENV) == settings.EMBEDDED_STORE:
            name = app.env.get("SQLITE_DBNAME") or ""
            if name and ":memory:" not in name and Path(name).is_file():
                return SQLiteSource(Path(name), plain)
        if app.env.get(settings.PERSISTENCE_ENV) == settings.POSTGRES_STORE:
            return PostgresSource(app.recorder, app.env, app.name, plain)
        return RecorderSource(app.recorder, plain)


@dataclass
class Reading:
    """The store being read for a step: its source, the position read from, the rows after it, the batches."""

    source: Source
    position: int
    total: int
    batches: Iterator[Replayed]


class Session:
    """An open live file: each ``step`` projects what is new and publishes it."""

    def __init__(self, projector: Projector, con: duckdb.DuckDBPyConnection, version: str, *,
                 published: Identity | None = None, copier: Copier | None = None, ahead: Reading | None = None) -> None:
        self.projector, self.con, self.version = projector, con, version
        self.tracking = DuckDBTrackingRecorder(con)
        self.published = published  # the copy as last published (None: to publish at the next step, even unchanged)
        self.verified = True  # whether that copy was seen to open as the live file's read models
        self.copier = copier
        self.ahead = ahead  # the first step's reading, started with the session

    def copy_intact(self) -> bool:
        """Whether the published copy is still the one this session published (not removed, emptied, written
        over or replaced by anyone else): one stat."""
        return self.published is not None and _identity(self.projector.published_path) == self.published

    def verify(self) -> None:
        """Check the copy last published opens as the read models the live file holds (LiveFileDamaged if not):
        a live file written over copies into a copy that does not open. Once per publish, when there is time."""
        if self.verified or not self.copy_intact():
            return  # (a copy changed by anyone else is published again at the next step)
        path = self.projector.published_path
        if _published_identity(path, self.version, _position(self.con)) != self.published:
            raise LiveFileDamaged(f"{self.projector.live_path} is damaged: its copy does not open as its read models")
        self.verified = True

    def step(self, batch_size: int = BATCH_ROWS, progress: Progress | None = None, *, statistics: bool = True) -> int:
        """Project every event after the tracking position, refresh the statistics (``statistics``) and publish
        when anything changed; the number of stored rows read."""
        con, projector = self.con, self.projector
        reading, self.ahead = self.ahead or projector._reading(con, batch_size), None
        source, position, total = reading.source, reading.position, reading.total
        try:
            done = 0
            con.execute("SET threads = 1").fetchall()  # a batch is too small to gain from more
            for batch in reading.batches:
                _project(con, self.tracking, batch)
                done += batch.read
                position = batch.last_id
                if progress is not None:
                    progress(done, max(total, done))
        finally:
            source.close()
        projector.position = position
        refreshed = False
        if statistics:
            from projections.stats import refresh  # the statistics tables of the games just projected

            con.execute(f"SET threads = {os.cpu_count() or 1}").fetchall()  # the batches are read: every core is free
            refreshed = refresh(con)
        if done or refreshed or not self.copy_intact():
            self.published = None  # stale until the new copy is in place
            con.execute("CHECKPOINT").fetchall()  # publish() would checkpoint its cursor's catalog, not live
            publish(con, projector.live_path, projector.published_path, self.copier)
            self.published, self.verified = _identity(projector.published_path), False
        return done


def definitions_version() -> str:
    """A digest of every SQL file of the read models, of the systems' rule data (their default dice are
    in dim_dice) and of their facts (dim_facts): when it changes, the read models are rebuilt."""
    import hashlib
    from importlib import resources

    from domain.systems import every_fact

    digest = hashlib.sha256((repr(every_fact()) + slug_macro()).encode())
    for package, folder, ending in (("projections", "sql", ".sql"), ("domain", "rules_data", ".json")):
        for entry in sorted(resources.files(package).joinpath(folder).iterdir(), key=lambda e: e.name):
            if entry.name.endswith(ending):
                digest.update(entry.name.encode() + b"\0" + entry.read_bytes() + b"\0")
    return digest.hexdigest()


def _stored_version(path: Path) -> str | None:
    """The definitions version the live file was projected with (None: unknown, empty, damaged or not
    Rollcall's read models). A file another projector holds, or one a full disk keeps from opening, is not
    looked into: that raises (rebuilding would not help)."""
    try:
        con = _connect(path)
    except duckdb.Error as exc:
        if _locked(exc) or _disk_failed(exc):
            raise
        return None
    return _version_of(con)


def _version_of(con: duckdb.DuckDBPyConnection) -> str | None:
    """The definitions version a connection's read models were made with (None: not Rollcall's); closes it."""
    try:
        found = con.execute("SELECT version FROM read_model_version").fetchall()
    except duckdb.Error:
        return None
    finally:
        con.close()
    return found[0][0] if found else None


Identity = tuple[int, int, int]  # a file's (inode, size, modification time in ns)


def _identity(path: Path) -> Identity | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns


def _published_identity(path: Path, version: str, position: int | None) -> Identity | None:
    """The published copy's identity if it holds read models of ``version`` at tracking ``position`` (None:
    missing, empty, damaged, not Rollcall's, of other definitions or at another position)."""
    identity = _identity(path)
    if identity is None:
        return None
    try:
        con = open_published(path)
    except (duckdb.Error, OSError):
        return None
    try:
        found = con.execute("SELECT version FROM read_model_version").fetchall(), _position(con)
    except duckdb.Error:
        return None
    finally:
        con.close()
    return identity if found == ([(version,)], position) else None


def _position(con: duckdb.DuckDBPyConnection) -> int | None:
    """The tracking position of the read models ``con`` opened (None: nothing projected)."""
    found = con.execute(SELECT_MAX_TRACKING, {"name": APPLICATION}).fetchall()
    return None if not found or found[0][0] is None else int(found[0][0])


def _readable(path: Path) -> bool:
    """Whether the live file opens as a DuckDB database (an error if another projector holds it)."""
    try:
        _connect(path).close()
    except duckdb.Error as exc:
        if _locked(exc):
            raise
        return False
    return True


def _locked(exc: duckdb.Error) -> bool:
    return "lock" in str(exc).lower()


# What the system says of a disk that cannot take a write now (full, a file-size limit, a quota, read-only, failing)
_DISK_ERRORS = tuple(os.strerror(n) for n in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EROFS, errno.EIO))


def _disk_failed(exc: duckdb.Error) -> bool:
    return any(reason in str(exc) for reason in _DISK_ERRORS)


def _project(con: duckdb.DuckDBPyConnection, tracking: DuckDBTrackingRecorder, batch: Replayed) -> None:
    """One batch in one transaction: every read model from the batch's tables, the tracking position."""
    tables = batch.tables
    kinds = {t for t in pc.unique(tables["events"].column("type")).to_pylist() if t is not None}
    kinds |= fact_names_of(kinds)  # a statement marked `-- when: casts` runs for a batch with a cast
    with transaction(con):
        for name, table in tables.items():
            con.register(f"batch_{name}", table)
        try:
            for name in DERIVE:
                for statement in fills(name):
                    if statement.needed(kinds):
                        con.execute(statement.sql).fetchall()
            tracking.insert_tracking_in(con, Tracking(APPLICATION, batch.last_id))
        finally:
            for name in tables:
                con.unregister(f"batch_{name}")


def _load_default_dice(con: duckdb.DuckDBPyConnection) -> None:
    """The default dice of every system's rule data, for the dice in force (dim_dice)."""
    from domain.systems import system_for
    from domain.systems.pack import GameSystem

    rows = []
    for alias, pack in sorted(GameSystem.registry.items()):
        if alias != pack.alias:
            continue
        for die, faces in system_for(alias).defaults.get("dice", {}).items():
            if not die.startswith("_"):
                rows.extend((alias, die, face, sides, i) for i, (face, sides) in enumerate(faces.items()))
    con.execute("CREATE OR REPLACE TABLE dim_default_dice (system VARCHAR, die VARCHAR, face VARCHAR, sides INTEGER, "
                "ord INTEGER)").fetchall()
    con.executemany("INSERT INTO dim_default_dice VALUES (?, ?, ?, ?, ?)", rows)


def _load_facts(con: duckdb.DuckDBPyConnection) -> None:
    """What every pack's events are to the read models (domain.systems.facts): dim_facts."""
    from domain.systems import every_fact

    con.execute("CREATE OR REPLACE TABLE dim_facts (system VARCHAR, fact VARCHAR, type VARCHAR, kind VARCHAR, "
                "purpose VARCHAR)").fetchall()
    con.executemany("INSERT INTO dim_facts VALUES (?, ?, ?, ?, ?)",
                    [(system, f.name, f.type, f.kind, f.purpose) for system, f in every_fact()])


def slug_macro() -> str:
    """The macro ``name_slug(t)``: domain.record.slug in SQL (a tournament's or a player's key, as the
    read models join names), made from the domain's own letters so that the two never differ."""
    from domain.record import SLUG_KEPT, SLUG_LETTERS

    text = "lower(t)"
    for letter, latin in SLUG_LETTERS.items():
        text = f"replace({text}, '{letter}', '{latin}')"
    return f"CREATE OR REPLACE MACRO name_slug(t) AS trim(regexp_replace({text}, '[^{SLUG_KEPT}]+', '-', 'g'), '-')"


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


