"""One front end's share of the broadcast: the feed read once, the latest snapshot of every key held, each new one
sent to the spectators who follow it.

A spectator subscribes to a few keys (``subscribe``: a round, a tournament, a table and its board); a snapshot
that names others in ``follow`` (a round its tables, a tournament its latest round) brings those too, and drops
them when it stops naming them. Each snapshot is framed as a server-sent event once, whoever receives it
(``event: snapshot``; a key no longer followed: ``event: gone``), and put in each follower's queue: a spectator
costs a queue put per snapshot it follows, nothing per event it does not. A spectator whose queue fills (a
connection that stalls) is let go: its browser connects again and is sent what it follows anew.

A table's snapshot carries its board's picture (about 33 kB for a Tornscape table), and a front end's spectators'
bandwidth is what limits how many one holds. So a spectator is sent a snapshot whole once (when it starts to follow
its key), then each new one without the large parts (KEPT) that are as they were in the one before: such a frame
names them in ``kept`` and the version they are kept from in ``prior`` (a note or a roll leaves the picture as it
was: 0.6 kB instead of 33). Every follower of a key was sent the version held before, so each frame is made once
for all of them. A spectator whose browser takes ``deflate`` is sent each frame deflated, also once for all
(``pack``: 5.5 kB for a whole table).

The feed is read by :meth:`Hub.run`: the latest of every key first (a front end that starts late catches up),
then each change; when the feed is lost it is read again after a pause (doubling to RETRY_MAX), and what was
missed arrives with the latest. A snapshot older than the one held (``v``) is ignored. ``make`` (the dashboard's
own front end only) makes a snapshot the follower has not made, from the read models, when a spectator asks for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import orjson

from projections.feeds import CAUGHT_UP, Feed, FeedLost

QUEUE = 512  # frames a spectator may have waiting before it is let go
MAX_KEYS = 64  # keys one subscription may name
FOLLOW_DEPTH = 3  # index/tournament -> round -> tables
PING_SECONDS = 20.0  # a comment sent to every spectator this often, so that a dead connection is found
RETRY_FIRST, RETRY_MAX = 0.5, 10.0
GONE, CLOSE = b"gone", b""
KEPT = ("card", "picture")  # a snapshot's large parts, left out of a frame when as they were in the one before


def frame(body: bytes) -> bytes:
    return b"event: snapshot\ndata: " + body + b"\n\n"


def gone_frame(key: str) -> bytes:
    return b"event: gone\ndata: " + orjson.dumps({"key": key}) + b"\n\n"


PING = b": ping\n\n"
ZLIB_HEADER = b"\x78\x9c"  # a deflated stream's first two bytes (RFC 1950), before its first packed frame


def pack(data: bytes) -> bytes:
    """``data`` deflated by itself and ended by a full flush: packed frames following ZLIB_HEADER, any number in
    any order, make one valid deflated stream (none refers to another's bytes), so a frame is deflated once
    however many spectators receive it."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)


PING_PACKED = pack(PING)


@dataclass
class Held:
    v: int
    frame: bytes
    follow: tuple[str, ...]
    received: float  # when this front end got it (time.time())
    large: dict = field(default_factory=dict)  # its KEPT parts
    _packed: bytes = b""

    @property
    def packed(self) -> bytes:
        """The frame deflated (made once, when a spectator who takes it first needs it)."""
        if not self._packed:
            self._packed = pack(self.frame)
        return self._packed


@dataclass(eq=False)
class Spectator:
    """One open event stream: the keys asked for, what they bring (``keys``), and its frames waiting."""

    asked: tuple[str, ...]
    deflate: bool = False  # sent deflated frames (its browser takes them)
    keys: set[str] = field(default_factory=set)
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(QUEUE))
    closed: bool = False

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:  # stalled: let go (its browser connects again and catches up)
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(CLOSE)

    async def frames(self) -> bytes:
        """The frames waiting, at least one (CLOSE when let go)."""
        first = await self.queue.get()
        if first is CLOSE or self.queue.empty():
            return first
        out = [first]
        while not self.queue.empty():
            nxt = self.queue.get_nowait()
            if nxt is CLOSE:
                self.closed = True
                break
            out.append(nxt)
        return b"".join(out)


