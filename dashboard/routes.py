"""Rollcall's own HTTP routes, served beside the dashboard's pages by ``dashboard/server.py``.

Each feature keeps its routes in its own module (a ``ROUTES`` list of Starlette routes, every path under
``/rc/``) and is named here once.
"""

from __future__ import annotations

from importlib import import_module

from starlette.responses import PlainTextResponse
from starlette.routing import Route

PREFIX = "/rc"
FEATURES: tuple[str, ...] = ("dashboard.signin_routes", "dashboard.broadcast_routes", "dashboard.changes_routes")  # modules with a ROUTES list


async def alive(request) -> PlainTextResponse:
    """Rollcall's routes answer (beside Streamlit's own /_stcore/health)."""
    return PlainTextResponse("ok")


def routes() -> list:
    """Every route of Rollcall's features, under PREFIX."""
    found = [Route(f"{PREFIX}/alive", alive)]
    for name in FEATURES:
        found.extend(import_module(name).ROUTES)
    return found
