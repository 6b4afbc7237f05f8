"""The language of each browser: chosen in the sidebar, remembered by the browser, else the best guess.

A run of a page speaks, in this order: the sidebar picker's choice for this tab (or the tab's last run's); a
link's ``?lang=``; the browser's remembered choice (a cookie written by static/language.js when the picker
changes, kept a year); the server's ``ROLLCALL_LANG``; the browser's own language; the server's locale; English.
One server serves each browser in its own language: the language is :mod:`i18n`'s context variable, set here at
every run.
"""

from __future__ import annotations

import os

import streamlit as st

import i18n
from dashboard.components import component
from domain import settings
from domain.errors import RollcallError

KEY = "rc_lang"        # the picker's widget: this tab's language
SPOKEN = "rc_lang_spoken"  # the language this tab's last run chose (a callback or a fragment speaks it)
COOKIE = "rc_lang"     # the browser's remembered choice
PARAM = "lang"         # a link's choice (a stream overlay's browser source has no sidebar to pick in)
COMPONENT = "rc_lang_cookie"


def choose() -> str:
    """Speak this run's language and keep it as the picker's value (at the top of a page's run); returns it."""
    lang = i18n.use(speak_of_tab())
    st.session_state[KEY] = st.session_state[SPOKEN] = lang
    return lang


def speak_of_tab() -> str:
    """This tab's language: the picker's, the last run's, a link's, the browser's remembered choice, the server's
    ROLLCALL_LANG, the browser's language, the server's locale."""
    return (i18n.known(st.session_state.get(KEY)) or i18n.known(st.session_state.get(SPOKEN))
            or i18n.known(st.query_params.get(PARAM))
            or i18n.known(st.context.cookies.get(COOKIE)) or _server_choice()
            or i18n.known(st.context.locale) or _server_locale())


def _server_choice() -> str | None:
    return i18n.known(os.environ.get(settings.LANG_ENV))


def _server_locale() -> str:
    try:
        return settings.language()
    except RollcallError:  # a ROLLCALL_LANG Rollcall does not speak: the command line says so; a page speaks English
        return i18n.SOURCE


def picker() -> None:
    """The sidebar's language picker (each language named in itself), and the browser's cookie that remembers it."""
    st.sidebar.segmented_control(  # untranslated: the picker's label is in both languages
        "Language · Язык", list(i18n.LANGUAGES), format_func=i18n.LANGUAGES.get, key=KEY,
        on_change=_kept, label_visibility="collapsed", width="stretch")
    with st.sidebar:
        component("rollcall_language", '<span class="rc-lang"></span>', "language")(
            data={"cookie": COOKIE, "lang": i18n.current()}, key=COMPONENT, height="content")


def _kept() -> None:
    """Clicking the language shown unselects it: this tab keeps speaking it."""
    if st.session_state.get(KEY) is None:
        st.session_state[KEY] = st.session_state.get(SPOKEN) or i18n.current()
