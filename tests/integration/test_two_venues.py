"""Two venues on one PostgreSQL store: two data folders, each with its follower projector (as `rollcall
dashboard` runs it), record games at once; each folder's published read models come to show the other
venue's games, event for event. (How fast: bench/postgres_follow.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from service.application import Rollcall
from projections.queries import connect_read
from simulation.games import record_lines, simulate

ROOT = Path(__file__).resolve().parents[2]
EVENTS = 40  # each venue's game, recorded event by event
pytestmark = [pytest.mark.postgres, pytest.mark.slow]  # starts followers of two venues


@pytest.fixture
def store(postgres_env, monkeypatch) -> dict[str, str]:
    for name, value in postgres_env.items():
        monkeypatch.setenv(name, value)
    return postgres_env


def follower(data: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "projections.follow", str(data), "0.1"], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL)


def shown(data: Path) -> dict[str, tuple[int, list[str]]]:
    """game -> (last seq, event types in order) in the published read models of ``data``."""
    try:
        con = connect_read(data)
    except FileNotFoundError:
        return {}
    try:
        games = dict(con.execute("SELECT game, last_seq FROM dim_games").fetchall())
        types = {}
        for game, kind in con.execute("SELECT game, type FROM fct_events ORDER BY game, seq").fetchall():
            types.setdefault(game, []).append(kind)
    finally:
        con.close()
    return {game: (last, types.get(game, [])) for game, last in games.items()}


def played(system: str, seed: int, game: str) -> tuple[str, list[dict]]:
    lines = record_lines(simulate(system, seed, game))
    return lines[0], [{k: v for k, v in json.loads(x).items() if k not in ("seq", "hash")} for x in lines[1:]]


def test_two_venues_recording_at_once_each_see_the_others_games(store, tmp_path) -> None:
    venues = {"north": tmp_path / "north", "south": tmp_path / "south"}
    games = {"north": played("tornscape", 7, "north-table-1"), "south": played("t9a", 8, "south-table-1")}
    followers = [follower(folder) for folder in venues.values()]
    failures: list[BaseException] = []
    start = threading.Barrier(len(venues))

    def scorekeeper(venue: str) -> None:
        header, events = games[venue]
        app = Rollcall.open(venues[venue])
        try:
            game = app.import_record([header], "new game").game
            start.wait(timeout=60)
            for seq, event in enumerate(events[:EVENTS]):
                app.record(game, event, after=seq)
        except BaseException as exc:  # noqa: BLE001  reported below
            failures.append(exc)
        finally:
            app.close()

    try:
        threads = [threading.Thread(target=scorekeeper, args=(venue,)) for venue in venues]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        expected = {json.loads(header)["game"]: (EVENTS, [e["type"] for e in events[:EVENTS]])
                    for header, events in games.values()}
        deadline = time.monotonic() + 120  # generous: the figure (under 2 s) is the bench's
        seen = {venue: {} for venue in venues}
        while time.monotonic() < deadline:
            seen = {venue: shown(folder) for venue, folder in venues.items()}
            if all(found == expected for found in seen.values()):
                break
            time.sleep(0.2)
        assert seen == {venue: expected for venue in venues}
        assert all(f.poll() is None for f in followers)  # both still following
    finally:
        for f in followers:
            f.terminate()
        for f in followers:
            f.wait(timeout=60)
