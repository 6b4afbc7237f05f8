"""``/rc/changes``: the event stream of what changed (dashboard.changes), for the listeners of a page.

- ``GET /rc/changes?key=K&key=…`` — server-sent events (broadcast.app.EventStream): each key's latest announcement
  held, then each new one.
- ``GET /rc/changes/health`` — how many looks the watcher made and how many streams are open.
A browser signed in (its session cookie) also follows its own ``device:`` key, so that its pages hear at once when
it is signed out; the session id itself is never in a URL nor sent back.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.responses import JSONResponse
from starlette.routing import Route

from broadcast.app import EventStream
from dashboard.changes import HUB, PATH, WATCHER, device_key


class Stream(EventStream):
    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            from dashboard.devices import cookie_name
            from starlette.requests import Request

            import streamlit as st

            sid = Request(scope).cookies.get(cookie_name(st.get_option("server.port")))
            if sid:
                extra = urlencode({"key": device_key(sid)}).encode()
                query = scope.get("query_string") or b""
                scope = {**scope, "query_string": query + b"&" + extra if query else extra}
        await super().__call__(scope, receive, send)


async def health(request) -> JSONResponse:
    return JSONResponse({"looks": WATCHER.looks, "streams": len(HUB.spectators), "keys": len(HUB.latest)})


ROUTES = [Route(PATH, Stream(HUB)), Route(f"{PATH}/health", health)]
