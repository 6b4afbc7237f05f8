"""Live pages: whatever a page shows follows the read models as the projector republishes them, and says when
they fall behind.

The dashboard's projector (projections.follow) publishes the read models again within a fraction of a
second of an event stored anywhere (the Record page, ``rollcall record``, another machine on PostgreSQL).
``follow_updates`` looks at the copy's version every ``LOOK_SECONDS`` in a fragment of the page and runs the
page again when it changed, so every page shows new events by itself; a page may pass ``on_change`` to
decide what a change means for it (the Replay page at its game's last event moves on with the game). What
``watch`` answers is looked at too: what a spectator may see of a delayed game changes with time alone, as its
events come due (dashboard.viewer). The same look says on the page when the read models are more than
``BEHIND_SECONDS`` behind (the follower's last look that found them up to date, ``projections.follow.lag``: a
stopped or failing follower).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboard import data
from dashboard.layout import fragment
from i18n import _
from projections.follow import filling, lag

LOOK_SECONDS = 1.0
BEHIND_SECONDS = 5.0
SEEN = "live_version"


def follow_updates(on_change: Callable[[], None] | None = None, *, rerun: bool = True,
                   watch: Callable[[], object] | None = None, say_lag: bool = True) -> None:
    """Say when the read models are behind (unless not ``say_lag``: a stream overlay on air says nothing but
    the game); run the page again whenever they change, or what ``watch`` answers (``on_change`` first), unless
    not ``rerun`` (a page that follows the store itself, or holds a form being filled)."""
    def looked() -> tuple:
        try:
            return data.version(), watch() if watch is not None else None
        except data.NoReadModels:
            return None, None

    st.session_state[SEEN] = looked()

    @fragment(run_every=LOOK_SECONDS)
    def look() -> None:
        if say_lag:
            show_lag()
        if not rerun:
            return
        now = looked()
        if now != st.session_state.get(SEEN):
            st.session_state[SEEN] = now
            if on_change is not None:
                on_change()
            st.rerun(scope="app")

    look()


def show_lag() -> None:
    """"Read models N s behind" when they are more than BEHIND_SECONDS behind; while a cold start fills in the
    games before the current tournament, how far it is."""
    filled = filling(data.data_dir())
    if filled is not None:
        st.info(_("Older games are still being read in ({percent} %): the current tournament is shown live, other "
                  "tournaments and the season's statistics follow.").format(percent=f"{100 * filled:.0f}"),
                icon=":material/hourglass_top:")
    behind = lag(data.data_dir())
    if behind is not None and behind > BEHIND_SECONDS:
        st.warning(_("Read models {time} behind: what this page shows may miss the latest events.").format(
            time=duration(behind)),
                   icon=":material/schedule:")


def duration(seconds: float) -> str:
    """``42 s``, ``12 min``, ``3 h``."""
    if seconds < 120:
        return _("{n} s").format(n=f"{seconds:.0f}")
    if seconds < 7200:
        return _("{n} min").format(n=f"{seconds / 60:.0f}")
    return _("{n} h").format(n=f"{seconds / 3600:.0f}")


def run_page(page) -> None:
    """Run the page; read models that cannot be read just now (being published again) are a plain message, and
    the page comes back by itself when they are (``follow_updates``)."""
    try:
        page.run()
    except data.NoReadModels as exc:
        st.info(str(exc))
