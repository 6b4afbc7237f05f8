"""What the tournament pages share: cached tournament queries, the tournament picker bound to the URL, and the
organiser's writes from the dashboard: pairing a round, registering players (a pairing tool's export, previewed
first, or everyone who played a game of the tournament)."""

from __future__ import annotations

import streamlit as st

from dashboard import data, layout, session
from projections.visibility import Seen
from i18n import _, ngettext

TOURNAMENT = "tournament"
PAIRED, REGISTERED = "tournament_message", "register_message"  # the outcome of pairing, of registering
MATCHUPS = "matchups_message"  # the outcome of entering a team match's matchups


@st.cache_data(max_entries=64, show_spinner=False)
def _query(ver: tuple[str, int], name: str, seen: Seen | None, *args) -> list[dict]:
    from projections import tournaments

    fn = getattr(tournaments, name)
    return list(data._reader(*ver).run(lambda con: fn(con, *args) if seen is None else fn(con, *args, seen=seen)))


def query(name: str, *args, seen: Seen | None = None) -> list[dict]:
    """``projections.tournaments.<name>(con, *args)`` over the published read models, cached per version; the
    results, standings and pairings as ``seen`` sees the games (dashboard.viewer)."""
    return _query(data.version(), name, seen, *args)


def tournaments_or_stop(seen: Seen | None = None) -> list[dict]:
    """Every tournament; stops the page with a hint when there are none (or no read models yet)."""
    try:
        found = query("list_tournaments", seen=seen)
    except data.NoReadModels as exc:
        st.info(str(exc))
        st.stop()
    if not found:
        st.info(_("No tournaments yet: they appear here once an organiser creates one, or games of one are "
                  "recorded."))
        st.stop()
    return found


def tournament_picker(names: list[str]) -> str:
    """Selectbox bound to the URL parameter ``tournament`` (no default option, so it stays in the URL)."""
    if st.session_state.get(TOURNAMENT) not in names and st.query_params.get(TOURNAMENT) not in names:
        st.session_state[TOURNAMENT] = names[0]
    name = st.selectbox(_("Tournament"), names, index=None, placeholder=_("Choose…"), key=TOURNAMENT, bind="query-params")
    if name is None:
        st.info(_("Pick a tournament."))
        st.stop()
    return name


def pair_round(name: str, round_no: int, unconfirmed: bool = False) -> None:
    """Pair ``round_no`` through the application service with the device's key (asked first) and run the page
    again, which shows the outcome under the form's button (``show_message``)."""
    from domain.access import AccessDenied
    from domain.errors import RollcallError

    what = _("pair a round")
    refusal = session.asked("organise", what)
    if refusal is not None:
        st.session_state[PAIRED] = ("error", refusal)
        st.rerun()
    try:
        paired = session.store().pair_round(name, round_no, unconfirmed=unconfirmed)
    except AccessDenied as exc:
        st.session_state[PAIRED] = ("error", session.refused(exc, what))
    except RollcallError as exc:
        st.session_state[PAIRED] = ("error", str(exc))
    else:
        tables = len(paired["tables"])
        if paired.get("matches"):
            st.session_state[PAIRED] = ("success", ngettext(
                "round {round} paired: {n} team match", "round {round} paired: {n} team matches",
                len(paired["matches"])).format(round=round_no, n=len(paired["matches"])) + (
                ", " + _("bye {player}").format(player=paired["bye_team"]) if paired.get("bye_team") else ""))
            st.rerun()
        st.session_state[PAIRED] = (
            "success", ngettext("round {round} paired: {n} table", "round {round} paired: {n} tables", tables).format(
                round=round_no, n=tables) + (", " + _("bye {player}").format(player=paired["bye"]) if paired["bye"] else ""))
    st.rerun()


def enter_matchups(name: str, round_no: int, match_no: int, pairs: list[tuple[str, str]]) -> None:
    """Enter a team match's matchups through the application service with the device's key (asked first), then run
    the page again, which shows the outcome (``show_message(MATCHUPS)``)."""
    from domain.access import AccessDenied
    from domain.errors import RollcallError

    what = _("enter matchups")
    refusal = session.asked("organise", what)
    if refusal is not None:
        st.session_state[MATCHUPS] = ("error", refusal)
        st.rerun()
    try:
        entered = session.store().enter_matchups(name, round_no, match_no, pairs)
    except AccessDenied as exc:
        st.session_state[MATCHUPS] = ("error", session.refused(exc, what))
    except RollcallError as exc:
        st.session_state[MATCHUPS] = ("error", str(exc))
    else:
        st.session_state[MATCHUPS] = ("success", ngettext(
            "match {match} of round {round}: {n} table", "match {match} of round {round}: {n} tables",
            len(entered["tables"])).format(match=match_no, round=round_no, n=len(entered["tables"])))
    st.rerun()


UPLOADS = "register_uploads"  # how many lists this session registered: the uploader's key (a new one is empty)


def uploader_key() -> str:
    return f"register_file_{st.session_state.get(UPLOADS, 0)}"


@st.cache_data(max_entries=4, show_spinner=False)
def _read(data: bytes, source: str):
    from domain.player_lists import read_player_list

    return read_player_list(data, source)


def preview_list(name: str, uploaded):
    """The preview of an uploaded players' list (dashboard.registration.list_preview) against the tournament as it
    is, or why the file cannot be read as a list (a message)."""
    from dashboard.registration import list_preview
    from domain.errors import RollcallError

    try:
        listed = _read(uploaded.getvalue(), uploaded.name)
        return list_preview(listed, session.store().preview_players(name, listed.entries))
    except RollcallError as exc:
        return str(exc)


def register_players(name: str, uploaded) -> None:
    """Register the players of an uploaded list (domain.player_lists) with the session's key, empty the uploader,
    then run the page again, which shows the outcome beside the controls (``show_message(REGISTERED)``)."""
    def command(store):
        done = store.register_players(name, _read(uploaded.getvalue(), uploaded.name).entries)
        st.session_state[UPLOADS] = st.session_state.get(UPLOADS, 0) + 1
        return done

    _register(name, command)


def register_from_games(name: str) -> None:
    """Register everyone who played a game of the tournament, with the session's key."""
    _register(name, lambda store: store.register_from_games(name))


def _register(name: str, command) -> None:
    from domain.access import AccessDenied
    from domain.errors import RollcallError

    try:
        done = command(session.store())
    except AccessDenied as exc:
        st.session_state[REGISTERED] = ("error", session.refused(exc, _("register players")))
    except RollcallError as exc:
        st.session_state[REGISTERED] = ("error", str(exc))
    else:
        already = (" " + ngettext("({n} player already registered)", "({n} players already registered)",
                                  len(done.already)).format(n=len(done.already)) if done.already else "")
        checked = ("; " + ngettext("{n} checked in", "{n} checked in", len(done.checked_in)).format(
            n=len(done.checked_in)) if done.checked_in else "")
        st.session_state[REGISTERED] = ("success", ngettext("registered {n} player", "registered {n} players",
                                                            len(done.registered)).format(n=len(done.registered))
                                        + already + checked)
    st.rerun()


def show_message(key: str = PAIRED) -> None:
    """The outcome of the last pairing (or, ``REGISTERED``, registering) of this session, shown once."""
    layout.show_message(key)
