"""Following the event store: the read models kept current while the dashboard runs, and kept so.

DuckDB has one writer. Whoever projects a data folder holds its projector lock (``<data>/projector.lock``,
an advisory file lock the system releases when the holder exits, even on kill -9): the follower holds it for
as long as it runs, polling the store and projecting (and publishing) whatever is new within a fraction of a
second; a command that reads the read models projects itself only when nobody else holds the lock, and
otherwise reads the published read models the follower keeps current. Readers never open a file being written
(projections.publish).

The follower heals itself:
- a look that fails (a full disk, a file-size limit, a store that does not answer, a damaged read-model file)
  is said on stderr and tried again, the files opened anew, after a pause that doubles up to RETRY_MAX; a file
  that is no longer Rollcall's read models is rebuilt from the store;
- published read models removed, emptied or written over by anyone else are published again at the next look;
- on a large store with no read models it starts cold: the current tournament first, the rest filled in at
  quiet moments (projections.projector.Session.fill_some);
- a follower started while another process holds the lock waits for it and takes over when it stops;
- the ``Supervisor`` (``rollcall dashboard``) starts the follower process again when it dies.
While it is up to date the follower writes the time of its last look in ``<data>/follower.json`` (at most
once a second): ``lag`` is how long ago that was, what the pages show as "read models N s behind".

    python -m projections.follow DATA_DIR [INTERVAL]   (the follower; stops on SIGTERM or Ctrl-C)
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from domain import settings

LOCK_FILE = "projector.lock"
INTERVAL = 0.3  # seconds between looks at the store (and at the lock, while another process holds it)
STATUS_SECONDS = 1.0  # the status file is written at most this often while nothing changes
RETRY_FIRST, RETRY_MAX = 0.5, 10.0  # seconds before a failed look is tried again (doubling)
RESTART_FIRST, RESTART_MAX = 1.0, 30.0  # seconds before a dead follower process is started again (doubling)
RESTART_RESET = 60.0  # a follower that ran this long starts again after RESTART_FIRST

Say = Callable[[str], None]


def _say(message: str) -> None:
    print(f"follower: {message}", file=sys.stderr, flush=True)  # untranslated: the tag of the follower's lines in the log


class Busy(Exception):
    """Another process holds the projector lock of the data folder."""


@contextlib.contextmanager
def projector_lock(data_dir: str | os.PathLike | None, *, wait: bool = False, stop: threading.Event | None = None,
                   on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the data folder's projector lock. Busy if another process holds it, unless ``wait``: then the lock is
    looked at again every INTERVAL until it is free (``on_wait`` called once first) or ``stop`` is set (Busy)."""
    import fcntl

    folder = settings.data_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK_FILE, "a+") as handle:
        waited = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait or (stop is not None and stop.is_set()):
                    raise Busy(f"a projector follows {folder} already") from None
                if not waited and on_wait is not None:
                    on_wait()
                waited = True
                if stop is not None:
                    stop.wait(INTERVAL)
                else:
                    time.sleep(INTERVAL)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def followed(data_dir: str | os.PathLike | None) -> bool:
    """Whether a projector (another process) holds the data folder's lock now."""
    try:
        with projector_lock(data_dir):
            return False
    except Busy:
        return True


