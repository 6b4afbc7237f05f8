"""A faulty link for the venue tests: a user-space TCP proxy (asyncio, in a thread of its own) between the devices'
network namespace and the dashboard, as a venue's wifi is between a tablet and the laptop. These machines' kernel
has no ``netem``, so the faults are made here: each chunk is delayed at random, a connection now and then stalls
for seconds or is cut (reset) at random, all from one seed. A test can also take the server away (``down``: every
connection cut, new ones refused until ``up``), hold every answer for a while (``hold_answers``: the connection
stays, the server's bytes wait), or lose the answer to the next request outright (``lose_next_answer``: the
request reaches the server, nothing comes back, the connection is cut).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

CHUNK = 65536


@dataclass
class Faults:
    """How faulty the link is: the odds of each fault per chunk and how long it lasts (seconds)."""

    delay: tuple[float, float] = (0.0, 0.12)
    stall_odds: float = 0.03
    stall: tuple[float, float] = (0.5, 2.5)
    cut_odds: float = 0.01


@dataclass
class Counts:
    connections: int = 0
    cuts: int = 0
    stalls: int = 0
    refused: int = 0
    lost_answers: int = 0


@dataclass
class FaultyLink:
    """A proxy listening on ``listen`` (address, port) and forwarding to ``target``; faulty while ``faulty``."""

    listen: tuple[str, int]
    target: tuple[str, int]
    seed: int = 1
    faults: Faults = field(default_factory=Faults)
    faulty: bool = False
    counts: Counts = field(default_factory=Counts)
    sock: socket.socket | None = None  # a listening socket made elsewhere (tests.netns.listening_socket), or None

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._down = False
        self._held_until = 0.0
        self._lose_next = False

    # --- what a test does -----------------------------------------------------------------------------
    def down(self) -> None:
        """The server is lost: every connection cut, new ones refused."""
        self._down = True
        self._call(self._cut_all)

    def up(self) -> None:
        self._down = False

    def hold_answers(self, seconds: float) -> None:
        """The server's bytes wait ``seconds`` before they go on (the connection stays open)."""
        self._held_until = time.monotonic() + seconds

    def lose_next_answer(self) -> None:
        """The next message a page sends on its live connection (the websocket: a tap) reaches the server; its answer
        never comes back, and the connection is cut."""
        self._lose_next = True

    # --- the proxy ---------------------------------------------------------------------------------------
    def _call(self, fn) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(fn)

    def _cut_all(self) -> None:
        for pair in list(self._links):
            for writer in pair:
                _reset(writer)
        self._links.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._down:
            self.counts.refused += 1
            _reset(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            _reset(writer)
            return
        self.counts.connections += 1
        pair = (writer, up_writer)
        self._links.add(pair)
        state = {"losing": False, "websocket": None}
        try:
            await asyncio.gather(self._pump(reader, up_writer, pair, state, upstream=True),
                                 self._pump(up_reader, writer, pair, state, upstream=False))
        finally:
            self._links.discard(pair)
            for w in pair:
                with contextlib.suppress(Exception):
                    w.close()

    async def _pump(self, reader, writer, pair, state, *, upstream: bool) -> None:
        try:
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    with contextlib.suppress(Exception):
                        writer.write_eof()
                    return
                if self._down or pair not in self._links:
                    return
                if upstream and state["websocket"] is None:  # the first request says what the connection is
                    state["websocket"] = b"upgrade: websocket" in data[:4096].lower()
                if upstream and self._lose_next and state["websocket"] and not data.startswith(b"GET "):
                    self._lose_next, state["losing"] = False, True  # this request goes; its answer will not
                    self.counts.lost_answers += 1
                if not upstream and state["losing"]:  # the server answers: the answer is lost, the link cut after
                    if not state.get("cutting"):
                        state["cutting"] = True
                        asyncio.get_running_loop().call_later(2.0, lambda: self._cut(pair))
                    continue
                if not upstream:
                    while time.monotonic() < self._held_until:
                        await asyncio.sleep(0.05)
                if self.faulty:
                    await asyncio.sleep(self._random.uniform(*self.faults.delay))
                    if self._random.random() < self.faults.stall_odds:
                        self.counts.stalls += 1
                        await asyncio.sleep(self._random.uniform(*self.faults.stall))
                    if self._random.random() < self.faults.cut_odds:
                        self._cut(pair)
                        return
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError, asyncio.CancelledError):
            self._cut(pair)

    def _cut(self, pair) -> None:
        if pair in self._links:
            self.counts.cuts += 1
            self._links.discard(pair)
        for writer in pair:
            _reset(writer)

    def _run(self, started: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop

        async def serve() -> None:
            if self.sock is not None:
                self._server = await asyncio.start_server(self._accept, sock=self.sock)
            else:
                self._server = await asyncio.start_server(self._accept, *self.listen, reuse_address=True)
            started.set()

        loop.run_until_complete(serve())
        loop.run_forever()
        self._server.close()
        self._cut_all()
        loop.run_until_complete(asyncio.sleep(0.1))
        loop.close()


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close a connection with a reset (as a link that drops does), not a polite end."""
    sock = writer.get_extra_info("socket")
    with contextlib.suppress(Exception):
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()


@contextmanager
def faulty_link(listen_address: str, target: tuple[str, int], *, seed: int = 1,
                sock: socket.socket | None = None) -> Iterator[FaultyLink]:
    """A FaultyLink on a free port of ``listen_address``, or on the listening socket ``sock`` (faults off until the
    test turns them on)."""
    if sock is not None:
        listen = sock.getsockname()[:2]
    else:
        with socket.socket() as probe:
            probe.bind((listen_address, 0))
            listen = (listen_address, probe.getsockname()[1])
    link = FaultyLink(listen, target, seed=seed, sock=sock)
    started = threading.Event()
    thread = threading.Thread(target=link._run, args=(started,), daemon=True)
    thread.start()
    if not started.wait(10):
        raise RuntimeError("the faulty link did not start")
    try:
        yield link
    finally:
        link._loop.call_soon_threadsafe(link._loop.stop)
        thread.join(timeout=10)
