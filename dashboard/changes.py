"""What changed, told to the open pages once per change: no page runs again on a timer to find out.

One watcher per server process (``Changes``, a feed read by a hub: broadcast.hub) looks at the store and the data
folder a few times a second, whoever has a page open, and announces each change as a small snapshot of one key:

- ``game:<stream id>`` — a game's last seq (an event stored by any device, ``rollcall record``, another machine on
  PostgreSQL);
- ``keys`` — the version of the store's keyring (a key added or revoked);
- ``published`` — when the read models were last published (projections.queries.published_version);
- ``lag`` — the read models' lag passed a step (LAG_STEPS, from BEHIND_SECONDS behind) or ended, or a cold start
  filled in another tenth of the older games;
- ``seen`` — what a spectator may see of the delayed tournaments changed (events come due with time alone); looked
  at only while a page follows it;
- ``device:<hash of a session id>`` — that signed-in browser was signed out (elsewhere, left alone, its key
  revoked).

Each page's parts mount a listener (``follow``, static/changes.js) with the keys they show and the value shown. The
browser holds one event stream to ``/rc/changes`` (dashboard/changes_routes.py) for the keys of every listener of
the page; a listener whose key moves past the value it was drawn at sets its trigger, which runs again the part it
is mounted in alone (a fragment) or the page (outside any fragment). A page left open while nothing changes runs
nothing: it costs the server an idle connection.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import orjson

from domain import settings

POLL_SECONDS = 0.1  # how often the one watcher looks at the store's last notification id and the data folder
SEEN_SECONDS = 1.0  # how often it reckons what spectators see of delayed tournaments (while a page follows it)
BEHIND_SECONDS = 5.0  # read models further behind than this are said on the pages
LAG_STEPS = (BEHIND_SECONDS, 10, 20, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400)  # the lag told at each
PAGE = 500  # notifications read at a time
PATH = "/rc/changes"


def game_key(game: str) -> str:
    from service.application import game_uuid

    return f"game:{game_uuid(game).hex}"


def device_key(sid: str) -> str:
    """The key of a signed-in browser: a hash of its session id (which never leaves the server's memory)."""
    return "device:" + hashlib.sha256(sid.encode()).hexdigest()[:32]


def behind_word(behind: float | None, filled: float | None) -> tuple:
    """The step of the read models' lag (LAG_STEPS: the pages run again to say it at each), and of a cold start's
    filling (in tenths)."""
    step = None if behind is None else sum(1 for s in LAG_STEPS if behind > s) or None
    return step, None if filled is None else int(10 * filled)


def _body(key: str, v: int, **more) -> bytes:
    return orjson.dumps({"key": key, "v": v, **more})


class Changes:
    """The watcher: a feed (projections.feeds.Feed's ``follow``) of what changed in ``folder``'s store, for a hub."""

    def __init__(self, folder: Path | None = None, devices=None, poll: float = POLL_SECONDS) -> None:
        self.folder, self.poll, self._devices = folder, poll, devices
        self.url = "changes"
        self.hub = None  # set by the hub's owner: the watcher reckons ``seen`` only while a page follows it
        self._app = None
        self._last = None  # the last notification id looked at
        self._published = None
        self._lag = None
        self._counter = 0  # the v of keys that are words, not numbers (lag, seen, device)
        self._signed_in: set[str] = set()
        self._seen = None
        self._seen_at = 0.0
        self.looks = 0  # looks made (the health route says it)

    def _next(self) -> int:
        self._counter = max(self._counter + 1, time.time_ns() // 1_000_000)  # increasing, across a restart too
        return self._counter

    def _store(self):
        if self._app is None:
            from service.application import Rollcall

            self._app = Rollcall.open(self._folder())
        return self._app

    def _folder(self) -> Path:
        return (self.folder or settings.data_dir()).resolve()

    def look(self) -> list[bytes]:
        """What changed since the last look (the first look: the store's last notification, nothing else)."""
        self.looks += 1
        out: list[bytes] = []
        out += self._stored()
        out += self._read_models()
        out += self._devices_gone()
        out += self._spectators()
        return out

    def _stored(self) -> list[bytes]:
        from domain.access import KEYRING_ID

        recorder = self._store().recorder
        last = recorder.max_notification_id() or 0
        if self._last is None or last <= self._last:
            self._last = last if self._last is None else max(self._last, last)
            return []
        newest: dict = {}
        start = self._last + 1
        while start <= last:
            batch = recorder.select_notifications(start, PAGE, stop=last)
            if not batch:
                break
            for note in batch:
                newest[note.originator_id] = note.originator_version
            start = batch[-1].id + 1
        self._last = last
        out = []
        for oid, version in newest.items():
            if oid == KEYRING_ID:
                out.append(_body("keys", version))
            else:
                out.append(_body(f"game:{oid.hex}", version - 1))  # event seq N is version N + 1
        return out

    def _read_models(self) -> list[bytes]:
        from projections.follow import filling, lag
        from projections.queries import published_version

        out = []
        folder = self._folder()
        try:
            published = published_version(folder)
        except FileNotFoundError:
            published = None
        if published is not None and published != self._published:
            out.append(_body("published", published))
        self._published = published
        word = behind_word(lag(folder), filling(folder))
        if word != self._lag:
            if self._lag is not None or word != (None, None):
                out.append(_body("lag", self._next()))
            self._lag = word
        return out

    def _devices_gone(self) -> list[bytes]:
        from dashboard.devices import DEVICES

        devices = self._devices or DEVICES
        try:
            idle = settings.idle_minutes() * 60
        except Exception:  # noqa: BLE001 - a bad setting: the default (said on the pages)
            idle = settings.DEFAULT_IDLE_MINUTES * 60
        now = devices.ids(idle)
        gone = self._signed_in - now
        self._signed_in = now
        return [_body(device_key(sid), self._next(), gone=True) for sid in gone]

    def _spectators(self) -> list[bytes]:
        if self.hub is None or "seen" not in self.hub.watchers:
            self._seen = None
            return []
        moment = time.monotonic()
        if self._seen is not None and moment - self._seen_at < SEEN_SECONDS:
            return []
        self._seen_at = moment
        from projections.queries import connect_read
        from projections.visibility import seen

        try:
            con = connect_read(self._folder())
        except OSError:
            return []
        try:
            now = seen(con, privileged=False)
        except Exception:  # noqa: BLE001 - read models being published: looked at again next time
            return []
        finally:
            con.close()
        if now == self._seen:
            return []
        first = self._seen is None
        self._seen = now
        return [] if first else [_body("seen", self._next())]  # (the first look: what the pages were drawn with)

    async def follow(self) -> AsyncIterator[bytes | None]:
        from projections.feeds import CAUGHT_UP

        await asyncio.to_thread(self.look)  # where things are now: only what changes after is told
        yield CAUGHT_UP
        while True:
            await asyncio.sleep(self.poll)
            for body in await asyncio.to_thread(self.look):
                yield body

    def close(self) -> None:
        if self._app is not None:
            self._app.close()
            self._app = None


def _hub():
    from broadcast.hub import Hub

    hub = Hub(WATCHER, say=lambda text: print(f"changes: {text}", flush=True))  # untranslated: the log's tag
    WATCHER.hub = hub
    return hub


WATCHER = Changes()  # this server process's one watcher, read by its one hub (started by the first page's stream)
HUB = _hub()


# --- a page's side -----------------------------------------------------------------------------------------

def latest(key: str) -> int:
    """The value this process's watcher last told of ``key`` (0: nothing told yet): what a page drawn now shows."""
    held = HUB.latest.get(key)
    return held.v if held is not None else 0


def follow(watch: dict[str, int], key: str) -> None:
    """Run again the fragment this is called in (outside any: the page) once a key of ``watch`` is told past the
    value given (what the part shows): nothing runs while nothing changes."""
    import streamlit as st

    from dashboard.components import component

    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    component("rollcall_changes", '<div class="rc-changes"></div>', "changes")(
        data={"url": f"/{base}{PATH}" if base else PATH, "watch": watch}, key=key,
        on_changed_change=lambda: None, height=0)
