"""The live machinery heals itself: the follower that keeps the published read models current comes back after
kill -9 (the dashboard starts it again), goes on after a full disk has room again, takes over from another
dashboard's follower that stops, and publishes again a copy that was damaged, emptied or removed; a second
`rollcall dashboard` or `demo` of a served data folder says the running dashboard's URL. Real processes, real
files; nobody runs `rollcall project`."""

from __future__ import annotations

import os
import resource
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from processes import ROOT, alive, children, following, rollcall, stopped, until
from stored import add_game
from venue import free_port

from domain.settings import EVENTS_FILE, PUBLISHED_FILE, READ_FILES
from projections.projector import Projector
from projections.queries import connect_read

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")]
UP = 120  # seconds a dashboard or a follower may take to come up and catch up on this shared machine


def stored(data: Path) -> int:
    """The store's last notification id."""
    con = sqlite3.connect(f"file:{data / EVENTS_FILE}?mode=ro", uri=True)
    try:
        return con.execute("SELECT max(rowid) FROM stored_events").fetchone()[0] or 0
    finally:
        con.close()


def published(data: Path) -> int | None:
    """The tracking position of the published copy (None: it does not open)."""
    try:
        con = connect_read(data)
    except Exception:  # noqa: BLE001 - missing, empty or damaged: all "not readable"
        return None
    try:
        return con.execute("SELECT max(notification_id) FROM tracking").fetchall()[0][0]
    except Exception:  # noqa: BLE001
        return None
    finally:
        con.close()


def caught_up(data: Path, what: str) -> None:
    until(lambda: published(data) == stored(data), UP, f"the published read models did not catch up {what}")


def follower_of(dashboard: subprocess.Popen) -> int:
    """The pid of the dashboard's follower process."""
    return until(lambda: next((pid for pid, command in children(dashboard.pid).items()
                               if "projections.follow" in command), None), UP, "the dashboard started no follower")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    add_game(folder, 1, "heal")
    return folder


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def dashboard(data: Path, log: Path) -> subprocess.Popen:
    return rollcall("dashboard", "--no-open", "--port", str(free_port()), "--data", str(data), log=log)


def follower(data: Path, log: Path) -> subprocess.Popen:
    """A follower alone, as the dashboard starts it."""
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "projections.follow", str(data), "0.1"], cwd=ROOT,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT)


def test_a_follower_killed_is_started_again_and_the_published_copy_catches_up(data: Path, tmp_path: Path) -> None:
    served = dashboard(data, tmp_path / "dashboard.log")
    try:
        first = follower_of(served)
        caught_up(data, "at the start")
        os.kill(first, 9)
        add_game(data, 2, "heal")  # stored while no follower runs
        caught_up(data, "after kill -9 of the follower")
        assert follower_of(served) != first and not alive(first)
        assert "stopped unexpectedly (killed by SIGKILL); starting again in 1 s" in (
            tmp_path / "dashboard.log").read_text()
    finally:
        stopped(served)


def test_publishing_resumes_when_a_full_disk_has_room_again(data: Path, tmp_path: Path) -> None:
    """The disk is "full" for the follower alone: its files may not grow past a few bytes (RLIMIT_FSIZE, set on
    the running process as a full disk would stop it), then the limit is lifted."""
    log = tmp_path / "follower.log"
    process = follower(data, log)
    try:
        caught_up(data, "at the start")
        limits = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (4096, limits[1]))
        add_game(data, 2, "heal")
        until(lambda: "could not be brought up to date" in log.read_text(), UP, "the failed write was not said")
        assert published(data) < stored(data)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, limits)  # room again
        caught_up(data, "once the disk had room again")
        # said after the step that published (and the broadcast's look): a moment after the copy caught up
        until(lambda: "the read models are up to date again" in log.read_text(), UP, "the recovery was not said")
        assert process.poll() is None  # the same follower went on: a failed step is tried again, not fatal
    finally:
        stopped(process)


def test_a_second_dashboard_on_the_folder_takes_over_when_the_first_stops(data: Path, tmp_path: Path) -> None:
    first = dashboard(data, tmp_path / "first.log")
    second = None
    try:
        follower_of(first)
        caught_up(data, "at the start")
        second = dashboard(data, tmp_path / "second.log")  # (an explicit --port serves it beside the first)
        waiting = follower_of(second)
        until(lambda: "takes over when it stops" in (tmp_path / "second.log").read_text(), UP,
              "the second dashboard's follower did not wait for the lock")
        assert stopped(first) == 0
        add_game(data, 2, "heal")
        caught_up(data, "after the first dashboard stopped")
        assert following(data) == waiting
    finally:
        stopped(first)
        if second is not None:
            stopped(second)


@pytest.mark.parametrize("harm", ["random bytes", "0 bytes", "deleted", "the live file written over too"])
def test_a_damaged_published_copy_is_published_again(harm: str, data: Path, tmp_path: Path) -> None:
    Projector(data).run()  # (statistics too: the follower has nothing left to publish)
    process = follower(data, tmp_path / "follower.log")
    try:
        until(lambda: following(data) == process.pid, UP, "the follower did not find the read models up to date")
        copy = data / PUBLISHED_FILE
        if harm == "random bytes":
            copy.write_bytes(os.urandom(300_000))
        elif harm == "0 bytes":
            copy.write_bytes(b"")
        elif harm == "deleted":
            copy.unlink()
        else:
            for live_file in [data / name for name in READ_FILES if (data / name).exists()]:  # the file the
                with open(live_file, "r+b") as live:  # follower writes next as well as the one readers open
                    live.write(os.urandom(200_000))
            copy.write_bytes(os.urandom(300_000))
            add_game(data, 2, "heal")  # the next batch meets the damaged live file
        caught_up(data, f"after the copy's {harm}")
        assert process.poll() is None
    finally:
        stopped(process)


def test_a_second_demo_or_dashboard_of_a_served_folder_says_its_url_and_exits_0(data: Path, tmp_path: Path) -> None:
    port = free_port()
    served = rollcall("dashboard", "--no-open", "--port", str(port), "--data", str(data), log=tmp_path / "first.log")
    try:
        url = f"http://localhost:{port}"
        until(lambda: answers(url), UP, "the dashboard did not come up")
        for command in (["demo", "--no-open"], ["dashboard", "--no-open"]):
            again = subprocess.run([sys.executable, "-m", "cli.main", *command, "--data", str(data)], cwd=ROOT,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                                   timeout=600)
            assert again.returncode == 0, again.stderr
            assert f"a dashboard serves {data.resolve()} already: {url}" in again.stdout
            assert "a projector follows" not in again.stdout + again.stderr
        assert served.poll() is None
        caught_up(data, "with the demo stored")  # the running dashboard's follower projected the demo
        assert published(data) > 1_000
    finally:
        stopped(served)
