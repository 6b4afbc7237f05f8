"""My games: a player's own page, once signed in with the personal sign-in from the organiser's desk (its QR code
leads here: /me?signin=CODE). My table now (number, opponent, faction, a link to record there), my games and
results, my standing, and my next pairing as soon as it is published — what any spectator sees of the other
tables, under the broadcast delay."""

import pandas as pd
import streamlit as st

from dashboard import round_time_ui, safe, session, viewer
from dashboard.me_view import my_page
from dashboard.tournament_ui import query
from domain.confirmation import STATUS_WORDS
from i18n import _

st.title(_("My games"))
holder = session.holder()
if holder is None or not holder.is_player:
    st.info(_("This is a player's own page: scan the QR code of your sign-in from the organiser's desk, or type its "
              "code in the sidebar's sign-in."), icon=":material/badge:")
    st.stop()

seen = viewer.seen()
try:
    page = my_page(holder.name, holder.tournament, query("pairings", holder.tournament, None, seen=seen),
                   query("results", holder.tournament, None, seen=seen), query("standings", holder.tournament,
                                                                               seen=seen))
except Exception as exc:  # noqa: BLE001  (no read models yet, or the tournament not projected yet)
    st.info(_("Nothing of {tournament} is published yet; this page fills in as it is.").format(
        tournament=safe.md(holder.tournament)), icon=":material/hourglass_empty:")
    st.caption(safe.message(str(exc)))
    st.stop()

st.caption(_("{player} · {tournament}").format(player=safe.md(page.player), tournament=safe.md(page.tournament)))
with st.container(border=True, key="me-now"):
    now = page.now
    if now is None:
        st.markdown(_("**No table yet**: your pairing shows here as soon as it is published."))
    elif now.game is None:
        st.markdown(_("**Round {round}: a bye** (no game this round).").format(round=now.round))
    else:
        st.markdown(_("**Round {round} · Table {table}**").format(round=now.round, table=now.table))
        round_time_ui.show(round_time_ui.of_round(holder.tournament, now.round), key="me-round-time")
        st.markdown(_("against **{opponent}**{faction}").format(
            opponent=safe.md(now.opponent), faction=f" ({safe.md(now.opponent_faction)})" if now.opponent_faction
            else ""))
        status = session.store().game_status(now.game).status
        st.caption(_("Your table: {status}").format(status=_(STATUS_WORDS[status])))
        st.link_button(_("Record at my table"), now.record_link, type="primary", icon=":material/edit_note:",
                       width="stretch")

if page.rank is not None:
    st.markdown(_("**Standing:** #{rank} · {points} TP · {record}").format(rank=page.rank, points=page.points,
                                                                          record=page.record))
st.subheader(_("My games"))
if not page.games:
    st.caption(_("No games yet."))
else:
    st.table(pd.DataFrame([{_("round"): g.round, _("table"): g.table or "", _("opponent"): g.opponent or "",
                            _("VP"): g.score, _("result"): g.result} for g in page.games]).style.hide(axis="index"))
