"""Benchmark: the projector on a PostgreSQL event store, and two venues following one store.

1. Rebuild: the read models of a data folder projected from scratch out of a PostgreSQL store of
   ``--events`` events (the season's first Tornscape tournaments, bench/season.py), against the copy reference
   measured in the same run on the same rows: the stored rows read with psycopg COPY (binary) and
   appended unchanged to one DuckDB table through Arrow. Target: >= 0.5 x the reference's speed.
   With ``--row-by-row``, also printed, once: the same rebuild reading the store through eventsourcing's
   recorder row by row (the projector's way for other stores).
2. Two venues: two data folders, each with its follower (projections.follow, as ``rollcall dashboard``
   runs it), on one PostgreSQL store; a scorekeeper at each venue records the events of a game in turn,
   and each event is timed from its commit until the other venue's published read models show it.
   Target: within 2 s.

Every figure is the best of ``--runs`` runs, the rebuild and the reference in turn (the ratio also as the median of
the runs' pairs; the lag: median and max of every event timed).
PostgreSQL from the environment (POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD,
POSTGRES_DBNAME; defaults 127.0.0.1, 5432, postgres, '', test); the store is kept in the schema
``--schema`` and reused by the next run.

    .venv/bin/python bench/postgres_follow.py [--events 1000000] [--runs 3] [--records DIR] [--work DIR]
                                              [--row-by-row] [--venues-only]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

import psycopg  # noqa: E402
from psycopg import sql  # noqa: E402

from import_rebuild import append_rows, best_interleaved, progress_bar, time_rebuild  # noqa: E402
from season import season_tournament, simulated  # noqa: E402

from service.application import Rollcall  # noqa: E402
from projections.projector import Projector  # noqa: E402
from projections.queries import connect_read  # noqa: E402
from projections.sources import RecorderSource  # noqa: E402
from simulation.games import record_lines, simulate_tornscape  # noqa: E402
from service.importing import import_files  # noqa: E402

DEFAULTS = {"POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": "5432", "POSTGRES_USER": "postgres",
            "POSTGRES_PASSWORD": "", "POSTGRES_DBNAME": "test"}
LAG_TARGET_S = 2.0


def postgres_env(schema: str) -> dict[str, str]:
    env = {k: os.environ.get(k, v) for k, v in DEFAULTS.items()}
    return env | {"POSTGRES_SCHEMA": schema, "PERSISTENCE_MODULE": "eventsourcing.postgres"}


def admin(env: dict[str, str]) -> psycopg.Connection:
    return psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                           password=env["POSTGRES_PASSWORD"], dbname=env["POSTGRES_DBNAME"], autocommit=True)


def fresh_schema(env: dict[str, str]) -> None:
    with admin(env) as con:
        con.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(env["POSTGRES_SCHEMA"])))
        con.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(env["POSTGRES_SCHEMA"])))


def stored(data: Path, records: Path, target: int) -> int:
    """The PostgreSQL store of the environment filled with the season's first Tornscape tournaments (>= ``target``
    events), unless it holds them already; its stored rows."""
    with admin(dict(os.environ)) as con:
        con.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(os.environ["POSTGRES_SCHEMA"])))
    app = Rollcall.open(data)
    try:
        rows = app.recorder.max_notification_id() or 0
        if rows >= target:
            return rows
    finally:
        app.close()
    fresh_schema(dict(os.environ))
    folders, events, index = [], 0, 0
    while events < target:  # the season's Tornscape tournaments (bench/import_rebuild.py's kind of games)
        if season_tournament(index)[1] == "tornscape":
            folder, count = simulated(index, records)
            folders.append(folder)
            events += count
        index += 1
    app = Rollcall.open(data)
    try:
        files = [f for folder in folders for f in sorted(folder.glob("*.rollcall.jsonl"))]
        with progress_bar() as bar:
            task = bar.add_task("importing into PostgreSQL (games)", total=len(files))
            # one process: the figures here are the projector's, and it leaves the cores to the replay
            for result in import_files(app, files, workers=1):
                if isinstance(result, Exception):
                    raise result
                bar.advance(task)
        return app.recorder.max_notification_id()
    finally:
        app.close()


def copy_reference(data: Path, target: Path) -> float:
    """The stored rows read with COPY (binary) and appended unchanged to one DuckDB table through Arrow."""
    app = Rollcall.open(data)
    recorder = app.recorder
    table = sql.SQL("{}.{}").format(sql.Identifier(recorder.datastore.schema), sql.Identifier(recorder.events_table_name))
    app.close()
    env = dict(os.environ)
    target.unlink(missing_ok=True)
    start = time.perf_counter()
    with admin(env) as con, con.cursor() as cur:
        with cur.copy(sql.SQL("COPY (SELECT notification_id, originator_id::text, originator_version, topic, state "
                              "FROM {} ORDER BY notification_id) TO STDOUT (FORMAT BINARY)").format(table)) as copy:
            copy.set_types(["int8", "text", "int8", "text", "bytea"])
            rows = list(copy.rows())
    append_rows(rows, target)
    elapsed = time.perf_counter() - start
    target.unlink(missing_ok=True)
    return elapsed


class RowByRow(Projector):
    """The projector reading the store through eventsourcing's recorder (select_notifications)."""

    def _source(self):
        if self.app is None:
            self.app = Rollcall.open(self.data_dir)
        return RecorderSource(self.app.recorder)


