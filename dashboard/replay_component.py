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
from i18n import _

KEY = "replay"


def _component():
    return component("rollcall_replay", static_text("replay.html"), "replay")


def texts() -> dict[str, str]:
    """The words of the stepper's controls in the page's language (static/replay.html marks where each goes)."""
    return {
        "controls": _("Replay controls"), "first": _("First event (↑ or Home)"), "prev": _("Previous event (←)"),
        "play_pause": _("Play or pause (space)"), "next": _("Next event (→)"), "last": _("Last event (↓ or End)"),
        "speed_help": _("Events per second"), "speed": _("speed"), "event": _("event"), "event_label": _("Event"),
        "of": _("of"), "flip_help": _("Turn the board round (f)"), "flip": _("Flip"),
        "prev_turn": _("Previous turn"), "next_turn": _("Next turn"), "turn": _("turn"),
        "prev_violation": _("Previous broken rule"), "next_violation": _("Next broken rule"),
        "violation": _("violation"), "prev_ruling": _("Previous dispute, ruling or voided event"),
        "next_ruling": _("Next dispute, ruling or voided event"), "ruling": _("dispute/ruling"),
        "prev_swing": _("Previous big luck swing (|z| ≥ 2)"), "next_swing": _("Next big luck swing (|z| ≥ 2)"),
        "swing": _("luck swing"), "col_seq": _("seq"), "col_turn": _("turn"), "col_event": _("event"),
        "col_player": _("player"), "col_summary": _("what happened"), "play": _("Play"), "pause": _("Pause"),
        "side": _("seen from {side}'s side"), "no_luck": _("No dice thrown in this game: no luck to draw."),
    }


def blob(token: str, start: int, body: bytes, flipped: bool = False) -> bytes:
    """The component's data: one JSON line (the game's token, where to start, the controls' words) then the
    game's JSON."""
    head = json.dumps({"token": token, "start": int(start), "flipped": bool(flipped), "texts": texts()},
                      ensure_ascii=False).encode()
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
