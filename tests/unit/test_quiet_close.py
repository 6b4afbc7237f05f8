"""A browser that leaves while its page is being sent something ends its websocket without a traceback in the
organiser's terminal (dashboard/quiet_close.py); other failures still surface."""

from __future__ import annotations

import asyncio

import pytest
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from dashboard.quiet_close import QuietClose


async def streamlit_like(scope, receive, send) -> None:
    """What Streamlit's websocket endpoint does when the browser is gone while the server sends: the send
    fails, the next read and the close find the connection disconnected."""
    websocket = WebSocket(scope, receive, send)
    await websocket.accept()
    try:
        await websocket.send_bytes(b"a delta")
    except WebSocketDisconnect:
        pass
    try:
        await websocket.receive_bytes()
    except RuntimeError:
        await websocket.close()


def run(app, scope_type: str = "websocket") -> list[dict]:
    sent: list[dict] = []
    queue = [{"type": "websocket.connect"}]

    async def receive() -> dict:
        return queue.pop(0) if queue else {"type": "websocket.disconnect", "code": 1006}

    async def send(message: dict) -> None:
        sent.append(message)
        if message["type"] == "websocket.send":
            raise OSError("the browser's connection was reset")

    scope = {"type": scope_type, "path": "/_stcore/stream", "headers": [], "query_string": b""}
    asyncio.run(QuietClose(app)(scope, receive, send))
    return sent


def test_a_websocket_whose_browser_left_ends_quietly() -> None:
    with pytest.raises(WebSocketDisconnected):  # what uvicorn printed as "Exception in ASGI application"
        asyncio.run(streamlit_like({"type": "websocket", "path": "/", "headers": [], "query_string": b""},
                                   _connect_then_gone(), _reset))
    sent = run(streamlit_like)
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.send"]


def test_any_other_failure_of_a_websocket_still_surfaces() -> None:
    async def broken(scope, receive, send) -> None:
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        run(broken)


def test_http_requests_pass_through_untouched() -> None:
    async def page(scope, receive, send) -> None:
        raise WebSocketDisconnected("not a websocket")

    with pytest.raises(WebSocketDisconnected):
        run(page, "http")


def _connect_then_gone():
    queue = [{"type": "websocket.connect"}]

    async def receive() -> dict:
        return queue.pop(0) if queue else {"type": "websocket.disconnect", "code": 1006}

    return receive


async def _reset(message: dict) -> None:
    if message["type"] == "websocket.send":
        raise OSError("the browser's connection was reset")
