"""The projector: the event store's notification log -> DuckDB read models, in large batches.

Each batch is replayed by the rules packs' own apply (projections.replay: the events with their turn,
phase and player, the state rows of every game, the rolls) and loaded in one DuckDB transaction: the SQL
files of ``projections/sql/`` fill every read model from those tables (set-based; SQL does no rule), and
the tracking position is recorded. A kill at any moment loses at most the open batch, which the next run
projects again. One game that cannot be replayed is named (``fct_projection_failures``) and never stops
the others. The read models are two files written in turn (projections.publish): a step projects into the
one readers do not open (the *target*, ``<data>/rollcall.a.duckdb`` or ``.b.duckdb``) what is new since its
own tracking position, and publishes it by turning the link ``<data>/rollcall.read.duckdb`` to it. The read
models are derived data: a target that is empty, damaged or not Rollcall's becomes a copy of the published
file, or is rebuilt from the event store.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow.compute as pc
from eventsourcing.persistence import Tracking

from domain import settings
from domain.settings import FILL_FILE, LEGACY_LIVE_FILE, PUBLISHED_FILE, READ_FILES
from domain.systems import fact_names_of
from projections.models import SETUP, defined, definitions, fills, run_order, slug_macro
from projections.publish import Copier, flip, locked, open_published, published_file, replace_with_copy
from projections.sources import (PostgresSource, RecorderSource, Replayed, Scope, ScopedSource, Source, SQLiteSource,
                                 current_scope)
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
DRAIN = 2.0  # seconds a step waits for readers to let go of the file it writes; then it writes another one
COPY_BEHIND = 50_000  # a file this many notifications behind the published one becomes a copy of it
FILL_ROWS = 200_000  # notifications a cold start's fill projects between two looks at the store
PUBLISHED_LOG = 6 << 20  # bytes of write-ahead log a published file may keep (readers replay it on opening)
SCOPE_TABLE = "read_model_scope"  # in read models that hold a cold start's scope alone: since, tournament, stream

Progress = Callable[[int, int], None]


class LiveFileDamaged(RuntimeError):
    """A read-model file no longer holds the read models its connection shows (written over, truncated): rebuild
    it."""


class Projector:
    """Projects the Rollcall event store of ``data_dir`` into the read models of the folder: two DuckDB files
    (domain.settings.READ_FILES) written in turn, the one readers open named by the link ``rollcall.read.duckdb``
    (projections.publish)."""

    def __init__(self, data_dir: str | os.PathLike | None, *, app=None) -> None:
        self.data_dir = settings.data_dir(data_dir)
        self.app = app
        self.files = tuple(self.data_dir / name for name in READ_FILES)
        self.published_path = self.data_dir / PUBLISHED_FILE
        self.position: int | None = None  # the last notification id projected by this projector's last run

    def targets(self) -> list[Path]:
        """The files the next step may write, best first: every read-model file but the one the published link
        names, the most recently written first (the least to catch up), one not made yet last."""
        current = published_file(self.published_path)
        others = [f for f in self.files if current is None or f.name != current.name]
        return sorted(others, key=lambda f: -_mtime(f))

    def run(self, rebuild: bool = False, batch_size: int = BATCH_ROWS, progress: Progress | None = None) -> int:
        """Project every event after the tracking position (all if ``rebuild``), publish; the number of stored
        rows read. ``progress(done, total)`` is called after each committed batch."""
        with self.session(rebuild, read_ahead=batch_size) as session:
            done = session.step(batch_size, progress)
            while session.fill_some():  # a cold start left unfinished by a follower: every game, before this returns
                pass
            session.verify()
            return done

    @contextlib.contextmanager
    def session(self, rebuild: bool = False, copier: Copier | None = None, *,
                read_ahead: int | None = None, cold: bool = False) -> Iterator[Session]:
        """The target file open and its read models set up, for one run or for a follower's many steps. With
        ``read_ahead`` (a batch size) the store is read for the first step at once: its reading children start
        while the read models are set up. With ``cold`` (a follower), a store of ``settings.cold_start_events()``
        or more with no read models published starts with the current tournament (a cold start:
        sources.current_scope), and the session fills in the rest (``fill_some``)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        _tidy(self.data_dir, self.files[0])
        version = definitions_version()
        published = _state(self.published_path)
        usable = published if published is not None and published[0] == version else None
        scope = _scope_in(self.published_path) if usable is not None and not rebuild else None
        if cold and (usable is None or rebuild):
            scope = self._cold_scope()
            rebuild = rebuild or scope is not None
        target, con = _open_target(self.targets(), version, usable, self.published_path, rebuild, copier)
        if rebuild:
            usable = None  # everything is projected again, and published when done
        ahead = session = None
        try:
            con.execute(CREATE_TRACKING).fetchall()  # DuckDBTrackingRecorder(con) would use a cursor (not live)
            if read_ahead and (usable is None or (_position(con) or 0) >= (usable[1] or 0)):
                ahead = self._reading(con, read_ahead, scope=scope)  # (a target behind the published file catches
            _set_up(con, version)                                     # up first)
            if scope is not None and rebuild:
                con.execute(f"CREATE OR REPLACE TABLE {SCOPE_TABLE} AS SELECT $since AS since, $tournament AS "
                            "tournament, $stream AS stream", vars(scope)).fetchall()
            session = Session(self, con, target, version, copier=copier, ahead=ahead, rebuilt=rebuild, scope=scope)
            if usable is not None and usable[1] is not None and (session.position or 0) <= usable[1]:
                session.published = _identity(self.published_path)  # readers have it all: publish when changed
                session.published_position = usable[1]
            yield session
        finally:
            if ahead is not None:
                ahead.source.close()  # read by the first step, or left unread (the set-up failed)
            if session is not None:
                session.close()
            else:
                con.close()

    def _cold_scope(self) -> Scope | None:
        """What a cold start projects first (None: the store is small enough to project whole, or it cannot
        be read by scope)."""
        source = self._source()
        try:
            if (source.max_id() < settings.cold_start_events() or not hasattr(source.rows, "scoped")
                    or settings.worker() != (0, 1)):  # (a worker's share is read whole)
                return None
            return current_scope(source)
        finally:
            source.close()

    def _reading(self, con: duckdb.DuckDBPyConnection, batch_size: int, upto: int | None = None,
                 scope: Scope | None = None) -> Reading:
        """The store read from the tracking position of ``con`` on (up to notification ``upto``; None: its end;
        only the streams of ``scope`` if given), in batches of ``batch_size``."""
        source = self._source()
        if scope is not None:
            source = ScopedSource(source, scope)
        try:
            position = DuckDBTrackingRecorder(con).max_tracking_id_in(con, APPLICATION) or 0
            upto = source.max_id() if upto is None else upto
            total = max(upto - position, 0)
            return Reading(source, position, total, source.batches(position, batch_size, upto))
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
            app = self.app = rows.opened_store(settings.store_env(self.data_dir))  # the store, not the application
        if app is None:
            return SQLiteSource(settings.embedded_store_file(self.data_dir))
        plain = app.plain if isinstance(app, rows.OpenedStore) else rows.of_mapper(app.mapper)
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
    """The read models open for writing: each ``step`` projects what is new into the target file and publishes
    it; the other file becomes the target, opened at the next step (or by ``catch_up`` at a quiet moment) once
    its readers have let it go."""

    def __init__(self, projector: Projector, con: duckdb.DuckDBPyConnection, target: Path, version: str, *,
                 copier: Copier | None = None, ahead: Reading | None = None, rebuilt: bool = False,
                 scope: Scope | None = None) -> None:
        self.projector, self.version, self.copier = projector, version, copier
        self.con: duckdb.DuckDBPyConnection | None = con
        self.target = target
        self.tracking = DuckDBTrackingRecorder(con)
        self.position = _position(con)  # the target's tracking position
        self.published: Identity | None = None  # the published file as last published (None: publish at the next step)
        self.published_position: int | None = None  # its tracking position
        self.verified = True  # whether that file was seen to open as the read models published
        self.ahead = ahead  # the first step's reading, started with the session
        self.copy_next = rebuilt  # the other file holds what a rebuild threw away: it becomes a copy
        self.stale = True  # whether the target's statistics may lack some of its games
        self.scope = scope  # a cold start's: what the read models hold until the fill is done
        self.filler: _Filler | None = None

    def copy_intact(self) -> bool:
        """Whether the published file is still the one this session published (the link not removed or turned,
        the file not emptied or written over by anyone else): two stats."""
        return self.published is not None and _identity(self.projector.published_path) == self.published

    def verify(self) -> None:
        """Check the file last published opens as the read models it was (LiveFileDamaged if not): a file
        written over while it was written does not. Once per publish, when there is time."""
        if self.verified or not self.copy_intact():
            return  # (a file changed by anyone else is published again at the next step)
        state = _state(self.projector.published_path)
        if state is None or state[0] != self.version or (state[1] or 0) != (self.published_position or 0):
            raise LiveFileDamaged(f"{published_file(self.projector.published_path)} is damaged: it does not open as "
                                  "the read models published")
        self.verified = True

    def step(self, batch_size: int = BATCH_ROWS, progress: Progress | None = None, *, statistics: bool = True) -> int:
        """Project every event after the target's tracking position, refresh the statistics (``statistics``) and
        publish when readers lack anything; the number of stored rows read."""
        self._writable(wait=True)
        if (self.position or 0) < (self.published_position or 0):  # the step published last, and any before it
            self._project(batch_size, None, False, upto=self.published_position)
        done, refreshed = self._project(batch_size, progress, statistics)
        if done or refreshed or (self.position or 0) != (self.published_position or 0) or not self.copy_intact():
            self._publish()
        return done

    def catch_up(self) -> bool:
        """At a quiet moment: bring the target (one step behind the published file, or more) up to the store and
        its statistics up to date, if no reader holds it any more, without publishing it; the next event then
        costs one event. Whether it did."""
        if not self._writable(wait=False):
            return False
        if (self.position or 0) >= (self.published_position or 0) and not self.stale:
            return False
        self._project(BATCH_ROWS, None, True, upto=self.published_position)
        return True

    def filling(self) -> tuple[int, int] | None:
        """A cold start's fill: (notifications filled in, of how many); None when the read models hold every game."""
        if self.scope is None:
            return None
        return (self.filler.position, self.filler.total) if self.filler is not None else (0, 1)

    def fill_some(self) -> bool:
        """At a quiet moment of a cold start: FILL_ROWS more notifications projected into the fill file (every
        game), and once it holds the whole store, the fill published in place of the read models of the scope.
        Whether there was any filling to do."""
        if self.scope is None:
            return False
        if self.filler is None:
            self.filler = _Filler(self.projector, self.version)
        if self.filler.step() and self.filler.position >= (self.published_position or 0):
            self._adopt()  # (not before the fill holds what readers see: they never go back)
        return True

    def _adopt(self) -> None:
        """The fill, done, published: it takes the target's place; the other file becomes a copy of it."""
        self.filler.finish()
        self.close()
        target = self.target or self.projector.targets()[0]
        for path in (target.with_name(target.name + ".wal"),):
            path.unlink(missing_ok=True)
        os.replace(self.filler.path, target)
        self.filler, self.scope, self.target = None, None, target
        self.con = _connect(target)
        _connection_macros(self.con)
        self.tracking, self.position, self.stale = DuckDBTrackingRecorder(self.con), _position(self.con), False
        self._publish()
        self.copy_next = True

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None
        if self.filler is not None:
            self.filler.close()

    # -- the parts of a step ----------------------------------------------------------------------------------

    def _project(self, batch_size: int, progress: Progress | None, statistics: bool,
                 upto: int | None = None) -> tuple[int, bool]:
        """What the store holds after the target's position (up to ``upto``) projected into it, its statistics
        refreshed (``statistics``): the stored rows read, and whether any statistics changed."""
        con, projector = self.con, self.projector
        ahead = self.ahead if upto is None else None
        reading = ahead or projector._reading(con, batch_size, upto, self.scope)
        if ahead is not None:
            self.ahead = None
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
        self.position = position
        if upto is None:
            projector.position = position
        self.stale = self.stale or bool(done)
        refreshed = False
        if statistics:
            from projections.stats import refresh  # the statistics tables of the games just projected

            con.execute(f"SET threads = {os.cpu_count() or 1}").fetchall()  # the batches are read: every core is free
            refreshed = bool(refresh(con))
            self.stale = False
        return done, refreshed

    def _publish(self) -> None:
        """The target closed and published; the other file is the next target. What a step wrote stays in the
        file's write-ahead log, which readers replay when they open it, until the log outgrows PUBLISHED_LOG:
        a checkpoint writes the metadata of every table again (about 4 MB at 10 million events), which a
        publish of one event would otherwise pay every time."""
        self.published = None  # stale until the link is turned
        wal = self.target.with_name(self.target.name + ".wal")
        if _size(wal) > PUBLISHED_LOG:
            self.con.execute("CHECKPOINT").fetchall()
        self.con.execute("PRAGMA disable_checkpoint_on_shutdown").fetchall()
        self.con.close()
        self.con = None
        os.utime(self.target)  # its modification time is the readers' version of it, even after a log's change
        flip(self.projector.published_path, self.target)
        self.published, self.verified = _identity(self.projector.published_path), False
        self.published_position = self.position
        self.target = None  # chosen when it is opened

    def _writable(self, wait: bool) -> bool:
        """The target open for writing (opened if the last step published the other file; see _open_target).
        Without ``wait``, False while a reader still holds it."""
        if self.con is not None:
            return True
        published = self.projector.published_path
        usable = _state(published)
        usable = usable if usable is not None and usable[0] == self.version else None
        candidates = self.projector.targets()
        renew, self.copy_next = self.copy_next, False  # the other file holds what a rebuild or a fill replaced
        if renew and usable is not None:
            replace_with_copy(published, candidates[0], self.copier)
        if renew and usable is None:
            target, con = _open_target(candidates, self.version, None, published, True, self.copier)
        elif not wait and _in_place(_state(candidates[0]), self.version, usable):
            target, con = candidates[0], _open_writable(candidates[0], 0.0)
            if con is None:
                return False
        else:
            target, con = _open_target(candidates, self.version, usable, published, False, self.copier)
        self.target = target
        try:
            con.execute(CREATE_TRACKING).fetchall()
            if _state_of(con) != self.version:
                _set_up(con, self.version)  # (rebuilt: no usable copy)
            else:
                _connection_macros(con)
        except BaseException:
            con.close()
            raise
        self.con, self.tracking = con, DuckDBTrackingRecorder(con)
        self.position = _position(con)
        self.stale = True  # (its statistics may be a step behind)
        return True


