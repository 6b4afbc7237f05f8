"""Importing many records at once: a storage adapter of the application's one write path.

Each record is checked in a worker process by the application service's own ``check_record`` — the
rules, the chain, the aggregate and its pending events, exactly as any write, over an empty store — and
eventsourcing's mapper turns those pending events into the rows the store keeps. The importing process
then asks the application what only the real store can tell: may the key write them
(``Rollcall.authorise`` of what ``domain.access.needs_of`` said), is the game new and its tournament of
its system (``Rollcall.admit``). A game that meets anything the empty store could not show (a seat of its
players already in the store, rows stored meanwhile by another writer) is written by ``Rollcall.write``
itself, which judges it. Whole games are stored several per transaction; if a transaction fails, each
of its games is stored alone.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.access import AccessDenied, needs_of
from service.application import Checked, Rollcall, Written
from domain.errors import GameAlreadyRecorded, MalformedRecord, RecordError, RollcallError, RuleViolation
from domain.seats import Seat
import i18n
from i18n import N_, _

# Settings a worker needs to encode events exactly as the store does.
MAPPER_SETTINGS = ("COMPRESSOR_TOPIC", "CIPHER_TOPIC", "CIPHER_KEY", "TRANSCODER_TOPIC")
# Games stored in one transaction: until this many rows are waiting (or this many games).
BATCH_ROWS = 20_000
BATCH_GAMES = 200
# Other stores (PostgreSQL) take a batch in one pipelined statement: psycopg can hang on one of many
# megabytes (both ends waiting: psycopg issue 685), so their batches are smaller.
SERVER_BATCH_ROWS = 2_000

UNFORESEEN = N_("could not be checked; nothing of it was stored")

_worker_app: Rollcall | None = None


@dataclass
class GameRows:
    """A checked game as the rows the store keeps: the game's own (versions 1, 2, … as columns, cheap to
    send between processes) and those of the aggregates stored with it (seats, a digital seed)."""

    path: str
    game: str
    events: int
    violations: int
    header: dict
    needs: dict[str, str]        # what writing it needs (domain.access.needs_of)
    seats: list[UUID]            # the seats it takes
    oid: str                     # the game's aggregate id, hex
    topics: list[str]
    states: list[bytes]
    others: list[tuple[str, int, str, bytes]]  # (id hex, version, topic, state) of the other aggregates

    def __len__(self) -> int:
        return len(self.states) + len(self.others)

    def stored_events(self) -> list[StoredEvent]:
        oid = UUID(self.oid)
        own = [StoredEvent(oid, version, topic, state)
               for oid, version, topic, state in zip(repeat(oid), range(1, len(self.states) + 1), self.topics,
                                                     self.states)]
        return own + [StoredEvent(UUID(i), version, topic, state) for i, version, topic, state in self.others]

    def written(self) -> Written:
        return Written(self.game, [self.header], self.events, self.violations)


def rows_of(app: Rollcall, path: str, checked: Checked) -> GameRows:
    """The stored rows of a checked game, through the application's own mapper."""
    to_stored = app.mapper.to_stored_event
    own = [to_stored(e) for e in checked.game.collect_events()]
    others = [to_stored(e) for c in checked.companions for e in c.collect_events()]
    return GameRows(path, checked.game_id, checked.events, checked.violations, checked.game.header,
                    needs_of([checked.game, *checked.companions]),
                    [c.id for c in checked.companions if isinstance(c, Seat)],
                    own[0].originator_id.hex, [s.topic for s in own], [s.state for s in own],
                    [(s.originator_id.hex, s.originator_version, s.topic, s.state) for s in others])


def _checker(settings: dict[str, str], author: str | None) -> Rollcall:
    """An in-memory application that checks records as the store's own would, written by ``author``."""
    app = Rollcall(env={**settings, "PERSISTENCE_MODULE": "eventsourcing.popo"})
    app.acting_as = author
    return app


def _start_worker(settings: dict[str, str], author: str | None = None, language: str | None = None) -> None:
    global _worker_app
    _worker_app = _checker(settings, author)
    i18n.use(language)  # its refusals in the importing process's language (a spawned worker starts in English)


def check_file(path: str, lenient: bool, checker: Rollcall | None = None) -> GameRows | RecordError:
    """Check one record file completely (in a worker, with its checker): its stored rows, or the error."""
    app = checker or _worker_app
    try:
        with open(path, "rb") as handle:
            return rows_of(app, path, app.check_record(handle, path, lenient=lenient))
    except RecordError as exc:
        return exc
    except RollcallError as exc:
        return RecordError(path, 0, None, exc)
    except OSError as exc:
        return RecordError(path, 0, None, RollcallError(exc.strerror or str(exc)))
    except Exception as exc:  # noqa: BLE001  a record no check foresaw: refused and named, the others go on
        return RecordError(path, 0, None, RollcallError(f"{_(UNFORESEEN)} ({type(exc).__name__}: {exc})"))


