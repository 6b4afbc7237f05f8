"""Rollcall dashboard entry point: `streamlit run dashboard/app.py` (or `rollcall dashboard`).

Pages are files in dashboard/views/ (not "pages/": Streamlit would treat that as an old-style
pages folder and run a deep-linked page without this entry point); add one to pages() (or a new section) to extend the navigation.
"""

from pathlib import Path

import streamlit as st

from dashboard import language, params, session, tablet
from i18n import _
from dashboard.live import follow_updates, run_page

PAGES_DIR = Path(__file__).parent / "views"


def pages() -> dict[str, list]:
    """Section -> pages, in this run's language; url paths come from the file names (/games, /replay)."""
    return {
        _("At the table"): [
            st.Page(PAGES_DIR / "new_game.py", title=_("New game"), icon=":material/add_circle:"),
            st.Page(PAGES_DIR / "record.py", title=_("Record"), icon=":material/edit_note:"),
            st.Page(PAGES_DIR / "live.py", title=_("Live"), icon=":material/live_tv:"),
            st.Page(PAGES_DIR / "me.py", title=_("My games"), icon=":material/badge:"),
            # a stream overlay (OBS browser source): reached by its link only
            st.Page(PAGES_DIR / "overlay.py", title=_("Overlay"), icon=":material/cast:", visibility="hidden"),
        ],
        _("Games"): [
            st.Page(PAGES_DIR / "games.py", title=_("Games"), icon=":material/table_rows:", default=True),
            st.Page(PAGES_DIR / "replay.py", title=_("Replay"), icon=":material/replay:"),
            st.Page(PAGES_DIR / "dispute.py", title=_("Dispute"), icon=":material/gavel:"),
        ],
        _("Tournaments"): [
            st.Page(PAGES_DIR / "standings.py", title=_("Standings"), icon=":material/leaderboard:"),
            st.Page(PAGES_DIR / "public.py", title=_("Pairings"), icon=":material/groups:"),
            st.Page(PAGES_DIR / "analytics.py", title=_("Analytics"), icon=":material/monitoring:"),
        ],
    }


# pages that follow the store themselves (the Record page reads its game from it) or hold a form being filled
SELF_FOLLOWING = frozenset({"record", "new_game"})

# the tab's icon is served by the dashboard itself: a page asks nothing of another host (a venue may have no internet)
st.set_page_config(page_title="Rollcall", page_icon=str(Path(__file__).parent / "static" / "favicon.png"), layout="wide")
language.choose()  # this browser's language, for everything this run shows
page = st.navigation(pages())
for problem in params.bound_link():  # a link's parameter past its bound is said and left out, on every page
    st.warning(problem, icon=":material/link_off:")
BARE = frozenset({"overlay"})  # pages with no sidebar and no sign-in: a stream overlay
PUSHED = frozenset({"live", "overlay"})  # a spectator's pages whose changes are pushed, not run again
if page.url_path not in BARE:
    session.sidebar()  # the one sign-in of the device, on every page
    language.picker()
    tablet.fold_sidebar_when_narrow()
# every page says when the read models are behind and shows new events by itself (dashboard/live.py), and a
# spectator's delayed games move on as their events come due; a spectator's pushed pages are sent each change
# by their component instead (dashboard/spectate_component.py)
pushed = page.url_path in PUSHED and (page.url_path in BARE or not session.privileged())
follow_updates(rerun=page.url_path not in SELF_FOLLOWING and not pushed,
               spectator=page.url_path in BARE or not session.privileged(), say_lag=page.url_path not in BARE,
               sidebar=page.url_path not in BARE)
run_page(page)
