"""What a Streamlit page runs, counted in the browser: each run of the page's script (or of a fragment alone) ends
with a ``script_finished`` message on the page's websocket (Streamlit's ForwardMsg), which is read here. And the
dashboard's watcher of changes (dashboard.changes), looked at through its health route."""

from __future__ import annotations

import json
import time
import urllib.request
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg


@dataclass
class Runs:
    """The runs a page's server made for it since ``reset``: of the whole page, of a fragment alone."""

    page: int = 0
    fragment: int = 0
    log: list[str] = field(default_factory=list)

    def reset(self) -> None:
        self.page = self.fragment = 0
        self.log.clear()

    @property
    def total(self) -> int:
        return self.page + self.fragment


def count_runs(page) -> Runs:
    """Count the runs of ``page`` from now on (call before it loads)."""
    runs = Runs()

    def received(payload) -> None:
        if isinstance(payload, str):
            return
        try:
            message = ForwardMsg.FromString(payload)
        except Exception:  # noqa: BLE001 - not a ForwardMsg: not a run's
            return
        if message.WhichOneof("type") != "script_finished":
            return
        if message.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
            runs.fragment += 1
            runs.log.append("fragment")
        elif message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            runs.page += 1
            runs.log.append("page")

    page.on("websocket", lambda ws: ws.on("framereceived", received))
    return runs


def watcher(base: str) -> dict:
    """The dashboard's watcher of changes: how many looks it made, how many event streams are open."""
    with urllib.request.urlopen(f"{base}/rc/changes/health", timeout=10) as answer:
        return json.loads(answer.read())


def looks_pass(base: str, looks: int, timeout: float = 120.0) -> None:
    """Wait until the watcher has looked ``looks`` times more (an interval measured by the server's own looks)."""
    from tests.processes import until

    target = watcher(base)["looks"] + looks
    until(lambda: watcher(base)["looks"] >= target, timeout, f"the watcher made {looks} looks")


def listening(page, timeout: float = 60_000) -> None:
    """The page's listener of changes holds its event stream open (static/changes.js)."""
    page.wait_for_function("() => window.rcChanges && window.rcChanges.source"
                           " && window.rcChanges.source.readyState === 1", timeout=timeout)


class Settling:
    """Whether a page's server is still at work for it, read from the page's websocket: a run asked for (a
    ``rerun_script`` the browser sent: a click, a field, a listener's trigger, the page's first run) stays asked for
    until a ``script_finished`` that is not one cut short for the next run, and the server says no script runs
    (``session_status_changed``). A page loaded again opens a new websocket, followed from then on: load it with
    :meth:`load`, which waits for that socket; nothing is settled before the new page's first run is over."""

    def __init__(self, page) -> None:
        self.page = page
        self.socket = None
        self.asked = False
        self.running = False
        self.ran = False  # a run of the page on this socket finished
        page.on("websocket", self._opened)

    def _opened(self, socket) -> None:
        if "_stcore/stream" not in socket.url:
            return
        self.socket, self.asked, self.running, self.ran = socket, False, False, False
        socket.on("framesent", lambda payload: self._sent(socket, payload))
        socket.on("framereceived", lambda payload: self._received(socket, payload))

    def _sent(self, socket, payload) -> None:
        if socket is not self.socket or isinstance(payload, str):
            return
        try:
            message = BackMsg.FromString(payload)
        except Exception:  # noqa: BLE001 - not a BackMsg
            return
        if message.WhichOneof("type") == "rerun_script":
            self.asked = True

    def _received(self, socket, payload) -> None:
        if socket is not self.socket or isinstance(payload, str):
            return
        try:
            message = ForwardMsg.FromString(payload)
        except Exception:  # noqa: BLE001 - not a ForwardMsg
            return
        kind = message.WhichOneof("type")
        if kind == "session_status_changed":
            self.running = message.session_status_changed.script_is_running
        elif kind == "script_finished" and message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            self.asked, self.ran = False, True

    @property
    def busy(self) -> bool:
        return self.socket is None or not self.ran or self.asked or self.running

    def load(self, url: str | None = None) -> None:
        """Open ``url`` in the page (None: load it again), its new websocket followed, and wait until it settled."""
        with self.page.expect_websocket(lambda socket: "_stcore/stream" in socket.url, timeout=90_000):
            if url is None:
                self.page.reload()
            else:
                self.page.goto(url)
        self.wait()

    def wait(self, timeout: float = 90_000) -> None:
        """Until the server has finished every run the page asked for and the page shows no run under way (no
        status widget, no element drawn stale)."""
        page = self.page
        quiet = ("() => !document.querySelector('[data-testid=stStatusWidget]')"
                 " && !document.querySelector('[data-stale=true]')")
        page.wait_for_function(quiet, timeout=timeout)  # (also lets the frames sent and received so far be heard)
        deadline = time.monotonic() + timeout / 1000
        while self.busy:
            left = deadline - time.monotonic()
            assert left > 0, "the page's server did not finish its run"
            socket = self.socket
            if socket is None:
                page.wait_for_event("websocket", timeout=left * 1000)
                continue
            try:
                socket.wait_for_event("framereceived", timeout=left * 1000)
            except Exception:  # noqa: BLE001 - the socket closed: the page loaded again (its new one is followed)
                if socket is self.socket:
                    page.wait_for_function(quiet, timeout=left * 1000)
        page.wait_for_function(quiet, timeout=timeout)
