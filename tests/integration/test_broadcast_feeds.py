"""The broadcast's feeds (projections/feeds.py) and a front end's hub (broadcast/hub.py), over the real data
folder, Redis and NATS JetStream: a reader gets the latest of every key, then each change; a front end that
starts late or loses the feed catches up; the follower gives a feed that lost what it held everything again; and
no message on the pub/sub carries an event inside a tournament's broadcast delay."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from pathlib import Path

import orjson
import pytest
from delayed import ENDED, LIVE, PLAYING, Delayed, delayed_data

from broadcast.hub import Hub
from domain import settings
from projections.feeds import CAUGHT_UP, FolderFeed, NatsFeed, RedisFeed
from projections.follow import Broadcast
from projections.spectators import key, parts

REDIS, NATS = ("127.0.0.1", 6379), ("127.0.0.1", 4222)


def server(address: tuple[str, int], what: str) -> None:
    """Skip (fail under CI) without the server."""
    try:
        socket.create_connection(address, 2).close()
    except OSError:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is not running at {address[0]}:{address[1]}")
        pytest.skip(f"{what} is not running at {address[0]}:{address[1]}")


def snapshot(found: str, v: int, **body) -> bytes:
    return orjson.dumps({"key": found, "v": v, **body})


@pytest.fixture(params=["folder", "redis", "nats"])
def feed(request, tmp_path: Path):
    name = f"test-{uuid.uuid4().hex[:12]}"
    if request.param == "folder":
        made = FolderFeed(tmp_path / "broadcast")
    elif request.param == "redis":
        server(REDIS, "Redis")
        made = RedisFeed(f"redis://127.0.0.1:6379/0?name={name}")
    else:
        server(NATS, "NATS")
        made = NatsFeed(f"nats://127.0.0.1:4222?name={name}")
    yield made
    cleanup(made)
    made.close()


def cleanup(made) -> None:
    if isinstance(made, RedisFeed):
        import redis

        redis.Redis(*REDIS).delete(made.hash)
    elif isinstance(made, NatsFeed):
        async def remove():
            import nats

            nc = await nats.connect("nats://127.0.0.1:4222")
            try:
                await nc.jetstream().delete_key_value(made.bucket)
            finally:
                await nc.close()

        asyncio.run(remove())


async def read(feed, until: int) -> list:
    """What ``follow`` yields, until ``until`` items (CAUGHT_UP included)."""
    got = []
    async for item in feed.follow():
        got.append(None if item is CAUGHT_UP else orjson.loads(item))
        if len(got) >= until:
            return got
    return got


def test_a_reader_gets_the_latest_of_every_key_then_each_change(feed) -> None:
    feed.publish([("a", snapshot("a", 1, n=1)), ("b", snapshot("b", 1, n=1))])
    feed.publish([("a", snapshot("a", 2, n=2))])

    async def scenario():
        reader = asyncio.ensure_future(read(feed, 4))
        await asyncio.sleep(1.0)  # caught up by then
        await asyncio.to_thread(feed.publish, [("c", snapshot("c", 3, n=3))])
        return await asyncio.wait_for(reader, 20)

    got = asyncio.run(scenario())
    assert sorted((g["key"], g["n"]) for g in got[:2]) == [("a", 2), ("b", 1)]
    assert got[2] is None and (got[3]["key"], got[3]["n"]) == ("c", 3)
    assert feed.intact(3) and not feed.intact(4)


def test_a_hub_started_late_holds_the_latest_and_one_that_lost_redis_catches_up() -> None:
    server(REDIS, "Redis")
    import redis

    feed = RedisFeed(f"redis://127.0.0.1:6379/0?name=test-{uuid.uuid4().hex[:12]}")
    feed.publish([("round", snapshot("round", 1, follow=["t1"])), ("t1", snapshot("t1", 1, seq=1))])

    async def scenario():
        hub = Hub(feed, say=lambda text: None).start()
        await asyncio.wait_for(hub.caught_up.wait(), 10)
        watcher = hub.subscribe(["round"])
        first = await asyncio.wait_for(watcher.frames(), 5)
        assert b'"key":"round"' in first and b'"key":"t1"' in first  # what the round follows comes with it
        killed = redis.Redis(*REDIS).client_kill_filter(_type="pubsub")  # every pub/sub client: this one's too
        assert killed >= 1
        await asyncio.to_thread(feed.publish, [("t1", snapshot("t1", 2, seq=2))])  # maybe while it is away
        for _ in range(100):
            if hub.latest["t1"].v == 2:
                break
            await asyncio.sleep(0.1)
        assert hub.latest["t1"].v == 2
        later = await asyncio.wait_for(watcher.frames(), 5)
        assert b'"seq":2' in later
        await hub.stop()

    try:
        asyncio.run(scenario())
    finally:
        cleanup(feed)
        feed.close()


def test_a_spectator_is_sent_what_a_snapshot_follows_and_told_what_it_no_longer_follows(tmp_path: Path) -> None:
    feed = FolderFeed(tmp_path / "broadcast")

    async def scenario():
        hub = Hub(feed, say=lambda text: None)
        hub.apply(snapshot("tournament", 1, follow=["round/1"]))
        hub.apply(snapshot("round/1", 1, follow=["t1", "t2"]))
        hub.apply(snapshot("t1", 1))
        hub.apply(snapshot("t2", 1))
        hub.apply(snapshot("t3", 1))
        watcher = hub.subscribe(["tournament"])
        sent = await watcher.frames()
        assert sent.count(b"event: snapshot") == 4 and b'"key":"t3"' not in sent
        hub.apply(snapshot("round/2", 2, follow=["t3"]))
        hub.apply(snapshot("tournament", 2, follow=["round/2"]))  # round 2 paired: the page moves on to it
        sent = await watcher.frames()
        assert b'"key":"t3"' in sent and b'"key":"round/2"' in sent
        assert b'event: gone\ndata: {"key":"t1"}' in sent and b'event: gone\ndata: {"key":"round/1"}' in sent
        assert hub.apply(snapshot("t3", 1)) is False  # older than the one held
        hub.apply(snapshot("t1", 5))
        assert watcher.queue.empty()  # no longer followed: not sent
        hub.unsubscribe(watcher)
        assert not hub.watchers

    asyncio.run(scenario())


def test_a_spectator_whose_browser_takes_deflate_is_sent_the_same_frames_deflated_once_for_all(tmp_path: Path) -> None:
    import zlib

    from broadcast import hub as hubs

    async def scenario():
        hub = Hub(FolderFeed(tmp_path / "broadcast"), say=lambda text: None)
        hub.apply(snapshot("round/1", 1, follow=["t1"]))
        hub.apply(snapshot("t1", 1, board="<svg>" + "<path d='M0 0'/>" * 500 + "</svg>"))
        plain, packed = hub.subscribe(["round/1"]), hub.subscribe(["round/1"], deflate=True)
        hub.apply(snapshot("t1", 2, board="<svg>" + "<path d='M1 1'/>" * 500 + "</svg>"))
        hub.apply(snapshot("round/1", 2, follow=[]))  # t1 no longer followed: gone
        sent, deflated = await plain.frames(), await packed.frames()
        assert len(deflated) < len(sent) / 5
        assert zlib.decompressobj().decompress(hubs.ZLIB_HEADER + deflated) == sent  # one deflated stream
        assert sent.count(b"event: snapshot") == 4 and b"event: gone" in sent
        assert hub.latest["t1"].packed is hub.latest["t1"].packed  # deflated once, whoever receives it

    asyncio.run(scenario())


def test_a_snapshot_whose_picture_is_as_it_was_is_sent_without_it_and_whole_to_a_new_spectator(
        tmp_path: Path) -> None:
    picture, moved = "<svg>" + "<path d='M0 0'/>" * 500 + "</svg>", "<svg><path d='M1 1'/></svg>"

    async def scenario():
        hub = Hub(FolderFeed(tmp_path / "broadcast"), say=lambda text: None)
        hub.apply(snapshot("t1", 1, seq=1, card=picture))
        first = hub.subscribe(["t1"])
        assert picture.encode() in await first.frames()
        hub.apply(snapshot("t1", 2, seq=2, card=picture))  # a note: the board as it was
        sent = orjson.loads((await first.frames()).split(b"data: ", 1)[1])
        assert sent["seq"] == 2 and "card" not in sent and (sent["kept"], sent["prior"]) == (["card"], 1)
        later = hub.subscribe(["t1"])  # starts now: sent it whole
        whole = orjson.loads((await later.frames()).split(b"data: ", 1)[1])
        assert (whole["seq"], whole["card"]) == (2, picture) and "kept" not in whole
        hub.apply(snapshot("t1", 3, seq=3, card=moved))  # a move: the new picture to both
        for spectator in (first, later):
            assert moved.encode() in await spectator.frames()

    asyncio.run(scenario())


def test_a_spectator_that_stalls_is_let_go(tmp_path: Path) -> None:
    from broadcast import hub as hubs

    async def scenario():
        hub = Hub(FolderFeed(tmp_path / "broadcast"), say=lambda text: None)
        watcher = hub.subscribe(["t1"])
        for v in range(1, hubs.QUEUE + 5):
            hub.apply(snapshot("t1", v))
        assert watcher.closed
        frames = b""
        while not watcher.queue.empty():
            frames += watcher.queue.get_nowait()
        assert frames.endswith(hubs.CLOSE) or watcher.queue.empty()

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def delayed(tmp_path_factory) -> Delayed:
    return delayed_data(tmp_path_factory.mktemp("delay") / "data")


@pytest.mark.parametrize("scheme", ["redis", "nats"])
def test_no_message_of_the_pub_sub_carries_an_event_inside_the_delay(delayed: Delayed, scheme: str,
                                                                      monkeypatch) -> None:
    server(REDIS if scheme == "redis" else NATS, scheme)
    url = (f"redis://127.0.0.1:6379/0?name=test-{uuid.uuid4().hex[:12]}" if scheme == "redis" else
           f"nats://127.0.0.1:4222?name=test-{uuid.uuid4().hex[:12]}")
    monkeypatch.setenv(settings.FEED_ENV, url)
    monkeypatch.setattr(Broadcast, "CHECK_SECONDS", 0.0)
    reader = RedisFeed(url) if scheme == "redis" else NatsFeed(url)
    said: list[str] = []

    async def scenario():
        listening = asyncio.ensure_future(listen(reader))
        await asyncio.sleep(1.0)
        broadcast = Broadcast(delayed.data, said.append)  # as the follower makes them now: every event is recent
        await asyncio.to_thread(broadcast.look)
        if scheme == "redis":
            cleanup(reader)  # the feed lost what it held (a Redis restarted keeps nothing)
            await asyncio.to_thread(broadcast.look)  # ... and is given everything again
        await asyncio.sleep(1.5)
        broadcast.close()
        listening.cancel()
        return messages

    messages: list[dict] = []

    async def listen(feed):
        async for item in feed.follow():
            if item is not CAUGHT_UP:
                messages.append(orjson.loads(item))

    try:
        asyncio.run(scenario())
    finally:
        cleanup(reader)
        reader.close()
    tables = [m for m in messages if parts(m["key"])[0] in ("table", "board")]
    assert {m["game"] for m in tables} >= {ENDED, PLAYING, LIVE}
    for m in tables:
        if m["game"] in (ENDED, PLAYING):
            assert m["seq"] == 0, m["key"]  # every event of the delayed games was stored within the delay
    assert next(m for m in tables if m["key"] == key("table", "en", LIVE))["seq"] == delayed.last[LIVE]
    if scheme == "redis":
        assert sum(1 for m in messages if m["key"] == key("table", "en", ENDED)) >= 2, said  # given again
        assert any("given every snapshot again" in s for s in said)
