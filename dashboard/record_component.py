"""The Record page's board: a Streamlit custom component (v2) showing the pack's picture and reporting taps
on its hexes and models (dashboard/static/record.{js,css}). Python draws the picture, says which hexes and
models are choices now, and decides what a tap records; the browser only reports where it was."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboard.components import component

KEY = "record_board"


def _component():
    return component("rollcall_record_board", '<div class="rc-record-board"></div>', "record")


def board(key: str, drawing: Callable[[], str], look: list[list], seq: int, targets: list[str], models: list[str],
          on_tap: Callable[[], None]) -> None:
    """Mount the board: the drawing ``key`` (``drawing()`` made and sent only when the browser does not hold
    it), every element as ``look`` says, ``targets`` (hexes ``"q,r"``) and ``models`` (ids) marked as choices;
    ``on_tap`` runs when one is tapped (``tapped`` then says where)."""
    state = st.session_state.get(KEY)
    held = state.get("held") if state is not None and hasattr(state, "get") else None
    _component()(data={"key": key, "html": "" if held == key else drawing(), "look": look, "seq": seq,
                       "targets": targets, "models": models},
                 key=KEY, on_tap_change=on_tap, on_held_change=lambda: None, height="content")


def tapped() -> dict | None:
    """Where the last tap was: ``{"hex": "q,r" | None, "model": id | None}``."""
    state = st.session_state.get(KEY)
    found = state.get("tap") if state is not None and hasattr(state, "get") else None
    return found if isinstance(found, dict) else None
