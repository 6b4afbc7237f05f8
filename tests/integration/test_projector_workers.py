"""Several projector workers for one store: worker w of W projects its share of the games into its own data
folder, and readers that open the W folders as one see exactly what one projector's rebuild shows — every
table and view, the statistics, the analytics of the season and of a tournament. Real SQLite store shared by
the folders, real DuckDB files."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from domain.settings import EVENTS_FILE, PARTITIONS_ENV, PERSISTENCE_ENV, SQLITE_FILE_ENV, WORKER_ENV
from projections.projector import Projector
from projections.queries import connect_read, list_games
from projections.stats import ANALYTICS_QUERIES, Scope
from service.application import Rollcall
from simulation.tournaments import simulate_tournament

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow]
TOURNAMENTS = (("tornscape", "Workers Cup", 8, 2), ("claustrophobia", "Workers Open", 6, 2),
               ("t9a", "Workers Masters", 6, 2))


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    """A store of three simulated tournaments, projected whole in its own folder."""
    folder = tmp_path_factory.mktemp("store")
    app = Rollcall.open(folder)
    try:
        for i, (system, name, players, rounds) in enumerate(TOURNAMENTS):
            for game in simulate_tournament(system, name, players, rounds, seed=50 + i, turns=1):
                app.import_record(game.lines, game.game)
    finally:
        app.close()
    Projector(folder).run()
    return folder


def project_as(folder: Path, store: Path, share: str, monkeypatch) -> int:
    """Project ``store`` into ``folder`` as worker ``share`` (w/W); the stored rows read."""
    with monkeypatch.context() as env:
        env.setenv(WORKER_ENV, share)
        env.setenv(PERSISTENCE_ENV, "eventsourcing.sqlite")
        env.setenv(SQLITE_FILE_ENV, str(store / EVENTS_FILE))
        return Projector(folder).run()


def everything(con) -> dict[str, list]:
    """Every table and view of the read models, rows in a total order."""
    names = [n for (n,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE NOT internal AND NOT temporary "
                                       "AND database_name = current_database() UNION SELECT view_name FROM "
                                       "duckdb_views() WHERE NOT internal AND NOT temporary AND database_name = "
                                       "current_database()").fetchall()]
    skipped = {"tracking", "read_model_version"}  # each folder's own bookkeeping
    return {n: con.execute(f"SELECT * FROM {n} ORDER BY ALL").fetchall() for n in sorted(names) if n not in skipped}


def close_to(rows: list[dict]) -> list[dict]:
    """The rows with each float as itself within a billionth (sums over partitions add in another order)."""
    return [{k: pytest.approx(v, rel=1e-9) if isinstance(v, float) else v for k, v in row.items()} for row in rows]


def test_two_workers_partitions_read_as_one_equal_one_projectors_rebuild(store, tmp_path, monkeypatch):
    workers = [tmp_path / "worker-0", tmp_path / "worker-1"]
    read = [project_as(folder, store, f"{i}/2", monkeypatch) for i, folder in enumerate(workers)]
    for folder in workers:  # each folder holds a share of the games, neither all nor none
        con = connect_read(folder)
        try:
            assert 0 < len(list_games(con)) < 3 * 8
        finally:
            con.close()
    assert sum(read) > 0

    whole = connect_read(store)
    monkeypatch.setenv(PARTITIONS_ENV, os.pathsep.join(map(str, workers)))
    union = connect_read(store)
    try:
        want, got = everything(whole), everything(union)
        assert set(got) >= set(want) - {"tracking"}
        for name in want:
            assert got[name] == want[name], name
        for scope in (Scope(), Scope(tournament="Workers Open")):
            for name, query in ANALYTICS_QUERIES.items():
                assert query(union, scope) == close_to(query(whole, scope)), (name, scope)
    finally:
        whole.close()
        union.close()


def test_a_folder_projected_as_another_share_is_rebuilt(store, tmp_path, monkeypatch):
    folder = tmp_path / "worker"
    part = project_as(folder, store, "1/2", monkeypatch)
    assert project_as(folder, store, "0/1", monkeypatch) > part  # every game now, not the half kept
    mine, whole = connect_read(folder), connect_read(store)
    try:
        assert everything(mine) == everything(whole)
    finally:
        mine.close()
        whole.close()


@pytest.mark.parametrize(("share", "given"), [("2/2", "env"), ("1/3", "env"), ("a/b", "option"), ("1", "option"),
                                              ("0/32", "env")])
def test_a_malformed_worker_share_is_refused_naming_the_setting(share, given, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ROLLCALL_LANG": "en", **({WORKER_ENV: share} if given == "env" else {})}
    option = ["--worker", share] if given == "option" else []
    done = subprocess.run([sys.executable, "-m", "cli.main", "project", *option, "--data", str(tmp_path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert f"{WORKER_ENV} must be w/W" in done.stderr and "Traceback" not in done.stderr + done.stdout
    assert json.dumps(share)[1:-1] in done.stderr


@pytest.mark.postgres
def test_two_workers_on_one_postgres_store_read_as_one_equal_one_projectors_rebuild(store, tmp_path, monkeypatch,
                                                                                   postgres_env):
    with sqlite3.connect(store / EVENTS_FILE) as con:
        names = [json.loads(state)["data"]["game"] for (state,) in con.execute(
            "SELECT state FROM stored_events WHERE topic = 'rollcall:GameCreated' ORDER BY rowid")]
    app, source = Rollcall(env=postgres_env), Rollcall.open(store)
    try:
        for name in names:  # the same games, stored in PostgreSQL
            app.import_record(list(source.export_lines(name)), name)
    finally:
        app.close()
        source.close()
    for key, value in postgres_env.items():
        monkeypatch.setenv(key, value)
    workers = [tmp_path / "pg-0", tmp_path / "pg-1", tmp_path / "pg-whole"]
    for folder, share in zip(workers, ("0/2", "1/2", "0/1")):
        with monkeypatch.context() as env:
            env.setenv(WORKER_ENV, share)
            assert Projector(folder).run() > 0
    whole = connect_read(workers[2])
    monkeypatch.setenv(PARTITIONS_ENV, os.pathsep.join(map(str, workers[:2])))
    union = connect_read(workers[2])
    try:
        want, got = everything(whole), everything(union)
        for name in want:
            assert got[name] == want[name], name
    finally:
        whole.close()
        union.close()
