"""publish()/open_published(): readers never need the projector's live file."""

from __future__ import annotations

import multiprocessing as mp
import queue
import sys
import types
from pathlib import Path
from typing import Any

import duckdb
import pytest

from projections.publish import open_published, publish

TIMEOUT = 120  # seconds for a spawned process to answer: generous, a loaded CI machine starts Python slowly


def _writer(live: str, published: str, commands: Any, events: Any) -> None:
    try:
        conn = duckdb.connect(live)  # read-write for the whole life of the process
        conn.execute("CREATE TABLE games (id VARCHAR, seq INTEGER)")
        conn.execute("INSERT INTO games VALUES ('g1', 0), ('g1', 1), ('g2', 0)")
        publish(conn, live, published)
        events.put(("published", 3))
        assert commands.get(timeout=TIMEOUT) == "more"
        conn.execute("INSERT INTO games VALUES ('g2', 1), ('g3', 0)")
        publish(conn, live, published)
        events.put(("published", 5))
        assert commands.get(timeout=TIMEOUT) == "stop"
        conn.close()
        events.put(("writer-done", None))
    except BaseException as exc:
        events.put(("writer-error", repr(exc)))
        raise


def _count(conn: duckdb.DuckDBPyConnection) -> int:
    return conn.execute("SELECT count(*) FROM games").fetchall()[0][0]


def _reader(live: str, published: str, commands: Any, events: Any) -> None:
    try:
        old = open_published(published)
        events.put(("read", _count(old)))
        try:
            duckdb.connect(live, read_only=True).close()
            events.put(("live-open", "opened"))
        except duckdb.Error as exc:
            events.put(("live-open", type(exc).__name__))
        assert commands.get(timeout=TIMEOUT) == "reread"
        events.put(("old-copy", _count(old)))  # still the copy it opened
        new = open_published(published)
        events.put(("new-copy", _count(new)))
        try:
            new.execute("INSERT INTO games VALUES ('x', 9)")
            events.put(("write", "allowed"))
        except duckdb.Error:
            events.put(("write", "refused"))
        new.close()
        old.close()
        events.put(("reader-done", None))
    except BaseException as exc:
        events.put(("reader-error", repr(exc)))
        raise


def _expect(events: Any, kind: str) -> Any:
    try:
        got_kind, value = events.get(timeout=TIMEOUT)
    except queue.Empty:
        pytest.fail(f"timed out waiting for {kind!r}")
    assert got_kind == kind, (got_kind, value)
    return value


def test_reader_process_reads_published_copy_while_writer_holds_live(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # A spawned process runs the parent's __main__ again first; in a worker that ran a dashboard page with
    # Streamlit's AppTest, that is the page's script. The children here need none of it.
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    ctx = mp.get_context("spawn")
    live = str(tmp_path / "live" / "read_models.duckdb")
    published = str(tmp_path / "published" / "read_models.duckdb")
    Path(live).parent.mkdir()
    to_writer, to_reader, events = ctx.Queue(), ctx.Queue(), ctx.Queue()

    writer = ctx.Process(target=_writer, args=(live, published, to_writer, events))
    reader = ctx.Process(target=_reader, args=(live, published, to_reader, events))
    writer.start()
    try:
        assert _expect(events, "published") == 3
        reader.start()
        assert _expect(events, "read") == 3
        # The live file is locked by the writer: that is why we publish.
        assert _expect(events, "live-open") != "opened"

        # Republish while the reader still holds the old copy open.
        to_writer.put("more")
        assert _expect(events, "published") == 5
        to_reader.put("reread")
        assert _expect(events, "old-copy") == 3
        assert _expect(events, "new-copy") == 5
        assert _expect(events, "write") == "refused"
        _expect(events, "reader-done")

        to_writer.put("stop")
        _expect(events, "writer-done")
        writer.join(TIMEOUT)
        reader.join(TIMEOUT)
        assert writer.exitcode == 0
        assert reader.exitcode == 0
    finally:
        for proc in (writer, reader):
            if proc.is_alive():
                proc.kill()
                proc.join(5)

    # No temp files are left beside the published copy.
    assert sorted(p.name for p in Path(published).parent.iterdir()) == ["read_models.duckdb"]


def test_republish_in_process_while_old_connection_open(tmp_path: Path) -> None:
    live, published = tmp_path / "live.duckdb", tmp_path / "pub" / "live.duckdb"
    writer = duckdb.connect(str(live))
    try:
        writer.execute("CREATE TABLE games (id VARCHAR)")
        writer.execute("INSERT INTO games VALUES ('g1')")
        publish(writer, live, published)
        old = open_published(published)
        writer.execute("INSERT INTO games VALUES ('g2')")
        publish(writer, live, published)
        new = open_published(published)
        assert _count(old) == 1
        assert _count(new) == 2
        old.close()
        new.close()
    finally:
        writer.close()
