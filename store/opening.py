"""Opening the event store and telling its failures apart: what only the store's drivers (SQLite, PostgreSQL)
say, read here and nowhere else — a full or busy store, another program's database, tables another process is
creating — turned into the domain's errors (StoreFault, StoreUnavailable)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from pathlib import Path

from eventsourcing.persistence import PersistenceError

from domain.errors import StoreFault, StoreUnavailable
from domain.settings import PERSISTENCE_ENV
from i18n import _

EVENTS_TABLE = "stored_events"  # eventsourcing's table of the embedded store
STORE_ERRORS = (PersistenceError, sqlite3.Error)  # what a store's driver raises when it cannot read or write
OPEN_ATTEMPTS = 8  # opening a new store while other processes create its tables, then use them


def fault_of(exc: BaseException, folder: str | None = None) -> StoreFault | None:
    """The fault a database error of a write is (SQLite's or PostgreSQL's words for it, or the OS's), else None;
    an I/O error on a disk with no room left (the store's ``folder``) is a full store."""
    if folder is not None and "i/o error" in str(exc).lower():
        try:
            if shutil.disk_usage(folder).free < 65_536:
                return StoreFault(StoreFault.FULL)
        except OSError:
            pass
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        text = str(exc).lower()
        if "locked" in text or "busy" in text:
            return StoreFault(StoreFault.BUSY)
        if "full" in text or "too large" in text or "no space" in text or "disk quota" in text:
            return StoreFault(StoreFault.FULL)
        if "readonly" in text or "read-only" in text or "read only" in text:
            return StoreFault(StoreFault.READ_ONLY)
        exc = exc.__cause__ or exc.__context__
    return None


def created_meanwhile(exc: Exception) -> bool:
    """Whether opening failed because another process was creating the same tables, types or functions
    (PostgreSQL's "tuple concurrently updated", a duplicate type or relation): opening again finds them."""
    text = str(exc).lower()
    return "concurrently updated" in text or "duplicate key" in text or "already exists" in text


def server_name() -> str:
    """The server store the environment names, as a user knows it."""
    return _("{module} at {host}:{port}/{database}").format(
        module=os.environ.get(PERSISTENCE_ENV), host=os.environ.get("POSTGRES_HOST", "localhost"),
        port=os.environ.get("POSTGRES_PORT", "5432"), database=os.environ.get("POSTGRES_DBNAME", ""))


def refuse_foreign(path: Path) -> None:
    """StoreUnavailable if ``path`` is an SQLite database of another program (tables, none of them Rollcall's)."""
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as con:
            tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    except sqlite3.Error as exc:
        fault = fault_of(exc, str(path.parent))
        if fault is not None and fault.kind == StoreFault.FULL:
            raise fault from None
        raise StoreUnavailable(str(path), _("cannot be read ({why}: a damaged file or a full disk?)").format(why=exc)
                               ) from None
    if tables and EVENTS_TABLE not in tables:
        raise StoreUnavailable(str(path), _("is another program's SQLite database (tables {tables}), not Rollcall's "
                                            "event store: name another data folder").format(tables=", ".join(tables[:5])))
