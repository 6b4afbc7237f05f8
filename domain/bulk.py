"""Importing many records at once: records are checked in parallel worker processes (the same
aggregate and rules as a single import), and each game's events are stored by the importing
process in one transaction per game."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.application import DiceSeed, GameAlreadyRecorded, Imported, Rollcall
from domain.errors import RecordError, RollcallError

# Settings a worker needs to encode events exactly as the store does.
MAPPER_SETTINGS = ("COMPRESSOR_TOPIC", "CIPHER_TOPIC", "CIPHER_KEY", "TRANSCODER_TOPIC")


@dataclass
class Checked:
    game: str
    events: int
    violations: int
    stored: list[StoredEvent]


_worker_app: Rollcall | None = None


def _start_worker(settings: dict[str, str]) -> None:
    global _worker_app
    _worker_app = Rollcall(env={**settings, "PERSISTENCE_MODULE": "eventsourcing.popo"})


def check_file(path: str, lenient: bool) -> Checked | RecordError:
    """Check one record file completely; return the stored form of its events, or the error."""
    app = _worker_app or Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        with open(path, encoding="utf-8") as handle:
            game = app.read_record(handle, path, lenient=lenient)
    except RecordError as exc:
        return exc
    except (OSError, UnicodeDecodeError) as exc:
        return RecordError(path, 0, None, RollcallError(str(exc)))
    pending = list(game.collect_events())
    if getattr(game, "seed", None):
        pending.extend(DiceSeed.draw(game.header["game"], game.seed).collect_events())
    return Checked(game.header["game"], game.state.seq, game.violation_count,
                   [app.mapper.to_stored_event(e) for e in pending])


def import_files(app: Rollcall, paths: Iterable[Path], *, lenient: bool = False, workers: int | None = None,
                 ) -> Iterator[Imported | RecordError]:
    """Import record files; yields each file's result (in order) as soon as it is stored."""
    paths = [str(p) for p in paths]
    workers = workers if workers is not None else min(len(paths) // 4, os.cpu_count() or 1)
    if workers <= 1:
        results: Iterable[Checked | RecordError] = (check_file(p, lenient) for p in paths)
        yield from (_store(app, p, r) for p, r in zip(paths, results))
        return
    settings = {k: v for k in MAPPER_SETTINGS if (v := app.env.get(k))}
    # fork: workers start at once and never re-run the importing program's __main__ (spawn would).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(settings,)) as pool:
        for path, result in zip(paths, pool.map(check_file, paths, [lenient] * len(paths), chunksize=8)):
            yield _store(app, path, result)


def _store(app: Rollcall, path: str, result: Checked | RecordError) -> Imported | RecordError:
    if isinstance(result, RecordError):
        return result
    try:
        if app.exists(result.game):
            raise GameAlreadyRecorded(result.game)
        try:
            app.recorder.insert_events(result.stored)
        except IntegrityError:
            raise GameAlreadyRecorded(result.game) from None
    except GameAlreadyRecorded as exc:
        return RecordError(path, 1, None, exc)
    return Imported(result.game, result.events, result.violations)


__all__ = ["import_files", "check_file", "Checked"]
