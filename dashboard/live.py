"""Live pages: whatever a page shows follows the read models as the projector republishes them, and says when
they fall behind.

The dashboard's projector (projections.follow) publishes the read models again within a fraction of a
second of an event stored anywhere (the Record page, ``rollcall record``, another machine on PostgreSQL).
The server tells every page once they are published again (dashboard.changes: ``published``), and a page that
shows them runs again then, so every page shows new events by itself and runs nothing while nothing changes.
A spectator also hears when what it may see of a delayed game changes with time alone, as its events come due
(``seen``: dashboard.viewer). The page says when the read models are more than ``BEHIND_SECONDS`` behind (the follower's
last look that found them up to date, ``projections.follow.lag``: a stopped or failing follower), and runs again
as the lag grows past each of a few steps (``lag``: dashboard.changes.LAG_STEPS), or once they are up to date.
"""

from __future__ import annotations

import streamlit as st

from dashboard import changes, data
from dashboard.changes import BEHIND_SECONDS
from i18n import _
from projections.follow import filling, lag


def follow_updates(*, rerun: bool = True, spectator: bool = False, say_lag: bool = True, sidebar: bool = True) -> None:
    """Say when the read models are behind (unless not ``say_lag``: a stream overlay on air says nothing but
    the game); run the page again once they are published again (for a ``spectator``, also once a delayed game's
    events come due), unless not ``rerun`` (a page that follows the store itself, or holds a form being filled),
    and once what is said of their lag changes. The page's listener sits in the sidebar (if the page has one)."""
    watch = {}
    if say_lag:
        watch["lag"] = changes.latest("lag")  # taken before the lag is read: a step passed between runs the page again
        show_lag()
    if rerun:
        try:
            watch["published"] = data.version()[1]
        except data.NoReadModels:
            watch["published"] = 0
        if spectator:
            watch["seen"] = changes.latest("seen")
    if not watch:
        return
    with st.sidebar if sidebar else st.container():
        changes.follow(watch, key="rc-live-changes")


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
