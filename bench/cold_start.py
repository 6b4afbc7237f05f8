"""Benchmark: a new venue's first page on a large store (a cold start).

On a projected data folder (``--data``, e.g. the 10-million-event season of bench/season.py), the read models
are moved aside and ``rollcall dashboard`` starts on the store alone, as a venue that has never followed it.
First a game of the season's largest recent tournament begins (a new round of it: the tournament a venue is
running). Prints: the time until the current tournament's pages answer (every game of the tournament whose game
began last is listed by the published read models, with its standings: what the Games, Live and Standings pages
read), against the 60 s target; then, with ``--fill``, the time until every game of the store is in the read models
(the fill, done in the background while the pages are served). The read models moved aside are put back at
the end (``--keep`` keeps the new ones).

    .venv/bin/python bench/cold_start.py --data DIR [--fill] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.settings import FILL_FILE, FOLLOWER_FILE, PUBLISHED_FILE, READ_FILES  # noqa: E402

TARGET_S = 60.0


def shown(data: Path, tournament: str) -> tuple[int, int, int]:
    """(games of ``tournament`` listed, its standings rows, every game listed) by the published read models."""
    import duckdb

    from projections.queries import connect_read, list_games
    from projections.tournaments import standings

    try:
        con = connect_read(data)
    except (OSError, duckdb.Error):
        return 0, 0, 0
    try:
        games = list_games(con)
        mine = sum(1 for g in games if g["tournament"] == tournament)
        table = standings(con, tournament) if mine else []
        return mine, len(table), len(games)
    except duckdb.Error:
        return 0, 0, 0
    finally:
        con.close()


def begin_a_round(data: Path, con) -> None:
    """A game of a new round of the tournament of 100 games or more stored last, begun now (its header one of the
    tournament's, the round and table new): the tournament a venue is running."""
    from service.application import Rollcall

    tournament, last_round, header = con.execute(
        "WITH big AS (SELECT g.tournament, max(g.round) AS r, max(e.notification_id) AS last FROM dim_games g "
        "JOIN fct_events e USING (game) WHERE g.tournament IS NOT NULL GROUP BY g.tournament "
        "HAVING count(DISTINCT g.game) >= 100 ORDER BY last DESC LIMIT 1) "
        "SELECT big.tournament, big.r, any_value(g.header) FROM big JOIN dim_games g USING (tournament) "
        "GROUP BY big.tournament, big.r").fetchall()[0]
    header = json.loads(header)
    header.pop("hash", None)
    header.update({"round": last_round + 1, "table": 1,
                   "game": f"{header['game'].rsplit('-r', 1)[0]}-r{last_round + 1}-t1-{time.time_ns()}"})
    app = Rollcall.open(data)
    try:
        app.write(header=header)
    finally:
        app.close()
    print(f"a game of round {last_round + 1} of {tournament} begun", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--fill", action="store_true", help="also time the fill of every other game")
    parser.add_argument("--keep", action="store_true", help="keep the read models of the cold start")
    args = parser.parse_args()
    data = args.data

    from cli.options import free_port
    from projections.projector import Projector

    from domain.settings import EVENTS_FILE
    from projections.queries import connect_read, list_games
    from projections.sources import SQLiteSource, current_scope

    Projector(data).run()
    con = connect_read(data)
    try:
        games = list_games(con)
        begin_a_round(data, con)
    finally:
        con.close()
    Projector(data).run()
    con = connect_read(data)
    try:
        games = list_games(con)
    finally:
        con.close()
    source = SQLiteSource(data / EVENTS_FILE)
    try:
        stored = source.max_id()
        scope = current_scope(source)
    finally:
        source.close()
    tournament = scope.tournament
    expected = sum(1 for g in games if g["tournament"] == tournament)

    aside = data / "cold-start-aside"
    aside.mkdir(exist_ok=True)
    names = [*READ_FILES, PUBLISHED_FILE, FOLLOWER_FILE, FILL_FILE, *(f"{n}.wal" for n in (*READ_FILES, FILL_FILE))]
    moved = [name for name in names if os.path.lexists(data / name)]
    for name in moved:
        os.replace(data / name, aside / name)
    print(f"store: {stored:,} events, {len(games):,} games; the current tournament: {tournament} ({expected} games)")
    command = [sys.executable, "-m", "cli.main", "dashboard", "--no-open", "--port", str(free_port(8795)),
               "--data", str(data)]
    started = time.monotonic()
    dashboard = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
    first = filled = None
    try:
        while time.monotonic() - started < 3600:
            listed, standing, every = shown(data, tournament)
            now = time.monotonic() - started
            if first is None and listed == expected and standing:
                first = now
                print(f"a new venue's first page (the current tournament's games and standings): {first:.1f} s "
                      f"(target <= {TARGET_S:.0f} s)", flush=True)
                if not args.fill:
                    break
            if first is not None and every == len(games):
                filled = now
                print(f"every game in the read models (the fill done in the background): {filled:.1f} s", flush=True)
                break
            time.sleep(0.5)
    finally:
        dashboard.terminate()
        dashboard.wait(60)
        if not args.keep:
            for name in names:
                if os.path.lexists(data / name):
                    (data / name).unlink()
            for name in moved:
                os.replace(aside / name, data / name)
        shutil.rmtree(aside, ignore_errors=True)
    print(json.dumps({"events": stored, "tournament": tournament, "first_page_s": first, "filled_s": filled}))


if __name__ == "__main__":
    main()
