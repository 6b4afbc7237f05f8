"""Inserting many stored rows at once: the rows a bulk import was given (``service.importing`` checks the
records and says what may be stored), in one transaction, nothing else.

On the embedded store the rows go in through the aggregate recorder of its table — one statement for many
rows, without the notification log's per-row work the application recorder does in Python; elsewhere
(PostgreSQL) through the application's recorder, in smaller transactions: psycopg can hang on one pipelined
statement of many megabytes (both ends waiting: psycopg issue 685).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.settings import EMBEDDED_STORE, PERSISTENCE_ENV

# Rows inserted in one transaction at most: on the embedded store, and on the others.
BATCH_ROWS = 20_000
SERVER_BATCH_ROWS = 2_000


class RowInserter:
    """Inserts stored rows in one transaction (an ``IntegrityError`` when a row's stream and version are stored
    already: nothing of the transaction is stored)."""

    def __init__(self, recorder, env: Mapping[str, str]) -> None:
        datastore = getattr(recorder, "datastore", None)
        self.batch_rows = SERVER_BATCH_ROWS
        if env.get(PERSISTENCE_ENV) == EMBEDDED_STORE and datastore is not None:
            recorder = SQLiteAggregateRecorder(datastore, recorder.events_table_name)
            self.batch_rows = BATCH_ROWS
        self.recorder = recorder

    def insert(self, stored: Sequence[StoredEvent]) -> None:
        self.recorder.insert_events(list(stored))


__all__ = ["BATCH_ROWS", "SERVER_BATCH_ROWS", "RowInserter"]
