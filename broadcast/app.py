"""A front end's HTTP routes: the spectators' event stream, their pages, the pages' script.

- ``GET /feed?key=K&key=…`` — server-sent events: the latest snapshot of each key asked for (and of what it
  follows), then each new one as the hub receives it (broadcast.hub); deflated (``Content-Encoding: deflate``)
  for a client that takes it, each frame deflated once for all. A browser's EventSource connects again by
  itself after a break and is sent what it follows anew.
- ``GET /live?tournament=T&round=R`` — the Live page: every table of a round (the latest one, unless ``round``
  names one; without ``tournament``, every game under way), each card moving on as its snapshot does.
- ``GET /overlay?game=G`` or ``/overlay?tournament=T&table=N`` — a stream overlay of one table.
- ``GET /static/spectate.js``, ``/static/spectate.css`` — the pages' script and style (also the dashboard's
  component: dashboard/spectate_component.py).
- ``GET /health`` — whether the feed answers and the front end has caught up, how many keys and spectators.

Every page is a spectator's: it shows the snapshots and nothing else, so the broadcast delay the follower applied
holds here too. Pages speak ``?lang=`` or the browser's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from html import escape
from pathlib import Path
from urllib.parse import urlencode

import orjson
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from broadcast.hub import CLOSE, MAX_KEYS, ZLIB_HEADER, Hub, pack
from domain.record import slug
from i18n import SOURCE, _, known, speaking
from projections.spectators import key as snapshot_key

STATIC = Path(__file__).parent / "static"
MAX_KEY = 300  # characters of one key
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}  # a proxy must pass each event on at once


def static_text(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def takes_deflate(request: Request) -> bool:
    """Whether the client's Accept-Encoding takes ``deflate`` (every browser's does)."""
    for part in request.headers.get("accept-encoding", "").lower().split(","):
        name, *params = (p.strip() for p in part.split(";"))
        if name in ("deflate", "*"):
            q = next((p[2:] for p in params if p.startswith("q=")), "1")
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


RETRY = b"retry: 2000\n\n"


def keys_of(request: Request) -> list[str] | None:
    """The keys a stream asks for (None: none, too many, or one that is no key)."""
    found = request.query_params.getlist("key")
    if not found or len(found) > MAX_KEYS:
        return None
    if any(not k or len(k) > MAX_KEY or not k.isascii() or not k.isprintable() for k in found):
        return None
    return found


class EventStream:
    """``/feed``: one spectator's server-sent events, straight on ASGI (a frame is written as it comes, and a
    connection closed by the browser lets its spectator go at once)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def __call__(self, scope, receive, send) -> None:
        self.hub.start()  # (the dashboard's hub starts with its first spectator)
        request = Request(scope, receive)
        keys = keys_of(request)
        if keys is None:
            await PlainTextResponse(f"name 1 to {MAX_KEYS} keys: /feed?key=…", status_code=400)(scope, receive, send)
            return
        deflate = takes_deflate(request)
        spectator = self.hub.subscribe(keys, deflate)

        async def left() -> None:  # the browser went away: nothing more to send
            while (await receive())["type"] != "http.disconnect":
                pass
            spectator.send(CLOSE)

        watching = asyncio.ensure_future(left())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"vary", b"accept-encoding"),
                *([(b"content-encoding", b"deflate")] if deflate else []),
                *((k.lower().encode(), v.encode()) for k, v in HEADERS.items())]})
            await send({"type": "http.response.body", "body": ZLIB_HEADER + pack(RETRY) if deflate else RETRY,
                        "more_body": True})
            while True:
                data = await spectator.frames()
                if data is CLOSE or not data:
                    break
                await send({"type": "http.response.body", "body": data, "more_body": True})
            with contextlib.suppress(OSError):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:  # the connection broke while a frame was written
            pass
        finally:
            watching.cancel()
            self.hub.unsubscribe(spectator)


def language(request: Request) -> str:
    """``?lang=``, else the browser's first language Rollcall speaks, else English."""
    asked = known(request.query_params.get("lang"))
    if asked:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        found = known(part.split(";")[0])
        if found:
            return found
    return SOURCE


