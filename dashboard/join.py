"""How the venue's tablets and phones reach this dashboard: the address they use (what ``rollcall dashboard`` says
it serves them at, ``ROLLCALL_BASE_URL``; else the address this browser reached it at), every address it is served
at (``ROLLCALL_URLS``), and the big "join" QR code an organiser shows the tablets. The table cards link to the same
address by default."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from domain import settings

JOIN_SCALE = 10  # pixels per module: a code a tablet's camera reads across a table


@dataclass(frozen=True)
class Join:
    """What the join section shows: the address the devices use, and every address the dashboard is served at."""

    base: str
    addresses: tuple[str, ...]
    local_only: bool  # the dashboard serves this machine alone: no device of the venue reaches it


def browser_base(url: str | None) -> str | None:
    """The dashboard's address as a browser reached it (its page's URL without the page)."""
    if not url:
        return None
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}{parts.path.rsplit('/', 1)[0]}"


def join(browser_url: str | None, environ=os.environ) -> Join:
    """The join section of a dashboard whose page this browser reached at ``browser_url``."""
    from projections.cards import DEFAULT_BASE_URL

    told = (environ.get(settings.BASE_URL_ENV) or "").strip().rstrip("/")
    base = told or browser_base(browser_url) or DEFAULT_BASE_URL
    addresses = tuple(u for u in (environ.get(settings.URLS_ENV) or "").split() if u) or (base,)
    host = urlsplit(base).hostname or ""
    return Join(base, addresses, host in ("localhost", "127.0.0.1", "::1"))


def qr_png(url: str, scale: int = JOIN_SCALE) -> bytes:
    """A QR code of ``url`` as a PNG."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
