"""The projector's sources: the children's shares of a window of notification ids hold every stored row once,
a game's rows all in one share, the rows of other aggregates in the first (SQLite and PostgreSQL)."""

from __future__ import annotations

import contextlib
import gc
import io
import pickle
import sys
from pathlib import Path

import pytest

from service.application import Rollcall
from projections import sources
from projections.sources import PostgresSource, RecorderSource, SQLiteSource

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "games").glob("*.rollcall.jsonl"))


def stored(app: Rollcall) -> None:
    for path in GOLDEN:
        with path.open(encoding="utf-8") as lines:
            app.import_record(lines, str(path), lenient=True)


def notifications(app: Rollcall) -> list[tuple]:
    """Every stored row as the application's recorder reads it."""
    return [(n.id, n.originator_id.hex, n.topic, bytes(n.state)) for n in app.recorder.select_notifications(1, 10**6)]


def pickled(out) -> list:
    """Every batch a reading child wrote to ``out``, in order."""
    batches = []
    with contextlib.suppress(EOFError):
        while True:
            batches.append(pickle.load(out))
    return batches


def assert_shares_partition(source, every: list[tuple]) -> None:
    upto = source.max_id()
    assert [tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in source.share(0, upto)] == every
    assert len(every) > 100
    for parts in (1, 2, 3, 4):
        for after, end in ((0, upto), (upto // 3, 2 * upto // 3)):
            window = [row for row in every if after < row[0] <= end]
            shares = [[(i, s, t, bytes(b)) for i, s, t, b in source.share(after, end, part, parts)]
                      for part in range(parts)]
            assert sorted(r for share in shares for r in share) == window, (parts, after, end)
            games = [{row[1] for row in share if row[2].startswith("rollcall:")} for share in shares]
            assert sum(len(g) for g in games) == len(set().union(*games)), "a game's rows in two shares"
            others = [row for share in shares[1:] for row in share if not row[2].startswith("rollcall:")]
            assert not others, "rows of other aggregates go to the first share"
        assert all(source.share(0, upto, part, parts) for part in range(min(parts, 2))), "every share has games"


def test_sqlite_shares_hold_every_row_once(tmp_path):
    app = Rollcall.open(tmp_path / "data")
    try:
        stored(app)
        every = notifications(app)
        recorder = RecorderSource(app.recorder)  # other stores: read whole, in windows of ids
        upto = recorder.max_id()
        assert recorder.share(0, upto) == every
        assert recorder.share(upto // 3, 2 * upto // 3) == [row for row in every if upto // 3 < row[0] <= 2 * upto // 3]
    finally:
        app.close()
    source = SQLiteSource(tmp_path / "data" / "events.sqlite")
    try:
        assert_shares_partition(source, every)
    finally:
        source.close()


@pytest.mark.postgres
def test_postgres_shares_hold_every_row_once(tmp_path, postgres_env):
    app = Rollcall(env=postgres_env)
    try:
        stored(app)
        source = PostgresSource(app.recorder, postgres_env, app.name)
        assert_shares_partition(source, notifications(app))
    finally:
        app.close()


class WatchedSource(SQLiteSource):
    """A SQLite source that notes whether the cyclic collector was on while each window was read."""

    collector_on: list[bool]

    def share(self, after, upto, part=0, parts=1):
        self.collector_on.append(gc.isenabled())
        return super().share(after, upto, part, parts)


def test_an_in_process_replay_holds_the_collector_off_per_batch_and_gives_it_back(tmp_path):
    app = Rollcall.open(tmp_path / "data")
    try:
        stored(app)
    finally:
        app.close()
    source = WatchedSource(tmp_path / "data" / "events.sqlite")
    source.collector_on = []
    try:
        for was_on in (True, False):
            (gc.enable if was_on else gc.disable)()
            batches = list(source.shares(0, source.max_id(), 50, 0, 1))
            assert sum(b.read for b in batches) == source.max_id()
            assert gc.isenabled() is was_on, "the collector is left as it was found"
        assert source.collector_on and not any(source.collector_on), "off while each batch was read and replayed"
    finally:
        gc.enable()
        source.close()


def test_a_reading_child_replays_with_the_collector_off(tmp_path, monkeypatch):
    app = Rollcall.open(tmp_path / "data")
    try:
        stored(app)
    finally:
        app.close()
    path = tmp_path / "data" / "events.sqlite"
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out))
    try:
        sources.main("sqlite", str(path), "0", "10", "5", "0", "1")
        assert not gc.isenabled()
    finally:
        gc.enable()
    out.seek(0)
    assert [pickle.load(out).last_id for _ in range(2)] == [5, 10]


@pytest.mark.postgres
def test_a_postgres_reading_child_opens_the_store_alone_and_replays_its_share(tmp_path, postgres_env, monkeypatch):
    app = Rollcall(env=postgres_env)
    try:
        stored(app)
        upto = app.recorder.max_notification_id()
        source = PostgresSource(app.recorder, postgres_env, app.name)
        where = source.child_args()
        here = [batch.tables["events"].to_pylist() for batch in source.shares(0, upto, 50, 1, 2)]
    finally:
        app.close()
    for key, value in postgres_env.items():
        monkeypatch.setenv(key, value)
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out))
    monkeypatch.delitem(sys.modules, "service.application")  # the child must not need the application
    try:
        sources.main(*where, "0", str(upto), "50", "1", "2")
        assert "service.application" not in sys.modules
    finally:
        gc.enable()
    out.seek(0)
    batches = pickled(out)
    assert [b.tables["events"].to_pylist() for b in batches] == here
    assert sum(len(events) for events in here) > 0
    assert batches[-1].last_id == upto


def test_a_reading_child_builds_its_batches_without_importing_numpy_or_pandas(tmp_path):
    """pyarrow would import numpy with itself and pandas at a child's first array (about 0.25 CPU seconds); the
    child goes without them, and its batches are those replayed here."""
    import subprocess

    app = Rollcall.open(tmp_path / "data")
    try:
        stored(app)
        upto = app.recorder.max_notification_id()
    finally:
        app.close()
    path = tmp_path / "data" / "events.sqlite"
    here = [batch.tables["events"].to_pylist() for batch in SQLiteSource(path).shares(0, upto, 50, 0, 1)]
    child = ("import atexit, runpy, sys\n"
             "atexit.register(lambda: sys.stderr.write(repr([sys.modules.get(m) for m in ('numpy', 'pandas')])))\n"
             "runpy.run_module('projections.reading', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", child, "sqlite", str(path), "0", str(upto), "50", "0", "1"],
                          capture_output=True, cwd=ROOT, check=True)
    assert done.stderr.decode().strip() == "[None, None]"
    batches = pickled(io.BytesIO(done.stdout))
    assert [b.tables["events"].to_pylist() for b in batches] == here
    assert sum(len(events) for events in here) > 0
