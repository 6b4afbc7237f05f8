"""A round's time on a dashboard page (the Record page, a player's page, Standings): counted down in the browser
(static/round_time.js) from the round's end and the server's instant, which comes from :data:`clock_source`
(injectable for tests, like the game clock's); at the end it says that time is called."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

from dashboard.components import component
from domain.clock import iso
from domain.round_time import RoundTime

#: The server's time source for rounds' time (tests inject their own).
clock_source: Callable[[], datetime] = lambda: datetime.now(timezone.utc)  # noqa: E731


def now_ms() -> int:
    """The instant now, in ms since the epoch."""
    return round(clock_source().timestamp() * 1000)


def now() -> str:
    """The instant now, as a tournament event's ``at``."""
    return iso(now_ms())


def show(timer: RoundTime | None, key: str, *, round_end: str | None = None) -> None:
    """The round's time counting down (nothing before it is started); with ``round_end`` (the format's: ``time``
    or ``phase``), once time is called, what follows for a game still in play."""
    if timer is None:
        return
    component("rollcall_round_time", '<div class="rc-round-time"></div>', "round_time")(
        data=timer.as_json(now_ms()), key=key, height="content")
    if round_end is not None and timer.called(now_ms()):
        import streamlit as st

        from i18n import _

        st.caption(_("Time is called: finish the current phase, then end the game at time (*End at time …*).")
                   if round_end == "phase" else
                   _("Time is called: end the game at time now (*End at time …*), in whatever phase it stands."))


def round_end(tournament: str | None) -> str:
    """What follows when time is called in ``tournament`` (its format's ``round_end``)."""
    from dashboard.standings_view import format_from
    from dashboard.tournament_ui import query

    try:
        return format_from(query("format_rows", tournament)[0]).round_end if tournament else "time"
    except Exception:  # noqa: BLE001  (no read models of it yet: the default)
        return "time"


def of_round(tournament: str | None, round_no: int | None) -> RoundTime | None:
    """The time of a tournament's round (None: the last round whose time was started), from the published read
    models; None before it is started (or with no read models yet)."""
    from dashboard import data
    from dashboard.tournament_ui import query
    from domain.round_time import round_time

    if not tournament:
        return None
    try:
        started = [r for r in query("round_times", tournament) if round_no is None or r["round"] == round_no]
    except (data.NoReadModels, data.Unreadable):
        return None
    return round_time(started[-1]) if started else None


STARTED = "round_time_message"  # the outcome of starting a round's time, shown under its button


def start_form(tournament: str, round_no: int, timer: RoundTime | None, default_seconds: int | None) -> None:
    """The organiser's start of the last paired round's time (its length in minutes; the format's round time by
    default), or the round's time once started."""
    import streamlit as st

    from dashboard import layout, session
    from domain.access import AccessDenied
    from domain.errors import RollcallError
    from domain.round_time import LONGEST, SHORTEST
    from i18n import _

    if timer is not None and timer.round == round_no:
        return
    with st.form("round_time_start", border=True):
        st.caption(_("Round {round}'s time: every page counts it down (Live, Standings, the Record pages, the players' "
                     "own pages); when it runs out, time is called and the games still in play end at time.")
                   .format(round=round_no))
        minutes = st.number_input(_("Minutes"), min_value=SHORTEST // 60, max_value=LONGEST // 60, step=5,
                                  value=(default_seconds or 180 * 60) // 60, key="round_time_minutes")
        if st.form_submit_button(_("Start round {round}'s time").format(round=round_no), icon=":material/timer:"):
            what = _("start a round's time")
            refusal = session.asked("organise", what)
            if refusal is not None:
                st.session_state[STARTED] = ("error", refusal)
            else:
                try:
                    started = session.store().start_round(tournament, now(), round_no=round_no,
                                                          seconds=int(minutes) * 60)
                except AccessDenied as exc:
                    st.session_state[STARTED] = ("error", session.refused(exc, what))
                except RollcallError as exc:
                    st.session_state[STARTED] = ("error", str(exc))
                else:
                    st.session_state[STARTED] = ("success", _("Round {round}'s time started: {minutes} min.").format(
                        round=started["round"], minutes=started["seconds"] // 60))
        layout.show_message(STARTED)
