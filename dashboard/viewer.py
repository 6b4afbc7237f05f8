"""Who is looking: what this browser session may see of the games (projections.visibility).

Every page asks :func:`seen` before it reads games and passes the answer to every read (dashboard.data): a
session signed in with a key of the store (dashboard.session) sees everything; anyone else is a spectator,
who sees each game of a delayed tournament only up to its events older than the delay.
"""

from __future__ import annotations

import streamlit as st

from dashboard import data, session
from projections.spectators import delay_note
from projections.visibility import EVERYTHING, Seen


def seen() -> Seen:
    """What this session may see now (before anything is projected: nothing is held, as nothing is shown)."""
    privileged = session.privileged()
    try:
        return data.seen(privileged)
    except data.NoReadModels:
        return EVERYTHING if privileged else Seen()


def spectator() -> Seen:
    """What anyone may see now, signed in or not (a stream overlay is never privileged)."""
    try:
        return data.seen(False)
    except data.NoReadModels:
        return Seen()


def note_delay(seen: Seen, games: list[str], container=st) -> None:
    """``delay_note`` as a caption, if any."""
    note = delay_note(seen, games)
    if note:
        container.caption(f":material/schedule: {note}")  # untranslated: an icon's name before the words


def delay_before_live(tournament: str | None) -> int:
    """The broadcast delay that keeps this session from seeing the games of ``tournament`` as they are recorded
    (0: it sees them live: signed in, or no delay). For the Record page, which reads its game from the
    application, not the read models."""
    return seen().tournament_delay(tournament)  # (nothing projected yet: no tournament's delay is known)