class Hub:
    def __init__(self, feed: Feed, make: Callable[[str], Awaitable[bytes | None]] | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.feed, self.make = feed, make
        self.say = say or (lambda text: print(f"broadcast: {text}", file=sys.stderr, flush=True))  # untranslated: the log's tag
        self.latest: dict[str, Held] = {}
        self.watchers: dict[str, set[Spectator]] = {}
        self.spectators: set[Spectator] = set()
        self.caught_up = asyncio.Event()
        self.connected = False
        self.received = 0  # snapshots read from the feed
        self._making: set[str] = set()
        self._tasks: list[asyncio.Task] = []

    # --- the feed -----------------------------------------------------------------------------------
    def start(self) -> Hub:
        """Read the feed and ping the spectators, in the running event loop, until ``stop``."""
        if not self._tasks:
            self._tasks = [asyncio.ensure_future(self.run()), asyncio.ensure_future(self._ping())]
        return self

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        for spectator in list(self.spectators):
            spectator.send(CLOSE)

    async def run(self) -> None:
        failures = 0
        while True:
            try:
                async for body in self.feed.follow():
                    if body is CAUGHT_UP:
                        if failures:
                            self.say(f"the feed {self.feed.url} answers again: caught up")
                        failures = 0
                        self.connected = True
                        self.caught_up.set()
                    else:
                        self.apply(body)
                raise FeedLost(f"{self.feed.url}: the feed ended")
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - FeedLost, or anything a client library raises
                self.connected = False
                failures += 1
                delay = min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MAX)
                if failures == 1 or delay == RETRY_MAX:
                    self.say(f"the feed {self.feed.url} is lost ({' '.join(str(exc).split())[:200]}); reading it "
                             f"again in {delay:g} s (spectators are shown what was held)")
                await asyncio.sleep(delay)

    def apply(self, body: bytes) -> bool:
        """Take one snapshot in: held and sent to its followers unless one as new is held already."""
        try:
            found = orjson.loads(body)
            key, v = str(found["key"]), int(found["v"])
            follow = tuple(str(k) for k in found.get("follow") or ())
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return False
        held = self.latest.get(key)
        if held is not None and held.v >= v:
            return False
        self.received += 1
        large = {part: found[part] for part in KEPT if part in found}
        now = self.latest[key] = Held(v, frame(body), follow, time.time(), large)
        watching = self.watchers.get(key, ())
        if watching:
            same = [part for part, value in large.items() if held is not None and held.large.get(part) == value]
            sent = Held(v, frame(orjson.dumps({**{k: x for k, x in found.items() if k not in same}, "kept": same,
                                               "prior": held.v})), follow, now.received) if same else now
            for spectator in list(watching):
                spectator.send(sent.packed if spectator.deflate else sent.frame)
        if held is None or held.follow != follow:
            for spectator in list(watching):
                self._refollow(spectator)
        return True

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_SECONDS)
            for spectator in list(self.spectators):
                spectator.send(PING_PACKED if spectator.deflate else PING)

    # --- the spectators --------------------------------------------------------------------------------
    def subscribe(self, keys: list[str], deflate: bool = False) -> Spectator:
        """A spectator following ``keys`` (and what they follow); it is sent the latest of each at once (deflated
        frames if ``deflate``)."""
        spectator = Spectator(tuple(dict.fromkeys(keys))[:MAX_KEYS], deflate)
        self.spectators.add(spectator)
        self._refollow(spectator)
        return spectator

    def unsubscribe(self, spectator: Spectator) -> None:
        spectator.closed = True
        self.spectators.discard(spectator)
        for key in spectator.keys:
            self._forget(spectator, key)
        spectator.keys = set()

    def _forget(self, spectator: Spectator, key: str) -> None:
        watching = self.watchers.get(key)
        if watching is not None:
            watching.discard(spectator)
            if not watching:
                del self.watchers[key]

    def closure(self, asked: tuple[str, ...]) -> set[str]:
        """The keys asked for and what their snapshots follow, FOLLOW_DEPTH deep."""
        found, layer = set(asked), list(asked)
        for _depth in range(FOLLOW_DEPTH):
            layer = [k for key in layer if key in self.latest for k in self.latest[key].follow if k not in found]
            found.update(layer)
        return found

    def _refollow(self, spectator: Spectator) -> None:
        if spectator.closed:
            return
        now = self.closure(spectator.asked)
        for key in spectator.keys - now:
            self._forget(spectator, key)
            spectator.send(pack(gone_frame(key)) if spectator.deflate else gone_frame(key))
        added = [k for k in now if k not in spectator.keys]
        spectator.keys = now
        for key in added:
            self.watchers.setdefault(key, set()).add(spectator)
        for key in sorted(added, key=lambda k: (k not in spectator.asked, k)):
            held = self.latest.get(key)
            if held is not None:
                spectator.send(held.packed if spectator.deflate else held.frame)
            elif self.make is not None and key not in self._making:
                self._making.add(key)
                asyncio.ensure_future(self._made(key))

    async def _made(self, key: str) -> None:
        try:
            await self.caught_up.wait()  # what the feed holds first: the follower's snapshot, if it made one
            body = None if key in self.latest else await self.make(key)
        except Exception as exc:  # noqa: BLE001 - the page waits for the follower's snapshot instead
            self.say(f"{key} could not be made ({' '.join(str(exc).split())[:200]})")
            body = None
        finally:
            self._making.discard(key)
        if body is not None and key not in self.latest:
            self.apply(body)
