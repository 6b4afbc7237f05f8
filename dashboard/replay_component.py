"""The Replay page's stepper: a Streamlit custom component (v2) that gets a whole game once and steps
through it in the browser (dashboard/static/replay.{html,css,js}; the data: dashboard/stepper.py).

The browser reports where it is (``position``: the game's token, the seq, whether the board is turned
round), debounced, as the component's state; the page reads it back to keep the URL and the event
details in step.
"""

from __future__ import annotations

import json

import streamlit as st

from dashboard.components import component, static_text

KEY = "replay"


def _component():
    return component("rollcall_replay", static_text("replay.html"), "replay")


def blob(token: str, start: int, body: bytes, flipped: bool = False) -> bytes:
    """The component's data: one JSON line (the game's token, where to start) then the game's JSON."""
    head = json.dumps({"token": token, "start": int(start), "flipped": bool(flipped)}).encode()
    return head + b"\n" + body


def position(token: str) -> dict | None:
    """Where the browser is in the game ``token`` (``{"seq", "flipped"}``), once it has said so."""
    state = st.session_state.get(KEY)
    found = (state or {}).get("position") if isinstance(state, dict) else None
    if isinstance(found, dict) and found.get("token") == token and isinstance(found.get("seq"), int):
        return found
    return None


def replay(token: str, start: int, body: bytes, flipped: bool = False, sent: bool = False) -> None:
    """Mount the stepper on game ``body`` (stepper.payload as JSON), starting at ``start``. ``sent``: the
    browser has said it holds this game, so only the token goes (a browser that has lost it asks again)."""
    _component()(data=blob(token, start, b"" if sent else body, flipped), key=KEY,
                 on_position_change=lambda: None, height="content")
