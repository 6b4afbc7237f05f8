"""Faults of the data folder: a damaged, truncated or foreign ``events.sqlite`` and a full disk end every
command in one ``error:`` line with nothing half-stored; the read models (``rollcall.a.duckdb``, ``.b.duckdb``
and the link readers open, ``rollcall.read.duckdb``) are derived data: empty, damaged or foreign, they are rebuilt or
published again, never a dead end.

The full disk is a small tmpfs filled up when one can be mounted here (root); otherwise the command runs in
a child whose files may not grow (RLIMIT_FSIZE: writes fail as on a full disk, with EFBIG)."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import duckdb
import pytest
from disks import small_disk
from typer.testing import CliRunner

from cli.main import app as cli
from service.application import Rollcall
from simulation.games import record_lines, simulate_tornscape

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "games"
GAME = "seed004-ex1"
RECORD = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
OTHER = GAMES / "t9a-eight-flux-cards.rollcall.jsonl"
NOTE = json.dumps({"type": "Noted", "text": "a note"})


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and "Traceback" not in output, output
    return errors[0]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    assert run("import", str(RECORD), "--data", str(folder))[0] == 0
    return folder


# --- a damaged event store -------------------------------------------------------------------------------------

def random_bytes(store: Path) -> None:
    store.write_bytes(os.urandom(50_000))


def truncated(store: Path) -> None:
    with store.open("r+b") as handle:
        handle.truncate(5_000)


def damaged_inside(store: Path) -> None:
    """Every page but the first (the file's header and schema) overwritten."""
    size = store.stat().st_size
    with store.open("r+b") as handle:
        handle.seek(4096)
        handle.write(os.urandom(size - 4096))


def foreign(store: Path) -> None:
    for path in store.parent.glob("events.sqlite*"):
        path.unlink()
    with sqlite3.connect(store) as con:
        con.execute("CREATE TABLE invoices (n INTEGER)")


@pytest.mark.parametrize("damage", [random_bytes, truncated, damaged_inside, foreign])
@pytest.mark.parametrize("command", [("import", str(RECORD)), ("record", GAME, NOTE), ("project",), ("games",),
                                     ("verify",), ("export", GAME)])
def test_a_damaged_or_foreign_event_store_ends_each_command_in_one_error_line(data: Path, damage, command) -> None:
    assert run("import", str(OTHER), "--data", str(data))[0] == 0  # a store of several pages
    store = data / "events.sqlite"
    with sqlite3.connect(store) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every event in the file itself
    damage(store)
    before = store.read_bytes()
    code, output = run(*command, "--data", str(data))
    assert code == 1
    line = one_error_line(output)
    assert "event store" in line
    if damage is foreign:
        assert "another program's SQLite database (tables invoices)" in line
    assert store.read_bytes() == before  # nothing written into it


def test_an_empty_event_store_file_is_an_empty_store(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "events.sqlite").write_bytes(b"")
    assert run("import", str(RECORD), "--data", str(folder))[0] == 0
    assert [h["game"] for h in Rollcall.open(folder).headers()] == [GAME]


# --- damaged read models -----------------------------------------------------------------------------------------

def emptied(path: Path) -> None:
    path.write_bytes(b"")


def scrambled(path: Path) -> None:
    path.write_bytes(os.urandom(300_000))


def another_programs(path: Path) -> None:
    path.unlink()
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE invoices (n INTEGER)")
    con.close()


@pytest.mark.parametrize("damage", [emptied, scrambled, another_programs])
@pytest.mark.parametrize("name", ["rollcall.a.duckdb", "rollcall.read.duckdb"])
def test_damaged_read_models_are_rebuilt_or_published_again(data: Path, damage, name: str) -> None:
    assert run("project", "--data", str(data))[0] == 0
    damage(data / name)
    code, output = run("replay", GAME, "--json", "--data", str(data))
    assert code == 0, output
    assert json.loads(output)["last_seq"] == 7
    code, output = run("project", "--data", str(data))
    assert code == 0 and "Traceback" not in output


# --- a full disk -------------------------------------------------------------------------------------------------

def big_records(folder: Path, count: int = 12) -> Path:
    folder.mkdir()
    for i in range(count):
        lines = record_lines(simulate_tornscape(i, f"big-{i}"))
        (folder / f"big-{i}.rollcall.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


class FullDisk:
    """Runs the command line as a child on a disk with no room left for the data folder."""

    def __init__(self, mount: Path | None) -> None:
        self.mount = mount

    def data(self, tmp_path: Path) -> Path:
        return (self.mount or tmp_path) / f"data-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str) -> tuple[int, str]:
        filler = self.mount / "filler" if self.mount else None
        if filler is not None:
            with filler.open("wb") as handle:
                try:
                    while True:
                        handle.write(b"\0" * (1 << 16))
                        handle.flush()
                except OSError:
                    pass

        def no_room() -> None:
            if filler is None:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

        try:
            result = subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, capture_output=True,
                                    text=True, preexec_fn=no_room, timeout=300)
        finally:
            if filler is not None:
                filler.unlink()
        return result.returncode, result.stdout + result.stderr


@pytest.fixture
def full_disk(tmp_path: Path):
    with small_disk(tmp_path, "48m") as mount:
        yield FullDisk(mount)


def test_import_on_a_full_disk_ends_in_one_error_line_and_stores_nothing(full_disk: FullDisk, tmp_path: Path) -> None:
    data = full_disk.data(tmp_path)
    assert run("import", str(GAMES), "--data", str(data))[0] == 0
    before = [h["game"] for h in Rollcall.open(data).headers()]
    code, output = full_disk.run("import", str(big_records(tmp_path / "big")), "--data", str(data))
    assert code == 1
    one_error_line(output)
    assert [h["game"] for h in Rollcall.open(data).headers()] == before
    code, output = run("verify", "--data", str(data))
    assert code == 0, output
    assert run("import", str(tmp_path / "big"), "--data", str(data))[0] == 0  # with room again: every game


def test_record_on_a_full_disk_ends_in_one_error_line_and_stores_nothing(full_disk: FullDisk, tmp_path: Path) -> None:
    data = full_disk.data(tmp_path)
    assert run("import", str(RECORD), "--data", str(data))[0] == 0
    code, output = full_disk.run("record", GAME, json.dumps({"type": "Noted", "text": "x" * 100_000}),
                                 "--data", str(data))
    assert code == 1
    one_error_line(output)
    assert len(Rollcall.open(data).stored_lines(GAME)) == 8
    assert run("verify", "--data", str(data))[0] == 0


def test_project_on_a_full_disk_ends_in_one_error_line_and_the_next_run_rebuilds(full_disk: FullDisk,
                                                                                 tmp_path: Path) -> None:
    data = full_disk.data(tmp_path)
    assert run("import", str(GAMES), "--data", str(data))[0] == 0
    code, output = full_disk.run("project", "--data", str(data))
    assert code == 1
    one_error_line(output)
    code, output = run("replay", GAME, "--json", "--data", str(data))  # with room again: not a dead end
    assert code == 0, output
    assert json.loads(output)["last_seq"] == 7


# --- a reader that goes away ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [("games",), ("games", "--json"), ("export", GAME), ("heads",)])
def test_a_reader_that_goes_away_ends_the_command_quietly(data: Path, command) -> None:
    child = subprocess.Popen([sys.executable, "-m", "cli.main", *command, "--data", str(data)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # `rollcall games | head -0`: nobody reads what it writes
    _, errors = child.communicate(timeout=60)
    assert errors == b"" and child.returncode == 141
