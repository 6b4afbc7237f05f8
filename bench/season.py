"""Benchmark: a simulated season (many Swiss tournaments of the three systems, >= 10 million events) and a
5,000-event game of each system in one store; the read models rebuilt; every query of the Analytics and
Dispute pages, and the Replay page's state at a seq (a deep link), timed.

Prints the machine (cores, memory, CPU model), the season's size, the rebuild with its ratio to the copy
reference (the stored rows read with sqlite3 and appended unchanged to one DuckDB table through Arrow),
then every Analytics query for a tournament's scope and for the whole season, every Dispute query on
the long Tornscape game: its cold time (the first run on a new connection) and its warm median, against
the 100 ms target, with the ratio to a full scan of the events table (``SELECT count(*), sum(seq) FROM
fct_events``); and the median of the state at a seq of the long Tornscape game (projections.queries.state_at,
what the Replay page's deep link reads) against 10 ms, with the ratio to the shortest query of the read
models (one row of dim_games by its game). Every reference is measured in the same run.

The records and the store are kept in ``--work``: a second run with the same or a smaller ``--events``
reuses them (a larger one simulates and imports only the tournaments it lacks).

    .venv/bin/python bench/season.py [--events 10000000] [--work DIR] [--runs 7] [--prepare | --no-rebuild]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from import_rebuild import copy_reference, progress_bar, time_rebuild  # noqa: E402

from service.application import Rollcall  # noqa: E402
from domain.record import slug  # noqa: E402
from projections.disputes import DISPUTE_QUERIES  # noqa: E402
from projections.queries import connect_read, game_events, rows, state_at, state_changes  # noqa: E402
from projections.stats import ANALYTICS_QUERIES, Scope  # noqa: E402
from simulation.games import long_games, record_lines  # noqa: E402
from simulation.tournaments import simulate_tournament  # noqa: E402
from service.importing import import_files  # noqa: E402

TARGET_MS = 100.0
SEEK_TARGET_MS = 10.0
# One cycle of the season: (system, players, rounds, the simulator's options); about 360,000 events.
CYCLE = (("t9a", 256, 6, {}), ("claustrophobia", 300, 6, {}), ("tornscape", 64, 5, {}),
         ("t9a", 256, 6, {}), ("claustrophobia", 300, 6, {}))
LONG = "season-long"
IMPORTED = "imported.json"  # in the data folder: the record folders imported so far


def machine() -> str:
    info = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    model = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), "?")
    mem = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    kib = next((int(line.split()[1]) for line in mem.splitlines() if line.startswith("MemTotal")), 0)
    return f"{os.cpu_count()} cores, {kib / 2**20:.1f} GiB RAM, {model}"


def season_tournament(index: int) -> tuple[str, str, int, int, dict]:
    system, players, rounds, options = CYCLE[index % len(CYCLE)]
    return f"Season {index + 1:03d} {system}", system, players, rounds, options


def simulated(index: int, records: Path) -> tuple[Path, int]:
    """The record folder of the season's tournament ``index`` and its events (simulated once, then kept)."""
    name, system, players, rounds, options = season_tournament(index)
    folder = records / slug(name)
    done = folder / "events.txt"
    if done.exists():
        return folder, int(done.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    events = 0
    with progress_bar() as bar:
        task = bar.add_task(f"simulating {name} (games)", total=players // 2 * rounds)
        for game in simulate_tournament(system, name, players, rounds, index + 1, workers=2, **options):
            (folder / f"{game.game}.rollcall.jsonl").write_text("\n".join(game.lines) + "\n", encoding="utf-8")
            events += game.events
            bar.advance(task)
    done.write_text(str(events))
    return folder, events


def long_records(records: Path) -> tuple[Path, int]:
    """A game of about 5,000 events of each system (simulation.games.long_games)."""
    folder = records / LONG
    done = folder / "events.txt"
    if not done.exists():
        folder.mkdir(parents=True, exist_ok=True)
        events = 0
        for game in long_games(1, prefix=LONG):
            lines = record_lines(game)
            (folder / f"{game.state.game}.rollcall.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
            events += len(lines) - 1
        done.write_text(str(events))
    return folder, int(done.read_text())


def import_folders(folders: list[Path], data: Path) -> None:
    """Import the record folders the store lacks (the store remembers which it holds)."""
    marker = data / IMPORTED
    held = set(json.loads(marker.read_text())) if marker.exists() else set()
    if not marker.exists() and data.exists():  # an import that did not finish: start again
        import shutil

        shutil.rmtree(data)
    missing = [f for f in folders if f.name not in held]
    if not missing:
        return
    store = Rollcall.open(data)
    try:
        for folder in missing:
            files = sorted(folder.glob("*.rollcall.jsonl"))
            with progress_bar() as bar:
                task = bar.add_task(f"importing {folder.name} (games)", total=len(files))
                for result in import_files(store, files):
                    if isinstance(result, Exception):
                        raise result
                    bar.advance(task)
            held.add(folder.name)
            marker.write_text(json.dumps(sorted(held)))
    finally:
        store.close()


def timed(fn, runs: int) -> tuple[float, float]:
    """(the first run, the median of ``runs`` more) in milliseconds."""
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times[0], statistics.median(times[1:])


def cold_and_warm(data: Path, query, runs: int) -> tuple[float, float]:
    """(the first run on a new connection, the median of ``runs`` more on it) in milliseconds."""
    con = connect_read(data)
    try:
        return timed(lambda: query(con), runs)
    finally:
        con.close()


def disputed_moment(con, game: str) -> list[int]:
    """The seqs of a mid-game move and the two events after it: what a dispute typically names."""
    found = rows(con, "SELECT seq FROM fct_events WHERE game = $g AND type = 'ModelMoved' ORDER BY seq",
                 {"g": game})
    seq = found[len(found) // 2]["seq"]
    return [seq, seq + 1, seq + 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000_000, help="the season's events, at least")
    parser.add_argument("--runs", type=int, default=7, help="warm runs of each query (the median is printed)")
    parser.add_argument("--seeks", type=int, default=101, help="states at random seqs of the long game")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rollcall-bench-season")
    parser.add_argument("--prepare", action="store_true",
                        help="only simulate the season and import it into the store in --work (no read models)")
    parser.add_argument("--no-rebuild", action="store_true",
                        help="time the queries on the read models a previous run published (no rebuild figure)")
    args = parser.parse_args()
    os.environ.pop("PERSISTENCE_MODULE", None)
    print(f"machine: {machine()}", flush=True)

    records, data, scratch = args.work / "records", args.work / "data", args.work / "scratch"
    folders, events, index = [], 0, 0
    while events < args.events:
        folder, count = simulated(index, records)
        folders.append(folder)
        events += count
        index += 1
    long_folder, long_events = long_records(records)
    half = len(folders) // 2  # the long games stored in the middle of the season
    import_folders(folders[:half] + [long_folder] + folders[half:], data)
    if args.prepare:
        print(f"store ready in {data}: {events + long_events:,} events", flush=True)
        return

    if not args.no_rebuild:
        seconds = time_rebuild(data)
        scratch.mkdir(parents=True, exist_ok=True)
        (scratch / "copy_reference.duckdb").unlink(missing_ok=True)
        copy_seconds = copy_reference(data, scratch / "copy_reference.duckdb")
        (scratch / "copy_reference.duckdb").unlink(missing_ok=True)

    con = connect_read(data)
    games, stored = con.execute("SELECT count(*), sum(events) FROM dim_games").fetchone()
    tournaments = con.execute("SELECT count(DISTINCT tournament) FROM dim_games").fetchone()[0]
    state_rows = con.execute("SELECT count(*) FROM fct_states").fetchone()[0]
    print(f"\nseason: {tournaments} tournaments, {games:,} games, {stored:,} events "
          f"({state_rows:,} state rows); 3 games of about 5,000 events ({long_events:,}) among them")
    if not args.no_rebuild:
        print(f"rebuild: {seconds:.1f} s ({stored / seconds:,.0f} events/s); copy reference {copy_seconds:.1f} s "
              f"-> rebuild speed {copy_seconds / seconds:.2f} x the reference's")
    _, scan = timed(lambda: con.execute("SELECT count(*), sum(seq) FROM fct_events").fetchall(), args.runs)
    _, point = timed(lambda: con.execute("SELECT * FROM dim_games WHERE game = ?", [f"{LONG}-tornscape"]).fetchall(),
                     args.runs)
    print(f"reference: a full scan of fct_events {scan:.1f} ms; one row of dim_games {point:.2f} ms\n")

    biggest = rows(con, "SELECT tournament FROM dim_games WHERE tournament IS NOT NULL GROUP BY tournament "
                        "ORDER BY bool_or(system = 'tornscape') DESC, sum(events) DESC LIMIT 1")[0]["tournament"]
    game = f"{LONG}-tornscape"
    about = disputed_moment(con, game)
    last_seq = con.execute("SELECT last_seq FROM dim_games WHERE game = ?", [game]).fetchone()[0]
    con.close()

    checks = []
    for label, scope in ((f"tournament {biggest!r}", Scope(tournament=biggest)), ("the whole season", Scope())):
        checks += [(f"analytics ({label}): {name}", lambda c, q=query, s=scope: q(c, s))
                   for name, query in ANALYTICS_QUERIES.items()]
    checks += [(f"dispute: {name}", lambda c, q=query: q(c, game, about)) for name, query in DISPUTE_QUERIES.items()]
    width = max(len(name) for name, _ in checks)
    print(f"{'query':<{width}} {'cold ms':>8} {'warm ms':>8} {'x scan':>7}  <= {TARGET_MS:.0f} ms warm")
    slow = []
    for name, fn in checks:
        cold, warm = cold_and_warm(data, fn, args.runs)
        if warm > TARGET_MS:
            slow.append(name)
        print(f"{name:<{width}} {cold:>8.1f} {warm:>8.1f} {warm / scan:>7.2f}  {'yes' if warm <= TARGET_MS else 'NO'}",
              flush=True)
    print(f"\ndispute queries on game {game}, seqs {about}")
    print(f"every query within {TARGET_MS:.0f} ms warm" if not slow else f"over {TARGET_MS:.0f} ms: {', '.join(slow)}")

    seqs = random.Random(1).choices(range(last_seq + 1), k=args.seeks)
    con = connect_read(data)
    try:
        seeks = []
        for seq in seqs:
            start = time.perf_counter()
            state_at(con, game, seq)
            seeks.append((time.perf_counter() - start) * 1000)
    finally:
        con.close()
    seek = statistics.median(seeks)
    print(f"\nstate at a seq of {game} ({last_seq:,} events; {len(seqs)} random seqs, a new connection): median "
          f"{seek:.2f} ms (first {seeks[0]:.2f} ms, max {max(seeks):.2f} ms), {seek / point:.1f} x one row of "
          f"dim_games; {'within' if seek <= SEEK_TARGET_MS else 'OVER'} {SEEK_TARGET_MS:.0f} ms")
    cold, warm = cold_and_warm(data, lambda c: (game_events(c, game), state_changes(c, game)), args.runs)
    print(f"the Replay page's whole game, sent to the browser once (its events and state changes): cold {cold:.0f} ms, "
          f"warm {warm:.0f} ms")


if __name__ == "__main__":
    main()