class _Filler:
    """A cold start's fill: every game of the store projected into FILL_FILE, FILL_ROWS notifications a step
    (the reading children replaying ahead), kept across restarts by its tracking position."""

    def __init__(self, projector: Projector, version: str) -> None:
        self.projector, self.path = projector, projector.data_dir / FILL_FILE
        state = _state(self.path)
        if state is None or state[0] != version:
            for path in (self.path, self.path.with_name(self.path.name + ".wal")):
                path.unlink(missing_ok=True)
        self.con = _connect(self.path)
        self.con.execute(CREATE_TRACKING).fetchall()
        _set_up(self.con, version)
        self.tracking = DuckDBTrackingRecorder(self.con)
        self.position, self.total = _position(self.con) or 0, 1

    def step(self) -> bool:
        """FILL_ROWS notifications more; whether the fill has reached the store's end."""
        source = self.projector._source()
        try:
            self.total = source.max_id()
        finally:
            source.close()
        reading = self.projector._reading(self.con, BATCH_ROWS, upto=min(self.position + FILL_ROWS, self.total))
        try:
            self.con.execute(f"SET threads = {os.cpu_count() or 1}").fetchall()
            for batch in reading.batches:
                _project(self.con, self.tracking, batch)
                self.position = batch.last_id
        finally:
            reading.source.close()
        return self.position >= self.total

    def finish(self) -> None:
        """The statistics of every game, the file checkpointed and closed."""
        from projections.stats import refresh

        refresh(self.con)
        self.con.execute("CHECKPOINT").fetchall()
        self.close()

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None


