"""Overlay: one game for a streaming tool's browser source (OBS) — a transparent page with no sidebar, header or
controls: the board, both players with their score, the turn and phase, and the last roll of the game as ruled
with its odds and luck. Deep links: /overlay?game=G, or /overlay?tournament=T&table=N (the table's current game:
the one under way in the latest round, else its latest game).

An overlay is never privileged: it shows the snapshots the follower makes of what a spectator may see
(projections.spectators: behind the tournament's broadcast delay), pushed to the page's component as they are
made (dashboard/spectate_component.py): an event costs this page no run of its script."""

import streamlit as st

from dashboard import data, safe, viewer
from dashboard.params import MAX_DIGITS, whole
from dashboard.spectate_component import spectate
from i18n import _, current
from projections.spectators import key

CSS = """<style>
html,body,.stApp,[data-testid="stAppViewContainer"],[data-testid="stMain"],[data-testid="stHeader"],
[data-testid="stBottom"],.stMain,.main{background:transparent!important;background-color:transparent!important}
[data-testid="stSidebar"],[data-testid="stSidebarCollapsedControl"],[data-testid="stHeader"],
[data-testid="stToolbar"],[data-testid="stDecoration"],[data-testid="stStatusWidget"],footer{display:none!important}
.block-container,[data-testid="stMainBlockContainer"]{padding:1rem 1.5rem!important;max-width:100%!important}
</style>"""

st.html(CSS)
seen = viewer.spectator()


def say(text: str) -> None:
    st.markdown(f'<div class="rc-ov"><div class="rc-ov-panel">{safe.html(text)}</div></div>', unsafe_allow_html=True)  # untranslated: markup around a text translated by the caller
    st.stop()


games = data.list_games(seen)
wanted = st.query_params.get("game")
if not wanted and st.query_params.get("tournament"):
    tournament = st.query_params.get("tournament")
    table, problem = whole(st.query_params.get("table"), _("a table"), 1, 10 ** MAX_DIGITS - 1)
    if problem or table is None:
        say(problem or _("Name a table: /overlay?tournament=T&table=N."))
    at_table = [g for g in games if g.get("tournament") == tournament and g.get("table_no") == table]
    if not at_table:
        say(_("No game at table {table} of {tournament}.").format(table=table, tournament=tournament))
    at_table.sort(key=lambda g: (not g.get("ended"), g.get("round") or 0, g.get("started") or ""))
    wanted = at_table[-1]["game"]
game = next((g for g in games if g["game"] == wanted), None) if wanted else None
if game is None:
    say(_("No game {game}.").format(game=wanted) if wanted else _("Name a game: /overlay?game=G."))

spectate("overlay", [key("table", current(), game["game"]), key("board", current(), game["game"])])
