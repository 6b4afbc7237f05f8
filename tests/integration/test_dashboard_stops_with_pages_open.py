"""`rollcall dashboard` stops when told although pages are still open: the server waits for its connections to end,
and the stream of what changed that every open page holds (/rc/changes) never ends by itself, nor does a
connection of a tablet that left the venue's wifi without closing it. Told to stop, the server is given a few
seconds (cli.serve.STOP_SECONDS), then told again, which ends them."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import pytest
from processes import alive, children, until

from cli import serve
from tests.venue import dashboard

pytestmark = [pytest.mark.slow,  # starts a dashboard server
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")]


def open_stream(port: int) -> socket.socket:
    """A page's stream of what changed, opened and left open (its first bytes read: the server streams it)."""
    stream = socket.create_connection(("127.0.0.1", port), timeout=30)
    stream.sendall(b"GET /rc/changes?key=keys HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
    head = stream.recv(4096)
    assert head.startswith(b"HTTP/1.1 200"), head
    return stream


def test_sigterm_stops_the_dashboard_while_a_page_holds_its_stream_of_changes(tmp_path) -> None:
    with dashboard(tmp_path / "data") as served:
        started = until(lambda: {p: c for p, c in children(served.process.pid).items() if "streamlit" in c}, 30,
                        "the server did not start")
        streams = [open_stream(served.port) for _ in range(2)]
        try:
            asked = time.monotonic()
            served.process.send_signal(signal.SIGTERM)
            served.process.wait(timeout=getattr(serve, "STOP_SECONDS", 5.0) * 2 + 30)
            took = time.monotonic() - asked
            until(lambda: not any(alive(pid) for pid in started), 10, "the server outlived the dashboard")
        finally:
            for stream in streams:
                stream.close()
            for pid in started:  # (a server left running by a dashboard that did not stop it)
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
    print(f"stopped in {took:.1f} s with 2 streams open")
    assert served.process.returncode == 0
