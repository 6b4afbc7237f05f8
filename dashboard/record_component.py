"""The Record page's table: a Streamlit custom component (v2, dashboard/static/record.{js,css}) mounted as the
board (the status line and the pack's picture), the offers (the buttons of what the rules allow now) and the
previews (what each tap that records at once changes). A tap is drawn in the browser from its preview at once
and reported here (``tapped``) with the seq it was offered at; Python decides what it records, writes it, and
the next run's data answers it (``answered``): a later seq confirms it, the same seq rolls it back."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboard.components import component
from dashboard.record_view import RecordView

BOARD, OFFERS, PREVIEWS = "record_board", "record_offers", "record_previews"


def _component():
    return component("rollcall_record_table", '<div class="rc-rec"></div>', "record")


def _held() -> str | None:
    state = st.session_state.get(BOARD)
    return state.get("held") if state is not None and hasattr(state, "get") else None


def board(view: RecordView, answered: int, on_tap: Callable[[], None], *, taps: bool) -> None:
    """The status line and the picture of ``view`` (the drawing sent only to a browser that does not hold
    it); with ``taps``, its hexes and models record what the view says."""
    data = {"part": "board", "game": view.game, "seq": view.seq, "answered": answered, "title": view.title,
            "status": view.status, "hexes": view.hexes if taps else {}, "models": view.models if taps else {},
            "targets": list(view.hexes) if taps else []}
    if view.board is not None:
        key, drawing, look = view.board
        data |= {"key": key, "html": "" if _held() == key else drawing(), "look": look, "picture": None}
    else:
        data |= {"key": "", "html": "", "look": [], "picture": view.picture}
    _component()(data=data, key=BOARD, on_tap_change=on_tap, on_held_change=lambda: None, height="content")


def offers(view: RecordView, answered: int, picked: str | None, on_tap: Callable[[], None]) -> None:
    """The buttons of ``view``'s offers, grouped: one that records at once, or one that picks its form."""
    groups = [{"title": title, "offers": [{"id": o.id, "label": o.label, "at_once": o.at_once,
                                           "picked": o.id == picked} for o in shown]}
              for title, shown in view.groups]
    _component()(data={"part": "offers", "game": view.game, "seq": view.seq, "answered": answered,
                       "groups": groups}, key=OFFERS, on_tap_change=on_tap, height="content")


def previews(view: RecordView) -> None:
    """What each tap of ``view`` that records at once changes (mounted last: the rest shows first)."""
    _component()(data={"part": "previews", "game": view.game, "seq": view.seq,
                       "previews": {k: p.as_json() for k, p in view.previews.items()}}, key=PREVIEWS,
                 height="content")


def tapped(key: str) -> dict | None:
    """What the last tap of the mount ``key`` (BOARD or OFFERS) was: ``{"id", "seq", "n"}`` (a tap that
    records), ``{"pick", "seq", "n"}`` (an offer's form), ``{"nothing": hex, …}`` (a hex that records nothing)."""
    state = st.session_state.get(key)
    found = state.get("tap") if state is not None and hasattr(state, "get") else None
    return found if isinstance(found, dict) else None
