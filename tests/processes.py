"""Processes seen from a test: the children of a process (read from /proc), whether one lives, waiting for a
condition, `rollcall` run as a person runs it, and which follower follows a data folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def children(pid: int) -> dict[int, str]:
    """pid -> command line of every living process whose parent is ``pid``."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            state = stat.rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        if parent == pid and state != "Z":
            found[int(entry.name)] = command
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def until(condition, timeout: float, what: str):
    """``condition()``'s first true value, looked at every 0.1 s; AssertionError(``what``) after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what} within {timeout:.0f} s")


def rollcall(*args: str, log: Path | None = None) -> subprocess.Popen:
    """``rollcall ARGS`` started from this checkout (the embedded store; its output in ``log``, else dropped)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PERSISTENCE_MODULE", "ROLLCALL_KEY")}
    env["PYTHONPATH"] = str(ROOT)
    out = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115 - the child holds it
    try:
        return subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    finally:
        if log is not None:
            out.close()


def stopped(process: subprocess.Popen, timeout: float = 60) -> int:
    """``process`` stopped as a service manager stops it (SIGTERM; killed after ``timeout``): its exit status."""
    if process.poll() is None:
        process.terminate()
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


def following(data: Path) -> int | None:
    """The pid of the follower that last found the data folder's read models up to date (its status file)."""
    from domain.settings import FOLLOWER_FILE

    try:
        return json.loads((data / FOLLOWER_FILE).read_bytes())["pid"]
    except (OSError, ValueError, KeyError):
        return None
