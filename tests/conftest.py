"""Shared fixtures: a scratch ./data directory and a fresh PostgreSQL schema."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Correctness never depends on timing: no per-example deadline (a loaded machine is not a failing test).
settings.register_profile("rollcall", deadline=None)
settings.load_profile("rollcall")


def pytest_configure(config: pytest.Config) -> None:
    """The second hosts of the venue tests made before any test process starts a browser (tests/netns.py)."""
    if hasattr(config, "workerinput"):
        return  # a test process of xdist: the controlling one made them
    from tests.netns import PER_WORKER, make_pool

    workers = getattr(config.option, "numprocesses", None)
    workers = os.cpu_count() or 1 if workers in ("auto", "logical") else int(workers or 1)
    make_pool(PER_WORKER * max(1, workers))


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        from tests.netns import remove_pool

        remove_pool()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives a browser is slow as well (`-m "not slow"` leaves it out)."""
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)


PG_DEFAULTS = {
    "POSTGRES_HOST": "127.0.0.1",
    "POSTGRES_PORT": "5432",
    "POSTGRES_USER": "postgres",
    "POSTGRES_PASSWORD": "",
    "POSTGRES_DBNAME": "test",
}


@pytest.fixture
def tmp_data(tmp_path: Path) -> Path:
    """An empty directory standing in for ./data."""
    data = tmp_path / "data"
    data.mkdir()
    return data


@pytest.fixture
def postgres_env() -> Iterator[dict[str, str]]:
    """POSTGRES_* settings (as eventsourcing reads them) for a schema of its own.

    Skips when the server is unreachable, unless CI is set: then it fails.
    """
    import psycopg
    from psycopg import sql

    env = {key: os.environ.get(key, default) for key, default in PG_DEFAULTS.items()}
    conninfo = {
        "host": env["POSTGRES_HOST"],
        "port": env["POSTGRES_PORT"],
        "user": env["POSTGRES_USER"],
        "password": env["POSTGRES_PASSWORD"],
        "dbname": env["POSTGRES_DBNAME"],
        "connect_timeout": 5,
        "autocommit": True,
    }
    try:
        admin = psycopg.connect(**conninfo)
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL at {env['POSTGRES_HOST']}:{env['POSTGRES_PORT']} unreachable: {exc}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)

    schema = f"t_{uuid.uuid4().hex[:16]}"
    with admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        yield {**env, "POSTGRES_SCHEMA": schema, "PERSISTENCE_MODULE": "eventsourcing.postgres"}
        admin.execute("SET lock_timeout = '10s'")
        admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
