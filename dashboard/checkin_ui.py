"""The organiser's desk on the Standings page: check a player in and give them their own sign-in (its QR code for
the phone, and the short code to type), issued again on demand (the one before is void); and the round's tables,
each playing, awaiting confirmation, confirmed or disputed (domain.confirmation)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import safe, session
from dashboard.join import qr_png
from domain.confirmation import STATUS_WORDS
from i18n import _

ISSUED = "rc_signin_issued"  # (tournament, player, code, link): the sign-in shown at the desk until the next one
SIGNIN_SCALE = 8  # pixels per module: a code a phone reads off the desk's screen


def desk(name: str, registered: list[dict], base: str) -> None:
    """Check-in with the player's own sign-in, for an organiser."""
    from projections.cards import signin_link

    with st.container(border=True, key="checkin-desk"):
        st.markdown(_("**Check-in: a player's own sign-in**"))
        st.caption(_("The player scans the QR code with their phone (or types the code in the sidebar's sign-in): "
                     "the phone records the games where they sit, in the round being played, and confirms their "
                     "results. Issuing it again makes the one before void."))
        players = [r["player"] for r in registered if r.get("dropped_after_round") is None]
        if not players:
            st.caption(_("Register players first."))
            return
        checked = {r["player"]: bool(r.get("checked_in")) for r in registered}
        picked = st.selectbox(_("Player"), players, key="checkin-player", index=None,
                              placeholder=_("Pick the player at the desk"))
        if picked is not None:
            said = _("Issue the sign-in again") if checked.get(picked) else _("Check in and issue the sign-in")
            if st.button(said, key="checkin-issue", icon=":material/qr_code_2:", type="primary"):
                from domain.errors import RollcallError

                app = session.store()
                try:
                    if not checked.get(picked):
                        app.check_in(name, picked)
                    code = app.issue_player_signin(name, picked)
                except RollcallError as exc:
                    st.error(safe.message(str(exc)), icon=":material/block:")
                else:
                    st.session_state[ISSUED] = (name, picked, code, signin_link(base, code))
                    st.rerun()  # (the players' table above shows the check-in)
        issued = st.session_state.get(ISSUED)
        if issued and issued[0] == name:
            _tournament, player, code, link = issued
            st.image(qr_png(link, SIGNIN_SCALE), caption=_("{player}'s sign-in").format(player=player), width=300,
                     output_format="PNG")
            st.markdown(_("Code: **{code}**").format(code=code))


def round_tables(name: str) -> None:
    """The last paired round's tables and where each result stands."""
    from domain.errors import RollcallError

    try:
        app = session.store()
        tournament = app.tournament(name)
        statuses = app.table_statuses(name)
    except RollcallError:
        return
    if not statuses:
        return
    round_no = tournament.last_round
    tables = {t["table"]: t for t in tournament.rounds[round_no]["tables"]}
    rows = []
    for number, status in sorted(statuses.items()):
        names = {("p1", "p2")[i]: p["name"] for i, p in enumerate(tables[number]["players"])}
        said = _(STATUS_WORDS[status.status])
        if status.absent:
            said += " · " + _("for {players}, who left").format(players=", ".join(names.get(s, s) for s in status.absent))
        rows.append({_("table"): number, _("players"): _("{a} vs {b}").format(a=names["p1"], b=names["p2"]),
                     _("status"): said})
    st.subheader(_("Round {round}: the tables").format(round=round_no))
    with st.container(key="round-tables"):
        st.table(pd.DataFrame(rows).style.hide(axis="index"))
