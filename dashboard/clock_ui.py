"""The Record page's game clock: both players' remaining time (counted down in the browser: no run of the page
per second), one big tap to pass the clock, a pause; a judge pauses and adjusts with a reason. A tap is written
through the application service with the instant it reached the server (``now``, injectable for tests) as its
``at``; a refusal names its rule (C01–C08) and nothing is stored."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import streamlit as st

from dashboard import record_ui as ui
from dashboard import session
from dashboard.clock_view import ClockView, clock_view
from dashboard.components import component
from dashboard.layout import in_the_pages_language
from domain import clock as game_clock
from domain.clock import MOST_SECONDS
from i18n import _

MOUNT = "record_clock"
HANDLED = "record_clock_handled"  # the number of the clock's last tap handled (a tap delivered twice is one)

#: The server's time source: the instant of a clock tap (tests inject their own).
clock_source: Callable[[], datetime] = lambda: datetime.now(timezone.utc)  # noqa: E731


def now() -> str:
    """The instant now, as a clock event's ``at`` (UTC, milliseconds)."""
    moment = clock_source()
    return game_clock.iso(round(moment.timestamp() * 1000))


def player_names(game) -> dict[str, str]:
    """The players' names of ``game`` (the aggregate), by id."""
    names = game.system.presentation.names(game.header)
    return {pid: names.player(pid) for pid in game.state.players}


def _component():
    return component("rollcall_game_clock", '<div class="rc-clock"></div>', "clock")


def fall_due(game, *, writable: bool):
    """``game`` (the aggregate) after the flag that has fallen since its last clock event, recorded first on a
    page that may record in the game (C07: at the instant the time ran out), so that it falls by itself whoever
    looks and the page offers what may follow it."""
    if not writable or game.state.ended or game.state.sealed:
        return game
    due = game_clock.due_flag(game.state.clock, game_clock.instant(now()))
    if due is None:
        return game
    flag_fell(game.state.game, due, player_names(game))
    return session.store().get_game(game.state.game)


def panel(game, names: dict[str, str], *, writable: bool, judge: str | None) -> ClockView | None:
    """The clock of ``game`` (the aggregate) on the Record page; a judge's adjustment form under it."""
    view = clock_view(game.state, names, now(), writable=writable)
    if view is None:
        return None
    game_id = game.state.game
    _component()(data=view.as_json(), key=MOUNT, on_tap_change=lambda: on_tap(game_id), height="content")
    if judge is not None and view.started and not view.stopped:
        with st.expander(_("Adjust the clock (a judge)")):
            adjust_form(game_id, view, judge)
    return view


@in_the_pages_language
def on_tap(game: str) -> None:
    """A tap on the clock: the event its view offered at the seq it was made on, written with the instant now."""
    state = st.session_state.get(MOUNT)
    tap = state.get("tap") if state is not None and hasattr(state, "get") else None
    if not isinstance(tap, dict):
        return
    n = tap.get("n")
    if isinstance(n, int):
        if n <= st.session_state.get(HANDLED, 0):
            return  # delivered again: written once
        st.session_state[HANDLED] = n
    app = session.store()
    current = app.get_game(game)
    view = clock_view(current.state, player_names(current), now(), writable=True)
    found = view.taps.get(str(tap.get("action"))) if view is not None else None
    if found is None:
        if not tap.get("auto"):  # (a flag the page saw fall, recorded by the other phone already: nothing to say)
            ui.say("warning", _("The clock moved on meanwhile: nothing was recorded; this is the clock now."), game)
        return
    event, words = found
    record(game, {"at": now(), **event}, words)


def flag_fell(game: str, event: dict, names: dict[str, str]) -> None:
    """Record the flag that fell (``event``: domain.clock.due_flag's). One the other phone recorded meanwhile
    (C07: it fell already) is no news: nothing is said."""
    from domain.errors import RollcallError

    try:
        line = session.store().record(game, event)
    except RollcallError:
        return
    name = names.get(event["player"], event["player"])
    ui.say("warning", _("Recorded seq {seq}: {what}").format(seq=line["seq"], what=_("{name}'s flag fell").format(
        name=name)), game)


def record(game: str, event: dict, words: str) -> None:
    """Write one clock event of ``game``; the outcome is the page's next message."""
    from domain.access import AccessDenied
    from domain.errors import RollcallError

    try:
        line = session.store().record(game, event)
    except AccessDenied as exc:
        ui.say("error", _("Not recorded — {why}").format(why=session.refused(exc, _("record this game"))), game)
    except RollcallError as exc:
        ui.say("error", _("Not recorded — {why}").format(why=exc), game)
    else:
        ui.say("success", _("Recorded seq {seq}: {what}").format(seq=line["seq"], what=words), game)


def adjust_form(game: str, view: ClockView, judge: str) -> None:
    """A judge's adjustment: a player's time more or less, by whole seconds, with the reason."""
    names = {f.player: f.name for f in view.faces}
    with st.form("rc-clock-adjust", border=False, clear_on_submit=True):
        player = st.selectbox(_("Whose time"), list(names), format_func=names.__getitem__, key="rc-clock-adjust-player")
        seconds = st.number_input(_("Seconds to add (less than 0 to take away)"), min_value=-MOST_SECONDS,
                                  max_value=MOST_SECONDS, value=60, step=30, key="rc-clock-adjust-seconds")
        reason = st.text_input(_("Reason"), key="rc-clock-adjust-reason", max_chars=500)
        pause = st.checkbox(_("Pause the clock first"), key="rc-clock-adjust-pause",
                            value=not view.paused and view.started, disabled=view.paused)
        if st.form_submit_button(_("Adjust the clock")):
            if not reason.strip():
                ui.say("error", _("Not recorded — an adjustment needs its reason"), game)
                return
            at = now()
            if pause and not view.paused:
                record(game, {"type": "ClockPaused", "at": at, "judge": judge}, _("Pause"))
            record(game, {"type": "ClockAdjusted", "at": at, "player": player, "seconds": int(seconds),
                          "judge": judge, "reason": reason.strip()},
                   _("{name}'s time {seconds:+d} s").format(name=names[player], seconds=int(seconds)))
            st.rerun()
