"""Publishing a read-only copy of the projector's DuckDB file.

DuckDB lets one process hold a database file read-write, and while it does no
other process can open that file at all. So the projector keeps the *live*
file, and after a batch calls ``publish()``: CHECKPOINT (the WAL is folded into
the file), copy the file to a temp file beside the published path, and
``os.replace`` it over the published path. Readers (the dashboard) open the
published copy with ``open_published()``; a reader that still holds an older
copy keeps reading that old inode undisturbed and sees new data when it opens
again.

Call ``publish()`` from the thread that writes the live file, between
transactions: a write from another thread during the copy could tear it.

The copy is made by a child process on purpose. DuckDB guards its file with a
POSIX ``fcntl`` lock, and POSIX drops *all* of a process's locks on a file as
soon as that process closes *any* descriptor of it: a plain ``shutil.copyfile``
in the projector would silently unlock the live file, letting another process
open it read-write beside the projector. For the same reason nothing in the
projector process may ``open()`` the live file itself (hashing, copying, ...).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from os import PathLike
from pathlib import Path

import duckdb

PUBLISHED_CATALOG = "published"

# The copy, made in a child process (see the module docstring: POSIX lock semantics): by the kernel where it can
# (shutil.copyfile: sendfile on Linux, a third of the time of a copy through the child's memory), then made
# durable before the copy is put in place.
_COPY = """\
import os, shutil, sys
def copy(src, dst):
    shutil.copyfile(src, dst)
    fd = os.open(dst, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
"""
_COPY_SCRIPT = _COPY + """\
try:
    copy(sys.argv[1], sys.argv[2])
except OSError as exc:
    print(exc.errno or 0, exc.strerror or exc, file=sys.stderr)
    sys.exit(1)
"""


class Copier:
    """A child process that copies files on request, for a projector that publishes often (a follower):
    one process for every copy instead of a new one each time (see the module docstring for why the copy
    is never made in the projector itself)."""

    SCRIPT = _COPY + """\
for line in sys.stdin:
    src, dst = line.rstrip("\\n").split("\\0")
    try:
        copy(src, dst)
        print("ok", flush=True)
    except OSError as exc:
        print("error", exc.errno or 0, exc.strerror or exc, flush=True)
"""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable or "python3", "-I", "-S", "-c", self.SCRIPT],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def copy(self, src: Path, dst: Path) -> None:
        self.proc.stdin.write(f"{src}\0{dst}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if answer != "ok":
            raise _copy_failed(dst, answer.removeprefix("error ") or "0 the copier stopped")

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:  # the copier died (killed, or a copy it could not write)
            pass
        self.proc.wait()


def publish(
    conn: duckdb.DuckDBPyConnection,
    live_path: str | PathLike[str],
    published_path: str | PathLike[str],
    copier: Copier | None = None,
) -> Path:
    """Atomically replace ``published_path`` with a copy of ``live_path``.

    ``conn`` is the writer's connection to ``live_path``; ``copier``: a long-lived copying process (else a
    child process is started for this copy). Returns the published path.
    """
    live = Path(live_path)
    published = Path(published_path)
    cur = conn.cursor()
    try:
        cur.execute("CHECKPOINT").fetchall()
    finally:
        cur.close()
    wal = live.with_name(live.name + ".wal")
    if wal.exists() and wal.stat().st_size > 0:
        msg = f"CHECKPOINT left {wal} non-empty; not publishing a stale copy"
        raise RuntimeError(msg)

    published.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(
        prefix=f".{published.name}.", suffix=".tmp", dir=published.parent
    )
    os.close(fd)
    try:
        (copier.copy if copier is not None else _copy_in_child)(live, Path(tmp_name))
        os.replace(tmp_name, published)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(published.parent)
    return published


def open_published(published_path: str | PathLike[str]) -> duckdb.DuckDBPyConnection:
    """Open the published copy read-only.

    The copy is ATTACHed READ_ONLY to a fresh in-memory database and made the
    default catalog, so unqualified table names resolve to it and writes to it
    fail. (A plain ``duckdb.connect(path, read_only=True)`` would hand back
    DuckDB's cached instance for that path while an older connection is still
    open in this process, i.e. the *replaced* file, and never show new data.)
    """
    path = Path(published_path)
    if not path.exists():
        raise FileNotFoundError(path)
    conn = duckdb.connect(":memory:")
    try:
        conn.execute(
            f"ATTACH {_sql_string(str(path))} AS {PUBLISHED_CATALOG} (READ_ONLY)"
        ).fetchall()
        conn.execute(f"USE {PUBLISHED_CATALOG}").fetchall()
    except BaseException:
        conn.close()
        raise
    return conn


def _copy_in_child(src: Path, dst: Path) -> None:
    python = sys.executable or "python3"
    result = subprocess.run(
        [python, "-I", "-S", "-c", _COPY_SCRIPT, str(src), str(dst)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise _copy_failed(dst, result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "0 no reason")


def _copy_failed(dst: Path, answer: str) -> OSError:
    """The copier's ``ERRNO REASON`` as an OSError of one line (a full disk: errno 28, ENOSPC)."""
    number, _, reason = answer.partition(" ")
    return OSError(int(number) if number.isdigit() else 0, f"publishing the read models for readers failed: "
                   f"{reason if number.isdigit() else answer}", str(dst))


def _sql_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # not supported everywhere (e.g. Windows)
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
