"""Page setup shared by every page file of dashboard/views/."""

from __future__ import annotations

from html import escape

import streamlit as st


def show_message(key: str) -> None:
    """The outcome a form's write left in the session under ``key`` as (kind, text), shown once: an error
    (its text escaped: it may quote what was typed) or a success."""
    kind, text = st.session_state.pop(key, (None, None))
    if kind == "error":
        st.error(escape(text), icon=":material/block:")
    elif kind == "success":
        st.success(text, icon=":material/task_alt:")


def games_or_stop(seen) -> list[dict]:
    """The recorded games as ``seen`` sees them (dashboard.viewer); explains what to run (and stops the page)
    when there are none."""
    from dashboard import data

    try:
        games = data.list_games(seen)
    except data.NoReadModels as exc:
        st.info(str(exc))
        st.stop()
    if not games:
        st.info("No games recorded yet: import a record with `rollcall import FILE`, then `rollcall project`.")
        st.stop()
    return games