def _scope_in(path: Path) -> Scope | None:
    """The cold start's scope the read models in ``path`` hold alone (None: they hold every game)."""
    try:
        con = open_published(path)
    except (duckdb.Error, OSError):
        return None
    try:
        found = con.execute(f"SELECT since, tournament, stream FROM {SCOPE_TABLE}").fetchall()
    except duckdb.Error:
        return None
    finally:
        con.close()
    return Scope(*found[0]) if found else None


def definitions_version() -> str:
    """A digest of every SQL file of the read models, of the systems' rule data (their default dice are
    in dim_dice), of their facts (dim_facts) and of the projector's share of the games (settings.worker): when it
    changes, the read models are rebuilt."""
    import hashlib
    from importlib import resources

    from domain.systems import every_fact

    digest = hashlib.sha256((repr(every_fact()) + slug_macro() + repr(settings.worker())).encode())
    for package, folder, ending in (("projections", "sql", ".sql"), ("domain", "rules_data", ".json")):
        for entry in sorted(resources.files(package).joinpath(folder).iterdir(), key=lambda e: e.name):
            if entry.name.endswith(ending):
                digest.update(entry.name.encode() + b"\0" + entry.read_bytes() + b"\0")
    return digest.hexdigest()


Identity = tuple[str, int, int, int]  # the published link's file: (name, inode, size, modification time in ns)


