"""Importing many records at once: the application's one write path, with the checks in worker processes.

Each record is checked once. Before any is checked, the importing process reads each file's header line and
asks the store what only it can tell of the players' seats: a record whose players hold a seat in the store
already (taken, F11, or freed by a withdrawn game), or one an earlier record of the same import takes, is
written by ``Rollcall.import_record`` itself, at its turn, which judges it against the real store. Every other
record is checked in a worker process by the application's own ``check_record`` — the rules, the chain, the
aggregate and its pending events, exactly as any write, over an empty store — and eventsourcing's mapper turns
those pending events into the rows the store keeps. The importing process asks ``Rollcall.admit`` what the
store says of the new game (recorded already, its tournament of its system), then stores whole games several
per transaction with ``Rollcall.save_rows``, which checks the key as ``Rollcall.save`` does and says a store's
fault the same way. Rows another writer stored meanwhile (the game, a seat) refuse that game as a single write
is refused (``Rollcall.met_meanwhile``). A file's failure is at its line, or line 1 when the whole file fails.
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

import i18n
from domain.access import AccessDenied, needs_of
from domain.errors import GameAlreadyRecorded, MalformedRecord, RecordError, RollcallError, RuleViolation
from domain.record import LocatedError, read_lines
from domain.seats import Seat, seats_of
from i18n import N_, _
from service.application import Checked, Rollcall, Written

# Settings a worker needs to encode events exactly as the store does.
MAPPER_SETTINGS = ("COMPRESSOR_TOPIC", "CIPHER_TOPIC", "CIPHER_KEY", "TRANSCODER_TOPIC")
BATCH_GAMES = 200  # games stored in one transaction at most (and rows: Rollcall.rows_per_transaction)
WHOLE_FILE = 1  # the line a failure of the whole file is at

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
               for version, topic, state in zip(range(1, len(self.states) + 1), self.topics, self.states)]
        return own + [StoredEvent(UUID(i), version, topic, state) for i, version, topic, state in self.others]

    def written(self) -> Written:
        return Written(self.game, [self.header], self.events, self.violations)


@dataclass(frozen=True)
class Alone:
    """A record left to the application's own write (its players' seats are in the store, or taken by an
    earlier record of the import): not checked in a worker."""

    path: str


def rows_of(app: Rollcall, path: str, checked: Checked) -> GameRows:
    """The stored rows of a checked game, through the application's own mapper."""
    needs = needs_of([checked.game, *checked.companions])  # (of the pending events: asked before they are collected)
    to_stored = app.mapper.to_stored_event
    own = [to_stored(e) for e in checked.game.collect_events()]
    others = [to_stored(e) for c in checked.companions for e in c.collect_events()]
    return GameRows(path, checked.game_id, checked.events, checked.violations, checked.game.header,
                    needs,
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


def check_file(path: str, lenient: bool, checker: Rollcall | None = None, edited: bool = False,
               alone: bool = False) -> GameRows | RecordError | Alone:
    """Check one record file completely (in a worker, with its checker): its stored rows, or the error.
    ``edited``: its hashes are left out (Rollcall.check_record); ``alone``: not checked here (Alone)."""
    if alone:
        return Alone(path)
    app = checker or _worker_app
    try:
        with open(path, "rb") as handle:
            return rows_of(app, path, app.check_record(handle, path, lenient=lenient, edited=edited))
    except RecordError as exc:
        return exc
    except RollcallError as exc:
        return RecordError(path, WHOLE_FILE, None, exc)
    except OSError as exc:
        return RecordError(path, WHOLE_FILE, None, RollcallError(exc.strerror or str(exc)))
    except Exception as exc:  # noqa: BLE001  a record no check foresaw: refused and named, the others go on
        return RecordError(path, WHOLE_FILE, None, RollcallError(f"{_(UNFORESEEN)} ({type(exc).__name__}: {exc})"))


def header_seats(path: str) -> list[UUID]:
    """The seats a record's header line gives its players (none where the line cannot be read: the check
    says why)."""
    try:
        with open(path, "rb") as handle:
            line = next(read_lines([handle.readline()]))
        return [seat for _name, seat in seats_of(line.obj)] if isinstance(line.obj, dict) else []
    except (OSError, LocatedError, StopIteration):
        return []
    except Exception:  # noqa: BLE001  a header of any shape, not checked yet: its check says what is wrong
        return []


def left_alone(app: Rollcall, paths: list[str]) -> list[bool]:
    """For each record, whether the application's own write is to judge it: a seat of its players is in the
    store, or an earlier record of these takes it."""
    claimed: set[UUID] = set()
    alone = []
    for path in paths:
        seats = header_seats(path)
        alone.append(any(seat in claimed or app.seat(seat) is not None for seat in seats))
        claimed.update(seats)
    return alone


def import_files(app: Rollcall, paths: Iterable[Path | str], *, lenient: bool = False, workers: int | None = None,
                 edited: bool = False) -> Iterator[Written | RecordError]:
    """Import record files; yields each file's result (in order) as soon as it is stored or refused. ``edited``:
    records edited by hand, taken without their hashes (Rollcall.check_record)."""
    paths = [str(p) for p in paths]
    author = app.author()  # refuses a missing or wrong key before anything is read
    alone = left_alone(app, paths)
    workers = workers if workers is not None else min(len(paths) // 4, os.cpu_count() or 1)
    settings = {k: v for k in MAPPER_SETTINGS if (v := app.env.get(k))}
    if workers <= 1:
        checker = _checker(settings, author)
        yield from _store_all(app, (check_file(p, lenient, checker, edited, a) for p, a in zip(paths, alone)),
                              lenient, edited)
        return
    # fork: workers start at once and never re-run the importing program's __main__ (spawn would).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(settings, author, i18n.current())) as pool:
        yield from _store_all(app, pool.map(check_file, paths, repeat(lenient), repeat(None), repeat(edited), alone,
                                            chunksize=4), lenient, edited)


def _store_all(app: Rollcall, results: Iterable[GameRows | RecordError | Alone], lenient: bool, edited: bool = False,
               ) -> Iterator[Written | RecordError]:
    """Store checked games in batches (one transaction each); yield every result in order."""
    waiting: list[GameRows | RecordError] = []
    rows = 0
    for result in results:
        if isinstance(result, Alone):
            yield from _flush(app, waiting)  # what comes before it is stored first
            waiting, rows = [], 0
            yield _written_alone(app, result.path, lenient, edited)
            continue
        if isinstance(result, GameRows):
            result = _admitted(app, result)
            if isinstance(result, GameRows):
                rows += len(result)
        waiting.append(result)
        if rows >= app.rows_per_transaction or len(waiting) >= BATCH_GAMES:
            yield from _flush(app, waiting)
            waiting, rows = [], 0
    yield from _flush(app, waiting)


def _admitted(app: Rollcall, game: GameRows) -> GameRows | RecordError:
    """``game`` if this store takes it as checked; else why not (its tournament of another system, recorded
    already, a seat taken meanwhile)."""
    try:
        app.admit(game.header)
    except RecordError as exc:
        return exc
    except (GameAlreadyRecorded, MalformedRecord, RuleViolation) as exc:
        return RecordError(game.path, WHOLE_FILE, None, exc)
    return game


def _written_alone(app: Rollcall, path: str, lenient: bool, edited: bool = False) -> Written | RecordError:
    """One record through the application's own write (``Rollcall.import_record``): checked there, once."""
    try:
        with open(path, "rb") as handle:
            return app.import_record(handle, path, lenient=lenient, edited=edited)
    except RecordError as exc:
        return exc
    except (GameAlreadyRecorded, AccessDenied, RuleViolation, MalformedRecord) as exc:
        return RecordError(path, WHOLE_FILE, None, exc)
    except OSError as exc:
        return RecordError(path, WHOLE_FILE, None, RollcallError(exc.strerror or str(exc)))


def _flush(app: Rollcall, waiting: list[GameRows | RecordError]) -> Iterator[Written | RecordError]:
    """Store the waiting games in one transaction (each alone if that is refused); yield every result in order."""
    games = [r for r in waiting if isinstance(r, GameRows)]
    together = False
    if len(games) > 1:
        needs = {need: what for g in games for need, what in g.needs.items()}
        try:
            app.save_rows([s for g in games for s in g.stored_events()], needs)
            together = True
        except (IntegrityError, AccessDenied):
            pass  # one of them (at least) was stored meanwhile, or is not the key's to write: one by one
    for result in waiting:
        if not isinstance(result, GameRows):
            yield result
            continue
        if not together:
            try:
                app.save_rows(result.stored_events(), result.needs)
            except AccessDenied as exc:
                yield RecordError(result.path, WHOLE_FILE, None, exc)
                continue
            except IntegrityError:  # stored meanwhile by another writer: the game, or a seat
                met = app.met_meanwhile(result.game, result.seats)
                yield RecordError(result.path, WHOLE_FILE, None, met or RollcallError(
                    _("another writer stored the same rows meanwhile; nothing was stored")))
                continue
        yield result.written()


__all__ = ["GameRows", "check_file", "import_files", "rows_of"]