def lag(data_dir: str | os.PathLike | None, now: float | None = None) -> float | None:
    """Seconds since the follower of the data folder last saw the published read models hold every stored event
    (None: no follower follows it, or one stopped as asked). One small file read."""
    try:
        confirmed = json.loads((settings.data_dir(data_dir) / settings.FOLLOWER_FILE).read_bytes())["confirmed"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(confirmed, int | float):
        return None
    return max(0.0, (time.time() if now is None else now) - confirmed)


def filling(data_dir: str | os.PathLike | None) -> float | None:
    """How far the follower's cold start has filled in the games before the current tournament (0 to 1; None:
    the read models hold every game, or no follower follows the folder). One small file read."""
    try:
        done, total = json.loads((settings.data_dir(data_dir) / settings.FOLLOWER_FILE).read_bytes())["filling"]
        return min(max(done / total, 0.0), 1.0)
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
        return None


def follow(data_dir: str | os.PathLike | None, interval: float = INTERVAL, stop: threading.Event | None = None,
           on_run=None, say: Say = _say) -> None:
    """Project what is new every ``interval`` seconds until ``stop`` is set, holding the lock throughout (waiting
    for it while another process holds it); a look that fails is tried again."""
    stop = stop or threading.Event()
    folder = settings.data_dir(data_dir)
    try:
        with projector_lock(folder, wait=True, stop=stop,
                            on_wait=lambda: say(f"another projector follows {folder}; this one takes over when it "
                                                "stops")):
            _Follower(folder, interval, stop, on_run, say).run()
    except Busy:
        return  # stopped while waiting for the lock


class _Follower:
    def __init__(self, folder: Path, interval: float, stop: threading.Event, on_run, say: Say) -> None:
        self.folder, self.interval, self.stop, self.on_run, self.say = folder, interval, stop, on_run, say
        self.status = folder / settings.FOLLOWER_FILE
        self.failures = 0
        self.rebuild = False  # a read-model file was found damaged: the next session rebuilds it from the store
        self.written = (None, 0.0)  # (position, time) of the status last written
        self.broadcast = Broadcast(folder, say)

    def run(self) -> None:
        self._start_status()
        try:
            while not self.stop.is_set():
                try:
                    self._follow()
                except Exception as exc:  # noqa: BLE001 - every failure is said and tried again
                    from projections.projector import LiveFileDamaged

                    self.rebuild = self.rebuild or isinstance(exc, LiveFileDamaged)
                    self.failures += 1
                    delay = min(RETRY_FIRST * 2 ** (self.failures - 1), RETRY_MAX)
                    self.say(f"the read models could not be brought up to date ({_reason(exc)}); trying again in "
                             f"{delay:g} s")
                    self.stop.wait(delay)
        finally:
            self.broadcast.close()
            with contextlib.suppress(OSError, ValueError, AttributeError):
                if json.loads(self.status.read_bytes()).get("pid") == os.getpid():
                    self.status.unlink()  # stopped: nobody vouches for the read models any more

    def _follow(self) -> None:
        """The read models opened and followed until ``stop`` (an exception: the caller tries again)."""
        from projections.projector import Projector
        from projections.publish import Copier

        projector, copier = Projector(self.folder), Copier()
        try:
            with projector.session(self.rebuild, copier=copier, cold=True) as session:
                self.rebuild = False
                stale = True  # statistics wait for a quiet moment: new events are published first
                while not self.stop.is_set():
                    looked = time.time()
                    intact = session.copy_intact()
                    if not intact and session.published is not None:
                        self.say("the published read models were removed or written over; publishing them again")
                    if projector.behind() or not intact:
                        projected = session.step(statistics=False)
                        stale = True
                        if self.on_run is not None:
                            self.on_run(projected)
                    elif stale:
                        session.step(statistics=True)
                        stale = False
                    elif session.fill_some():  # a cold start: the games before the current tournament's
                        pass
                    elif not session.catch_up():  # the other file brought up to date while nothing happens
                        session.verify()  # once per publish, at a quiet look: it would delay the next event
                    self.broadcast.look(statistics=not stale)
                    self._up_to_date(looked, projector.position, session.filling())
                    self.stop.wait(self.interval)
        finally:
            copier.close()

    def _up_to_date(self, looked: float, position: int | None, filling: tuple[int, int] | None = None) -> None:
        """The published read models held every event stored at ``looked`` (of a cold start's scope while it is
        ``filling``): said once after failures, written down."""
        if self.failures:
            self.say("the read models are up to date again")
            self.failures = 0
        if position == self.written[0] and looked - self.written[1] < STATUS_SECONDS:
            return
        self._write_status(looked, position, filling)

    def _start_status(self) -> None:
        """A first status when there is none: the published read models held every event stored when published."""
        if self.status.exists():
            return
        with contextlib.suppress(OSError):
            self._write_status((self.folder / settings.PUBLISHED_FILE).stat().st_mtime, None)

    def _write_status(self, confirmed: float, position: int | None, filling: tuple[int, int] | None = None) -> None:
        tmp = self.status.with_name(f".{self.status.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"confirmed": confirmed, "position": position, "pid": os.getpid(),
                                       "filling": filling}))
            os.replace(tmp, self.status)
        except OSError:  # a full disk: the status grows old, which the pages say
            with contextlib.suppress(OSError):
                tmp.unlink()
            return
        self.written = (position, confirmed)


