"""Readers never see a torn state: while games are stored and the follower projects and publishes them, it is
killed with SIGKILL at random points (mid-batch, mid-copy, mid-publish) and started again, and every time a
reader opens the published read models they are whole — the read models of exactly the events stored up to
their tracking position, every game's events without a gap. Afterwards they equal a clean rebuild. Real
processes, real files."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from processes import ROOT, until
from stored import add_game, published_tables

from domain.settings import EVENTS_FILE, PUBLISHED_FILE, READ_FILES
from projections.projector import Projector, definitions_version
from projections.publish import open_published

pytestmark = [pytest.mark.slow]
KILLS = 12
UP = 120  # seconds the follower may take to catch up on this shared machine


def expected(store: sqlite3.Connection, position: int) -> tuple[int, int]:
    """(games, events) the read models of the store up to notification ``position`` hold."""
    return store.execute("SELECT count(*) FILTER (WHERE topic = 'rollcall:GameCreated'), "
                         "count(*) FILTER (WHERE topic LIKE 'rollcall:%' AND topic != 'rollcall:GameCreated') "
                         "FROM stored_events WHERE rowid <= ?", (position,)).fetchone()


def look(data: Path, store: sqlite3.Connection, version: str) -> int | None:
    """Open the published read models once and check they are whole: the tracking position they are at (None:
    nothing published yet)."""
    try:
        con = open_published(data / PUBLISHED_FILE)
    except FileNotFoundError:
        return None
    try:
        assert con.execute("SELECT version FROM read_model_version").fetchall() == [(version,)]
        position = con.execute("SELECT max(notification_id) FROM tracking").fetchall()[0][0]
        games = con.execute("SELECT count(*) FROM dim_games").fetchall()[0][0]
        events = con.execute("SELECT count(*) FROM fct_events").fetchall()[0][0]
        gaps = con.execute("SELECT count(*) FROM (SELECT game, count(*) AS n, max(seq) AS last FROM fct_events "
                           "GROUP BY game) WHERE n != last").fetchall()[0][0]
        states = con.execute("SELECT count(DISTINCT game) FROM fct_states").fetchall()[0][0]
    finally:
        con.close()
    assert (games, events) == expected(store, position), f"torn at position {position}"
    assert gaps == 0 and states == games, f"torn at position {position}"
    return position


def start_follower(data: Path, log) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "projections.follow", str(data), "0.05"], cwd=ROOT,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                            stdout=log, stderr=subprocess.STDOUT)


def test_readers_never_see_a_torn_state_while_the_follower_is_killed_at_random_points(tmp_path: Path) -> None:
    data = tmp_path / "data"
    add_game(data, 0, "torn")
    version = definitions_version()
    written, done, failures, looks = threading.Event(), threading.Event(), [], []

    def read() -> None:
        store = sqlite3.connect(f"file:{data / EVENTS_FILE}?mode=ro", uri=True)
        while not done.is_set():
            try:
                looks.append(look(data, store, version))
            except BaseException as exc:  # noqa: BLE001 - said by the test below
                failures.append(exc)
                return
            if looks[-1] is None:
                time.sleep(0.05)

    def write() -> None:
        seed = 1
        while not written.is_set():
            add_game(data, seed, "torn")
            seed += 1
            time.sleep(0.05)

    reader, writer = threading.Thread(target=read), threading.Thread(target=write)
    chance = random.Random(2612)
    with open(tmp_path / "follower.log", "wb") as log:
        reader.start()
        writer.start()
        try:
            for _ in range(KILLS):
                before = max([p for p in looks if p is not None], default=0)
                follower = start_follower(data, log)
                # one publish in this life at least (a loaded machine starts Python slowly), then a random point of
                # what follows: a batch, a catch-up, a copy, a publish, the statistics...
                until(lambda: max([p for p in looks if p is not None], default=0) > before or bool(failures), UP,
                      "the follower published nothing")
                time.sleep(chance.uniform(0.0, 1.2))
                follower.send_signal(signal.SIGKILL)
                follower.wait()
        finally:
            written.set()
            writer.join()
        follower = start_follower(data, log)  # the last one follows to the end
        try:
            with sqlite3.connect(f"file:{data / EVENTS_FILE}?mode=ro", uri=True) as store:
                last = store.execute("SELECT max(rowid) FROM stored_events").fetchone()[0]
            until(lambda: bool(looks and looks[-1] == last) or bool(failures), UP, "the follower did not catch up")
        finally:
            done.set()
            written.set()
            reader.join()
            follower.terminate()
            follower.wait(UP)
    assert not failures, failures[0]
    seen = [p for p in looks if p is not None]
    assert len(set(seen)) > KILLS  # a publish in each life of the follower
    assert seen == sorted(seen), "a reader saw the read models go back"
    assert not [p.name for p in data.iterdir() if p.name.endswith((".tmp", ".link"))], "left-over files"

    # what was published at last is what a clean rebuild of the store gives
    clean = tmp_path / "clean"
    clean.mkdir()
    with sqlite3.connect(data / EVENTS_FILE) as source, sqlite3.connect(clean / EVENTS_FILE) as copy:
        source.backup(copy)  # (with what its write-ahead log holds)
    Projector(clean).run(rebuild=True)
    assert published_tables(data) == published_tables(clean)
    assert {p.name for p in data.iterdir()} >= {READ_FILES[0], READ_FILES[1], PUBLISHED_FILE}

