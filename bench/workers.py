"""Benchmark: projector workers for one store, one after the other on this machine.

The store of a data folder (``--data``, e.g. bench/season.py's) is rebuilt by one projector into a scratch
folder, then by each of ``--workers`` W workers (ROLLCALL_WORKER=w/W) into folders of their own, one at a time
(as W machines would, each alone). Prints each rebuild's time and events a second, what the slowest worker
takes against the one projector (the time a rebuild would take on W machines), the size of each partition, and
the union of the partitions' games against the one projector's.

    .venv/bin/python bench/workers.py --data DIR [--workers 2] [--work DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.settings import (EVENTS_FILE, PARTITIONS_ENV, PERSISTENCE_ENV, PUBLISHED_FILE,  # noqa: E402
                             SQLITE_FILE_ENV, WORKER_ENV)


def rebuild(folder: Path, store: Path, share: str) -> tuple[float, int]:
    """Seconds to rebuild ``store`` into ``folder`` as worker ``share``, and the stored rows read."""
    from projections.projector import Projector

    os.environ.update({WORKER_ENV: share, PERSISTENCE_ENV: "eventsourcing.sqlite", SQLITE_FILE_ENV: str(store)})
    start = time.perf_counter()
    read = Projector(folder).run(rebuild=True)
    return time.perf_counter() - start, read


def games(folder_or_folders) -> int:
    from projections.queries import connect_read

    con = connect_read(folder_or_folders)
    try:
        return con.execute("SELECT count(*) FROM dim_games").fetchall()[0][0]
    finally:
        con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rollcall-bench-workers")
    args = parser.parse_args()
    store = (args.data / EVENTS_FILE).resolve()
    shutil.rmtree(args.work, ignore_errors=True)
    one, parts = args.work / "one", [args.work / f"worker-{w}" for w in range(args.workers)]

    whole, read = rebuild(one, store, "0/1")
    print(f"one projector: {whole:.1f} s ({read / whole:,.0f} events/s)", flush=True)
    times = []
    for w, folder in enumerate(parts):
        took, _ = rebuild(folder, store, f"{w}/{args.workers}")
        times.append(took)
        size = (folder / PUBLISHED_FILE).stat().st_size / 2**20
        print(f"worker {w}/{args.workers}: {took:.1f} s, read models {size:,.0f} MB, {games(folder):,} games", flush=True)
    print(f"the slowest worker: {max(times):.1f} s = {max(times) / whole:.2f} x one projector (the rebuild on "
          f"{args.workers} machines); all workers one after the other: {sum(times) / whole:.2f} x")
    os.environ[PARTITIONS_ENV] = os.pathsep.join(map(str, parts))
    union = games(one)
    del os.environ[PARTITIONS_ENV]
    print(f"games: the union of the partitions {union:,}, one projector {games(one):,}")


if __name__ == "__main__":
    main()
