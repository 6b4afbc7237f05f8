"""Both players sign the result, on the Record page (domain.confirmation): once the game has ended, a player signed
in on their phone confirms the result recorded, or says they saw another (a dispute for the judge); the organiser
confirms for a player who left. ``confirm_view`` is the view model (tested without Streamlit); ``panel`` lays it
out and writes through the service."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dashboard import safe, session
from domain.confirmation import AWAITING, CONFIRMED, DISPUTED, STATUS_WORDS, table_status
from i18n import _


@dataclass(frozen=True)
class ConfirmView:
    status: str  # domain.confirmation's
    status_text: str
    result_text: str  # the result recorded, by name
    seats: dict[str, str]  # seat -> the player's name
    score: dict[str, int]
    confirmed: tuple[str, ...]
    absent: tuple[str, ...]
    mine: str | None  # the seat of the player signed in, when that player may still confirm
    for_absent: tuple[str, ...]  # the seats the organiser may confirm for (who has not confirmed)


def confirm_view(header: dict, lines: list[dict], my_seat: str | None, organiser: bool) -> ConfirmView | None:
    """What the panel shows of the game with ``header`` and event lines ``lines`` (None before its end), for the
    player of ``my_seat`` (None: no player's sign-in here) or an organiser."""
    from domain.tournaments import result_in_words

    ended = next((line for line in lines if line.get("type") == "GameEnded"), None)
    if ended is None:
        return None
    status = table_status(lines)
    seats = {p["id"]: p.get("name") or p["id"] for p in header["players"]}
    open_ = status.status in (AWAITING, DISPUTED)
    disputed_by = {line.get("by") for line in lines if line.get("type") == "DisputeOpened"
                   and (line.get("seq") or 0) > ended["seq"]}
    mine = my_seat if open_ and my_seat in seats and my_seat not in status.confirmed \
        and my_seat not in disputed_by else None
    waiting = tuple(s for s in seats if s not in status.confirmed)
    return ConfirmView(status.status, _(STATUS_WORDS[status.status]),
                       result_in_words(header["players"], ended["score"], ended["winner"]), seats,
                       dict(ended["score"]), status.confirmed, status.absent, mine,
                       waiting if organiser and open_ else ())


def panel(game: str, current) -> None:
    """The confirmation panel of ``current`` (a Game as stored), once it has ended."""
    holder = session.holder()
    from domain.access import seat_of

    my_seat = seat_of(holder, current.header) if holder is not None and holder.is_player else None
    view = confirm_view(current.header, current.state.lines, my_seat, session.may("organise") and holder is not None)
    if view is None:
        return
    with st.container(border=True, key="rc-confirm"):
        st.markdown(_("**Result:** {result}").format(result=safe.md(view.result_text)))
        confirmed = [view.seats[s] + (" " + _("(confirmed by the organiser: left)") if s in view.absent else "")
                     for s in view.confirmed]
        st.caption(_("{status}. Confirmed by: {who}").format(status=view.status_text[:1].upper() + view.status_text[1:],
                                                            who=", ".join(map(safe.md, confirmed)) or _("nobody yet")))
        if view.status == CONFIRMED:
            st.success(_("Both players confirmed: the result is final and the game sealed."), icon=":material/verified:")
        elif view.status == DISPUTED:
            st.warning(_("The result is disputed: a judge decides."), icon=":material/gavel:")
        if view.mine is not None:
            if st.button(_("Confirm this result"), type="primary", icon=":material/check_circle:", key="rc-confirm-yes",
                         width="stretch"):
                _done(lambda: session.store().confirm_result(game, view.score), _("Result confirmed."))
            with st.expander(_("I saw another result")):
                with st.form("rc-confirm-other", border=False):
                    given = {s: st.number_input(_("{player}'s victory points").format(player=name), min_value=-1000,
                                                max_value=1000, value=int(view.score.get(s, 0)), step=1,
                                                key=f"rc-confirm-vp-{s}")
                             for s, name in view.seats.items()}
                    if st.form_submit_button(_("Call the judge with this result"), icon=":material/gavel:"):
                        _done(lambda: session.store().dispute_result(game, {s: int(v) for s, v in given.items()}),
                              _("The judge is called: the result is disputed."))
        for seat in view.for_absent:
            if st.button(_("Confirm for {player}, who left").format(player=view.seats[seat]), key=f"rc-absent-{seat}",
                         icon=":material/person_off:"):
                _done(lambda seat=seat: session.store().confirm_result(game, view.score, seat, absent=True),
                      _("Confirmed for {player}, who left.").format(player=view.seats[seat]))
        said = st.session_state.pop("rc-confirm-said", None)
        if said:
            getattr(st, said[0])(safe.message(said[1]))


def _done(write, text: str) -> None:
    from domain.access import AccessDenied
    from domain.errors import RollcallError

    try:
        write()
    except AccessDenied as exc:
        st.session_state["rc-confirm-said"] = ("error", session.refused(exc, _("confirm the result")))
    except RollcallError as exc:
        st.session_state["rc-confirm-said"] = ("error", str(exc))
    else:
        st.session_state["rc-confirm-said"] = ("success", text)
    st.rerun()
