"""Benchmark: how many spectators one broadcast front end holds — C light spectator clients (a server-sent event
stream each, as a browser's EventSource is, no browser) on F ``rollcall broadcast`` front ends fed by the follower
over Redis (or NATS, or the data folder's own feed), while a table records an event every ``--every`` seconds.

For each F (front ends, each its own process on this machine) and C (clients, spread evenly over the front ends,
run by ``--client-processes`` processes of asyncio connections, each taking deflated frames as a browser does,
unless ``--plain``): every client follows one tournament's Live view
(``/feed?key=tournament/en/…``: the tournament, its round, the round's table); the bench records ``--events``
events at the table and measures
- event → received: from the bench's write of the event to a client's receipt of the table's snapshot with its
  seq (the follower's projection and publish included), per client and event: median, p95, worst;
- published → received: from the snapshot's arrival on the pub/sub (the bench subscribes to it too; Redis
  only) to a client's receipt — the front ends' own share;
- snapshots received of those expected (clients × events), clients that could not connect or were let go, the
  bytes a client received per event (as sent: deflated, and without the picture when the event left it as it was:
  the bench's events are notes);
- each front end's CPU (% of one core, while the events are recorded) and memory.
Reference in the same run: event → received of one client alone on one front end. The ratio printed is p95 over
the reference's p95. Clients, front ends, follower and Redis share this machine's cores: the clients' own CPU is
printed beside the front ends'.

    .venv/bin/python bench/broadcast_load.py [--clients 1000,5000] [--front-ends 1,2] [--events 10] [--every 2]
        [--feed redis|nats|folder] [--client-processes 2] [--plain]

Target (issue 33): 5,000 light spectators on two front ends ≤ 2 s p95, event → received.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME, CUP = "seed004-ex1", "seed-004-examples"
CLK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
TABLE_SEQ = re.compile(rb'"key":"table/en/[^"]*".*?"seq":(\d+)')  # a snapshot's key comes first


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2 ** 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PERSISTENCE_MODULE", "ROLLCALL_KEY", "ROLLCALL_FEED")}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


# --- the clients (a process of asyncio connections) ------------------------------------------------------

def client_process(targets: list[tuple[str, int]], base: int, count: int, path: str, deflate: bool, pipe) -> None:
    """``count`` clients over ``targets``; says ("ready", connected, failed) once each has its first snapshot
    (or failed), then on "report" sends what each received and stops."""
    asyncio.run(_clients(targets, base, count, path, deflate, pipe))


async def _clients(targets, base, count, path, deflate, pipe) -> None:
    received: list[tuple[int, int, float]] = []  # (client, seq, when) of every table snapshot received
    latest = [0] * count  # the last seq each client received
    # bytes: what the clients received once connected, as sent (deflated or not)
    state = {"connected": 0, "failed": 0, "ended": 0, "bytes": 0}
    first = asyncio.Semaphore(200)  # connections being opened at once
    ready = [asyncio.Event() for _ in range(count)]

    async def one(i: int) -> None:
        address, port = targets[i % len(targets)]
        try:
            async with first:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(address, port), 60)
                accept = "Accept-Encoding: deflate\r\n" if deflate else ""
                writer.write(f"GET {path} HTTP/1.0\r\nHost: {address}:{port}\r\n{accept}\r\n".encode())
        except (OSError, asyncio.TimeoutError):
            state["failed"] += 1
            ready[i].set()
            return
        buffer, head, inflate = b"", b"", None
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                now = time.time()
                state["bytes"] += len(data)
                if head is not None:  # the response's head: deflated or not
                    head += data
                    if b"\r\n\r\n" not in head:
                        continue
                    status, data = head.split(b"\r\n\r\n", 1)
                    head = None
                    if b"content-encoding: deflate" in status.lower():
                        inflate = zlib.decompressobj()
                buffer += inflate.decompress(data) if inflate is not None else data
                if b"\n\n" not in buffer:
                    continue
                frames, buffer = buffer.rsplit(b"\n\n", 1)
                for found in TABLE_SEQ.finditer(frames):
                    received.append((base + i, int(found.group(1)), now))
                    latest[i] = max(latest[i], int(found.group(1)))
                    if not ready[i].is_set():
                        state["connected"] += 1
                        ready[i].set()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            if not ready[i].is_set():
                state["failed"] += 1
                ready[i].set()
            else:
                state["ended"] += 1
            writer.close()

    tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
    await asyncio.gather(*(r.wait() for r in ready))
    state["ended"], state["bytes"] = 0, 0
    pipe.send(("ready", state["connected"], state["failed"]))
    while (asked := await asyncio.to_thread(pipe.recv)) != "report":  # ("progress", seq): how many have it
        pipe.send(sum(1 for s in latest if s >= asked[1]))
    pipe.send((received, state["ended"], state["bytes"]))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class Clients:
    def __init__(self, targets: list[tuple[str, int]], count: int, processes: int, path: str,
                 deflate: bool) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes, self.processes = [], []
        shares = [count // processes + (1 if i < count % processes else 0) for i in range(processes)]
        for n, share in enumerate(shares):
            if share == 0:
                continue
            mine, theirs = context.Pipe()
            process = context.Process(target=client_process, args=(targets, sum(shares[:n]), share, path, deflate, theirs),
                                      daemon=True)
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)

    def ready(self, timeout: float) -> tuple[int, int]:
        connected = failed = 0
        for pipe in self.pipes:
            if not pipe.poll(timeout):
                raise SystemExit("the clients did not connect in time")
            _, c, f = pipe.recv()
            connected, failed = connected + c, failed + f
        return connected, failed

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.processes)

    def have(self, seq: int) -> int:
        """How many clients have received ``seq``."""
        for pipe in self.pipes:
            pipe.send(("progress", seq))
        return sum(pipe.recv() for pipe in self.pipes)

    def report(self) -> tuple[list[tuple[int, int, float]], int, int]:
        received, ended, size = [], 0, 0
        for pipe in self.pipes:
            pipe.send("report")
        for pipe in self.pipes:
            found, gone, got = pipe.recv()
            received += found
            ended += gone
            size += got
        for process in self.processes:
            process.join(30)
            if process.is_alive():
                process.kill()
        return received, ended, size


# --- the broadcast ---------------------------------------------------------------------------------------

def make_data(folder: Path) -> Path:
    from projections.projector import Projector
    from service.application import Rollcall

    data = folder / "data"
    store = Rollcall.open(data)
    try:
        with open(EX1, encoding="utf-8") as handle:
            store.import_record(handle, str(EX1))
    finally:
        store.close()
    Projector(data).run()
    return data


class Table:
    """The bench's scorekeeper: one event at a time, each write's moment kept by seq."""

    def __init__(self, data: Path) -> None:
        from service.application import Rollcall

        self.store = Rollcall.open(data)
        self.written: dict[int, float] = {}

    def record(self) -> int:
        at = time.time()
        seq = self.store.record(GAME, {"type": "Noted", "text": "a note from the table"})["seq"]
        self.written[seq] = at
        return seq


class Published:
    """When each table snapshot's seq appeared on the Redis channel (the bench subscribes as a front end does)."""

    def __init__(self, url: str | None) -> None:
        self.at: dict[int, float] = {}
        self.size = 0  # bytes of the table's last snapshot
        self._stop = threading.Event()
        if url is None or not url.startswith("redis://"):
            return
        import redis

        from projections.feeds import RedisFeed

        self._feed = RedisFeed(url)
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        import redis

        while not self._stop.is_set():  # subscribed again when the connection is lost (a client killed)
            try:
                pubsub = redis.Redis.from_url(self._feed._connection_url()).pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self._feed.channel)
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=0.5)
                    if message and message.get("type") == "message":
                        found = TABLE_SEQ.search(message["data"])
                        if found:
                            self.at.setdefault(int(found.group(1)), time.time())
                            self.size = len(message["data"])
            except (redis.RedisError, OSError):
                time.sleep(0.2)

    def close(self) -> None:
        self._stop.set()


