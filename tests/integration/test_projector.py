"""The projector: a rebuild equals any sequence of incremental runs, a run after a kill -9 ends with
exactly the rows of a clean rebuild, and readers of the published copy never wait for the projector."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from service.application import Rollcall
from simulation.games import record_lines, simulate_tornscape
from domain.settings import PUBLISHED_FILE, READ_FILES
from projections.projector import APPLICATION, TABLES, Projector
from projections.publish import open_published
from projections.queries import connect_read, list_games, state_at
from store import rows

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "games"
TIMEOUT = 120

# A projector in a child process: one line on stdout after each committed batch; when held, it then
# waits for a line on stdin (holding the live file meanwhile), so no test depends on timing.
CHILD = """
import sys
from projections.projector import Projector
data, batch, hold, rebuild = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "hold", sys.argv[4] == "rebuild"
def committed(done, total):
    print(done, flush=True)
    if hold:
        sys.stdin.readline()  # wait, holding the live file, until the test lets it go on
Projector(data).run(rebuild=rebuild, batch_size=batch, progress=committed)
print("done", flush=True)
"""


def record_files(folder: Path) -> list[Path]:
    """Golden records and simulated games: a few thousand events with every kind of state change."""
    files = sorted(GOLDEN.glob("*.rollcall.jsonl"))
    for seed in range(8):
        path = folder / f"sim-{seed}.rollcall.jsonl"
        path.write_text("\n".join(record_lines(simulate_tornscape(seed, f"sim-{seed}"))) + "\n", encoding="utf-8")
        files.append(path)
    return files


def import_files(data: Path, files: list[Path], after_each=None) -> None:
    app = Rollcall.open(data)
    for path in files:
        with path.open(encoding="utf-8") as lines:
            app.import_record(lines, str(path), lenient=True)
        if after_each is not None:
            after_each()


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> list[Path]:
    return record_files(tmp_path_factory.mktemp("records"))


@pytest.fixture(scope="module")
def store(tmp_path_factory, records) -> Path:
    """events.sqlite holding every record (copied into each test's data folder)."""
    data = tmp_path_factory.mktemp("store")
    import_files(data, records)
    return data / "events.sqlite"


def data_with(store: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(store, folder / "events.sqlite")
    return folder


STORE_OWN = {"fct_events": "EXCLUDE (recorded_at)"}


def tables(data: Path) -> dict[str, list[tuple]]:
    """Every read model of the published copy, rows in a total order, and the tracking position."""
    con = open_published(data / PUBLISHED_FILE)
    try:
        # (when each event was stored is the store's own, not the records')
        dump = {t: con.execute(f"SELECT * {STORE_OWN.get(t, '')} FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
        dump["tracking"] = con.execute("SELECT max(notification_id) FROM tracking WHERE application_name = $a",
                                       {"a": APPLICATION}).fetchall()
    finally:
        con.close()
    return dump


def assert_same(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for table in want:
        assert len(got[table]) == len(want[table]), table
        for i, (a, b) in enumerate(zip(got[table], want[table])):
            assert a == b, f"{table} row {i}: {a} != {b}"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory, store) -> dict:
    """The tables of a clean rebuild in one batch: what every other way must give."""
    data = data_with(store, tmp_path_factory.mktemp("rebuilt"))
    assert Projector(data).run(rebuild=True) == _events(store)
    return tables(data)


def _events(store: Path) -> int:
    import sqlite3

    with sqlite3.connect(store) as con:
        return con.execute("SELECT count(*) FROM stored_events").fetchone()[0]


def test_every_table_has_rows(rebuilt):
    assert all(rebuilt[t] for t in TABLES), [t for t in TABLES if not rebuilt[t]]


@pytest.mark.parametrize("batch_size", [13, 250])
def test_small_batches_give_the_rows_of_one_batch(tmp_path, store, rebuilt, batch_size):
    data = data_with(store, tmp_path / "data")
    assert Projector(data).run(batch_size=batch_size) == _events(store)
    assert_same(tables(data), rebuilt)


def test_one_event_per_batch_gives_the_rows_of_one_batch(tmp_path, records):
    golden = [f for f in records if f.parent == GOLDEN]
    one, each = tmp_path / "one", tmp_path / "each"
    for data in (one, each):
        import_files(data, golden)
    Projector(one).run()
    assert Projector(each).run(batch_size=1) == _events(each / "events.sqlite")
    assert_same(tables(each), tables(one))


def test_projecting_while_games_are_imported_gives_the_rows_of_a_rebuild(tmp_path, records, rebuilt):
    data = tmp_path / "data"
    runs = []
    import_files(data, records, after_each=lambda: runs.append(Projector(data).run(batch_size=61)))
    assert sum(runs) == _events(data / "events.sqlite")  # every stored row read once (lines, and seats)
    assert _events(data / "events.sqlite") >= sum(1 for f in records for line in f.open()
                                                   if line.strip() and not line.startswith("#"))
    assert_same(tables(data), rebuilt)


def test_a_second_run_projects_nothing_and_a_rebuild_everything(tmp_path, store, rebuilt):
    data = data_with(store, tmp_path / "data")
    projector = Projector(data)
    assert projector.run(batch_size=500) == _events(store)
    assert projector.run() == 0
    assert_same(tables(data), rebuilt)
    assert projector.run(rebuild=True, batch_size=333) == _events(store)
    assert_same(tables(data), rebuilt)


def test_a_run_starts_reading_the_store_before_it_sets_the_read_models_up(tmp_path, store, rebuilt, monkeypatch):
    from projections import projector as projector_module, sources

    data = data_with(store, tmp_path / "data")
    order: list[str] = []
    start, statements = sources._Streamed._start_children, projector_module.statements

    def started(self, *args):
        order.append("children")
        return start(self, *args)

    def read(name):
        order.append(name)
        return statements(name)

    monkeypatch.setattr(sources._Streamed, "_start_children", started)
    monkeypatch.setattr(projector_module, "statements", read)
    assert Projector(data).run(rebuild=True, batch_size=400) == _events(store)
    assert order.count("children") == 1 and order.index("children") < order.index("macros")
    assert_same(tables(data), rebuilt)


@pytest.mark.postgres
def test_a_postgres_store_gives_the_rows_of_the_sqlite_store(tmp_path, records, postgres_env):
    files = [f for f in records if f.parent == GOLDEN] + [f for f in records if f.name == "sim-0.rollcall.jsonl"]
    sqlite_data, pg_data = tmp_path / "sqlite", tmp_path / "pg"
    import_files(sqlite_data, files)
    app = Rollcall(env=postgres_env)
    try:
        for path in files:
            with path.open(encoding="utf-8") as lines:
                app.import_record(lines, str(path), lenient=True)
        assert Projector(pg_data, app=app).run(batch_size=97) == _events(sqlite_data / "events.sqlite")
    finally:
        app.close()
    Projector(sqlite_data).run()
    assert_same(tables(pg_data), tables(sqlite_data))


@pytest.mark.postgres
def test_a_projector_of_a_postgres_store_opens_the_store_alone_not_the_application(tmp_path, postgres_env,
                                                                                   monkeypatch):
    files = [f for f in sorted(GOLDEN.glob("*.rollcall.jsonl"))][:3]
    sqlite_data = tmp_path / "sqlite"
    import_files(sqlite_data, files)
    app = Rollcall(env=postgres_env)
    try:
        for path in files:
            with path.open(encoding="utf-8") as lines:
                app.import_record(lines, str(path), lenient=True)
    finally:
        app.close()
    for key, value in postgres_env.items():
        monkeypatch.setenv(key, value)
    projector = Projector(tmp_path / "pg")
    assert projector.run(batch_size=97) == _events(sqlite_data / "events.sqlite")
    assert isinstance(projector.app, rows.OpenedStore)
    Projector(sqlite_data).run()
    assert_same(tables(tmp_path / "pg"), tables(sqlite_data))


def test_progress_reports_each_batch(tmp_path, store):
    data = data_with(store, tmp_path / "data")
    seen = []
    Projector(data).run(batch_size=1000, progress=lambda done, total: seen.append((done, total)))
    with sqlite3.connect(store) as con:  # stored rows read, those never projected (seats) too
        total = con.execute("SELECT count(*) FROM stored_events").fetchone()[0]
    assert [d for d, _ in seen] == [min(n, total) for n in range(1000, total + 1000, 1000)]
    assert all(t == total for _, t in seen)


def child(data: Path, batch: int, hold: bool = False, rebuild: bool = False) -> subprocess.Popen:
    """A projector in another process; with ``hold`` it stops after each batch until it reads a line."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [str(data), str(batch), "hold" if hold else "go", "rebuild" if rebuild else "run"]
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_kill_9_then_rerun_gives_the_rows_of_a_clean_rebuild(tmp_path, store, rebuilt):
    data = data_with(store, tmp_path / "data")
    proc = child(data, batch=150)
    try:
        first = proc.stdout.readline()
        assert first.strip().isdigit(), first + proc.stderr.read()
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(TIMEOUT)
    assert proc.returncode == -signal.SIGKILL
    # The committed batches survive the kill (the file it wrote is free again now).
    live = duckdb.connect(str(data / READ_FILES[0]), read_only=True)
    try:
        projected = live.execute("SELECT max(notification_id) FROM tracking").fetchall()[0][0]
    finally:
        live.close()
    assert 150 <= projected < _events(store)
    assert Projector(data).run(batch_size=150) == _events(store) - projected
    assert_same(tables(data), rebuilt)


def test_readers_of_the_published_copy_never_wait_for_the_projector(tmp_path, store):
    data = data_with(store, tmp_path / "data")
    Projector(data).run()
    target = Projector(data).targets()[0]
    proc = child(data, batch=200, hold=True, rebuild=True)
    try:
        assert proc.stdout.readline().strip().isdigit()
        with pytest.raises(duckdb.Error):  # the projector holds the file it writes...
            duckdb.connect(str(target), read_only=True).close()
        con = connect_read(data)  # ...and the dashboard still reads the published copy
        try:
            games = list_games(con)
            assert games and state_at(con, games[0]["game"], 3)["seq"] == 3
        finally:
            con.close()
        assert proc.poll() is None  # still projecting
    finally:
        proc.kill()
        proc.wait(TIMEOUT)


def break_a_stored_move(data: Path) -> str:
    """Make one stored ModelMoved name a model its game never had: the rules pack cannot apply it. The game."""
    import json

    con = sqlite3.connect(data / "events.sqlite")
    with con:
        rowid, state = con.execute("SELECT rowid, state FROM stored_events WHERE topic = 'rollcall:ModelMoved' "
                                   "ORDER BY rowid LIMIT 1").fetchone()
        decoded = json.loads(state)
        decoded["data"]["model"] = "nobody"
        con.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(decoded).encode(), rowid))
        oid = con.execute("SELECT originator_id FROM stored_events WHERE rowid = ?", (rowid,)).fetchone()[0]
        header = con.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 1",
                             (oid,)).fetchone()[0]
    con.close()
    return json.loads(header)["data"]["game"]


@pytest.mark.parametrize("batch", [100_000, 97])
def test_a_game_the_rules_cannot_replay_is_named_and_every_other_game_is_projected(tmp_path, store, batch):
    data = data_with(store, tmp_path / "data")
    broken = break_a_stored_move(data)
    Projector(data).run(batch_size=batch)
    con = connect_read(data)
    try:
        failures = con.execute("SELECT game, seq, error FROM fct_projection_failures").fetchall()
        assert [(g, "KeyError" in e) for g, _, e in failures] == [(broken, True)]
        games = {g["game"]: g for g in list_games(con)}
        assert len(games) == _games(store) and games[broken]["events"] > 0  # its events are facts: kept
        others = [g for g in games if g != broken]
        assert all(state_at(con, g)["seq"] == games[g]["last_seq"] for g in others)
    finally:
        con.close()
    assert Projector(data).run() == 0  # and later runs go on


def _games(store: Path) -> int:
    with sqlite3.connect(store) as con:
        return con.execute("SELECT count(*) FROM stored_events WHERE topic = 'rollcall:GameCreated'").fetchone()[0]


@pytest.mark.parametrize("damage", ["empty", "garbage", "foreign"])
def test_an_empty_damaged_or_foreign_live_file_is_rebuilt_from_the_store(tmp_path, store, rebuilt, damage):
    data = data_with(store, tmp_path / "data")
    live = data / READ_FILES[0]
    if damage == "empty":
        live.write_bytes(b"")
    elif damage == "garbage":
        live.write_bytes(os.urandom(64 * 1024))
    else:
        other = duckdb.connect(str(live))
        other.execute("CREATE TABLE inventory (item VARCHAR)").fetchall()
        other.close()
    assert Projector(data).run() == _events(store)
    assert_same(tables(data), rebuilt)
