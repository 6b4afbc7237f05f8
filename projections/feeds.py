"""Where the broadcast's snapshots go (projections.spectators): the data folder's own feed, Redis, NATS.

The follower puts each snapshot that changed into every feed (``publish``, from its own thread); a front end —
the dashboard's own routes, or ``rollcall broadcast`` on another machine — reads one (``follow``, asyncio): the
latest snapshot of every key first (a front end that starts late, or lost the feed, catches up so), then
``CAUGHT_UP``, then each snapshot as it is published. A feed keeps the latest snapshot of every key:

- :class:`FolderFeed`, ``<data>/broadcast/``: one file a key (written whole, then put in place) and a ``version``
  file the follower rewrites after each publish; a reader looks at that one file's version a few times a second
  and reads the snapshots whose files changed. The embedded default: one machine, no server.
- :class:`RedisFeed`, ``redis://HOST:PORT[/DB][?name=NAME]``: a hash ``rollcall:NAME:snapshots`` (key → latest)
  and a pub/sub channel of the same name carrying each snapshot as it is published. A reader subscribes, then
  reads the hash: nothing published meanwhile is missed (a snapshot older than the one held is ignored, by ``v``).
- :class:`NatsFeed`, ``nats://HOST:PORT[?name=NAME]``: a JetStream key-value bucket ``rollcall_NAME`` (one
  value kept a key); a reader watches every key, which delivers the latest of each, then the changes.

A feed that cannot be reached raises :class:`FeedLost`; the follower publishes everything again once it can
(``intact`` says whether a feed still holds what was published: a Redis restarted keeps nothing).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import orjson

CAUGHT_UP = None  # what ``follow`` yields once it has given the latest of every key
DEFAULT_NAME = "rollcall"
POLL_SECONDS = 0.1  # how often a reader of the folder's feed looks at its version file
TIMEOUT = 5.0  # seconds a publish or a connection may take before the feed is taken as lost


class FeedLost(ConnectionError):
    """The feed's server does not answer (or the connection to it broke)."""


def identity(snapshot: bytes) -> tuple[str, int]:
    """(key, v) of a snapshot (projections.spectators.encoded)."""
    found = orjson.loads(snapshot)
    return found["key"], int(found["v"])


def _name(url: str) -> str:
    """The broadcast's name in a feed's URL (``?name=``; default ``rollcall``): one server may carry several."""
    found = parse_qs(urlsplit(url).query).get("name", [DEFAULT_NAME])[0]
    return "".join(c for c in found if c.isalnum() or c in "-_")[:64] or DEFAULT_NAME


class Feed:
    """A feed of snapshots: ``publish`` (the follower), ``follow`` (a front end), ``intact``, ``close``."""

    url = ""

    def publish(self, snapshots: list[tuple[str, bytes]]) -> None:
        raise NotImplementedError

    def intact(self, count: int) -> bool:
        """Whether the feed holds at least ``count`` snapshots (the follower published that many keys)."""
        return True

    def follow(self) -> AsyncIterator[bytes | None]:
        raise NotImplementedError

    def close(self) -> None:
        pass


# --- the data folder's own ------------------------------------------------------------------------

class FolderFeed(Feed):
    VERSION = "version"

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)
        self.url = str(self.folder)
        self.version = 0

    def path(self, key: str) -> Path:
        """A key's file: named by the key's digest (ids may be long, or not fit a file name)."""
        return self.folder / f"{hashlib.sha256(key.encode()).hexdigest()[:40]}.json"

    def publish(self, snapshots: list[tuple[str, bytes]]) -> None:
        if not snapshots:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        for key, body in snapshots:
            _write(self.path(key), body)
        self.version += 1
        _write(self.folder / self.VERSION, f"{os.getpid()} {self.version}".encode())

    def intact(self, count: int) -> bool:
        try:
            return sum(1 for p in self.folder.iterdir() if p.suffix == ".json") >= count
        except OSError:
            return False

    def latest(self) -> dict[Path, tuple[int, int]]:
        """Every snapshot file with its (modification time, size)."""
        found = {}
        with contextlib.suppress(FileNotFoundError):
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if entry.name.endswith(".json"):
                        with contextlib.suppress(FileNotFoundError):
                            info = entry.stat()
                            found[Path(entry.path)] = (info.st_mtime_ns, info.st_size)
        return found

    async def follow(self) -> AsyncIterator[bytes | None]:
        known: dict[Path, tuple[int, int]] = {}
        looked: tuple | None = None
        first = True
        while True:
            version = _stat(self.folder / self.VERSION)
            if first or version != looked:
                looked = version
                now = await asyncio.to_thread(self.latest)
                changed = [p for p, mark in now.items() if known.get(p) != mark]
                known = now
                for path in changed:
                    body = await asyncio.to_thread(_read, path)
                    if body:
                        yield body
                if first:
                    first = False
                    yield CAUGHT_UP
            await asyncio.sleep(POLL_SECONDS)