class FrontEnd:
    def __init__(self, args: list[str], log: Path) -> None:
        self.port = free_port()
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "broadcast", "--host", "127.0.0.1", "--port", str(self.port),
                 *args], cwd=ROOT, env=environment(), stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the front end stopped: {log.read_text()[-2000:]}")
            with contextlib.suppress(OSError, ValueError):
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=3) as answer:
                    if b'"caught_up":true' in answer.read():
                        return
            time.sleep(0.2)
        raise SystemExit("the front end did not catch up with the feed in 60 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def measure(table: Table, published: Published, fronts: list[FrontEnd], count: int, args) -> dict:
    from projections.spectators import key

    path = f"/feed?key={key('tournament', 'en', CUP).replace('/', '%2F')}"
    started = time.monotonic()
    clients = Clients([("127.0.0.1", f.port) for f in fronts], count, min(args.client_processes, count), path,
                      not args.plain)
    connected, failed = clients.ready(timeout=max(120.0, count / 20))
    connect_seconds = time.monotonic() - started
    cpu_before = [cpu_seconds(f.process.pid) for f in fronts]
    clients_before, began, load = clients.cpu(), time.monotonic(), os.getloadavg()[0]
    seqs = []
    for _ in range(args.events):
        seqs.append(table.record())
        time.sleep(args.every)
    deadline = time.monotonic() + 60  # the last event's snapshot on its way to every client
    while clients.have(seqs[-1]) < connected and time.monotonic() < deadline:
        time.sleep(0.2)
    took = time.monotonic() - began
    spent = [cpu_seconds(f.process.pid) - b for f, b in zip(fronts, cpu_before)]
    cpu = [100 * c / took for c in spent]
    clients_cpu = 100 * (clients.cpu() - clients_before) / took
    memory = [rss_mb(f.process.pid) for f in fronts]
    received, ended, size = clients.report()
    # an event is received with the first snapshot of its table at its seq or later (two events the follower
    # projected together come in one snapshot)
    by_client: dict[int, list[tuple[int, float]]] = {}
    for client, seq, when in received:
        by_client.setdefault(client, []).append((seq, when))
    published_at = {s: min((at for seq, at in published.at.items() if seq >= s), default=None) for s in seqs}
    latencies, shares = [], []
    for got in by_client.values():
        for s in seqs:
            when = next((w for seq, w in got if seq >= s), None)
            if when is None:
                continue
            latencies.append(when - table.written[s])
            if published_at[s] is not None:
                shares.append(when - published_at[s])
    return {"front_ends": len(fronts), "clients": count, "connected": connected, "failed": failed,
            "connect_s": connect_seconds, "received": len(latencies), "expected": connected * len(seqs),
            "let_go": ended, "latency": latencies, "share": shares, "cpu": cpu, "clients_cpu": clients_cpu,
            "memory": memory, "per_event": 1000 * sum(spent) / len(seqs) / (count / 1000),
            "load": (load + os.getloadavg()[0]) / 2, "bytes": size / max(1, connected) / len(seqs)}


def ms(values: list[float]) -> str:
    if not values:
        return "—"
    return (f"{1000 * statistics.median(values):.0f} / {1000 * percentile(values, 0.95):.0f} / "
            f"{1000 * max(values):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1000,5000")
    parser.add_argument("--front-ends", default="1,2")
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--feed", choices=("redis", "nats", "folder"), default="redis")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--plain", action="store_true", help="clients that do not take deflate")
    args = parser.parse_args()
    counts = [int(x) for x in args.clients.split(",")]
    front_counts = [int(x) for x in args.front_ends.split(",")]
    name = f"bench-{uuid.uuid4().hex[:12]}"
    url = {"redis": f"redis://127.0.0.1:6379/0?name={name}", "nats": f"nats://127.0.0.1:4222?name={name}",
           "folder": None}[args.feed]
    with tempfile.TemporaryDirectory(prefix="rollcall-broadcast-") as tmp:
        folder = Path(tmp)
        data = make_data(folder)
        feed_args = ["--feed", url] if url else ["--data", str(data)]
        follower = subprocess.Popen([sys.executable, "-m", "projections.follow", str(data)], cwd=ROOT,
                                    env=environment(**({"ROLLCALL_FEED": url} if url else {})),
                                    stdin=subprocess.DEVNULL, stdout=open(folder / "follower.log", "wb"),
                                    stderr=subprocess.STDOUT)
        published = Published(url)
        table = Table(data)
        rows = []
        try:
            time.sleep(2.0)
            print(f"feed: {args.feed}; {os.cpu_count()} cores; clients in {args.client_processes} processes, "
                  f"{'plain' if args.plain else 'taking deflate'}; "
                  f"{args.events} events every {args.every:g} s", flush=True)
            fronts = [FrontEnd(feed_args, folder / "front-0.log")]
            reference = measure(table, published, fronts, 1, argparse.Namespace(**{**vars(args),
                                                                                   "client_processes": 1}))
            for f in fronts:
                f.stop()
            ref_p95 = percentile(reference["latency"], 0.95)
            print(f"reference (1 client, 1 front end): event → received {ms(reference['latency'])} "
                  "(median / p95 / worst)", flush=True)
            for n in front_counts:
                for count in counts:
                    fronts = [FrontEnd(feed_args, folder / f"front-{i}.log") for i in range(n)]
                    try:
                        row = measure(table, published, fronts, count, args)
                    finally:
                        for f in fronts:
                            f.stop()
                    rows.append(row)
                    print(f"  {n} front end(s), {count} clients: connected {row['connected']} in "
                          f"{row['connect_s']:.1f} s, event → received {ms(row['latency'])}, "
                          f"CPU {', '.join(f'{c:.0f}' for c in row['cpu'])} %", flush=True)
        finally:
            published.close()
            follower.terminate()
            follower.wait(30)
            table.store.close()
            if url and url.startswith("redis://"):
                import redis

                redis.Redis("127.0.0.1", 6379).delete(f"rollcall:{name}:snapshots")
    print()
    print("| front ends | clients | connected (failed) | event → received median / p95 / worst | "
          "published → received median / p95 / worst | received / expected | let go | CPU per front end | "
          "front ends' CPU per event per 1,000 clients | clients' CPU | memory per front end | "
          "bytes per client per event | load average | "
          "p95 / reference |")
    print("|---:|---:|---:|---|---|---:|---:|---|---:|---:|---|---:|---:|---:|")
    for row in rows:
        p95 = percentile(row["latency"], 0.95)
        print(f"| {row['front_ends']} | {row['clients']:,} | {row['connected']:,} ({row['failed']}) | "
              f"{ms(row['latency'])} | {ms(row['share'])} | {row['received']:,} / {row['expected']:,} | "
              f"{row['let_go']} | {', '.join(f'{c:.0f} %' for c in row['cpu'])} | {row['per_event']:.0f} ms | "
              f"{row['clients_cpu']:.0f} % | {', '.join(f'{m:.0f} MB' for m in row['memory'])} | "
              f"{row['bytes']:,.0f} | "
              f"{row['load']:.1f} | {p95 / ref_p95:.2f} |")
    print(f"\nreference: 1 client on 1 front end, event → received {ms(reference['latency'])} "
          f"(published → received {ms(reference['share'])}); load average {reference['load']:.1f}; "
          f"a table's snapshot {published.size:,} bytes")


if __name__ == "__main__":
    main()
