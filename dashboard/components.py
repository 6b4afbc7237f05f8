"""The dashboard's Streamlit custom components (v2): each made once from its files in dashboard/static."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

STATIC = Path(__file__).parent / "static"


def static_text(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


@st.cache_resource(show_spinner=False)
def component(name: str, html: str, stem: str):
    """The component ``name`` mounting ``html``, with the style and script ``<stem>.css`` and ``<stem>.js``."""
    return st.components.v2.component(name, html=html, css=static_text(f"{stem}.css"), js=static_text(f"{stem}.js"))
