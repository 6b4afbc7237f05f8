"""Page setup shared by every page file of dashboard/views/."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from dashboard import language, safe
from i18n import _, speaking


F = TypeVar("F", bound=Callable)


def in_the_pages_language(callback: F) -> F:
    """A widget's callback that speaks the tab's language: Streamlit runs a callback before the page's script,
    in a fresh thread, before dashboard/app.py has chosen the run's language (dashboard.language)."""
    @functools.wraps(callback)
    def run(*args, **kwargs):
        with speaking(language.speak_of_tab()):  # for the callback alone: the run around it keeps its own
            return callback(*args, **kwargs)
    return run  # type: ignore[return-value]


def fragment(func=None, *, run_every: float | None = None):
    """``st.fragment`` whose reruns speak the tab's language: a fragment reruns alone, without
    dashboard/app.py, so it chooses the language itself (in_the_pages_language). Every fragment is one of these."""
    def made(inner):
        return st.fragment(in_the_pages_language(inner), run_every=run_every)
    return made(func) if func is not None else made


KEEP_SECONDS = 20.0  # a write's outcome stays said this long, whatever runs the page again meanwhile


def show_message(key: str, clock: Callable[[], float] = time.monotonic) -> None:
    """The outcome a form's write left in the session under ``key`` as (kind, text): an error or a success (as
    text: it may quote what was typed). It is said from the run after the write for KEEP_SECONDS (by ``clock``),
    through the runs that follow by themselves (the events just written, published a moment later, run the page
    again), unless the next write's outcome takes its place."""
    held = st.session_state.get(key)
    if held is None:
        return
    kind, text, *since = held
    now = clock()
    if not since:
        st.session_state[key] = (kind, text, now)  # said from now
    elif now - since[0] > KEEP_SECONDS:
        del st.session_state[key]
        return
    if kind == "error":
        st.error(safe.message(text), icon=":material/block:")
    elif kind == "success":
        st.success(safe.message(text), icon=":material/task_alt:")


def games_or_stop(seen) -> list[dict]:
    """The recorded games as ``seen`` sees them (dashboard.viewer); says that nothing is recorded yet (and stops
    the page) when there are none."""
    from dashboard import data

    try:
        games = data.list_games(seen)
    except data.NoReadModels as exc:
        st.info(str(exc))
        st.stop()
    if not games:
        st.info(_(data.NOTHING_YET))
        st.stop()
    return games
