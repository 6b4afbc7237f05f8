"""The spectators' pages' component: snapshots of what a spectator may see (projections.spectators) drawn in the
browser by broadcast/static/spectate.js — the Live page's grid of tables, the overlay — pushed by the dashboard's
own front end (dashboard/broadcast_routes.py) as server-sent events, so no run of the page's script is needed
for an event. A signed-in viewer's page hands it snapshots made as that viewer sees (everything) at each run."""

from __future__ import annotations

import orjson
import streamlit as st

from broadcast.app import static_text, texts
from dashboard.broadcast_routes import FEED
from i18n import current

KEY = "spectate"


@st.cache_resource(show_spinner=False)
def _component():
    # in the page's own DOM, not a shadow root: the cards are the page's, as any element Streamlit draws
    return st.components.v2.component("rollcall_spectate", html='<div class="rc-spectate"></div>',
                                      css=static_text("spectate.css"), js=static_text("spectate.js"),
                                      isolate_styles=False)


def spectate(view: str, keys: list[str], snapshots: list[bytes] | None = None) -> None:
    """Mount the spectators' view ``view`` ("live", "overlay") of the snapshots ``keys``: pushed from the feed,
    or, when ``snapshots`` is given (a signed-in viewer's), those."""
    data = {"feed": None if snapshots is not None else FEED, "keys": keys, "view": view, "link": "replay",
            "lang": current(), "texts": texts(),
            "snapshots": [orjson.loads(s) for s in snapshots or []]}
    _component()(data=data, key=KEY, height="content")
