"""Tracking positions of projections in a DuckDB file.

A projector that reads the event store's notification log records, in the
same DuckDB transaction as its read-model rows, the notification id it has
processed up to. ``insert_tracking_in(cursor, tracking)`` is for that: it
writes on the caller's cursor inside the caller's ``BEGIN``/``COMMIT``.

DuckDB admits one read-write process per file and DuckDB 2.0 streams query
results, so every method here uses its own ``cursor()`` and fetches fully.
Concurrent writers of the same application's tracking within one process
are not expected (one projector per application); ``insert_tracking``
serialises its own calls with a lock.
"""

from __future__ import annotations

import threading
from os import PathLike

import duckdb
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder

CREATE_TABLE = (
    "CREATE TABLE IF NOT EXISTS tracking ("
    "application_name VARCHAR, "
    "notification_id BIGINT, "
    "PRIMARY KEY (application_name, notification_id))"
)

# Inserts nothing when a row with the same or a higher id already exists.
INSERT_TRACKING = (
    "INSERT INTO tracking (application_name, notification_id) "
    "SELECT $name, $id WHERE NOT EXISTS ("
    "SELECT 1 FROM tracking WHERE application_name = $name AND notification_id >= $id)"
)

SELECT_MAX = "SELECT max(notification_id) FROM tracking WHERE application_name = $name"


def _rollback_quietly(cursor: duckdb.DuckDBPyConnection) -> None:
    try:
        cursor.execute("ROLLBACK")
    except duckdb.TransactionException:  # no transaction is active any more
        pass


class DuckDBTrackingRecorder(TrackingRecorder):
    """eventsourcing ``TrackingRecorder`` over a DuckDB database.

    ``db`` is a path (the recorder opens, owns and closes the connection) or an
    open ``duckdb.DuckDBPyConnection`` (the caller owns it).
    """

    def __init__(self, db: str | PathLike[str] | duckdb.DuckDBPyConnection) -> None:
        if isinstance(db, duckdb.DuckDBPyConnection):
            self.connection = db
            self._owns_connection = False
        else:
            self.connection = duckdb.connect(str(db))
            self._owns_connection = True
        self._lock = threading.Lock()
        cur = self.connection.cursor()
        try:
            cur.execute(CREATE_TABLE).fetchall()
        finally:
            cur.close()

    # --- writing -----------------------------------------------------------

    def insert_tracking(self, tracking: Tracking) -> None:
        """Records ``tracking`` in its own transaction.

        Raises ``IntegrityError`` if the same or a higher notification id is
        already recorded for ``tracking.application_name``.
        """
        with self._lock:
            cur = self.connection.cursor()
            try:
                cur.execute("BEGIN TRANSACTION")
                try:
                    self.insert_tracking_in(cur, tracking)
                except BaseException:
                    _rollback_quietly(cur)
                    raise
                try:
                    cur.execute("COMMIT")
                except (duckdb.TransactionException, duckdb.ConstraintException) as exc:
                    # A failed COMMIT has already ended the transaction.
                    raise IntegrityError(str(exc)) from exc
            finally:
                cur.close()

    def insert_tracking_in(
        self, cursor: duckdb.DuckDBPyConnection, tracking: Tracking
    ) -> None:
        """Records ``tracking`` on ``cursor`` without beginning or ending a
        transaction, so it commits or rolls back with the caller's other writes.

        Raises ``IntegrityError`` (and leaves the caller's transaction for the
        caller to roll back) if the same or a higher id is already recorded.
        """
        try:
            rows = cursor.execute(
                INSERT_TRACKING,
                {"name": tracking.application_name, "id": tracking.notification_id},
            ).fetchall()
        except duckdb.ConstraintException as exc:
            raise IntegrityError(str(exc)) from exc
        except duckdb.TransactionException as exc:  # conflict with another writer
            raise IntegrityError(str(exc)) from exc
        inserted = rows[0][0] if rows else 0
        if inserted != 1:
            msg = (
                f"Tracking for {tracking.application_name!r} is already at or past "
                f"notification {tracking.notification_id}"
            )
            raise IntegrityError(msg)

    # --- reading -----------------------------------------------------------

    def max_tracking_id(self, application_name: str) -> int | None:
        cur = self.connection.cursor()
        try:
            rows = cur.execute(SELECT_MAX, {"name": application_name}).fetchall()
        finally:
            cur.close()
        value = rows[0][0] if rows else None
        return None if value is None else int(value)

    def max_tracking_id_in(
        self, cursor: duckdb.DuckDBPyConnection, application_name: str
    ) -> int | None:
        """``max_tracking_id`` as seen by ``cursor``'s open transaction."""
        rows = cursor.execute(SELECT_MAX, {"name": application_name}).fetchall()
        value = rows[0][0] if rows else None
        return None if value is None else int(value)

    def has_tracking_id(
        self, application_name: str, notification_id: int | None
    ) -> bool:
        if notification_id is None:
            return True
        max_id = self.max_tracking_id(application_name)
        return max_id is not None and max_id >= notification_id

    # ``wait()`` is inherited: it polls ``has_tracking_id`` with backoff.

    def close(self) -> None:
        if self._owns_connection:
            self.connection.close()

    def __enter__(self) -> DuckDBTrackingRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
