"""Page setup shared by every page file of dashboard/views/."""

from __future__ import annotations

import streamlit as st

def games_or_stop() -> list[dict]:
    """The recorded games; explains what to run (and stops the page) when there are none."""
    from dashboard import data

    try:
        games = data.list_games()
    except data.NoReadModels as exc:
        st.info(str(exc))
        st.stop()
    if not games:
        st.info("No games recorded yet: import a record with `rollcall import FILE`, then `rollcall project`.")
        st.stop()
    return games
