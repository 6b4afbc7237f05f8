"""Live pages: whatever a page shows follows the read models as the projector republishes them.

The dashboard's projector (projections.follow) republishes the read-only copy within a fraction of a
second of an event stored anywhere (the Record page, ``rollcall record``, another machine on PostgreSQL).
``follow_updates`` looks at the copy's version every ``LOOK_SECONDS`` in a fragment of the page and runs the
page again when it changed, so every page shows new events by itself; a page may pass ``on_change`` to
decide what a change means for it (the Replay page at its game's last event moves on with the game).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboard import data

LOOK_SECONDS = 1.0
SEEN = "live_version"


def follow_updates(on_change: Callable[[], None] | None = None) -> None:
    """Run the page again whenever the published read models change (``on_change`` first)."""
    try:
        st.session_state[SEEN] = data.version()
    except data.NoReadModels:
        st.session_state[SEEN] = None

    @st.fragment(run_every=LOOK_SECONDS)
    def look() -> None:
        try:
            now = data.version()
        except data.NoReadModels:
            now = None
        if now != st.session_state.get(SEEN):
            st.session_state[SEEN] = now
            if on_change is not None:
                on_change()
            st.rerun(scope="app")

    look()
