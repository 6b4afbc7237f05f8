"""The server's memory of signed-in browsers (dashboard.session.Devices), on a clock of the test's own."""

from __future__ import annotations

from dashboard.session import Devices, Who

IDLE = 30 * 60


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_device_is_found_by_its_session_id_and_data_folder_only() -> None:
    devices = Devices(Clock())
    sid = devices.add("rk_secret", Who("Jules", "judge"), "/data", IDLE)
    found, why = devices.find(sid, "/data", IDLE)
    assert (found.who, found.key, why) == (Who("Jules", "judge"), "rk_secret", None)
    assert devices.find(sid, "/other-data", IDLE) == (None, Devices.GONE)
    assert devices.find("a-guessed-id", "/data", IDLE) == (None, Devices.GONE)
    other = devices.add("rk_secret", Who("Jules", "judge"), "/data", IDLE)
    assert other != sid and len(sid) >= 43  # 256 random bits, one id per sign-in


def test_each_use_restarts_the_idle_time_and_a_device_left_alone_longer_is_signed_out() -> None:
    clock = Clock()
    devices = Devices(clock)
    sid = devices.add("rk_secret", Who("Sam", "scorekeeper"), "/data", IDLE)
    clock.now += IDLE - 1
    assert devices.find(sid, "/data", IDLE)[0] is not None  # used: the idle time starts again
    clock.now += IDLE - 1
    assert devices.find(sid, "/data", IDLE)[0] is not None
    clock.now += IDLE + 1
    assert devices.find(sid, "/data", IDLE, touch=False) == (None, Devices.IDLE)  # a look signs nobody out
    assert devices.find(sid, "/data", IDLE) == (None, Devices.IDLE)
    assert devices.find(sid, "/data", 10 * IDLE) == (None, Devices.GONE)  # signed out for good


def test_a_look_without_use_does_not_restart_the_idle_time() -> None:
    clock = Clock()
    devices = Devices(clock)
    sid = devices.add("rk_secret", Who("Sam", "scorekeeper"), "/data", IDLE)
    clock.now += IDLE - 1
    assert devices.find(sid, "/data", IDLE, touch=False)[0] is not None
    clock.now += 2
    assert devices.find(sid, "/data", IDLE)[0] is None


def test_signing_out_drops_the_device_and_a_new_sign_in_drops_those_left_alone() -> None:
    clock = Clock()
    devices = Devices(clock)
    gone, old = (devices.add("rk_a", Who("A", "judge"), "/data", IDLE) for _ in range(2))
    devices.drop(gone)
    assert devices.find(gone, "/data", IDLE) == (None, Devices.GONE)
    clock.now += IDLE + 1
    devices.add("rk_b", Who("B", "judge"), "/data", IDLE)
    assert devices.find(old, "/data", 10 * IDLE) == (None, Devices.GONE)  # forgotten, not only refused