def rebuild_row_by_row(data: Path) -> float:
    start = time.perf_counter()
    projector = RowByRow(data)
    try:
        projector.run(rebuild=True)
    finally:
        projector.app.close()
    return time.perf_counter() - start


def follower(data: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "projections.follow", str(data)], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL)


def shown_seq(data: Path, game: str) -> int:
    """The last seq of ``game`` the published read models of ``data`` show (-1: none yet)."""
    try:
        con = connect_read(data)
    except FileNotFoundError:
        return -1
    try:
        found = con.execute("SELECT last_seq FROM dim_games WHERE game = ?", [game]).fetchall()
    finally:
        con.close()
    return int(found[0][0]) if found else -1


def wait_for(data: Path, game: str, seq: int, timeout: float = 60.0) -> float:
    """Seconds until the published read models of ``data`` show event ``seq`` of ``game``."""
    start = time.perf_counter()
    while shown_seq(data, game) < seq:
        if time.perf_counter() - start > timeout:
            raise TimeoutError(f"{data} did not show {game} seq {seq} within {timeout:.0f} s")
        time.sleep(0.01)
    return time.perf_counter() - start


def two_venues(work: Path, schema: str, events: int) -> list[float]:
    """Scorekeepers at two venues record one game each, in turn; each event's lag to the other venue."""
    os.environ.update(postgres_env(schema))
    fresh_schema(dict(os.environ))
    venues = [work / "venue-a", work / "venue-b"]
    for folder in venues:
        shutil.rmtree(folder, ignore_errors=True)
    played = []
    for i, folder in enumerate(venues):
        lines = record_lines(simulate_tornscape(300 + i, f"venue-{'ab'[i]}-table-1"))
        app = Rollcall.open(folder)
        app.import_record([lines[0]], "new game")
        played.append((app, json.loads(lines[0])["game"],
                       [{k: v for k, v in json.loads(x).items() if k not in ("seq", "hash")} for x in lines[1:events + 1]]))
    followers = [follower(folder) for folder in venues]
    lags = []
    try:
        for folder, (_, game, _) in zip(venues, played):
            wait_for(folder, game, 0)  # each follower has published the headers
        for n in range(events):
            for (app, game, moves), other in zip(played, reversed(venues)):
                seq = app.record(game, moves[n], after=n)["seq"]
                lags.append(wait_for(other, game, seq))
    finally:
        for child in followers:
            child.terminate()
        for child in followers:
            child.wait(timeout=30)
        for app, _, _ in played:
            app.close()
    return lags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3, help="each figure is the best of this many runs")
    parser.add_argument("--venue-events", type=int, default=20, help="events each venue records")
    parser.add_argument("--schema", default="rollcall_bench_follow")
    parser.add_argument("--records", type=Path, default=Path(tempfile.gettempdir()) / "rollcall-bench-season" / "records",
                        help="the season's record folders (bench/season.py), simulated here if missing")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rollcall-bench-postgres")
    parser.add_argument("--row-by-row", action="store_true",
                        help="also time a rebuild through eventsourcing's recorder, row by row (slow)")
    parser.add_argument("--venues-only", action="store_true", help="only the two venues")
    args = parser.parse_args()

    if args.venues_only:
        lags = two_venues(args.work, f"{args.schema}_venues", args.venue_events)
        print(f"two venues on one store: {len(lags)} events, each until the other venue's dashboard shows it: "
              f"median {statistics.median(lags):.2f} s, max {max(lags):.2f} s  (target <= {LAG_TARGET_S:.0f} s)")
        return
    os.environ.update(postgres_env(args.schema))
    data = args.work / "data"
    rows = stored(data, args.records, args.events)
    rebuild_s, copy_s, paired = best_interleaved(
        ("rebuild from PostgreSQL", "copy reference (COPY -> Arrow -> DuckDB)"), args.runs,
        lambda run: time_rebuild(data), lambda run: copy_reference(data, args.work / f"copy_{run}.duckdb"))
    row_s = rebuild_row_by_row(data) if args.row_by_row else None
    if row_s is not None:
        print(f"  rebuild reading the recorder row by row, once: {row_s:.2f} s", flush=True)
    games = connect_read(data).execute("SELECT count(*) FROM dim_games").fetchone()[0]
    lags = two_venues(args.work, f"{args.schema}_venues", args.venue_events)

    print(f"\nPostgreSQL store: {games:,} games, {rows:,} stored events; each figure the best of {args.runs} runs")
    for name, seconds in (("rebuild from PostgreSQL (binary fetch source)", rebuild_s),
                          ("copy reference (COPY -> Arrow -> DuckDB)", copy_s),
                          ("rebuild through the recorder, row by row", row_s)):
        if seconds is None:
            continue
        print(f"{name:<44} {seconds:8.2f} s  {rows / seconds:12,.0f} events/s")
    print(f"rebuild / copy reference = {copy_s / rebuild_s:.3f} (the bests), {paired:.3f} (median of the runs' "
          f"pairs)  (target >= 0.5)")
    print(f"two venues on one store: {len(lags)} events, each until the other venue's dashboard shows it: "
          f"median {statistics.median(lags):.2f} s, max {max(lags):.2f} s  (target <= {LAG_TARGET_S:.0f} s)")


if __name__ == "__main__":
    main()
