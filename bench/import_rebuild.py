"""Benchmark: import simulated Tornscape games, then rebuild the read models from scratch.

Prints events/s for both and the two references measured in the same run on the same rows:
- insert reference: the stored rows, exactly as the store holds them, inserted with raw sqlite3
  ``executemany`` into an empty table of the same schema in one transaction;
- copy reference: those stored rows read back with sqlite3 and appended unchanged to one DuckDB
  table through Arrow.
Every figure is the best of ``--runs`` runs (3), the references as much as Rollcall's own: one
run on a shared machine varies by a quarter. Each run of Rollcall's is followed by its reference's, so
that a machine growing slower or faster weighs on both; the ratio is also printed as the median pair.
Targets: import >= 0.3 x the insert reference; rebuild >= 0.5 x the copy reference.

    .venv/bin/python bench/import_rebuild.py [--events 1000000] [--runs 3] [--work DIR]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pyarrow as pa
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.application import Rollcall  # noqa: E402
from domain.settings import EVENTS_FILE  # noqa: E402
from service.importing import import_files  # noqa: E402
from simulation.games import record_lines, simulate_tornscape  # noqa: E402
from projections.projector import Projector  # noqa: E402


def simulate(seed: int) -> list[str]:
    return record_lines(simulate_tornscape(seed, f"bench-{seed}", turns=8))


def progress_bar() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())


def make_games(target: int, folder: Path) -> list[Path]:
    """Simulated record files holding at least ``target`` events (cached in ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    files, total, seed = [], 0, 0
    for path in sorted(folder.glob("*.rollcall.jsonl")):
        files.append(path)
        total += sum(1 for _ in path.open()) - 1
        if total >= target:
            return files
    seed = len(files)
    with multiprocessing.Pool(2) as pool, progress_bar() as bar:
        task = bar.add_task("simulating games (events)", total=target, completed=total)
        while total < target:
            batch = pool.map(simulate, range(seed, seed + 40))
            for lines in batch:
                path = folder / f"bench-{seed:06d}.rollcall.jsonl"
                path.write_text("\n".join(lines) + "\n", encoding="utf-8")
                files.append(path)
                total += len(lines) - 1
                seed += 1
            bar.update(task, completed=total)
    return files


def time_import(files: list[Path], data: Path) -> tuple[float, int]:
    app = Rollcall.open(data)
    with progress_bar() as bar:
        task = bar.add_task("importing games", total=len(files))
        start = time.perf_counter()
        for result in import_files(app, files):
            if isinstance(result, Exception):
                raise result
            bar.advance(task)
        elapsed = time.perf_counter() - start
    rows = sqlite3.connect(data / EVENTS_FILE).execute("SELECT count(*) FROM stored_events").fetchone()[0]
    return elapsed, rows


def insert_reference(data: Path, target: Path) -> float:
    """One insert of the stored rows into a new file."""
    source = sqlite3.connect(data / EVENTS_FILE)
    schema = source.execute("SELECT sql FROM sqlite_master WHERE name = 'stored_events'").fetchone()[0]
    rows = source.execute("SELECT originator_id, originator_version, topic, state FROM stored_events "
                          "ORDER BY rowid").fetchall()
    source.close()
    con = sqlite3.connect(target)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute(schema)
    start = time.perf_counter()
    with con:
        con.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", rows)
    elapsed = time.perf_counter() - start
    con.close()
    return elapsed


def append_rows(rows: list[tuple], target: Path) -> None:
    """Stored rows (notification id, originator id, version, topic, state) appended unchanged to one DuckDB
    table of ``target`` through Arrow: the copy references' write."""
    columns = list(zip(*rows))
    batch = pa.table({"notification_id": pa.array(columns[0], pa.int64()),  # noqa: F841 (DuckDB reads it by name)
                      "originator_id": pa.array(columns[1], pa.string()),
                      "originator_version": pa.array(columns[2], pa.int64()),
                      "topic": pa.array(columns[3], pa.string()),
                      "state": pa.array(columns[4], pa.binary())})
    con = duckdb.connect(str(target))
    con.execute("CREATE TABLE stored_events AS SELECT * FROM batch LIMIT 0")
    con.execute("INSERT INTO stored_events SELECT * FROM batch")
    con.close()


def copy_reference(data: Path, target: Path) -> float:
    """One copy of the stored rows into a new DuckDB file."""
    start = time.perf_counter()
    source = sqlite3.connect(f"file:{data / EVENTS_FILE}?mode=ro", uri=True)
    rows = source.execute("SELECT rowid, originator_id, originator_version, topic, state FROM stored_events "
                          "ORDER BY rowid").fetchall()
    append_rows(rows, target)
    return time.perf_counter() - start


def time_rebuild(data: Path) -> float:
    start = time.perf_counter()
    with progress_bar() as bar:
        task = bar.add_task("rebuilding read models (events)", total=None)
        Projector(data).run(rebuild=True, progress=lambda done, total: bar.update(task, completed=done, total=total))
    return time.perf_counter() - start


def best_interleaved(names: tuple[str, str], runs: int, first, second) -> tuple[float, float, float]:
    """``first(run)`` and ``second(run)`` run in turn ``runs`` times, so that a machine getting slower or faster
    during the runs weighs on both alike; (the fastest of each, the median of the runs' ratios second / first).
    Every run is printed with its pair's ratio."""
    pairs = []
    for run in range(runs):
        a = first(run)
        print(f"  {names[0]}, run {run + 1}: {a:.2f} s", flush=True)
        b = second(run)
        print(f"  {names[1]}, run {run + 1}: {b:.2f} s  (ratio {b / a:.3f})", flush=True)
        pairs.append((a, b))
    ratios = sorted(b / a for a, b in pairs)
    return min(a for a, _ in pairs), min(b for _, b in pairs), ratios[len(ratios) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3, help="each figure is the best of this many runs")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rollcall-bench")
    args = parser.parse_args()
    os.environ.pop("PERSISTENCE_MODULE", None)

    files = make_games(args.events, args.work / "records")
    data = args.work / "data"
    scratch = Path(tempfile.mkdtemp(dir=args.work))
    counted: list[int] = []

    def import_once(run: int) -> float:
        shutil.rmtree(data, ignore_errors=True)
        seconds, rows = time_import(files, data)
        counted.append(rows)
        return seconds

    try:
        import_s, insert_s, import_paired = best_interleaved(
            ("import", "insert reference"), args.runs, import_once,
            lambda run: insert_reference(data, scratch / f"insert_{run}.sqlite"))
        rebuild_s, copy_s, rebuild_paired = best_interleaved(
            ("rebuild", "copy reference"), args.runs, lambda run: time_rebuild(data),
            lambda run: copy_reference(data, scratch / f"copy_{run}.duckdb"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rows = counted[-1]
    assert len(set(counted)) == 1, f"the imports stored different numbers of rows: {counted}"

    def line(name: str, seconds: float) -> float:
        rate = rows / seconds
        print(f"{name:<42} {seconds:8.2f} s  {rate:12,.0f} events/s")
        return rate

    print(f"\n{len(files)} games, {rows:,} stored events (headers included); each figure the best of {args.runs} runs")
    imp, ins = line("import (rules checked, chained)", import_s), line("insert reference (raw sqlite3)", insert_s)
    reb, cop = line("rebuild read models", rebuild_s), line("copy reference (sqlite3 → Arrow → DuckDB)", copy_s)
    print(f"import / insert reference  = {imp / ins:.3f} (the bests), {import_paired:.3f} (median pair)  (target >= 0.3)")
    print(f"rebuild / copy reference   = {reb / cop:.3f} (the bests), {rebuild_paired:.3f} (median pair)  (target >= 0.5)")


if __name__ == "__main__":
    main()
