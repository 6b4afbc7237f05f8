"""Benchmark: a simulated tournament of >= 1,000 games (> 1,000,000 events), the read models rebuilt,
and every query of the Analytics and Dispute pages timed.

Prints the tournament's size, the rebuild time with the copy reference (the stored rows read with
sqlite3 and appended unchanged to one DuckDB table through Arrow, measured in the same run), and
for each query its first (cold) time and the median of five warm runs against the 200 ms target,
with the ratio to a reference query measured in the same run (a full scan of fct_events:
``SELECT count(*), sum(seq) FROM fct_events``).

    .venv/bin/python bench/tournament_analytics.py [--players 200] [--rounds 10] [--turns 12] [--work DIR]
"""

from __future__ import annotations

import argparse
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
from domain.settings import EVENTS_FILE  # noqa: E402
from service.importing import import_files  # noqa: E402
from simulation.tournaments import simulate_tournament  # noqa: E402
from projections.disputes import DISPUTE_QUERIES  # noqa: E402
from projections.queries import rows, connect_read  # noqa: E402
from projections.stats import ANALYTICS_QUERIES, Scope  # noqa: E402

TARGET_MS = 200.0
NAME = "Bench Masters"


def make_tournament(args: argparse.Namespace, folder: Path) -> list[Path]:
    """The tournament's record files (cached in ``folder`` for the same arguments)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = sorted(folder.glob("*.rollcall.jsonl"))
    games = args.players // 2 * args.rounds
    if len(files) == games:
        return files
    for old in files:
        old.unlink()
    with progress_bar() as bar:
        task = bar.add_task("simulating the tournament (games)", total=games)
        for game in simulate_tournament("tornscape", NAME, args.players, args.rounds, args.seed, workers=2,
                                        turns=args.turns, models_per_player=args.models):
            path = folder / f"{game.game}.rollcall.jsonl"
            path.write_text("\n".join(game.lines) + "\n", encoding="utf-8")
            bar.advance(task)
    return sorted(folder.glob("*.rollcall.jsonl"))


def import_all(files: list[Path], data: Path) -> None:
    store = Rollcall.open(data)
    with progress_bar() as bar:
        task = bar.add_task("importing (games)", total=len(files))
        for result in import_files(store, files):
            if isinstance(result, Exception):
                raise result
            bar.advance(task)
    store.close()


def timed(fn) -> tuple[float, float]:
    """(first run, median of five more) in milliseconds."""
    start = time.perf_counter()
    fn()
    first = (time.perf_counter() - start) * 1000
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return first, statistics.median(runs)


def disputed_moment(con) -> tuple[str, list[int]]:
    """A game of the tournament and the seqs of a mid-game move with the events after it up to its end
    of activation: what a dispute typically names."""
    game = rows(con, "SELECT game FROM dim_games WHERE tournament = $t ORDER BY events DESC LIMIT 1", {"t": NAME})[0]
    row = rows(con, """SELECT seq FROM fct_events WHERE game = $g AND type = 'ModelMoved'
                        ORDER BY seq LIMIT 1 OFFSET 40""", {"g": game["game"]})[0]
    return game["game"], [row["seq"], row["seq"] + 1, row["seq"] + 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--models", type=int, default=10, help="models per player")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rollcall-bench-tournament")
    args = parser.parse_args()

    records = args.work / f"records-p{args.players}-r{args.rounds}-t{args.turns}-m{args.models}-s{args.seed}"
    files = make_tournament(args, records)
    data = args.work / "data"
    if not (data / EVENTS_FILE).exists():
        import_all(files, data)
    seconds = time_rebuild(data)
    scratch = args.work / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "copy_reference.duckdb").unlink(missing_ok=True)
    copy_seconds = copy_reference(data, scratch / "copy_reference.duckdb")

    con = connect_read(data)
    games, events = con.execute("SELECT count(*), sum(events) FROM dim_games WHERE tournament = ?", [NAME]).fetchone()
    print(f"\ntournament: {games:,} games, {events:,} events ({args.players} players, {args.rounds} rounds)")
    print(f"rebuild: {seconds:.1f} s ({events / seconds:,.0f} events/s); copy reference {copy_seconds:.1f} s "
          f"-> ratio {copy_seconds / seconds:.2f} of the reference's speed")
    _, scan = timed(lambda: con.execute("SELECT count(*), sum(seq) FROM fct_events").fetchall())
    print(f"reference query (full scan of fct_events): {scan:.1f} ms\n")

    scope = Scope(tournament=NAME)
    game, about = disputed_moment(con)
    checks = [(f"analytics: {name}", lambda q=query: q(con, scope)) for name, query in ANALYTICS_QUERIES.items()]
    checks += [(f"dispute: {name}", lambda q=query: q(con, game, about)) for name, query in DISPUTE_QUERIES.items()]
    print(f"{'query':<40} {'first ms':>9} {'median ms':>10} {'x scan':>7}  <= {TARGET_MS:.0f} ms")
    slow = []
    for name, fn in checks:
        first, median = timed(fn)
        ok = max(first, median) <= TARGET_MS  # the first run too
        if not ok:
            slow.append(name)
        print(f"{name:<40} {first:>9.1f} {median:>10.1f} {median / scan:>7.1f}  {'yes' if ok else 'NO'}")
    print(f"\ndispute queries on game {game}, seqs {about}")
    print("every query within 200 ms" if not slow else f"over 200 ms: {', '.join(slow)}")
    con.close()


if __name__ == "__main__":
    main()
