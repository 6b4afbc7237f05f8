"""The server's memory of signed-in browsers (dashboard.devices: Devices, Tickets), on a clock of the test's own: a
device is kept signed in by a person's use alone, never by a page looking."""

from __future__ import annotations

from dashboard.devices import Devices, Tickets, Who

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
    assert devices.used(sid, IDLE)  # a tap: the idle time starts again
    clock.now += IDLE - 1
    assert devices.find(sid, "/data", IDLE)[0] is not None
    clock.now += 2
    assert devices.find(sid, "/data", IDLE) == (None, Devices.IDLE)
    assert not devices.used(sid, IDLE), "a tap after the idle time brings nobody back"
    assert devices.find(sid, "/data", 10 * IDLE) == (None, Devices.GONE)  # signed out for good


def test_looking_at_a_device_is_never_a_use() -> None:
    """A page's run (a timed rerun of an open page, a follower's publish) looks; only a person's tap or key uses."""
    clock = Clock()
    devices = Devices(clock)
    sid = devices.add("rk_secret", Who("Sam", "scorekeeper"), "/data", IDLE)
    for _ in range(IDLE // 3 - 1):  # an open page looking every 3 s
        clock.now += 3
        assert devices.find(sid, "/data", IDLE)[0] is not None
    clock.now += 4
    assert devices.find(sid, "/data", IDLE) == (None, Devices.IDLE)


def test_a_ticket_is_used_once_for_its_kind_and_void_after_a_while() -> None:
    clock = Clock()
    tickets = Tickets(clock)
    value = tickets.issue("set", "sid-1", "rollcall_session_8501")
    assert tickets.redeem(value, "clear") is None, "a ticket of another kind"
    value = tickets.issue("set", "sid-1", "rollcall_session_8501")
    found = tickets.redeem(value, "set")
    assert (found.sid, found.cookie) == ("sid-1", "rollcall_session_8501")
    assert tickets.redeem(value, "set") is None, "used once"
    late = tickets.issue("clear", "sid-1", "rollcall_session_8501")
    clock.now += 121
    assert tickets.redeem(late, "clear") is None
    assert tickets.redeem(None, "set") is None and tickets.redeem(["x"], "set") is None


def test_signing_out_drops_the_device_and_a_new_sign_in_drops_those_left_alone() -> None:
    clock = Clock()
    devices = Devices(clock)
    gone, old = (devices.add("rk_a", Who("A", "judge"), "/data", IDLE) for _ in range(2))
    devices.drop(gone)
    assert devices.find(gone, "/data", IDLE) == (None, Devices.GONE)
    clock.now += IDLE + 1
    devices.add("rk_b", Who("B", "judge"), "/data", IDLE)
    assert devices.find(old, "/data", 10 * IDLE) == (None, Devices.GONE)  # forgotten, not only refused
