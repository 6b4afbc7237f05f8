"""The event store's stored rows, read: the one place that knows the tables eventsourcing keeps them in and
how its mapper keeps a state — encrypted by its cipher and compressed by its compressor where the store's
settings (``CIPHER_TOPIC``/``CIPHER_KEY``, ``COMPRESSOR_TOPIC``) configure them. eventsourcing's
``Mapper.to_domain_event`` undoes both before it decodes; the readers that decode JSON themselves (the
projector's replay, verify, export) get the states back here as the JSON they encode.

The projector reads windows of the notification log (:class:`StoredRows`): the embedded SQLite file directly,
read-only (:class:`SQLiteRows`); PostgreSQL one prepared statement a window (:class:`PostgresRows`); any other
store through the application recorder (:class:`RecorderRows`). A window can be shared between reading
children: a game's stream goes to one child by its id, the rows of other aggregates to the first.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from uuid import UUID

from eventsourcing.persistence import BaseInfrastructureFactory, InfrastructureFactory
from eventsourcing.utils import Environment

from domain.integrity import StoredLine
from domain.settings import worker

Plain = Callable[[bytes], bytes]
APP_NAME = "Rollcall"  # the application's name: its prefixed settings (ROLLCALL_CIPHER_KEY) are read too


def as_stored(state: bytes) -> bytes:
    """A state kept as it was encoded (neither cipher nor compressor)."""
    return state


def of_mapper(mapper) -> Plain:
    """How the states that ``mapper`` stored are read back (the application's own mapper)."""
    return _reader(mapper.cipher, mapper.compressor)


def of_settings(env: Mapping[str, str] | None = None) -> Plain:
    """How the states are read back under the store's settings ``env`` (the environment by default): a
    process that reads the store without opening the application (a projector's reading child)."""
    factory = BaseInfrastructureFactory(Environment(APP_NAME, dict(os.environ if env is None else env)))
    return _reader(factory.cipher(), factory.compressor())


def _reader(cipher, compressor) -> Plain:
    if cipher is None and compressor is None:
        return as_stored

    def plain(state: bytes) -> bytes:
        if cipher is not None:
            state = cipher.decrypt(state)
        if compressor is not None:
            state = compressor.decompress(state)
        return state

    return plain


# A share of a window of notification ids: the events of the games whose stream id ends in a hex digit d that
# falls to it, and (the first share) every row of other aggregates. A projector worker w of W
# (domain.settings.worker) takes the digits d % W = w; its reading child p of P those of them with
# (d / W) % P = p. One share of one: the whole window.
_DIGIT = ("(CASE WHEN substr(topic, 1, 9) = 'rollcall:' "
          "THEN instr('0123456789abcdef', lower(substr(originator_id, -1, 1))) - 1 ELSE 0 END)")
READ_SHARE = ("SELECT rowid, originator_id, topic, state FROM stored_events WHERE rowid > ? AND rowid <= ? AND "
              f"{_DIGIT} % ? = ? AND ({_DIGIT} / ?) % ? = ? ORDER BY rowid")
# the same for the one worker of one: the digit reckoned once (a fifth of the query's time on a window)
READ_SHARE_WHOLE = ("SELECT rowid, originator_id, topic, state FROM stored_events WHERE rowid > ? AND rowid <= ? AND "
                    f"{_DIGIT} % ? = ? ORDER BY rowid")
LINES = ("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version <= ? "
         "ORDER BY originator_version")
# A window's rows of the streams begun at or after a notification id, and of one stream more (a cold start's scope)
READ_SCOPED = ("SELECT e.rowid, e.originator_id, e.topic, e.state FROM stored_events e WHERE e.rowid > ? AND "
               "e.rowid <= ? AND (e.originator_id = ? OR (SELECT f.rowid FROM stored_events f WHERE f.originator_id = "
               "e.originator_id AND f.originator_version = 1) >= ?) ORDER BY e.rowid")
READ_TOPIC = "SELECT rowid, state FROM stored_events WHERE rowid > ? AND rowid <= ? AND topic = ? ORDER BY rowid"

Row = tuple[int, str, str, bytes]  # notification id, stream id (hex), topic, state (JSON)


class StoredRows(Protocol):
    """Windows of the notification log and a stream's first versions, states as JSON."""

    def max_id(self) -> int:
        """The last notification id stored (0: none)."""

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[Row]:
        """The rows of notifications ``after`` < id <= ``upto`` that fall to share ``part`` of ``parts``."""

    def lines(self, stream: str, upto: int) -> list[bytes]:
        """The states of a stream (hex id), versions 1 to ``upto``."""

    def scoped(self, after: int, upto: int, since: int, stream: str) -> list[Row]:
        """The rows of notifications ``after`` < id <= ``upto`` of every stream whose first row is notification
        ``since`` or later, and of ``stream`` (hex id)."""

    def of_topic(self, after: int, upto: int, topic: str) -> list[tuple[int, bytes]]:
        """(notification id, state) of the rows of ``topic`` among notifications ``after`` < id <= ``upto``."""

    def close(self) -> None:
        """Let go of the connection."""


def _plain_rows(plain: Plain, rows: list) -> list[Row]:
    return rows if plain is as_stored else [(i, stream, topic, plain(state)) for i, stream, topic, state in rows]


class SQLiteRows:
    """``<data>/events.sqlite`` read directly, read-only (a file not there yet: no rows)."""

    def __init__(self, path: Path, plain: Plain | None = None) -> None:
        self.plain = of_settings() if plain is None else plain
        self.con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) if path.is_file() else None
        self.worker = worker()

    def max_id(self) -> int:
        if self.con is None:
            return 0
        return self.con.execute("SELECT coalesce(max(rowid), 0) FROM stored_events").fetchone()[0]

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[Row]:
        if self.con is None:
            return []
        w, workers = self.worker
        found = (self.con.execute(READ_SHARE_WHOLE, (after, upto, parts, part)) if workers == 1 else
                 self.con.execute(READ_SHARE, (after, upto, workers, w, workers, parts, part)))
        return _plain_rows(self.plain, found.fetchall())

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [self.plain(state) for (state,) in self.con.execute(LINES, (stream, upto))]

    def scoped(self, after: int, upto: int, since: int, stream: str) -> list[Row]:
        if self.con is None:
            return []
        return _plain_rows(self.plain, self.con.execute(READ_SCOPED, (after, upto, stream, since)).fetchall())

    def of_topic(self, after: int, upto: int, topic: str) -> list[tuple[int, bytes]]:
        if self.con is None:
            return []
        return [(i, self.plain(state)) for i, state in self.con.execute(READ_TOPIC, (after, upto, topic))]

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None


