"""Page setup shared by every page file of dashboard/views/."""

from __future__ import annotations

import re

import streamlit as st

# The board SVG carries its natural size; let it fill its column (keeping its aspect ratio).
BOARD_CSS = """<style>
svg.rc-board { width: 100%; height: auto; max-height: 78vh; }
</style>"""
MAX_ZOOM = 1.5  # small boards grow to at most this multiple of their natural size


def board_html(svg: str) -> str:
    """The board SVG for ``st.markdown``: as wide as its column, up to MAX_ZOOM × its natural size."""
    found = re.search(r'<svg[^>]*\swidth="([0-9.]+)"', svg)
    limit = f"max-width:{float(found.group(1)) * MAX_ZOOM:.0f}px" if found else ""
    return f'{BOARD_CSS}<div class="rc-board-frame" style="{limit}">{svg}</div>'


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
