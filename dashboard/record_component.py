"""The Record page's board: a Streamlit custom component (v2) showing the pack's picture and reporting taps
on its hexes and models (dashboard/static/record.{js,css}). Python draws the picture, says which hexes and
models are choices now, and decides what a tap records; the browser only reports where it was."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import streamlit as st

STATIC = Path(__file__).parent / "static"
KEY = "record_board"


@st.cache_resource(show_spinner=False)
def _component():
    return st.components.v2.component(
        "rollcall_record_board",
        html='<div class="rc-record-board"></div>',
        css=(STATIC / "record.css").read_text(encoding="utf-8"),
        js=(STATIC / "record.js").read_text(encoding="utf-8"),
    )


def board(html: str, targets: list[str], models: list[str], on_tap: Callable[[], None]) -> None:
    """Mount the board (``html``: the picture), marking ``targets`` (hexes ``"q,r"``) and ``models`` (ids) as
    choices; ``on_tap`` runs when one is tapped (``tapped`` then says where)."""
    token = hashlib.sha1(html.encode() + repr((targets, models)).encode()).hexdigest()[:16]
    _component()(data={"html": html, "token": token, "targets": targets, "models": models}, key=KEY,
                 on_tap_change=on_tap, height="content")


def tapped() -> dict | None:
    """Where the last tap was: ``{"hex": "q,r" | None, "model": id | None}``."""
    state = st.session_state.get(KEY)
    found = state.get("tap") if state is not None and hasattr(state, "get") else None
    return found if isinstance(found, dict) else None