def _identity(published_path: Path) -> Identity | None:
    """What the published link names now (None: no link, or a link to no file)."""
    try:
        name = os.readlink(published_path)
        found = published_path.stat()
    except OSError:
        return None
    return name, found.st_ino, found.st_size, found.st_mtime_ns


def _state(path: Path) -> tuple[str | None, int | None] | None:
    """(definitions version, tracking position) of the read models in ``path``, opened read-only (None: missing,
    empty, damaged, not Rollcall's, or held by a writer; the version None: a DuckDB file of other tables). A disk
    that cannot be read raises: copying or rebuilding would not help."""
    try:
        con = open_published(path)
    except FileNotFoundError:
        return None
    except duckdb.Error as exc:
        if _disk_failed(exc):
            raise
        return None
    try:
        try:
            found = con.execute("SELECT version FROM read_model_version").fetchall()
        except duckdb.Error:
            return None, None
        return (found[0][0] if found else None), _position_or_none(con)
    finally:
        con.close()


def _position_or_none(con: duckdb.DuckDBPyConnection) -> int | None:
    try:
        return _position(con)
    except duckdb.Error:
        return None


def _position(con: duckdb.DuckDBPyConnection) -> int | None:
    """The tracking position of the read models ``con`` opened (None: nothing projected)."""
    found = con.execute(SELECT_MAX_TRACKING, {"name": APPLICATION}).fetchall()
    return None if not found or found[0][0] is None else int(found[0][0])


