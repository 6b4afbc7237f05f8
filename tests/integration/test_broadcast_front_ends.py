"""The broadcast beyond one machine, as it runs: the follower publishes to Redis or NATS, two ``rollcall
broadcast`` front ends on two other hosts (network namespaces, tests/netns.py, each reaching the pub/sub through
a link of its own, tests/faulty.py) serve one tournament's Live view to spectators (tests/watching.py); a front end
killed and started again, or one that loses the pub/sub, catches up from the latest snapshot; nothing a front end
sends carries an event inside a tournament's broadcast delay. The embedded default (the data folder's own feed)
serves the same with neither server."""

from __future__ import annotations

import contextlib
import os
import socket
import urllib.request
import uuid
from pathlib import Path

import pytest
from broadcasting import CUP, TABLE, WAIT, FrontEnd, follower, free_port, record, tournaments
from delayed import ENDED, PLAYING, Delayed
from watching import Watch

from tests.faulty import faulty_link
from tests.netns import _free_port_in, host

pytestmark = pytest.mark.slow

SERVERS = {"redis": ("127.0.0.1", 6379), "nats": ("127.0.0.1", 4222)}


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> Delayed:
    return tournaments(tmp_path_factory.mktemp("broadcast") / "data")


def server(scheme: str) -> None:
    """Skip (fail under CI) without the server."""
    address = SERVERS[scheme]
    try:
        socket.create_connection(address, 2).close()
    except OSError:
        if os.environ.get("CI"):
            pytest.fail(f"{scheme} is not running at {address[0]}:{address[1]}")
        pytest.skip(f"{scheme} is not running at {address[0]}:{address[1]}")


def sees(seq: int):
    return lambda watch: (watch.seq(TABLE) or 0) >= seq


def nothing_inside_the_delay(watches: list[Watch]) -> None:
    """Every table of the delayed tournament a spectator was sent is as it stood before its first event: each of
    its events was stored within the delay."""
    delayed = [s for w in watches for s in w.snapshots if s.get("kind") in ("table", "board")
               and s.get("game") in (ENDED, PLAYING)]
    assert {s["game"] for s in delayed} == {ENDED, PLAYING}
    assert all(s["seq"] == 0 for s in delayed), [(s["key"], s["seq"]) for s in delayed if s["seq"]]


@pytest.mark.parametrize("scheme", ["redis", "nats"])
def test_two_front_ends_on_two_hosts_serve_one_tournament_and_one_killed_or_cut_off_catches_up(
        tournament: Delayed, scheme: str, tmp_path: Path) -> None:
    server(scheme)
    name = f"test-{uuid.uuid4().hex[:12]}"
    target = SERVERS[scheme]
    watches: list[Watch] = []
    fronts: list[FrontEnd] = []
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: [w.close() for w in watches])
        stack.callback(lambda: [f.kill() for f in fronts])
        hosts = [stack.enter_context(host()) for _ in range(2)]
        links = [stack.enter_context(faulty_link(ns.gateway, target)) for ns in hosts]
        stack.enter_context(follower(tournament.data, f"{scheme}://{target[0]}:{target[1]}/0?name={name}"
                                     if scheme == "redis" else f"nats://{target[0]}:{target[1]}?name={name}",
                                     tmp_path / "follower.log"))
        for i, (ns, link) in enumerate(zip(hosts, links)):
            feed = (f"redis://{ns.gateway}:{link.listen[1]}/0?name={name}" if scheme == "redis" else
                    f"nats://{ns.gateway}:{link.listen[1]}?name={name}")
            fronts.append(FrontEnd(ns, ns.address, _free_port_in(ns), ["--feed", feed],
                                   tmp_path / f"front-{i}.log").start())
        a, b = fronts[0].watch(deflate=True), fronts[1].watch()  # as a browser is sent it, and plain
        watches += [a, b]
        first = a.until(lambda w: w.seq(TABLE), WAIT, "the table's snapshot on the first front end")
        assert b.until(lambda w: w.seq(TABLE), WAIT, "the table's snapshot on the second") == first
        assert (a.encoding, b.encoding) == ("deflate", None)

        seq = record(tournament)  # an event at the table: both front ends' spectators see it
        a.until(sees(seq), WAIT, f"seq {seq} on the first front end")
        b.until(sees(seq), WAIT, f"seq {seq} on the second front end")

        fronts[1].kill()  # the second front end is killed: its spectators' streams end
        b.until(lambda w: w.ended.is_set(), 10, "the killed front end's stream ended")
        seq = record(tournament)  # ... while it is down
        a.until(sees(seq), WAIT, f"seq {seq} on the first front end while the second is down")
        fronts[1].start()  # started again, it holds nothing but what the feed gives it
        b = fronts[1].watch()
        watches.append(b)
        b.until(sees(seq), WAIT, f"the restarted front end catching up to seq {seq}")

        links[0].down()  # the first front end loses the pub/sub
        fronts[0].until(lambda found: not found["connected"], "the first front end found the pub/sub lost")
        seq = record(tournament)
        b.until(sees(seq), WAIT, f"seq {seq} on the second front end while the first is cut off")
        assert (a.seq(TABLE) or 0) < seq  # the first cannot have it: it shows what it held
        links[0].up()
        a.until(sees(seq), WAIT, f"the first front end catching up to seq {seq} once the pub/sub answers")
        assert not a.ended.is_set()  # its spectators stayed connected throughout

        seq = record(tournament)
        for w in (a, b):
            w.until(sees(seq), WAIT, f"seq {seq} on both front ends at the end")
        nothing_inside_the_delay(watches)
    if scheme == "redis":
        import redis

        redis.Redis(*target).delete(f"rollcall:{name}:snapshots")
    else:
        import asyncio

        import nats

        async def remove() -> None:
            nc = await nats.connect(f"nats://{target[0]}:{target[1]}")
            try:
                await nc.jetstream().delete_key_value(f"rollcall_{name}")
            finally:
                await nc.close()

        asyncio.run(remove())


def test_the_embedded_default_serves_the_live_view_with_neither_redis_nor_nats(tournament: Delayed,
                                                                             tmp_path: Path) -> None:
    with follower(tournament.data, None, tmp_path / "follower.log"):
        front = FrontEnd(None, "127.0.0.1", free_port(), ["--data", str(tournament.data)], tmp_path / "front.log")
        try:
            front.start()
            watch = front.watch()
            try:
                watch.until(lambda w: w.seq(TABLE), WAIT, "the table's snapshot from the data folder's feed")
                seq = record(tournament)
                watch.until(sees(seq), WAIT, f"seq {seq} from the data folder's feed")
                nothing_inside_the_delay([watch])
            finally:
                watch.close()
            with urllib.request.urlopen(f"http://127.0.0.1:{front.port}/live?tournament={CUP}", timeout=5) as page:
                assert b"spectate.js" in page.read()
        finally:
            front.kill()
        assert "redis" not in front.log.read_text() and "nats" not in front.log.read_text()
