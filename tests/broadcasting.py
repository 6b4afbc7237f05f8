"""A broadcast front end run as it is in production, for the tests: the follower (``python -m projections.follow``)
and ``rollcall broadcast`` as processes, on this machine or in a network namespace (tests/netns.py), a tournament
spectators follow and an event recorded at its table."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from delayed import NAME, Delayed, delayed_data
from watching import Watch

from domain import settings
from domain.record import slug
from projections.spectators import key
from service.application import Rollcall
from tests.netns import Host
from tests.processes import ROOT, stopped, until

EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME, CUP = "seed004-ex1", "seed-004-examples"  # its tournament's Live view: what the spectators follow
LIVE_KEY, TABLE = key("tournament", "en", CUP), key("table", "en", GAME)
DELAYED_KEY = key("tournament", "en", slug(NAME))
WAIT = 60.0  # seconds a spectator may wait for what the follower published (a busy 2-core machine)


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PERSISTENCE_MODULE", "ROLLCALL_KEY", settings.FEED_ENV)}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


def tournaments(folder: Path) -> Delayed:
    """A delayed tournament (every event stored within its delay, tests/delayed.py) and one spectators follow live,
    with a game at table 1 (GAME, of CUP)."""
    delayed = delayed_data(folder)
    store = Rollcall.open(delayed.data)
    store.key = delayed.key
    try:
        with open(EX1, encoding="utf-8") as handle:
            store.import_record(handle, str(EX1))
    finally:
        store.close()
    return delayed


def record(tournament: Delayed) -> int:
    """An event at the followed table: its seq."""
    store = Rollcall.open(tournament.data)
    store.key = tournament.key
    try:
        return store.record(GAME, {"type": "Noted", "text": "a note from the table"})["seq"]
    finally:
        store.close()


@contextmanager
def follower(data: Path, feed: str | None, log: Path) -> Iterator[subprocess.Popen]:
    env = environment(**({settings.FEED_ENV: feed} if feed else {}))
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "projections.follow", str(data)], cwd=ROOT, env=env,
                                   stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        stopped(process)


def health(address: str, port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://{address}:{port}/health", timeout=3) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError):
        return None


class FrontEnd:
    """``rollcall broadcast`` on ``ns`` (None: this machine), started and killed as a service manager would."""

    def __init__(self, ns: Host | None, address: str, port: int, args: list[str], log: Path) -> None:
        self.ns, self.address, self.port, self.args, self.log = ns, address, port, args, log
        self.process: subprocess.Popen | None = None

    def start(self) -> FrontEnd:
        command = [sys.executable, "-m", "cli.main", "broadcast", "--host", self.address, "--port", str(self.port),
                   *self.args]
        if self.ns is not None:
            command = ["ip", "netns", "exec", self.ns.name, *command]
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(command, cwd=ROOT, env=environment(), stdin=subprocess.DEVNULL,
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.until(lambda found: found["caught_up"], "the front end caught up with the feed")
        return self

    def until(self, condition, what: str, timeout: float = WAIT) -> dict:
        def met() -> dict | None:
            if self.process.poll() is not None:
                raise AssertionError(f"the front end stopped ({self.process.returncode}): "
                                     f"{self.log.read_text(errors='replace')[-2000:]}")
            found = health(self.address, self.port)
            return found if found is not None and condition(found) else None

        try:
            return until(met, timeout, what)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {self.log.read_text(errors='replace')[-2000:]}") from None

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def watch(self, deflate: bool = False) -> Watch:
        return Watch(self.address, self.port, [LIVE_KEY, DELAYED_KEY], deflate=deflate)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