def _script_json(value) -> str:
    """JSON to put inside a <script> element (no ``</script>`` can end it early)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def page(lang: str, title: str, body: str, data: dict | None, *, overlay: bool = False) -> HTMLResponse:
    mount = (f'<script type="module">import mount from "./static/spectate.js";'
             f'mount({{data: {_script_json(data)}, parentElement: document.getElementById("rc-root")}});</script>'
             if data is not None else "")
    style = ("html,body{background:transparent;margin:0;padding:1rem 1.5rem}" if overlay else
             "body{font-family:sans-serif;margin:0 auto;padding:1rem;max-width:1400px;color:#31333f}"
             "nav{display:flex;flex-wrap:wrap;gap:.4rem .9rem;margin:.3rem 0 .9rem}nav a{color:#1c83e1}"
             "nav a[aria-current]{font-weight:700;color:inherit;text-decoration:none}")
    html = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{escape(title)}</title>'
            f'<link rel="stylesheet" href="./static/spectate.css"><style>{style}</style></head>'
            f'<body>{body}<div id="rc-root" class="rc-spectate"></div>{mount}</body></html>')
    return HTMLResponse(html, headers=HEADERS)


def _held(hub: Hub, found: str) -> dict | None:
    held = hub.latest.get(found)
    if held is None:
        return None
    return orjson.loads(held.frame[len(b"event: snapshot\ndata: "):-2])


def texts() -> dict[str, str]:
    return {"waiting": _("Waiting for the broadcast: the tables appear here as soon as this page receives them.")}


def live_page(hub: Hub):
    async def live(request: Request) -> Response:
        lang = language(request)
        params = request.query_params
        with speaking(lang):
            tournament = (params.get("tournament") or "").strip()[:200]
            round_no = params.get("round", "")
            index = _held(hub, snapshot_key("index", lang)) or {}
            if tournament:
                found = snapshot_key("round", lang, slug(tournament), int(round_no)) if round_no.isdigit() and \
                    len(round_no) < 6 else snapshot_key("tournament", lang, slug(tournament))
            else:
                found = snapshot_key("index", lang)
            nav = [(_("every game under way"), {"lang": lang}, not tournament)]
            for t in index.get("tournaments") or []:
                nav.append((t["name"], {"tournament": t["name"], "lang": lang},
                            bool(tournament) and slug(tournament) == t["slug"] and not round_no))
            rounds = next((t["rounds"] for t in index.get("tournaments") or [] if tournament and
                           t["slug"] == slug(tournament)), [])
            links = "".join(f'<a href="live?{escape(urlencode(q))}"{" aria-current=page" if here else ""}>'
                            f'{escape(name)}</a>' for name, q, here in nav)
            round_links = "".join(
                f'<a href="live?{escape(urlencode({"tournament": tournament, "round": r, "lang": lang}))}"'
                f'{" aria-current=page" if round_no == str(r) else ""}>{escape(_("round {number}").format(number=r))}</a>'
                for r in rounds)
            body = (f"<h1>{escape(_('Live'))}</h1><nav>{links}</nav>"
                    + (f'<nav aria-label="{escape(_("Round"))}">{round_links}</nav>' if round_links else ""))
            return page(lang, _("Live"), body, {"feed": "feed", "keys": [found], "view": "live", "link": "overlay",
                                                "lang": lang, "texts": texts()})
    return live


def said(lang: str, text: str) -> HTMLResponse:
    """An overlay that shows one sentence on a dark panel (no game to show)."""
    return page(lang, _("Overlay"), f'<div class="rc-ov"><div class="rc-ov-panel">{escape(text)}</div></div>', None,
                overlay=True)


def overlay_page(hub: Hub):
    async def overlay(request: Request) -> Response:
        lang = language(request)
        params = request.query_params
        with speaking(lang):
            game = (params.get("game") or "").strip()[:200]
            if not game and params.get("tournament"):
                table = params.get("table", "")
                tournament = _held(hub, snapshot_key("tournament", lang, slug(params["tournament"][:200])))
                latest = _held(hub, tournament["follow"][0]) if tournament and tournament.get("follow") else None
                at = [t for t in (_held(hub, k) for k in (latest or {}).get("follow") or []) if t and
                      str(t.get("table")) == table]
                if not at:
                    return said(lang, _("No game at table {table} of {tournament}.").format(
                        table=table[:6], tournament=params["tournament"][:200]))
                game = at[0]["game"]
            if not game:
                return said(lang, _("Name a game: /overlay?game=G."))
            return page(lang, _("Overlay"), "", {"feed": "feed", "keys": [snapshot_key("table", lang, game),
                                                                          snapshot_key("board", lang, game)],
                                                 "view": "overlay", "lang": lang, "texts": texts()}, overlay=True)
    return overlay


def health(hub: Hub):
    async def answer(request: Request) -> JSONResponse:
        hub.start()
        return JSONResponse({"connected": hub.connected, "caught_up": hub.caught_up.is_set(), "keys": len(hub.latest),
                             "spectators": len(hub.spectators), "received": hub.received})
    return answer


def static_route(name: str, media: str):
    body = static_text(name)

    async def serve(request: Request) -> Response:
        return Response(body, media_type=media, headers={"Cache-Control": "no-cache"})
    return serve


def routes(hub: Hub, prefix: str = "", pages: bool = True) -> list:
    """The front end's routes under ``prefix`` (the dashboard's: ``/rc/broadcast``, the stream and health only)."""
    found = [Route(f"{prefix}/feed", EventStream(hub)), Route(f"{prefix}/health", health(hub))]
    if pages:
        found += [Route(f"{prefix}/", lambda request: RedirectResponse("live")),
                  Route(f"{prefix}/live", live_page(hub)), Route(f"{prefix}/overlay", overlay_page(hub)),
                  Route(f"{prefix}/static/spectate.js", static_route("spectate.js", "text/javascript")),
                  Route(f"{prefix}/static/spectate.css", static_route("spectate.css", "text/css"))]
    return found


