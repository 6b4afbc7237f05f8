"""The sign-in's routes (dashboard.signin_routes), called as the server calls them, on a clock of the test's own:
the server sets the session cookie HttpOnly (Secure under HTTPS) for a sign-in's ticket, clears it only while it
holds that sign-in, refuses another site's request, and keeps a device signed in only when a person uses it."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.requests import Request

from dashboard import signin_routes as routes
from dashboard.devices import DEVICES, TICKETS, Who, cookie_name

IDLE = 30 * 60
COOKIE = cookie_name(8501)


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(DEVICES, "clock", clock)
    monkeypatch.setattr(TICKETS, "clock", clock)
    monkeypatch.setenv("ROLLCALL_IDLE_MINUTES", "30")
    monkeypatch.delenv("ROLLCALL_BASE_URL", raising=False)
    return clock


def call(endpoint, body: dict | None = None, *, cookie: str | None = None, scheme: str = "http",
         origin: str | None = "http://192.0.2.2:8501"):
    headers = [(b"host", b"192.0.2.2:8501"), (b"content-type", b"application/json")]
    if origin is not None:
        headers.append((b"origin", origin.replace("http:", f"{scheme}:").encode()))
    if cookie is not None:
        headers.append((b"cookie", f"{COOKIE}={cookie}".encode()))
    payload = json.dumps(body or {}).encode()
    scope = {"type": "http", "method": "POST", "path": "/rc/session/x", "scheme": scheme, "headers": headers,
             "query_string": b"", "server": ("192.0.2.2", 8501)}

    async def receive():
        return {"type": "http.request", "body": payload, "more_body": False}

    return asyncio.run(endpoint(Request(scope, receive)))


def set_cookie(response) -> str:
    return next(v.decode() for k, v in response.raw_headers if k == b"set-cookie")


def signed_in() -> str:
    return DEVICES.add("rk_secret", Who("Sam", "scorekeeper"), "/data", IDLE)


def test_a_sign_ins_ticket_sets_the_session_cookie_httponly_and_strict(clock) -> None:
    sid = signed_in()
    answer = call(routes.claim, {"ticket": TICKETS.issue("set", sid, COOKIE)})
    assert answer.status_code == 204
    cookie = set_cookie(answer)
    assert cookie.startswith(f"{COOKIE}={sid};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie


def test_under_https_the_session_cookie_is_secure(clock) -> None:
    answer = call(routes.claim, {"ticket": TICKETS.issue("set", signed_in(), COOKIE)}, scheme="https")
    assert "Secure" in set_cookie(answer)


def test_a_ticket_sets_the_cookie_once_and_nothing_else_does(clock) -> None:
    ticket = TICKETS.issue("set", signed_in(), COOKIE)
    assert call(routes.claim, {"ticket": ticket}).status_code == 204
    assert call(routes.claim, {"ticket": ticket}).status_code == 403
    assert call(routes.claim, {"ticket": "guessed"}).status_code == 403
    assert call(routes.claim, {"ticket": TICKETS.issue("clear", "x", COOKIE)}).status_code == 403


def test_another_sites_request_is_refused(clock) -> None:
    ticket = TICKETS.issue("set", signed_in(), COOKIE)
    assert call(routes.claim, {"ticket": ticket}, origin="http://evil.example").status_code == 403
    assert call(routes.used, cookie="x", origin="http://evil.example").status_code == 403


def test_clearing_leaves_a_sign_in_another_tab_made_meanwhile(clock) -> None:
    old, new = signed_in(), signed_in()
    kept = call(routes.clear, {"ticket": TICKETS.issue("clear", old, COOKIE)}, cookie=new)
    assert kept.status_code == 204 and not any(k == b"set-cookie" for k, _ in kept.raw_headers)
    cleared = call(routes.clear, {"ticket": TICKETS.issue("clear", old, COOKIE)}, cookie=old)
    assert set_cookie(cleared).startswith(f'{COOKIE}="";') and "Max-Age=0" in set_cookie(cleared)


def test_a_persons_use_keeps_the_device_signed_in_and_nothing_else_does(clock) -> None:
    sid = signed_in()
    for _ in range(3):
        clock.now += IDLE - 10
        assert json.loads(call(routes.used, cookie=sid).body) == {"signed_in": True}
    assert DEVICES.find(sid, "/data", IDLE)[0] is not None
    clock.now += IDLE + 1  # left alone, however often its pages look
    assert DEVICES.find(sid, "/data", IDLE)[0] is None
    assert json.loads(call(routes.used, cookie=sid).body) == {"signed_in": False}


def test_another_tab_learns_the_sign_in_through_a_ticket_never_the_session_id(clock) -> None:
    sid = signed_in()
    answer = json.loads(call(routes.tab_ticket, cookie=sid).body)
    assert answer["ticket"] != sid
    assert TICKETS.redeem(answer["ticket"], "tab").sid == sid
    assert json.loads(call(routes.tab_ticket).body) == {"ticket": None}
