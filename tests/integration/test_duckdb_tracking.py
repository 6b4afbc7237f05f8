"""DuckDBTrackingRecorder against eventsourcing's own TrackingRecorder contract."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import duckdb
import pytest
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.tests.persistence import TrackingRecorderTestCase

from projections.tracking import DuckDBTrackingRecorder


class TestDuckDBTrackingRecorder(TrackingRecorderTestCase):
    """Runs the library's test_insert_tracking and test_wait on a real file."""

    def setUp(self) -> None:
        self._dir = Path(tempfile.mkdtemp(prefix="rollcall-tracking-"))
        self._recorders: list[DuckDBTrackingRecorder] = []

    def tearDown(self) -> None:
        for recorder in self._recorders:
            recorder.close()
        shutil.rmtree(self._dir, ignore_errors=True)

    def create_recorder(self) -> DuckDBTrackingRecorder:
        path = self._dir / f"tracking{len(self._recorders)}.duckdb"
        recorder = DuckDBTrackingRecorder(path)
        self._recorders.append(recorder)
        return recorder


def test_failed_transaction_leaves_tracking_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "read_models.duckdb"
    conn = duckdb.connect(str(path))
    try:
        recorder = DuckDBTrackingRecorder(conn)
        conn.execute("CREATE TABLE rows (n INTEGER)")
        recorder.insert_tracking(Tracking("events", 3))

        cur = conn.cursor()
        with pytest.raises(RuntimeError, match="projector crashed"):
            cur.execute("BEGIN TRANSACTION")
            try:
                cur.execute("INSERT INTO rows VALUES (4), (5)")
                recorder.insert_tracking_in(cur, Tracking("events", 5))
                assert recorder.max_tracking_id_in(cur, "events") == 5
                raise RuntimeError("projector crashed")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
        cur.close()

        assert recorder.max_tracking_id("events") == 3
        assert conn.execute("SELECT count(*) FROM rows").fetchall() == [(0,)]

        # The same batch succeeds afterwards, rows and position together.
        cur = conn.cursor()
        cur.execute("BEGIN TRANSACTION")
        cur.execute("INSERT INTO rows VALUES (4), (5)")
        recorder.insert_tracking_in(cur, Tracking("events", 5))
        cur.execute("COMMIT")
        cur.close()
    finally:
        conn.close()

    # Committed to the file: visible after reopening.
    with DuckDBTrackingRecorder(path) as reopened:
        assert reopened.max_tracking_id("events") == 5
        assert reopened.connection.execute("SELECT count(*) FROM rows").fetchall() == [(2,)]
        with pytest.raises(IntegrityError):
            reopened.insert_tracking(Tracking("events", 4))


def test_insert_tracking_in_rejects_old_position_inside_transaction(tmp_path: Path) -> None:
    with DuckDBTrackingRecorder(tmp_path / "t.duckdb") as recorder:
        recorder.insert_tracking(Tracking("events", 10))
        cur = recorder.connection.cursor()
        cur.execute("BEGIN TRANSACTION")
        cur.execute("CREATE TABLE scratch (n INTEGER)")
        with pytest.raises(IntegrityError):
            recorder.insert_tracking_in(cur, Tracking("events", 10))
        cur.execute("ROLLBACK")
        cur.close()
        assert recorder.max_tracking_id("events") == 10
