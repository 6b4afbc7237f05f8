"""Rollcall's settings, in one place: where the data lives, its files, and the environment that moves them.

The data folder holds the embedded event store and the read models. It is the ``--data`` option, else
the environment variable ``ROLLCALL_DATA``, else ``./data``. ``PERSISTENCE_MODULE`` (with eventsourcing's
``POSTGRES_*`` variables) moves the event store to another server; the read models stay in the folder.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "ROLLCALL_DATA"        # the data folder
KEY_ENV = "ROLLCALL_KEY"          # the access key presented for writing
DEFAULT_DATA = "data"             # the data folder when nothing names one (relative to the working folder)

EVENTS_FILE = "events.sqlite"             # the embedded event store
LIVE_FILE = "rollcall.duckdb"             # the read models, written by the projector alone
PUBLISHED_FILE = "rollcall.read.duckdb"   # their read-only copy, the only file readers open

PERSISTENCE_ENV = "PERSISTENCE_MODULE"
EMBEDDED_STORE = "eventsourcing.sqlite"
POSTGRES_STORE = "eventsourcing.postgres"
SQLITE_LOCK_TIMEOUT = "30"        # seconds a writer waits for another's transaction on the embedded store


def data_dir(given: str | os.PathLike | None = None) -> Path:
    """The data folder: ``given``, else ``$ROLLCALL_DATA``, else ``./data``."""
    return Path(given or os.environ.get(DATA_ENV) or DEFAULT_DATA)


def uses_embedded_store() -> bool:
    """Whether the event store is the SQLite file of the data folder (no other store is configured)."""
    return os.environ.get(PERSISTENCE_ENV, EMBEDDED_STORE) == EMBEDDED_STORE


def store_env(given: str | os.PathLike | None = None) -> dict[str, str]:
    """eventsourcing's settings for the event store: those of the environment when it names a store
    (``PERSISTENCE_MODULE``), otherwise the embedded SQLite file ``<data>/events.sqlite``."""
    if os.environ.get(PERSISTENCE_ENV):
        return {}
    folder = data_dir(given)
    folder.mkdir(parents=True, exist_ok=True)
    return {PERSISTENCE_ENV: EMBEDDED_STORE, "SQLITE_DBNAME": str(folder / EVENTS_FILE),
            "SQLITE_LOCK_TIMEOUT": SQLITE_LOCK_TIMEOUT}
