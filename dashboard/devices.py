"""The signed-in browsers of this dashboard's server, in its memory alone, shared by its pages (dashboard.session)
and its sign-in routes (dashboard.signin_routes): who each is, and when a person last used it.

A browser keeps only a random session id, in an ``HttpOnly`` cookie that its page scripts cannot read; the server
sets and clears it at the request of the page, which hands the browser a **ticket** (random, used once, soon
void) for it, never the session id itself. A device is used when a person taps or presses a key on one of its
pages (``Devices.used``, from the route the browser calls then); no page's run counts as use, so a page left open
that runs again by itself never keeps a device signed in.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

COOKIE = "rollcall_session"  # + the server's port: two dashboards of one host keep their own
TICKET_SECONDS = 120.0  # how long a ticket may wait for the browser to use it
MAX_TICKETS = 10_000  # tickets kept at most (the oldest go first)


@dataclass(frozen=True)
class Who:
    name: str
    role: str


@dataclass
class Device:
    """A signed-in browser: the key it presents and whose it is, in the server's memory alone."""

    key: str
    who: Who
    folder: str
    seen: float  # when a person last used it (the clock of Devices)


class Devices:
    """The signed-in browsers of this server by session id (the cookie's value: 256 random bits)."""

    IDLE, GONE = "idle", "gone"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._by_id: dict[str, Device] = {}

    def add(self, key: str, who: Who, folder: str, idle_seconds: float) -> str:
        """A new session id for the browser that presented ``key`` (those left alone meanwhile are dropped): signing
        in is a use."""
        sid = secrets.token_urlsafe(32)
        with self._lock:
            now = self.clock()
            for old in [s for s, d in self._by_id.items() if now - d.seen > idle_seconds]:
                del self._by_id[old]
            self._by_id[sid] = Device(key, who, folder, now)
        return sid

    def find(self, sid: str, folder: str, idle_seconds: float) -> tuple[Device | None, str | None]:
        """The device ``sid`` of the data folder ``folder``, or None and why: ``IDLE`` (no person used it for
        longer than ``idle_seconds``: it is signed out, and the page that finds so drops it) or ``GONE``. Looking is
        never a use."""
        with self._lock:
            found = self._by_id.get(sid)
            if found is None or found.folder != folder:
                return None, self.GONE
            if self.clock() - found.seen > idle_seconds:
                return None, self.IDLE
            return found, None

    def used(self, sid: str, idle_seconds: float) -> bool:
        """A person tapped or pressed a key on a page of device ``sid``: its idle time starts again, unless it was
        left alone too long already (then it stays signed out). Whether it is signed in."""
        with self._lock:
            found = self._by_id.get(sid)
            if found is None:
                return False
            now = self.clock()
            if now - found.seen > idle_seconds:
                del self._by_id[sid]
                return False
            found.seen = now
            return True

    def ids(self, idle_seconds: float) -> set[str]:
        """The session ids of the browsers signed in now (not left alone longer than ``idle_seconds``)."""
        with self._lock:
            now = self.clock()
            return {sid for sid, d in self._by_id.items() if now - d.seen <= idle_seconds}

    def drop(self, sid: str | None) -> None:
        with self._lock:
            self._by_id.pop(sid or "", None)


@dataclass(frozen=True)
class Ticket:
    """What a page asks the browser's cookie to become: ``set`` to ``sid``, ``clear`` it (if it still holds
    ``sid``), or, for another tab of the browser, the ``tab``'s way to learn the sign-in the cookie holds."""

    kind: str
    sid: str
    cookie: str
    made: float


class Tickets:
    """Tickets by their random value: each used once, void after TICKET_SECONDS."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._by_value: dict[str, Ticket] = {}

    def issue(self, kind: str, sid: str, cookie: str) -> str:
        value = secrets.token_urlsafe(24)
        with self._lock:
            now = self.clock()
            for old in [v for v, t in self._by_value.items() if now - t.made > TICKET_SECONDS]:
                del self._by_value[old]
            while len(self._by_value) >= MAX_TICKETS:
                del self._by_value[next(iter(self._by_value))]
            self._by_value[value] = Ticket(kind, sid, cookie, now)
        return value

    def redeem(self, value: object, kind: str) -> Ticket | None:
        """The ticket ``value`` of ``kind``, used now (None: unknown, used already, void, or of another kind)."""
        if not isinstance(value, str):
            return None
        with self._lock:
            found = self._by_value.pop(value, None)
        if found is None or found.kind != kind or self.clock() - found.made > TICKET_SECONDS:
            return None
        return found


DEVICES = Devices()  # this server's: its pages' runs and its routes share them
TICKETS = Tickets()


def cookie_name(port: object) -> str:
    return f"{COOKIE}_{port}"
