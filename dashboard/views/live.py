"""Live: every table of a round as a grid of small boards with the score and the turn, following the games as
their events arrive. A click on a table follows it on the Replay page, at its last event. Deep link:
/live?tournament=T&round=R (without ``round``: the latest round, moving on to the next when it is paired).

A spectator's page is pushed: its cards are the snapshots the follower makes once per change of what a spectator
may see (projections.spectators; a tournament's broadcast delay applied there), drawn by the page's component from
the dashboard's event stream (dashboard/spectate_component.py), so an event costs this page no run of its script.
Anyone signed in with a key sees everything: that page is made here, at each of its runs (dashboard.live)."""

import streamlit as st

from dashboard import data, viewer
from dashboard.params import whole
from dashboard.spectate_component import spectate
from dashboard.tournament_ui import query
from domain.record import slug
from i18n import N_, _, current
from projections.spectators import key

ALL = N_("(every game under way)")  # the picker's first choice (shown in the page's language)
LATEST = N_("(the latest round)")

st.title(_("Live"))
seen = viewer.seen()
try:
    games = data.list_games(seen)
except data.NoReadModels as exc:
    st.info(str(exc))
    st.stop()

tournaments = [t["tournament"] for t in query("list_tournaments")]
options = [ALL, *tournaments]
wanted = st.query_params.get("tournament")
top = st.columns([3, 1])
picked = top[0].selectbox(_("Tournament"), options, index=options.index(wanted) if wanted in options else 0,
                          key="live-tournament", format_func=lambda t: _(ALL) if t == ALL else t)
lang = current()
if picked == ALL:
    st.query_params.pop("tournament", None)
    st.query_params.pop("round", None)
    shown = key("index", lang)
else:
    st.query_params["tournament"] = picked
    rounds = sorted({g["round"] for g in games if g.get("tournament") == picked and g.get("round") is not None})
    asked, _problem = whole(st.query_params.get("round"), _("a round"))
    choices = [LATEST, *rounds]
    number = top[1].selectbox(_("Round"), choices, index=choices.index(asked) if asked in rounds else 0,
                              key="live-round", format_func=lambda r: _(LATEST) if r == LATEST else str(r))
    if number == LATEST:
        st.query_params.pop("round", None)
        shown = key("tournament", lang, slug(picked))
    else:
        st.query_params["round"] = str(number)
        shown = key("round", lang, slug(picked), number)

spectate("live", [shown], data.bundle(shown, seen) if seen.privileged else None)