class PostgresRows:
    """A PostgreSQL store (eventsourcing.postgres): each window one prepared statement fetched whole in
    binary, rows as plain tuples (the recorder's notifications build a Notification and a UUID for each
    row), the stream id made hex by the server. With psycopg's C implementation this reads twice as fast as
    COPY's rows (measured: bench/postgres_follow.py)."""

    def __init__(self, recorder, plain: Plain | None = None, factory=None) -> None:
        from psycopg import sql

        self.recorder, self.factory = recorder, factory  # a factory of its own is closed with it
        self.plain = of_settings() if plain is None else plain
        table = sql.SQL("{}.{}").format(sql.Identifier(recorder.datastore.schema),
                                        sql.Identifier(recorder.events_table_name))
        self.read_share = sql.SQL(
            "SELECT notification_id, encode(uuid_send(originator_id), 'hex'), topic, state FROM {} "
            "WHERE notification_id > %s AND notification_id <= %s AND {digit} %% %s = %s AND ({digit} / %s) %% %s = %s "
            "ORDER BY notification_id").format(table, digit=sql.SQL(
                "(CASE WHEN left(topic, 9) = 'rollcall:' THEN get_byte(uuid_send(originator_id), 15) %% 16 ELSE 0 END)"))
        self.worker = worker()
        self.last = sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {}").format(table)
        self.read_scoped = sql.SQL(
            "SELECT e.notification_id, encode(uuid_send(e.originator_id), 'hex'), e.topic, e.state FROM {} e "
            "WHERE e.notification_id > %s AND e.notification_id <= %s AND (e.originator_id = %s::uuid OR (SELECT "
            "f.notification_id FROM {} f WHERE f.originator_id = e.originator_id AND f.originator_version = 1) >= %s) "
            "ORDER BY e.notification_id").format(table, table)
        self.read_topic = sql.SQL("SELECT notification_id, state FROM {} WHERE notification_id > %s AND "
                                  "notification_id <= %s AND topic = %s ORDER BY notification_id").format(table)

    def _fetch(self, statement, params=()) -> list[tuple]:
        from psycopg.rows import tuple_row

        with self.recorder.datastore.get_connection() as con, con.cursor(row_factory=tuple_row) as cur:
            cur.execute(statement, params, prepare=True, binary=True)
            return cur.fetchall()

    def max_id(self) -> int:
        return int(self._fetch(self.last)[0][0])

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[Row]:
        w, workers = self.worker
        return _plain_rows(self.plain, self._fetch(self.read_share, (after, upto, workers, w, workers, parts, part)))

    def scoped(self, after: int, upto: int, since: int, stream: str) -> list[Row]:
        return _plain_rows(self.plain, self._fetch(self.read_scoped, (after, upto, stream, since)))

    def of_topic(self, after: int, upto: int, topic: str) -> list[tuple[int, bytes]]:
        return [(i, self.plain(bytes(state))) for i, state in self._fetch(self.read_topic, (after, upto, topic))]

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [self.plain(bytes(s.state)) for s in self.recorder.select_events(UUID(stream), lte=upto)]

    def close(self) -> None:
        if self.factory is not None:
            self.factory.close()
            self.factory = None


