"""flip()/open_published(): readers open the published file while the projector writes the other one."""

from __future__ import annotations

import multiprocessing as mp
import queue
import sys
import types
from pathlib import Path
from typing import Any

import duckdb
import pytest

from projections.publish import flip, open_published, published_file, replace_with_copy

TIMEOUT = 120  # seconds for a spawned process to answer: generous, a loaded CI machine starts Python slowly


def _writer(live: str, published: str, commands: Any, events: Any) -> None:
    try:
        first, second = Path(live), Path(live).with_name("b.duckdb")
        conn = duckdb.connect(live)
        conn.execute("CREATE TABLE games (id VARCHAR, seq INTEGER)")
        conn.execute("INSERT INTO games VALUES ('g1', 0), ('g1', 1), ('g2', 0)")
        conn.close()
        flip(published, first)
        replace_with_copy(first, second)
        conn = duckdb.connect(str(second))  # read-write while readers read the published file
        events.put(("published", 3))
        assert commands.get(timeout=TIMEOUT) == "more"
        conn.execute("INSERT INTO games VALUES ('g2', 1), ('g3', 0)")
        conn.close()
        flip(published, second)
        events.put(("published", 5))
        assert commands.get(timeout=TIMEOUT) == "stop"
        try:
            duckdb.connect(live).close()  # the first file: a reader still holds it
            events.put(("writer-done", "opened"))
        except duckdb.Error:
            events.put(("writer-done", "held"))
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
            duckdb.connect(str(Path(live).with_name("b.duckdb")), read_only=True).close()
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
    live = str(tmp_path / "a.duckdb")
    published = str(tmp_path / "read.duckdb")
    to_writer, to_reader, events = ctx.Queue(), ctx.Queue(), ctx.Queue()

    writer = ctx.Process(target=_writer, args=(live, published, to_writer, events))
    reader = ctx.Process(target=_reader, args=(live, published, to_reader, events))
    writer.start()
    try:
        assert _expect(events, "published") == 3
        reader.start()
        assert _expect(events, "read") == 3
        # The file the writer writes is locked: readers open the published one.
        assert _expect(events, "live-open") != "opened"

        # Publish the other file while the reader still holds the first one open.
        to_writer.put("more")
        assert _expect(events, "published") == 5
        to_reader.put("reread")
        assert _expect(events, "old-copy") == 3
        assert _expect(events, "new-copy") == 5
        assert _expect(events, "write") == "refused"
        _expect(events, "reader-done")

        to_writer.put("stop")
        assert _expect(events, "writer-done") == "opened"  # the reader let the first file go: it may be written
        writer.join(TIMEOUT)
        reader.join(TIMEOUT)
        assert writer.exitcode == 0
        assert reader.exitcode == 0
    finally:
        for proc in (writer, reader):
            if proc.is_alive():
                proc.kill()
                proc.join(5)

    # No temp files are left beside the two files and the link.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.duckdb", "b.duckdb", "read.duckdb"]
    assert published_file(published) == Path(published).with_name("b.duckdb")


def test_a_reader_opens_the_link_again_while_the_file_it_named_is_taken_for_writing(tmp_path: Path) -> None:
    first, second, published = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "read.duckdb"
    for path, rows in ((first, 1), (second, 2)):
        con = duckdb.connect(str(path))
        con.execute("CREATE TABLE games AS SELECT range AS id FROM range($n)", {"n": rows})
        con.close()
    flip(published, first)
    import threading

    writer = duckdb.connect(":memory:")
    writer.execute(f"ATTACH '{first}' AS w")  # held for writing, as a projector's target
    turned = threading.Timer(0.1, lambda: flip(published, second))
    turned.start()
    try:
        reader = open_published(published)  # told the file is locked, it opens the link again: the other file
        assert _count(reader) == 2
        reader.close()
    finally:
        turned.join()
        writer.close()
