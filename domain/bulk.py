"""Importing many records at once: records are checked in parallel worker processes (the same
aggregate and rules as a single import, domain.storedrows), which send back each game's stored
rows; the importing process stores them, every game whole or not at all. Consecutive games are
stored together in one transaction; if that one fails (a game is recorded already), each of its
games is stored again in a transaction of its own, so only the duplicate is refused."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from eventsourcing.persistence import IntegrityError

from domain.access import AccessDenied, require
from domain.application import GameAlreadyRecorded, Imported, Rollcall
from domain.errors import MalformedRecord, RecordError, RollcallError
from domain.storedrows import GameRows, check_lines, insert_rows

# Settings a worker needs to encode events exactly as the store does.
MAPPER_SETTINGS = ("COMPRESSOR_TOPIC", "CIPHER_TOPIC", "CIPHER_KEY", "TRANSCODER_TOPIC")
# Games stored in one transaction: until this many rows are waiting (or this many games).
BATCH_ROWS = 20_000
BATCH_GAMES = 200

Checked = GameRows  # the result of checking one file (its stored rows)

_worker_app: Rollcall | None = None


def _start_worker(settings: dict[str, str], author: str | None = None) -> None:
    global _worker_app
    _worker_app = Rollcall(env={**settings, "PERSISTENCE_MODULE": "eventsourcing.popo"})
    _worker_app.acting_as = author


def check_file(path: str, lenient: bool, author: str | None = None) -> GameRows | RecordError:
    """Check one record file completely; return its stored rows (events written by ``author``), or
    the error."""
    app = _worker_app
    if app is None:
        app = Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        app.acting_as = author
    try:
        with open(path, encoding="utf-8") as handle:
            return check_lines(app, handle, path, lenient=lenient)
    except RecordError as exc:
        return exc
    except (OSError, UnicodeDecodeError) as exc:
        return RecordError(path, 0, None, RollcallError(str(exc)))


def import_files(app: Rollcall, paths: Iterable[Path], *, lenient: bool = False, workers: int | None = None,
                 ) -> Iterator[Imported | RecordError]:
    """Import record files; yields each file's result (in order) as soon as it is stored."""
    paths = [str(p) for p in paths]
    author = app.author()  # refuses a missing or wrong key before anything is read
    workers = workers if workers is not None else min(len(paths) // 4, os.cpu_count() or 1)
    if workers <= 1:
        results: Iterable[GameRows | RecordError] = (check_file(p, lenient, author) for p in paths)
        yield from _store_all(app, zip(paths, results))
        return
    settings = {k: v for k in MAPPER_SETTINGS if (v := app.env.get(k))}
    # fork: workers start at once and never re-run the importing program's __main__ (spawn would).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(settings, author)) as pool:
        results = pool.map(check_file, paths, [lenient] * len(paths), chunksize=4)
        yield from _store_all(app, zip(paths, results))


def _store_all(app: Rollcall, results: Iterable[tuple[str, GameRows | RecordError]],
               ) -> Iterator[Imported | RecordError]:
    """Store checked games in batches (one transaction each); yield every result in order."""
    waiting: list[tuple[str, GameRows | RecordError]] = []
    rows = 0
    for path, result in results:
        if isinstance(result, GameRows):
            refused = _refused(app, path, result)
            if refused is not None:
                result = refused
            else:
                rows += len(result)
        waiting.append((path, result))
        if rows >= BATCH_ROWS or len(waiting) >= BATCH_GAMES:
            yield from _flush(app, waiting)
            waiting, rows = [], 0
    yield from _flush(app, waiting)


def _refused(app: Rollcall, path: str, result: GameRows) -> RecordError | None:
    """Why ``result`` may not be stored (a judge's key missing, a tournament of another system, the
    game recorded already), or None."""
    try:
        if result.needs_judge:
            require(app.holder(), "judge", f"importing {result.needs_judge}")
        app.check_tournament(result.header)  # the workers' stores hold no tournaments
        if app.exists(result.game):
            raise GameAlreadyRecorded(result.game)
    except (GameAlreadyRecorded, MalformedRecord, AccessDenied) as exc:
        return RecordError(path, 1, None, exc)
    return None


def _flush(app: Rollcall, waiting: list[tuple[str, GameRows | RecordError]]) -> Iterator[Imported | RecordError]:
    games = [r for _, r in waiting if isinstance(r, GameRows)]
    together = False
    if len(games) > 1:
        try:
            insert_rows(app, games)
            together = True
        except IntegrityError:
            pass  # one of them (at least) is recorded already: store them one by one
    for path, result in waiting:
        if isinstance(result, RecordError):
            yield result
            continue
        if not together:
            try:
                insert_rows(app, [result])
            except IntegrityError:
                yield RecordError(path, 1, None, GameAlreadyRecorded(result.game))
                continue
        yield Imported(result.game, result.events, result.violations)


__all__ = ["import_files", "check_file", "Checked"]