class Broadcast:
    """What spectators may see (projections.spectators), made after each publish and whenever an event a broadcast
    delay holds back comes due, and put in every feed: the data folder's own (``<data>/broadcast``) and the
    pub/sub ``ROLLCALL_FEED`` names, if any (projections.feeds). A feed that cannot take a publish is said once
    and given everything again when it can; one that lost what it held (a Redis restarted) is given it again too
    (looked at every CHECK_SECONDS). Nothing here stops the follower: a failure is said and tried at the next
    look."""

    CHECK_SECONDS = 5.0

    def __init__(self, folder: Path, say: Say) -> None:
        from projections.feeds import FolderFeed, feed_for
        from projections.spectators import Spectators

        self.folder, self.say = folder, say
        self.spectators = Spectators()
        url = settings.feed_url()
        self.feeds = [FolderFeed(folder / settings.BROADCAST_FOLDER), *([feed_for(url)] if url else [])]
        self.latest: dict[str, bytes] = {}  # key -> the snapshot last made
        self.behind: set = set()  # the feeds to be given every snapshot again
        self.version: int | None = None  # of the read models last looked at
        self.checked = time.monotonic()
        self.failing = False

    def look(self, statistics: bool = True) -> None:
        from projections.publish import open_published
        from projections.queries import published_version

        try:
            version = published_version(self.folder)
        except OSError:
            return
        if version != self.version or self.spectators.is_due() or (statistics and self.spectators.awaiting):
            try:
                con = open_published(self.folder / settings.PUBLISHED_FILE)
                try:
                    changed = self.spectators.look(con, statistics=statistics)
                finally:
                    con.close()
            except Exception as exc:  # noqa: BLE001 - said, and tried again at the next look
                if not self.failing:
                    self.say(f"what spectators see could not be made ({_reason(exc)}); trying again")
                self.failing = True
                return
            if self.failing:
                self.say("what spectators see is made again")
            self.failing, self.version = False, version
            self.latest.update(changed)
            self._publish(changed)
        if self.latest and time.monotonic() - self.checked >= self.CHECK_SECONDS:
            self.checked = time.monotonic()
            self.behind |= {feed for feed in self.feeds if feed not in self.behind and not feed.intact(len(self.latest))}
            self._publish([])

    def _publish(self, changed: list[tuple[str, bytes]]) -> None:
        from projections.feeds import FeedLost

        for feed in self.feeds:
            again = feed in self.behind
            try:
                feed.publish(list(self.latest.items()) if again else changed)
            except (FeedLost, OSError) as exc:
                if not again:
                    self.say(f"the broadcast's feed {feed.url} could not be reached ({_reason(exc)}); its front ends "
                             "show what they had until it can")
                self.behind.add(feed)
                continue
            if again:
                self.say(f"the broadcast's feed {feed.url} is given every snapshot again")
                self.behind.discard(feed)

    def close(self) -> None:
        for feed in self.feeds:
            feed.close()


def _reason(exc: BaseException) -> str:
    """An exception in one line."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


class Supervisor:
    """A follower process (``python -m projections.follow DATA``) kept running beside the dashboard: one that stops
    without being asked (killed, crashed) is started again after a pause that doubles from RESTART_FIRST up to
    RESTART_MAX (from RESTART_FIRST again once one ran RESTART_RESET seconds), each restart said on stderr. The
    process has a process group of its own: a Ctrl-C at the terminal reaches the dashboard, which stops it."""

    def __init__(self, data_dir: str | os.PathLike | None, env: dict | None = None, say: Say = _say) -> None:
        self.command = [sys.executable, "-m", "projections.follow", str(settings.data_dir(data_dir).resolve())]
        self.env, self.say = env, say
        self.process: subprocess.Popen | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="follower supervisor", daemon=True)

    def start(self) -> Supervisor:
        self._thread.start()
        return self

    def _watch(self) -> None:
        quick = 0  # restarts in a row of followers that stopped soon
        while True:
            started = time.monotonic()
            with self._lock:
                if self._stop.is_set():
                    return
                try:
                    self.process = process = subprocess.Popen(self.command, env=self.env, stdin=subprocess.DEVNULL,
                                                              process_group=0)
                except OSError as exc:  # no process could be started (no memory, too many processes)
                    process, why = None, f"could not be started ({_reason(exc)})"
            if process is not None:
                why = f"stopped unexpectedly ({_exit(process.wait())})"
            if self._stop.is_set():
                return
            quick = 1 if time.monotonic() - started >= RESTART_RESET else quick + 1
            delay = min(RESTART_FIRST * 2 ** (quick - 1), RESTART_MAX)
            self.say(f"{why}; starting again in {delay:g} s")
            self._stop.wait(delay)

    def stop(self, timeout: float = 60.0) -> None:
        """Stop the follower (SIGTERM: it finishes its open batch) and stop starting it again."""
        with self._lock:
            self._stop.set()
            process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._thread.is_alive():
            self._thread.join(timeout)


def _exit(status: int) -> str:
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


def main(argv: list[str]) -> None:
    data = Path(argv[0]) if argv else None
    interval = float(argv[1]) if len(argv) > 1 else INTERVAL
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        follow(data, interval, stop)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
