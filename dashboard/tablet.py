"""The dashboard on a tablet: below ``NARROW`` px the sidebar is folded away when a page loads and, opened
again, lies over the page (static/tablet.{js,css}), so that a page keeps the screen's whole width."""

from __future__ import annotations

import streamlit as st

from dashboard.components import component, static_text

NARROW = 1100  # px: narrower than this, a screen is a tablet's or a phone's


def fold_sidebar_when_narrow() -> None:
    with st.sidebar:
        component("rollcall_tablet", '<div class="rc-tablet"></div>', "tablet")(
            data={"css": static_text("tablet.css"), "narrow": NARROW}, key="rc_tablet", height="content")
