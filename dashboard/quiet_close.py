"""A browser that leaves is not an error of the server.

When a tablet's browser is closed, killed or loses the wifi while its page is being sent something,
Streamlit's websocket endpoint tries to read from (and then close) a connection Starlette already marked
disconnected, and Starlette raises ``WebSocketDisconnected`` out of the endpoint: uvicorn printed it as
"Exception in ASGI application" with two tracebacks in the organiser's terminal, for nothing gone wrong.
Streamlit forgets the page's session in the endpoint's own ``finally`` before that, so this middleware of
dashboard/server.py only keeps the leaving quiet (a line at debug level); any other exception passes.
"""

from __future__ import annotations

import logging

from starlette.websockets import WebSocketDisconnected

log = logging.getLogger(__name__)


class QuietClose:
    """ASGI middleware: a websocket whose browser left ends without a traceback."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnected as gone:
            log.debug("a browser left %s: %s", scope.get("path"), gone)
