"""Page setup shared by every page file of dashboard/views/."""

from __future__ import annotations

import functools
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


def show_message(key: str) -> None:
    """The outcome a form's write left in the session under ``key`` as (kind, text), shown once: an error
    or a success (as text: it may quote what was typed)."""
    kind, text = st.session_state.pop(key, (None, None))
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
