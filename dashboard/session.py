"""Who is at this browser: the access key presented once per browser session, and the store it writes with.

A store with keys asks for one before anything is written. The key is typed once per browser session (a
password field, kept in the session alone: never in a URL, a log or a file) and every write of the session
presents it; ``signed_in`` says whose it is. A store without keys is single-user: nobody signs in.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dashboard import data

KEY = "rc_key"  # the session's key (st.session_state only)
HOLDER = "rc_holder"  # (name, role) of its holder, once checked


@dataclass(frozen=True)
class Who:
    name: str
    role: str


APP = "rc_app"  # (data folder, key, the application service) of this session


def store(key: str | None = None):
    """The application service of the data folder, presenting ``key`` (default: the session's). The
    session's own is opened once and kept (on PostgreSQL an application holds a pool of connections)."""
    from domain.application import Rollcall

    if key is not None:
        return Rollcall.open(data.data_dir(), key=key)
    folder, presented = str(data.data_dir()), st.session_state.get(KEY)
    kept = st.session_state.get(APP)
    if kept is not None and kept[0] == folder and kept[1] == presented:
        return kept[2]
    if kept is not None:
        kept[2].close()
    app = Rollcall.open(folder, key=presented)
    st.session_state[APP] = (folder, presented, app)
    return app


def needs_keys() -> bool:
    """Whether the store has keys (writing needs one)."""
    return bool(store().key_holders())


def signed_in() -> Who | None:
    """The holder of the session's key (None: nobody signed in, or a store without keys)."""
    found = st.session_state.get(HOLDER)
    return Who(*found) if found else None


def may(role: str) -> bool:
    """Whether this session may write what needs ``role`` (a store without keys: anyone)."""
    from domain.access import MAY

    who = signed_in()
    if who is None:
        return not needs_keys()
    return who.role in MAY.get(role, {role})


def sign_in(container=st, *, why: str = "to record", place: str = "") -> Who | None:
    """The sign-in box where the store has keys and nobody is signed in; the holder otherwise (``place``
    tells apart two boxes of one page)."""
    who = signed_in()
    if who is not None:
        line = container.columns([4, 1], vertical_alignment="center")
        line[0].caption(f"Signed in as **{who.name}** ({who.role})")
        line[1].button("Sign out", key=f"rc_sign_out{place}", on_click=sign_out)
        return who
    if not needs_keys():
        return None
    with container.form(f"rc_sign_in{place}", border=False, clear_on_submit=True):
        typed = st.text_input(f"Your key, {why}", type="password", key=f"rc_key_typed{place}",
                              help="Given by the organiser (`rollcall keys add`). Asked once in this browser "
                                   "session; it never appears in a link.")
        submitted = st.form_submit_button("Sign in")
    if submitted:
        if _check(typed):
            st.rerun()
        container.error("That key is not a key of this store.", icon=":material/key_off:")
    return None


def _check(typed: str) -> bool:
    from domain.access import AccessDenied

    try:
        holder = store(typed or "").holder()
    except AccessDenied:
        return False
    if holder is None:
        return False
    st.session_state[KEY] = typed
    st.session_state[HOLDER] = (holder.name, holder.role)
    return True


def sign_out() -> None:
    st.session_state.pop(KEY, None)
    st.session_state.pop(HOLDER, None)