def _tidy(folder: Path, first: Path) -> None:
    """What a projector killed meanwhile left (a copy or a link not yet put in place) removed; an older
    Rollcall's one read-model file becomes the first of the two (its read models kept)."""
    for name in (*READ_FILES, PUBLISHED_FILE):
        for left in folder.glob(f".{name}.*"):
            if left.name.endswith((".tmp", ".link", ".tmp.wal")):
                left.unlink(missing_ok=True)
    legacy = folder / LEGACY_LIVE_FILE
    if not legacy.exists():
        return
    for old, new in ((legacy, first), (legacy.with_name(legacy.name + ".wal"), first.with_name(first.name + ".wal"))):
        if first.exists():
            old.unlink(missing_ok=True)
        elif old.exists():
            os.replace(old, new)


def _in_place(state: tuple | None, version: str, usable: tuple | None) -> bool:
    """Whether a target in ``state`` is written as it is (not replaced by a copy of the published file in
    ``usable`` state, nor rebuilt)."""
    return state is not None and state[0] == version and (
        usable is None or (usable[1] or 0) - (state[1] or 0) <= COPY_BEHIND)


def _state_of(con: duckdb.DuckDBPyConnection) -> str | None:
    """The definitions version of the read models ``con`` writes (None: none yet)."""
    try:
        found = con.execute("SELECT version FROM read_model_version").fetchall()
    except duckdb.Error:
        return None
    return found[0][0] if found else None


