"""`rollcall dashboard` stopped with SIGTERM (as a service manager or `kill` stops it) stops what it started:
the Streamlit server and the follower projector (their processes read from /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli.options import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


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
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what} within {timeout:.0f} s")


def test_sigterm_stops_the_dashboards_server_and_its_follower(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PERSISTENCE_MODULE"} | {"PYTHONPATH": str(ROOT)}
    port = free_port(8700)
    dashboard = subprocess.Popen([sys.executable, "-m", "cli.main", "dashboard", "--no-open", "--port", str(port),
                                  "--data", str(tmp_path / "data")], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started = until(lambda: both if len(both := children(dashboard.pid)) >= 2 else None, 60,
                        "the server and the follower did not start")
        assert any("streamlit" in command for command in started.values())
        assert any("projections.follow" in command for command in started.values())
        dashboard.send_signal(signal.SIGTERM)
        assert dashboard.wait(timeout=60) is not None
        until(lambda: not any(alive(pid) for pid in started), 30, "a child of the dashboard outlived it")
    finally:
        if dashboard.poll() is None:
            dashboard.kill()
            dashboard.wait()
