"""`rollcall dashboard` stopped with SIGTERM (as a service manager or `kill` stops it) stops what it started:
the Streamlit server and the follower projector (their processes read from /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from processes import alive, children, until
from venue import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow,  # starts a dashboard server
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")]


def test_sigterm_stops_the_dashboards_server_and_its_follower(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PERSISTENCE_MODULE"} | {"PYTHONPATH": str(ROOT)}
    port = free_port()
    dashboard = subprocess.Popen([sys.executable, "-m", "cli.main", "dashboard", "--no-open", "--port", str(port),
                                  "--data", str(tmp_path / "data")], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def both() -> dict[int, str] | None:  # (a child forked but not yet started shows the dashboard's command)
            found = children(dashboard.pid)
            commands = " ".join(found.values())
            return found if "streamlit" in commands and "projections.follow" in commands else None

        started = until(both, 60, "the server and the follower did not start")
        dashboard.send_signal(signal.SIGTERM)
        assert dashboard.wait(timeout=60) is not None
        until(lambda: not any(alive(pid) for pid in started), 30,
              f"a child of the dashboard outlived it (of {sorted(started.values())})")
    finally:
        if dashboard.poll() is None:
            dashboard.kill()
            dashboard.wait()


def test_a_sigterm_while_the_server_starts_stops_the_server_too(tmp_path, monkeypatch) -> None:
    """The stop arrives after the server's process runs but before it is known (Popen not yet returned): a
    service manager's SIGTERM at the wrong moment must not leave a Streamlit server running unowned."""
    from cli import serve

    real, servers = subprocess.Popen, []

    def popen(args, **kwargs):
        process = real(args, **kwargs)
        if "streamlit" in args:
            servers.append(process)
            os.kill(os.getpid(), signal.SIGTERM)  # its handler runs now, before this call returns
        return process

    monkeypatch.setattr(serve.subprocess, "Popen", popen)
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    try:
        with pytest.raises(serve.typer.Exit):
            serve.serve(free_port(), tmp_path / "data")
        assert len(servers) == 1
        assert servers[0].poll() is not None, "the server outlived the dashboard that started it"
    finally:
        for process in servers:
            if process.poll() is None:
                process.kill()
                process.wait()