def _open_target(candidates: list[Path], version: str, usable: tuple | None, published: Path, rebuild: bool,
                 copier: Copier | None) -> tuple[Path, duckdb.DuckDBPyConnection]:
    """The file a session writes next, open for writing, from ``candidates`` (Projector.targets). One of other
    definitions, damaged, not Rollcall's or far behind the published file becomes a copy of that file (if it
    holds these definitions; else it is rebuilt from the store, like any target after ``rebuild``). One a reader
    still holds after DRAIN seconds is left to it: the next candidate is written instead (DuckDB refuses a file
    any database of this process holds, even one put in its place)."""
    for i, target in enumerate(candidates):
        fresh = rebuild
        if not rebuild and not _in_place(_state(target), version, usable):
            if usable is not None:
                replace_with_copy(published, target, copier)  # (a reader holding the old one keeps it)
            else:
                fresh = True
        if fresh:
            for path in (target, target.with_name(target.name + ".wal")):
                path.unlink(missing_ok=True)  # a new file (a reader holding the old one keeps it)
        con = _open_writable(target, DRAIN if i == 0 else 0.0)
        if con is not None:
            return target, con
    raise LiveFileDamaged(f"every read-model file of {published.parent} is held by other readers")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return float("-inf")


def _open_writable(path: Path, wait: float) -> duckdb.DuckDBPyConnection | None:
    """``path`` open for writing, waiting up to ``wait`` seconds for the readers that hold it to let it go
    (None: they still do)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return _connect(path)
        except duckdb.Error as exc:
            if not locked(exc):
                raise
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def _set_up(con: duckdb.DuckDBPyConnection, version: str) -> None:
    """Every read model defined in the file ``con`` writes (tables kept, views and macros made again)."""
    _connection_macros(con)
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


def _connection_macros(con: duckdb.DuckDBPyConnection) -> None:
    """The projector's helpers a connection keeps for itself (temporary macros, not stored in the file)."""
    for name in SETUP:
        for statement in statements(name):
            con.execute(statement.sql).fetchall()


# What the system says of a disk that cannot take a write now (full, a file-size limit, a quota, read-only, failing)
_DISK_ERRORS = tuple(os.strerror(n) for n in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EROFS, errno.EIO))


def _disk_failed(exc: duckdb.Error) -> bool:
    return any(reason in str(exc) for reason in _DISK_ERRORS)


def _project(con: duckdb.DuckDBPyConnection, tracking: DuckDBTrackingRecorder, batch: Replayed) -> None:
    """One batch in one transaction: every read model from the batch's tables, the tracking position."""
    tables = batch.tables
    kinds = {t for t in pc.unique(tables["events"].column("type")).to_pylist() if t is not None}
    kinds |= fact_names_of(kinds)  # a statement marked `-- when: casts` runs for a batch with a cast
    for name, table in tables.items():
        con.register(f"batch_{name}", table)
    try:
        with transaction(con):
            for name in DERIVE:
                for statement in fills(name):
                    if statement.needed(kinds):
                        con.execute(statement.sql).fetchall()
            tracking.insert_tracking_in(con, Tracking(APPLICATION, batch.last_id))
    finally:  # (after the transaction: in a failed one, the failure would be said as "transaction aborted")
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


def _connect(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-model file attached for writing with small row groups (see ROW_GROUP_ROWS) as this connection's
    catalog.

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


