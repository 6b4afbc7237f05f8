"""The broadcast served by the dashboard itself, on one machine (the embedded default: no Redis, no NATS).

The follower puts what spectators may see in the data folder's feed (``<data>/broadcast``, projections.feeds);
this process reads it once (a hub, broadcast.hub) and streams each snapshot to the spectators' pages that follow
it — the Live page, the overlay (dashboard/spectate_component.py) — at ``/rc/broadcast/feed``: no page's script
runs again for an event. A snapshot the follower has not made (a game played before it started) is made here
from the read models when a page asks for it.
"""

from __future__ import annotations

import asyncio

from broadcast.app import routes
from broadcast.hub import Hub
from domain import settings
from projections.feeds import FolderFeed
from projections.queries import connect_read
from projections.spectators import made_now

PREFIX = "/rc/broadcast"
FEED = f"{PREFIX}/feed"


def _made(key: str) -> bytes | None:
    try:
        con = connect_read(settings.data_dir())
    except OSError:  # nothing published yet
        return None
    try:
        return made_now(con, key)
    finally:
        con.close()


async def make(key: str) -> bytes | None:
    return await asyncio.to_thread(_made, key)


HUB = Hub(FolderFeed(settings.data_dir() / settings.BROADCAST_FOLDER), make)
ROUTES = routes(HUB, PREFIX, pages=False)
