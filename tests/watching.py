"""A spectator of a broadcast front end as a program is one (no browser): one server-sent event stream
(``/feed?key=…``, broadcast/app.py) read in a thread of its own, every snapshot received kept in order and the
latest of each key at hand, for the tests of the front ends (tests/integration/test_broadcast_front_ends.py).

The request is HTTP/1.0, so the stream comes unchunked and ends when the connection does: a front end killed ends
its spectators' streams, as a browser's EventSource sees it. ``deflate``: the client takes deflated frames, as a
browser does (``Accept-Encoding: deflate``), and inflates them."""

from __future__ import annotations

import socket
import threading
import time
import zlib
from urllib.parse import urlencode

import orjson


class Watch:
    def __init__(self, address: str, port: int, keys: list[str], timeout: float = 10.0,
                 deflate: bool = False) -> None:
        self.address, self.port = address, port
        self.snapshots: list[dict] = []  # every snapshot received, in order
        self.latest: dict[str, dict] = {}
        self.status: int | None = None
        self.encoding: str | None = None  # the stream's Content-Encoding
        self.problems: list[str] = []  # frames that could not be taken
        self.ended = threading.Event()
        self._changed = threading.Condition()
        self._sock = socket.create_connection((address, port), timeout)
        self._sock.settimeout(None)
        query = urlencode([("key", k) for k in keys])
        accept = "Accept-Encoding: deflate\r\n" if deflate else ""
        self._sock.sendall(f"GET /feed?{query} HTTP/1.0\r\nHost: {address}:{port}\r\n{accept}\r\n".encode())
        self._thread = threading.Thread(target=self._read, name=f"watch {address}:{port}", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        raw, buffer, head, inflate = b"", b"", True, None
        try:
            while True:
                data = self._sock.recv(65536)
                if not data:
                    return
                if head:
                    raw += data
                    if b"\r\n\r\n" not in raw:
                        continue
                    status, data = raw.split(b"\r\n\r\n", 1)
                    lines = status.decode("latin-1").split("\r\n")
                    self.status, head = int(lines[0].split(" ", 2)[1]), False
                    headers = {k.strip().lower(): v.strip() for k, _s, v in (x.partition(":") for x in lines[1:])}
                    self.encoding = headers.get("content-encoding")
                    if self.encoding == "deflate":
                        inflate = zlib.decompressobj()
                buffer += inflate.decompress(data) if inflate is not None else data
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    self._take(event)
        except OSError:
            return
        finally:
            with self._changed:
                self.ended.set()
                self._changed.notify_all()

    def _take(self, event: bytes) -> None:
        fields = dict(line.split(b": ", 1) for line in event.split(b"\n") if b": " in line and not
                      line.startswith(b":"))
        if fields.get(b"event") != b"snapshot":
            return
        found = orjson.loads(fields[b"data"])
        with self._changed:
            if "kept" in found:  # the parts as they were in the version before (broadcast.hub.KEPT)
                prior = self.latest.get(found["key"])
                if prior is None or prior["v"] != found["prior"]:
                    self.problems.append(f"{found['key']} v{found['v']} keeps parts of v{found['prior']}, "
                                         f"not of v{prior and prior['v']} received")
                    return
                found = {**found, **{part: prior[part] for part in found["kept"]}}
            self.snapshots.append(found)
            self.latest[found["key"]] = found
            self._changed.notify_all()

    def until(self, condition, timeout: float, what: str):
        """``condition(self)``'s first true value, looked at as each snapshot arrives; AssertionError after
        ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                assert not self.problems, self.problems
                if found := condition(self):
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{what} within {timeout:.0f} s (from {self.address}:{self.port}; "
                                         f"{len(self.snapshots)} snapshots received, stream "
                                         f"{'ended' if self.ended.is_set() else 'open'})")
                self._changed.wait(left)

    def seq(self, key: str) -> int | None:
        found = self.latest.get(key)
        return None if found is None else found.get("seq")

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        self._thread.join(5)
