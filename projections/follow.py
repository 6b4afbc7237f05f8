"""Following the event store: the read models kept current while the dashboard runs.

DuckDB has one writer. Whoever projects a data folder holds its projector lock (``<data>/projector.lock``,
an advisory file lock the system releases when the holder exits, even on kill -9): the follower that
``rollcall dashboard`` starts holds it for as long as it runs, polling the store and projecting (and
publishing) whatever is new within a fraction of a second; a command that reads the read models projects
itself only when nobody else holds the lock, and otherwise reads the published copy the follower keeps
current. Readers never open the live file.

    python -m projections.follow DATA_DIR [INTERVAL]   (the follower; stops on SIGTERM or Ctrl-C)
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from domain import settings

LOCK_FILE = "projector.lock"
INTERVAL = 0.3  # seconds between looks at the store


class Busy(Exception):
    """Another process holds the projector lock of the data folder."""


@contextlib.contextmanager
def projector_lock(data_dir: str | os.PathLike | None, *, wait: bool = False) -> Iterator[None]:
    """Hold the data folder's projector lock (Busy if another process holds it and ``wait`` is false)."""
    import fcntl

    folder = settings.data_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK_FILE, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise Busy(f"a projector follows {folder} already") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def followed(data_dir: str | os.PathLike | None) -> bool:
    """Whether a projector (another process) holds the data folder's lock now."""
    try:
        with projector_lock(data_dir):
            return False
    except Busy:
        return True


def follow(data_dir: str | os.PathLike | None, interval: float = INTERVAL, stop: threading.Event | None = None,
           on_run=None) -> None:
    """Project what is new every ``interval`` seconds until ``stop`` is set (holding the lock throughout)."""
    from projections.projector import Projector
    from projections.publish import Copier

    stop = stop or threading.Event()
    with projector_lock(data_dir, wait=True):
        projector, copier = Projector(data_dir), Copier()
        try:
            with projector.session(copier=copier) as session:
                stale = False  # statistics wait for a quiet moment: new events are published first
                while not stop.is_set():
                    if projector.behind():
                        projected = session.step(statistics=False)
                        stale = True
                        if on_run is not None:
                            on_run(projected)
                    elif stale:
                        session.step(statistics=True)
                        stale = False
                    stop.wait(interval)
        finally:
            copier.close()


def main(argv: list[str]) -> None:
    data = Path(argv[0]) if argv else None
    interval = float(argv[1]) if len(argv) > 1 else INTERVAL
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        follow(data, interval, stop)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
