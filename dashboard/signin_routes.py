"""The sign-in's HTTP routes (named in dashboard/routes.py): the server sets and clears the browser's session
cookie itself, ``HttpOnly`` (no page script can read it), ``SameSite=Strict``, ``Secure`` under HTTPS; and hears
when a person uses the device (a tap or a key on one of its pages), which alone keeps it signed in.

Every route is a POST from the dashboard's own pages (static/session.js): another site's page can neither send the
cookie (SameSite) nor pass the origin check.

- ``/rc/session/claim`` ``{"ticket": T}``: the cookie set to the session id of the sign-in ticket T stands for;
- ``/rc/session/clear`` ``{"ticket": T}``: the cookie cleared, if it still holds the session id T stands for (not
  a sign-in another tab made meanwhile);
- ``/rc/session/used``: the device of the cookie was used by a person now;
- ``/rc/session/ticket``: a ticket for the sign-in the cookie holds, with which another tab of the browser follows
  it (the tab never learns the session id).
"""

from __future__ import annotations

import json
import os
from urllib.parse import urlsplit

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dashboard.devices import DEVICES, TICKETS, cookie_name
from domain import settings

PATH = "/rc/session"
MAX_BODY = 1024


def _port() -> object:
    from streamlit import config

    return config.get_option("server.port")


def _idle_seconds() -> float:
    from domain.errors import RollcallError

    try:
        return settings.idle_minutes() * 60
    except RollcallError:
        return settings.DEFAULT_IDLE_MINUTES * 60


def _same_origin(request) -> bool:
    """A request of the dashboard's own pages: its Origin, when the browser sends one, is the host it asked."""
    origin = request.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == request.headers.get("host", "")


def secure(request) -> bool:
    """Whether the browser reached the dashboard over HTTPS (its own, or a proxy's the devices reach)."""
    told = os.environ.get(settings.BASE_URL_ENV, "")
    return request.url.scheme == "https" or told.startswith("https:")


async def _ticket_of(request, kind: str):
    body = await request.body()
    if len(body) > MAX_BODY:
        return None
    try:
        given = json.loads(body or b"{}")
    except ValueError:
        return None
    return TICKETS.redeem(given.get("ticket") if isinstance(given, dict) else None, kind)


def _set(response: Response, request, name: str, value: str, *, clear: bool = False) -> Response:
    response.set_cookie(name, value, max_age=0 if clear else None, path="/", secure=secure(request), httponly=True,
                        samesite="strict")
    return response


async def claim(request) -> Response:
    if not _same_origin(request):
        return Response(status_code=403)
    ticket = await _ticket_of(request, "set")
    if ticket is None:
        return Response(status_code=403)
    return _set(Response(status_code=204), request, ticket.cookie, ticket.sid)


async def clear(request) -> Response:
    if not _same_origin(request):
        return Response(status_code=403)
    ticket = await _ticket_of(request, "clear")
    if ticket is None:
        return Response(status_code=403)
    held = request.cookies.get(ticket.cookie)
    if held and held != ticket.sid:  # another tab signed in meanwhile: its sign-in stays
        return Response(status_code=204)
    return _set(Response(status_code=204), request, ticket.cookie, "", clear=True)


async def used(request) -> Response:
    if not _same_origin(request):
        return Response(status_code=403)
    sid = request.cookies.get(cookie_name(_port()))
    signed_in = bool(sid) and DEVICES.used(sid, _idle_seconds())
    return JSONResponse({"signed_in": signed_in})


async def tab_ticket(request) -> Response:
    if not _same_origin(request):
        return Response(status_code=403)
    name = cookie_name(_port())
    sid = request.cookies.get(name)
    return JSONResponse({"ticket": TICKETS.issue("tab", sid, name) if sid else None})


ROUTES = [Route(f"{PATH}/claim", claim, methods=["POST"]), Route(f"{PATH}/clear", clear, methods=["POST"]),
          Route(f"{PATH}/used", used, methods=["POST"]), Route(f"{PATH}/ticket", tab_ticket, methods=["POST"])]
