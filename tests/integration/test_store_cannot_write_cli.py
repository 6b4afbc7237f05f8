"""The command line when the event store cannot take a write just now: another writer holding SQLite's write lock
past ROLLCALL_SQLITE_LOCK_TIMEOUT is "busy", a full disk "full" — one line, exit status 1, no traceback, nothing
stored — and the next write goes through."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from disks import small_disk

from service.application import Rollcall
from store.opening import fault_of

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
NOTE = json.dumps({"type": "Noted", "text": "a note " * 1_400})  # 9,800 characters: the longest text takes


def rollcall(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ROLLCALL_DATA": str(data), "ROLLCALL_SQLITE_LOCK_TIMEOUT": "1"}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    assert rollcall(folder, "import", str(RECORD)).returncode == 0
    return folder


def stored(data: Path) -> int:
    return len(Rollcall.open(data).stored_lines(GAME))


def one_line(done: subprocess.CompletedProcess, word: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("error: the event store is ") and word in done.stderr, done.stderr
    assert "nothing was stored" in done.stderr


def test_a_record_while_another_writer_holds_the_store_says_it_is_busy(data: Path) -> None:
    other = sqlite3.connect(data / "events.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        one_line(rollcall(data, "record", GAME, NOTE), "busy")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert stored(data) == 8
    assert rollcall(data, "record", GAME, NOTE).returncode == 0
    assert stored(data) == 9


@pytest.fixture
def disk(tmp_path: Path):
    """A small disk of its own (a tmpfs: root can mount one here), else None."""
    with small_disk(tmp_path, "16m") as mount:
        yield mount


def test_a_record_on_a_full_disk_says_the_store_is_full(disk: Path | None) -> None:
    if disk is None:
        pytest.skip("no disk of its own to fill here (mounting a tmpfs needs root)")
    data = disk / "data"
    assert rollcall(data, "import", str(RECORD)).returncode == 0
    filler = disk / "filler"
    with filler.open("wb") as handle:  # the disk filled up to its last byte
        try:
            while True:
                handle.write(b"\0" * (1 << 16))
                handle.flush()
        except OSError:
            pass
    try:
        one_line(rollcall(data, "record", GAME, NOTE), "full")
    finally:
        filler.unlink()
    assert stored(data) == 8
    assert rollcall(data, "record", GAME, NOTE).returncode == 0  # with room again
    assert stored(data) == 9


def test_a_lock_timeout_that_is_not_seconds_is_refused_naming_the_setting(data: Path, monkeypatch) -> None:
    from domain.errors import RollcallError
    from domain.settings import sqlite_lock_timeout

    for value in ("x", "-1", "1.5", "1e9"):
        monkeypatch.setenv("ROLLCALL_SQLITE_LOCK_TIMEOUT", value)
        with pytest.raises(RollcallError, match="ROLLCALL_SQLITE_LOCK_TIMEOUT"):
            sqlite_lock_timeout()


def test_sqlites_words_for_a_write_it_cannot_take_are_busy_full_or_read_only() -> None:
    for words, kind in (("database is locked", "busy"), ("database or disk is full", "full"),
                        ("attempt to write a readonly database", "read-only"), ("no such table: x", None)):
        fault = fault_of(sqlite3.OperationalError(words))
        assert (fault.kind if fault else None) == kind
