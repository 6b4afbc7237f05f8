"""``rollcall broadcast``: one stateless front end of the broadcast, fed by a pub/sub (broadcast.app's routes over
a hub reading the feed), served by uvicorn. Start as many as the viewers need, on as many machines, behind any
load balancer: each reads the feed itself and holds nothing a restart would lose."""

from __future__ import annotations

import contextlib

from starlette.applications import Starlette

from broadcast.app import routes
from broadcast.hub import Hub
from projections.feeds import Feed


def application(feed: Feed) -> Starlette:
    """The front end's app over ``feed``: its hub reads the feed while the app runs."""
    hub = Hub(feed)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = Starlette(routes=routes(hub), lifespan=lifespan)
    app.state.hub = hub
    return app


def serve(feed: Feed, host: str, port: int) -> None:
    """Serve the front end on ``host:port`` until interrupted."""
    import uvicorn

    uvicorn.run(application(feed), host=host, port=port, log_level="warning", access_log=False,
                timeout_graceful_shutdown=2, backlog=4096)
