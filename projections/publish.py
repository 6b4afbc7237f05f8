"""Publishing the read models to readers: two DuckDB files written in turn, a link to the one readers open.

DuckDB lets one process hold a database file read-write, and while it does no other process can open that
file at all; a process that holds it read-only keeps every writer out. So the read models are two files,
``rollcall.a.duckdb`` and ``rollcall.b.duckdb`` (domain.settings.READ_FILES), and ``rollcall.read.duckdb``
is a symbolic link to the one readers open, the *published* file. The projector writes the other one, its
*target*: it projects into it what is new since the target's own tracking position, closes it (what it wrote
kept in the file's write-ahead log, which readers replay, until a checkpoint is worth it), and turns the link
to it (``flip``: a new link put in place with ``os.replace``, atomic). Readers that
opened the older file keep reading it undisturbed; the projector writes that file next, once the last of
them has let it go, and projects into it the step just published and whatever came since. So a publish
writes what changed (twice, once into each file), never a copy of the whole read models: the cost of an
event follows the event, not the store.

Readers (``open_published``) never see a file being written: a file is published only checkpointed and
closed, and the lock DuckDB takes keeps the projector out of a file any reader holds, and a reader out of
the file the projector holds (a reader that resolved the link just before a flip is told the file is
locked, and opens the link again).

A copy of the published file is made only where projecting would cost more: a target missing, far behind
(after a rebuild) or held by a reader longer than the projector waits (a long dump). The copy takes the
target's place as a new file (``replace_with_copy``), so a reader holding the old one keeps it. It is made by
a child process on purpose: DuckDB guards its file with a POSIX ``fcntl`` lock, and POSIX drops *all* of a
process's locks on a file as soon as that process closes *any* descriptor of it, so a copy made in the
projector would silently unlock a file the projector holds. For the same reason nothing in the projector
process may ``open()`` a read-model file itself (hashing, copying, ...).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from os import PathLike
from pathlib import Path

import duckdb
from i18n import _

PUBLISHED_CATALOG = "published"
OPEN_TRIES = 50  # a reader opens the link again this many times (10 ms apart) while the file it names is written

# The copy, made in a child process (see the module docstring: POSIX lock semantics): by the kernel where it can
# (shutil.copyfile: sendfile on Linux, a third of the time of a copy through the child's memory), then made
# durable before the copy is put in place.
_COPY = """\
import os, shutil, sys
def copy(src, dst):
    shutil.copyfile(src, dst)
    shutil.copymode(src, dst)
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
    """A child process that copies files on request, for a projector that may copy often (a follower): one
    process for every copy instead of a new one each time (see the module docstring for why the copy is never
    made in the projector itself)."""

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


def published_file(published_path: str | PathLike[str]) -> Path | None:
    """The file the link ``published_path`` names (None: no link there; an older Rollcall's plain copy is no
    link either)."""
    path = Path(published_path)
    try:
        name = os.readlink(path)
    except OSError:
        return None
    return path.parent / name


def flip(published_path: str | PathLike[str], target: str | PathLike[str]) -> None:
    """Point the link ``published_path`` at ``target`` (a file beside it, checkpointed and closed), atomically:
    a reader opens either the file before or ``target``, never nothing."""
    published, target = Path(published_path), Path(target)
    tmp = published.with_name(f".{published.name}.{os.getpid()}.link")
    tmp.unlink(missing_ok=True)
    os.symlink(target.name, tmp)  # relative: the data folder may be moved
    try:
        os.replace(tmp, published)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(published.parent)


def replace_with_copy(src: str | PathLike[str], dst: str | PathLike[str], copier: Copier | None = None) -> None:
    """Put a durable copy of ``src`` (a closed DuckDB file, with its write-ahead log) at ``dst`` as a new file:
    whoever holds the old one keeps it."""
    src, dst = Path(src), Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    os.close(fd)
    src_wal, dst_wal = _wal(src), _wal(dst)
    tmp_wal = Path(tmp_name + ".wal")
    try:
        copy = copier.copy if copier is not None else _copy_in_child
        copy(src, Path(tmp_name))
        if src_wal.exists():  # what the file holds beyond its last checkpoint
            copy(src_wal, tmp_wal)
        dst_wal.unlink(missing_ok=True)  # the old file's log is not the copy's
        os.replace(tmp_name, dst)
        if tmp_wal.exists():
            os.replace(tmp_wal, dst_wal)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        tmp_wal.unlink(missing_ok=True)
        raise
    _fsync_dir(dst.parent)


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def open_published(published_path: str | PathLike[str]) -> duckdb.DuckDBPyConnection:
    """Open the published read models read-only.

    The file is ATTACHed READ_ONLY to a fresh in-memory database and made the default catalog, so unqualified
    table names resolve to it and writes to it fail. (A plain ``duckdb.connect(path, read_only=True)`` would
    hand back DuckDB's cached instance for that path while an older connection is still open in this process,
    i.e. an older file, and never show new data.) A file the projector took between this reader's look at the
    link and its open is locked: the link is opened again.
    """
    path = Path(published_path)
    if not path.exists():
        raise FileNotFoundError(path)
    for attempt in range(OPEN_TRIES):
        conn = duckdb.connect(":memory:")
        try:
            conn.execute(f"ATTACH {_sql_string(str(path))} AS {PUBLISHED_CATALOG} (READ_ONLY)").fetchall()
            conn.execute(f"USE {PUBLISHED_CATALOG}").fetchall()
            return conn
        except duckdb.Error as exc:
            conn.close()
            if not locked(exc) or attempt == OPEN_TRIES - 1:
                raise
        except BaseException:
            conn.close()
            raise
        time.sleep(0.01)
    raise AssertionError("unreachable")  # untranslated: never reached


def locked(exc: duckdb.Error) -> bool:
    """Whether DuckDB refused a file because another process holds it (or, in this process, another database)."""
    text = str(exc).lower()
    return "lock" in text or "already attached" in text


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
    number, _space, reason = answer.partition(" ")
    said = _("publishing the read models for readers failed: {reason}").format(
        reason=reason if number.isdigit() else answer)
    return OSError(int(number) if number.isdigit() else 0, said, str(dst))


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
