"""The Record page when the store cannot take a tap (AppTest over a real store): another writer holding SQLite's
write lock past ROLLCALL_SQLITE_LOCK_TIMEOUT, a full disk, a read-only store — each a plain sentence where the
page's messages are (busy, full, read-only; nothing was stored), no traceback, and the next tap goes through."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import record_table
from streamlit.testing.v1 import AppTest

from service.application import Rollcall
from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "dashboard" / "views" / "record.py")
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
TAP = "end the activation of The Faceless (Boris)"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Seed 004's first example up to the Faceless's activation (seq 3); a write waits 1 s for another's lock."""
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    lines = [x for x in EX1.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    store.import_record(lines[:4], str(EX1))
    store.close()
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    monkeypatch.setenv("ROLLCALL_SQLITE_LOCK_TIMEOUT", "1")
    return folder


def page() -> AppTest:
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = GAME
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def tap(at: AppTest) -> AppTest:
    record_table.tap(at, TAP)
    return at


def stored(data: Path) -> int:
    return len(Rollcall.open(data).stored_lines(GAME))


def said(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def test_a_tap_while_another_writer_holds_the_store_says_it_is_busy_and_the_next_tap_works(data: Path) -> None:
    at = page()
    other = sqlite3.connect(data / "events.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer, in the middle of its transaction
    try:
        at = tap(at)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert any("busy" in e and "nothing was stored" in e for e in said(at)), said(at)
    assert not [e for e in said(at) if str(data) in e or "Traceback" in e]
    assert stored(data) == 4
    at = tap(at)
    assert any("Recorded seq 4" in s.value for s in at.success), [s.value for s in at.success]
    assert stored(data) == 5


@pytest.mark.parametrize("error, word", [("database or disk is full", "full"),
                                         ("attempt to write a readonly database", "read-only")])
def test_a_tap_on_a_full_or_read_only_store_says_so_and_the_next_tap_works(data: Path, error: str, word: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from eventsourcing.application import Application

    at = page()
    save = Application.save
    failures = [sqlite3.OperationalError(error)]

    def failing(self, *objs, **kwargs):  # the store's file cannot take the write, once
        if failures:
            raise failures.pop()
        return save(self, *objs, **kwargs)

    monkeypatch.setattr(Application, "save", failing)
    at = tap(at)
    assert any(word in e and "nothing was stored" in e for e in said(at)), said(at)
    assert stored(data) == 4
    at = tap(at)
    assert any("Recorded seq 4" in s.value for s in at.success)
    assert stored(data) == 5