def _write(path: Path, body: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(body)
    os.replace(tmp, path)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _stat(path: Path) -> tuple | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


# --- Redis ---------------------------------------------------------------------------------------

class RedisFeed(Feed):
    def __init__(self, url: str) -> None:
        self.url = url
        base = f"rollcall:{_name(url)}:snapshots"
        self.hash = self.channel = base
        self._client = None

    def _connection_url(self) -> str:
        parts = urlsplit(self.url)
        return parts._replace(query="").geturl()

    def publish(self, snapshots: list[tuple[str, bytes]]) -> None:
        import redis

        if not snapshots:
            return
        try:
            if self._client is None:
                self._client = redis.Redis.from_url(self._connection_url(), socket_timeout=TIMEOUT,
                                                    socket_connect_timeout=TIMEOUT)
            with self._client.pipeline(transaction=False) as pipe:
                for key, body in snapshots:
                    pipe.hset(self.hash, key, body)
                    pipe.publish(self.channel, body)
                pipe.execute()
        except (redis.RedisError, OSError) as exc:
            self.close()
            raise FeedLost(f"{self.url}: {exc}") from exc

    def intact(self, count: int) -> bool:
        import redis

        try:
            if self._client is None:
                self._client = redis.Redis.from_url(self._connection_url(), socket_timeout=TIMEOUT,
                                                    socket_connect_timeout=TIMEOUT)
            return int(self._client.hlen(self.hash)) >= count
        except (redis.RedisError, OSError):
            self.close()
            return False

    async def follow(self) -> AsyncIterator[bytes | None]:
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        client = aioredis.Redis.from_url(self._connection_url(), socket_connect_timeout=TIMEOUT,
                                         health_check_interval=10, client_name=f"rollcall-broadcast-{os.getpid()}")
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel)
            for body in (await client.hgetall(self.hash)).values():
                yield body
            yield CAUGHT_UP
            while True:
                message = await pubsub.get_message(timeout=30.0)
                if message is not None and message.get("type") == "message":
                    yield message["data"]
        except (RedisError, OSError) as exc:
            raise FeedLost(f"{self.url}: {exc}") from exc
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            with contextlib.suppress(Exception):
                await client.aclose()

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
        self._client = None


# --- NATS JetStream ----------------------------------------------------------------------------------

class NatsFeed(Feed):
    def __init__(self, url: str) -> None:
        self.url = url
        self.bucket = f"rollcall_{_name(url)}"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._nc = self._kv = None

    def _servers(self) -> str:
        return urlsplit(self.url)._replace(query="").geturl()

    @staticmethod
    def subject(key: str) -> str:
        """A snapshot's key as a key-value key (NATS takes letters, digits and ``-_=./``)."""
        return "k." + base64.urlsafe_b64encode(key.encode()).decode().rstrip("=")

    async def _bucket(self, nc):
        import nats.js.errors

        js = nc.jetstream(timeout=TIMEOUT)
        try:
            return await js.key_value(self.bucket)
        except nats.js.errors.BucketNotFoundError:
            return await js.create_key_value(bucket=self.bucket, history=1,
                                             description="Rollcall's broadcast: the latest snapshot of every key")

    async def _connect(self, **options):
        import nats

        return await nats.connect(self._servers(), connect_timeout=TIMEOUT, allow_reconnect=False,
                                  max_reconnect_attempts=0, **options)

    def _run(self, coro):
        """``coro`` on the feed's own event loop (a thread of the follower's), waited for."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever, name="rollcall nats feed", daemon=True)
            self._thread.start()
        return asyncio.run_coroutine_threadsafe(asyncio.wait_for(coro, 4 * TIMEOUT), self._loop).result()

    def publish(self, snapshots: list[tuple[str, bytes]]) -> None:
        if not snapshots:
            return

        async def put() -> None:
            if self._kv is None:
                self._nc = await self._connect()
                self._kv = await self._bucket(self._nc)
            for key, body in snapshots:
                await self._kv.put(self.subject(key), body)

        try:
            self._run(put())
        except Exception as exc:  # noqa: BLE001 - whatever the client raises, the feed is lost until it answers
            self._drop()
            raise FeedLost(f"{self.url}: {exc or type(exc).__name__}") from exc

    def intact(self, count: int) -> bool:
        async def held() -> int:
            if self._kv is None:
                self._nc = await self._connect()
                self._kv = await self._bucket(self._nc)
            return (await self._kv.status()).values

        try:
            return self._run(held()) >= count
        except Exception:  # noqa: BLE001
            self._drop()
            return False

    def _drop(self) -> None:
        nc, self._nc, self._kv = self._nc, None, None
        if nc is not None and self._loop is not None:
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(nc.close(), self._loop).result(TIMEOUT)

    async def follow(self) -> AsyncIterator[bytes | None]:
        lost = asyncio.Event()

        async def disconnected() -> None:
            lost.set()

        try:
            nc = await self._connect(disconnected_cb=disconnected, closed_cb=disconnected)
        except Exception as exc:  # noqa: BLE001
            raise FeedLost(f"{self.url}: {exc or type(exc).__name__}") from exc
        try:
            kv = await self._bucket(nc)
            watcher = await kv.watchall()
            while True:
                waiting = asyncio.ensure_future(watcher.updates(timeout=3600))
                stop = asyncio.ensure_future(lost.wait())
                done, _pending = await asyncio.wait({waiting, stop}, return_when=asyncio.FIRST_COMPLETED)
                if stop in done:
                    waiting.cancel()
                    raise FeedLost(f"{self.url}: the connection was lost")
                stop.cancel()
                try:
                    entry = waiting.result()
                except Exception as exc:  # noqa: BLE001 - a timeout with nothing published: wait again
                    if type(exc).__name__ == "TimeoutError":
                        continue
                    raise
                if entry is None:
                    yield CAUGHT_UP
                elif entry.value:
                    yield entry.value
        except FeedLost:
            raise
        except Exception as exc:  # noqa: BLE001
            raise FeedLost(f"{self.url}: {exc or type(exc).__name__}") from exc
        finally:
            with contextlib.suppress(Exception):
                await nc.close()

    def close(self) -> None:
        self._drop()
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(TIMEOUT)
            self._loop = self._thread = None


def feed_for(url: str) -> Feed:
    """The feed a URL names (domain.settings.feed_url checked it): Redis or NATS."""
    scheme = url.split("://", 1)[0].lower()
    return RedisFeed(url) if scheme == "redis" else NatsFeed(url)