def import_files(app: Rollcall, paths: Iterable[Path | str], *, lenient: bool = False, workers: int | None = None,
                 ) -> Iterator[Written | RecordError]:
    """Import record files; yields each file's result (in order) as soon as it is stored or refused."""
    paths = [str(p) for p in paths]
    author = app.author()  # refuses a missing or wrong key before anything is read
    workers = workers if workers is not None else min(len(paths) // 4, os.cpu_count() or 1)
    settings = {k: v for k in MAPPER_SETTINGS if (v := app.env.get(k))}
    if workers <= 1:
        checker = _checker(settings, author)
        yield from _store_all(app, (check_file(p, lenient, checker) for p in paths), lenient)
        return
    # fork: workers start at once and never re-run the importing program's __main__ (spawn would).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(settings, author, i18n.current())) as pool:
        yield from _store_all(app, pool.map(check_file, paths, repeat(lenient), chunksize=4), lenient)


def _store_all(app: Rollcall, results: Iterable[GameRows | RecordError], lenient: bool,
               ) -> Iterator[Written | RecordError]:
    """Store checked games in batches (one transaction each); yield every result in order."""
    inserter = _Inserter(app)
    waiting: list[GameRows | RecordError | Written] = []
    rows = 0
    for result in results:
        if isinstance(result, GameRows):
            result = _admitted(app, result, lenient)
            if isinstance(result, GameRows):
                rows += len(result)
        waiting.append(result)
        if rows >= inserter.batch_rows or len(waiting) >= BATCH_GAMES:
            yield from _flush(app, inserter, waiting, lenient)
            waiting, rows = [], 0
    yield from _flush(app, inserter, waiting, lenient)


def _admitted(app: Rollcall, game: GameRows, lenient: bool) -> GameRows | RecordError | Written:
    """``game`` if this store takes it as checked; else why not (RecordError), or what the application's
    own write made of it where a seat of its players is already in the store."""
    try:
        app.authorise(game.needs)
        if any(app.seat(seat) is not None for seat in game.seats):
            return _written_alone(app, game.path, lenient)  # taken (F11), or freed by a withdrawn game
        app.admit(game.header)
    except RecordError as exc:
        return exc
    except (GameAlreadyRecorded, MalformedRecord, AccessDenied, RuleViolation) as exc:
        return RecordError(game.path, 1, None, exc)
    return game


def _written_alone(app: Rollcall, path: str, lenient: bool) -> Written | RecordError:
    """One record through the application's own write (``Rollcall.import_record``)."""
    try:
        with open(path, "rb") as handle:
            return app.import_record(handle, path, lenient=lenient)
    except RecordError as exc:
        return exc
    except RollcallError as exc:
        return RecordError(path, 1, None, exc)


class _Inserter:
    """Inserts stored events in one transaction: on the embedded store with the aggregate recorder of its
    table (one statement for many rows), elsewhere with the application's recorder."""

    def __init__(self, app: Rollcall) -> None:
        recorder = app.recorder
        datastore = getattr(recorder, "datastore", None)
        self.batch_rows = SERVER_BATCH_ROWS
        if app.env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite" and datastore is not None:
            recorder = SQLiteAggregateRecorder(datastore, recorder.events_table_name)
            self.batch_rows = BATCH_ROWS
        self.recorder = recorder

    def insert(self, games: list[GameRows]) -> None:
        self.recorder.insert_events([s for g in games for s in g.stored_events()])


def _flush(app: Rollcall, inserter: _Inserter, waiting: list, lenient: bool) -> Iterator[Written | RecordError]:
    games = [r for r in waiting if isinstance(r, GameRows)]
    together = False
    if len(games) > 1:
        try:
            inserter.insert(games)
            together = True
        except IntegrityError:
            pass  # one of them (at least) was stored meanwhile: store them one by one
    for result in waiting:
        if not isinstance(result, GameRows):
            yield result
            continue
        if not together:
            try:
                inserter.insert([result])
            except IntegrityError:  # stored meanwhile (the game, a seat): the application's write judges it
                yield _written_alone(app, result.path, lenient)
                continue
        yield result.written()


__all__ = ["GameRows", "check_file", "import_files", "rows_of"]