class RecorderRows:
    """Any other event store, through the application recorder's notification log (read whole, not shared)."""

    def __init__(self, recorder, plain: Plain | None = None) -> None:
        self.recorder = recorder
        self.plain = as_stored if plain is None else plain

    def max_id(self) -> int:
        return self.recorder.max_notification_id() or 0

    def share(self, after: int, upto: int, part: int = 0, parts: int = 1) -> list[Row]:
        if parts != 1 or worker() != (0, 1):
            raise ValueError("the recorder's notifications are read whole, not shared")  # untranslated: a caller's mistake
        found = self.recorder.select_notifications(after + 1, max(upto - after, 0), stop=upto)
        return [(n.id, _stream(n.originator_id), n.topic, self.plain(bytes(n.state))) for n in found]

    def lines(self, stream: str, upto: int) -> list[bytes]:
        return [self.plain(bytes(s.state)) for s in self.recorder.select_events(UUID(stream), lte=upto)]

    def close(self) -> None:
        pass


def opened_rows(kind: str, where: str) -> StoredRows:
    """The rows a process reads without opening the application: ``sqlite PATH``, or ``postgres
    APP_NAME:EVENTS_TABLE`` — the store alone, with the application's settings from the environment (opening
    the application would import and set up all of it, and ask the server to create its tables: a third of a
    second per reading child)."""
    if kind == "sqlite":
        return SQLiteRows(Path(where))
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresFactory

    name, _, table = where.partition(":")
    factory = PostgresFactory(Environment(name, os.environ))
    return PostgresRows(PostgresApplicationRecorder(factory.datastore, events_table_name=table), factory=factory)


@dataclass
class OpenedStore:
    """The event store the settings name, opened for reading without the application (the projector of a server
    store): its application recorder, its settings and name, and how its states are read back."""

    recorder: object
    env: dict[str, str]
    name: str
    plain: Plain
    factory: object

    def close(self) -> None:
        self.factory.close()


def opened_store(env: Mapping[str, str] | None = None) -> OpenedStore:
    """The store of the settings ``env`` over the environment's (as the application reads them), its tables
    created if missing."""
    settings = {**os.environ, **(env or {})}
    factory = InfrastructureFactory.construct(Environment(APP_NAME, settings))
    return OpenedStore(factory.application_recorder(), settings, APP_NAME, of_settings(settings), factory)


# --- one stream, or the notifications of some topics, through the application's recorder ----------------------

def stream(recorder, oid: UUID, *, last: bool = False) -> list:
    """The stored rows (eventsourcing's StoredEvent: originator_version, topic, state as stored) of stream
    ``oid`` in version order; ``last``: its last row alone (none: an empty list)."""
    return recorder.select_events(oid, desc=True, limit=1) if last else recorder.select_events(oid)


def last_version(recorder, oid: UUID) -> int:
    """The version of stream ``oid``'s last stored row (0: none stored)."""
    found = stream(recorder, oid, last=True)
    return found[0].originator_version if found else 0


def notifications(recorder, topics: tuple[str, ...] | list[str] = (), page: int = 1000) -> Iterator:
    """Every notification of the store (of ``topics``, if given), in order, a page at a time."""
    start = 1
    while True:
        batch = recorder.select_notifications(start, page, topics=list(topics))
        yield from batch
        if len(batch) < page:
            return
        start = batch[-1].id + 1


def _stream(originator_id: UUID | str) -> str:
    return originator_id.hex if isinstance(originator_id, UUID) else str(originator_id).replace("-", "")


class Decoded:
    """A store's rows read through the application's recorder and decoded by its mapper — the one place a
    stored row's state becomes data (verify, export, listing): each state the JSON its transcoder wrote, or None
    where it cannot be read (not JSON, or text that is not text: a lone surrogate written into the store)."""

    def __init__(self, recorder, mapper) -> None:
        self.recorder, self.mapper = recorder, mapper
        self.plain = of_mapper(mapper)

    def state(self, state: bytes) -> dict | None:
        from domain.record import check_object

        try:
            state = self.plain(state)
            decoded = self.mapper.transcoder.decode(state)
            if b"\\ud" in state or b"\\uD" in state:
                check_object(decoded)
        except Exception:  # noqa: BLE001  an unreadable row is damage, not a crash
            return None
        return decoded if isinstance(decoded, dict) else None

    def lines(self, oid: UUID, *, last: bool = False) -> list[StoredLine]:
        """Stream ``oid``'s rows in version order, decoded (``last``: its last row alone; none: empty)."""
        return [StoredLine(s.originator_version, s.topic, self.state(s.state)) for s in stream(self.recorder, oid, last=last)]

    def notifications(self, topics: tuple[str, ...] | list[str] = (), *, decode: bool = True,
                      ) -> Iterator[tuple[UUID, str, dict | None]]:
        """(stream, topic, decoded state, or None when not ``decode``d or unreadable) of every notification (of
        ``topics``), in order."""
        for n in notifications(self.recorder, topics):
            yield n.originator_id, n.topic, self.state(n.state) if decode else None

    def events(self, topics: tuple[str, ...] | list[str]) -> Iterator:
        """The domain events of the notifications of ``topics``, in order."""
        for n in notifications(self.recorder, topics):
            yield self.mapper.to_domain_event(n)
