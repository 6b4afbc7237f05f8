"""Benchmark: registering a players' list of up to a megabyte, and that it costs time linear in its rows.

A Best Coast Pairings-style list (first and last names, e-mail, faction, team, check-in) of ``--rows`` rows (the
default fills just under the 1 MB a list may weigh), and an eighth of it, each into a fresh SQLite store: the
list read (domain.player_lists), registered (one event), the tournament loaded again (what every later
tournament command costs) and projected (the read models' players). The reference, measured in the same run, is
Python's own csv module reading the same bytes into rows: the least any reader of the list can cost. It prints
each figure, its ratio to the reference, and the whole's ratio between the full list and its eighth (8 for
linear time; the quadratic registration it replaced took 7.6 s for 8,000 rows against 0.7 s for 1,000).

    .venv/bin/python bench/player_list.py [--rows 30000] [--runs 3]
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.player_lists import MAX_BYTES, read_player_list  # noqa: E402

TOURNAMENT = "Bench Open"


def player_list(rows: int) -> bytes:
    lines = ["First Name,Last Name,Email,Faction,Team,Checked In"]
    lines += [f"P{i},L{i % 991},p{i}@e.invalid,orcs,T{i % 97},{'yes' if i % 3 else 'no'}" for i in range(rows)]
    return ("\r\n".join(lines) + "\r\n").encode()


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def one_run(data: bytes) -> dict[str, float]:
    from projections.projector import Projector
    from projections.queries import connect_read
    from projections.tournaments import players
    from service.application import Rollcall

    figures: dict[str, float] = {}
    figures["reference"], _rows = timed(lambda: list(csv.reader(io.StringIO(data.decode("utf-8"), newline=""))))
    with tempfile.TemporaryDirectory() as folder:
        store = Rollcall.open(folder)
        store.create_tournament(TOURNAMENT, "t9a")
        figures["read"], listed = timed(lambda: read_player_list(data, "list.csv"))
        figures["register"], done = timed(lambda: store.register_players(TOURNAMENT, listed.entries))
        assert len(done.registered) == len(listed.entries) and not listed.refused
        figures["reload"], _t = timed(lambda: store.tournament(TOURNAMENT))
        store.close()
        figures["project"], _n = timed(lambda: Projector(folder).run())
        con = connect_read(folder)
        try:
            figures["players query"], found = timed(lambda: players(con, TOURNAMENT))
        finally:
            con.close()
        assert len(found) == len(listed.entries)
    figures["read + register + reload"] = figures["read"] + figures["register"] + figures["reload"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=None, help="rows of the full list (default: just under 1 MB)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each size; each figure is the best")
    args = parser.parse_args()
    rows = args.rows or next(n for n in range(60_000, 0, -500) if len(player_list(n)) <= MAX_BYTES)
    results = {}
    for size in (rows // 8, rows):
        data = player_list(size)
        runs = [one_run(data) for _ in range(args.runs)]
        best = {k: min(r[k] for r in runs) for k in runs[0]}
        results[size] = best
        print(f"{size:,} rows ({len(data) / 1000:,.0f} kB), best of {args.runs}:")
        for name, seconds in best.items():
            if name != "reference":
                print(f"  {name:26} {seconds * 1000:9,.1f} ms  {seconds / best['reference']:6.1f}× the reference")
        print(f"  {'reference (csv module)':26} {best['reference'] * 1000:9,.1f} ms")
    small, full = results[rows // 8], results[rows]
    whole = "read + register + reload"
    print(f"the full list against its eighth: {whole} {full[whole] / small[whole]:.1f}× "
          f"(reference {full['reference'] / small['reference']:.1f}×; 8 is linear)")


if __name__ == "__main__":
    main()
