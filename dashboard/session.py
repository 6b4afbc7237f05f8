"""Who is at this device: one sign-in per browser, in the sidebar of every page, and the store it writes with.

A store with keys asks for one before anything is written. The key is typed once, in the sidebar's sign-in
(a password field, emptied at once). The server keeps it in memory with its holder under a random session
id (``dashboard.devices``); the browser keeps only that id, in a cookie the server sets (``HttpOnly``,
``SameSite=Strict``, path ``/``, ``Secure`` under HTTPS: dashboard.signin_routes), so a reload or another tab of
the same browser is still signed in. The key is never in a URL, a page, a cookie,
a log or a file. Every page writes with the device's key (``store``), asks ``may`` (or ``asked``, for the
words of a refusal) and ``signed_in``; ``privileged`` says who sees games live under a broadcast delay.

A device no person used for ``settings.idle_minutes()`` signs out (a tap or a key on one of its pages is a use,
told to the server by the browser; a page's run is not), and so does one whose key was revoked. Its open pages
hear of it at once, pushed by the server (dashboard.changes: its ``device:`` key, and ``keys`` when a key is added
or revoked), and run again to say so; a write is checked against the store's keys in any case.
Signing out forgets everything of this browser tab (the key, its holder, what its forms hold, the
application service), and the other tabs of the browser sign out with it. A store without keys is
single-user: nobody signs in, anyone may write.

The browser's side (static/session.js) has the server set and clear the cookie when told (with a ticket, never
the session id), tells the other tabs of the browser, tells the server when a person uses the device, and wakes
the page when it may have been left alone (the server decides).
"""

from __future__ import annotations

import secrets

import streamlit as st

from dashboard import data, safe
from dashboard.components import component
from dashboard.devices import DEVICES, TICKETS, Device, Devices, Who
from dashboard.devices import cookie_name as _cookie_named
from dashboard.language import SPOKEN  # the tab's language, which signing out leaves as it is
from dashboard.layout import in_the_pages_language
from domain import settings
from domain.errors import RollcallError
from i18n import N_, _

SID = "rc_sid"  # this tab's session id (None: signed out here; absent: the cookie not looked at yet)
APP = "rc_app"  # (data folder, session id, the application service) of this tab
OP = "rc_cookie_op"  # what the browser's cookie is to become (with its ticket), until the browser says it did
NOTICE = "rc_notice"  # (kind, text) said once in the sidebar: why this device was signed out
SHOWN = "rc_shown"  # this tab showed a device signed in (a later sign-out elsewhere is then said)
COMPONENT = "rc_device"  # the browser's side (static/session.js)

# what a write needs (domain.access.MAY) -> the key a page asks for
# (as "Sign in with …" says it)
KEY_WORDS = {"record": N_("a scorekeeper's key"), "judge": N_("a judge's key"), "organise": N_("an organiser's key")}
# a key's role (domain.access.ROLES) as a person reads it
ROLE_WORDS = {"scorekeeper": N_("scorekeeper"), "judge": N_("judge"), "organiser": N_("organiser"), "player": N_("player")}
LINK_PARAM = "signin"  # a player's sign-in link (its QR code): /me?signin=CODE signs the phone in, then leaves the URL


def role_text(role: str | None) -> str:
    """A role in the page's language (an unknown one as it is)."""
    return _(ROLE_WORDS[role]) if role in ROLE_WORDS else str(role or "")


def devices() -> Devices:
    """This server's signed-in browsers (one for every session of the server, and for its routes)."""
    return DEVICES


def cookie_name() -> str:
    return _cookie_named(st.get_option("server.port"))


def idle_minutes() -> float:
    """How long a device may be left alone (a bad setting is said in the sidebar; the default holds then)."""
    try:
        return settings.idle_minutes()
    except RollcallError:
        return settings.DEFAULT_IDLE_MINUTES


def _folder() -> str:
    return str(data.data_dir())


def _sid() -> str | None:
    """This tab's session id: at its first run, the one of the browser's cookie."""
    if SID not in st.session_state:
        st.session_state[SID] = st.context.cookies.get(cookie_name()) or None
    return st.session_state[SID]


def _device() -> Device | None:
    sid = _sid()
    return devices().find(sid, _folder(), idle_minutes() * 60)[0] if sid else None


# --- what the pages ask -------------------------------------------------------------------------------

def store(key: str | None = None):
    """The application service of the data folder, presenting ``key`` (the caller closes it) or, by default,
    the device's. The device's is opened once per tab and kept (on PostgreSQL an application holds a pool of
    connections) until the device signs in or out."""
    from service.application import Rollcall

    if key is not None:
        return Rollcall.open(data.data_dir(), key=key)
    device = _device()
    folder, sid = _folder(), st.session_state.get(SID) if device else None
    kept = st.session_state.get(APP)
    if kept is not None and kept[0] == folder and kept[1] == sid:
        return kept[2]
    if kept is not None:
        kept[2].close()
    app = Rollcall.open(folder, key=device.key if device else None)
    st.session_state[APP] = (folder, sid, app)
    return app


def needs_keys() -> bool:
    """Whether the store has keys (writing needs one)."""
    return bool(store().key_holders())


def signed_in() -> Who | None:
    """Who is signed in on this device (None: nobody, or a store without keys)."""
    device = _device()
    return device.who if device else None


def privileged() -> bool:
    """Whether this device sees games as they are under a broadcast delay (someone is signed in with a key: a
    player's own sign-in sees the other tables as any spectator does)."""
    who = signed_in()
    return who is not None and who.role != "player"


def holder():
    """The holder of the device's sign-in (domain.access.Holder: a player's names the tournament), or None."""
    from domain.access import AccessDenied

    if signed_in() is None:
        return None
    try:
        return store().holder()
    except AccessDenied:
        return None


def playing() -> bool:
    """Whether this device is signed in with a player's own sign-in."""
    who = signed_in()
    return who is not None and who.role == "player"


def may_record(game) -> bool:
    """Whether this device may record the game ``game`` (a Game as stored) now: a key that records, or a player's
    sign-in where domain.access lets the player write it."""
    if not may("record"):
        return False
    return not playing() or store().player_may(game, []) is None


def record_refusal(game) -> str | None:
    """Why a player's sign-in may not record ``game`` (the rule's words), or None."""
    if not may("record") or not playing():
        return None
    refusal = store().player_may(game, [])
    return str(refusal) if refusal is not None else None


def may(role: str) -> bool:
    """Whether this device may write what needs ``role`` (a store without keys: anyone)."""
    from domain.access import MAY

    who = signed_in()
    if who is None:
        return not needs_keys()
    return who.role in MAY.get(role, {role})


def asked(need: str, what: str) -> str | None:
    """Why this device may not ``what`` (a write that needs ``need``), in a page's words; None when it may.
    Pages ask before writing, so the key is checked before anything else is said."""
    if may(need):
        return None
    who = signed_in()
    return _sign_in_words(need, what, who.name if who else None, who.role if who else None)


def refused(exc, what: str) -> str:
    """A refused write (``domain.access.AccessDenied``) in a page's words: what to do in the sidebar."""
    need = exc.need or "record"
    if getattr(exc, "rule", None):  # a player's sign-in refused by a rule of its own (domain.access): said as it is
        return str(exc)
    if exc.reason == exc.UNKNOWN_KEY:  # revoked since this device signed in: the next run signs it out
        return _("The key this device signed in with was revoked. Sign in with {key} in the sidebar "
                 "to {what}.").format(key=_(KEY_WORDS[need]), what=what)
    holder = exc.holder if exc.reason == exc.ROLE else None
    return _sign_in_words(need, what, holder.name if holder else None, holder.role if holder else None)


def _sign_in_words(need: str, what: str, name: str | None, role: str | None) -> str:
    if name is None:
        return _("Sign in with {key} in the sidebar to {what}.").format(key=_(KEY_WORDS[need]), what=what)
    return _("Signed in as {name} ({role}), who may not {what}: sign out in the sidebar and sign in with "
             "{key}.").format(name=name, role=role_text(role), what=what, key=_(KEY_WORDS[need]))


# --- the sidebar -----------------------------------------------------------------------------------------

def sidebar() -> None:
    """The device's sign-in in the sidebar of every page: who is signed in, with Sign out, or the sign-in box
    where the store has keys; and the browser's side of it (the cookie, the other tabs, the idle watch)."""
    bar = st.sidebar
    try:
        settings.idle_minutes()
    except RollcallError as exc:
        bar.error(str(exc), icon=":material/settings:")
    device = _current()
    if LINK_PARAM in st.query_params:  # a player's sign-in link: the phone signs in as that player
        code = st.query_params.pop(LINK_PARAM)
        if _check(code):
            st.rerun()
        bar.error(_("That sign-in is not valid here (issued again, revoked, or of another store): ask the "
                    "organiser's desk for a new one."), icon=":material/key_off:")
    notice = st.session_state.pop(NOTICE, None)
    if notice is not None:
        getattr(bar, notice[0])(safe.md(notice[1]), icon=":material/logout:")
    keys = needs_keys()
    if device is not None:
        st.session_state[SHOWN] = True
        bar.markdown(_("Signed in as **{name}** ({role})").format(name=safe.md(device.who.name),
                                                                  role=safe.md(role_text(device.who.role))))
        bar.button(_("Sign out"), key="rc_sign_out", on_click=sign_out, icon=":material/logout:")
    elif keys:
        with bar.form("rc_sign_in", border=False, clear_on_submit=True):
            typed = st.text_input(_("Your key"), type="password", key="rc_key_typed",
                                  help=_("Given by the organiser. Typed once in this browser: every page and tab "
                                         "uses it until Sign out, or until the device is left alone for "
                                         "{time}. It never appears in a link.").format(time=_minutes(idle_minutes())))
            submitted = st.form_submit_button(_("Sign in"), icon=":material/key:")
        if submitted:
            if _check(typed):
                st.rerun()
            bar.error(_("That key is not a key of this store."), icon=":material/key_off:")
    with bar:
        _browser(device)
        if device is not None or not keys:
            _follow(st.session_state.get(SID) if device else None, _keys_version())


def _current() -> Device | None:
    """The device signed in on this browser, checked: one left alone too long, signed out elsewhere or whose
    key was revoked is signed out here (everything of the tab forgotten), with a word why."""
    sid = _sid()
    if not sid:
        return None
    minutes = idle_minutes()
    device, why = devices().find(sid, _folder(), minutes * 60)
    if device is None:
        devices().drop(sid)  # signed out for good
        _forget(("info", _("Signed out: this device was left alone for {time}.").format(time=_minutes(minutes)))
                if why == Devices.IDLE else ("info", _("Signed out.")) if st.session_state.get(SHOWN) else None, sid)
        return None
    from domain.access import AccessDenied

    try:
        store().holder()
    except AccessDenied:
        devices().drop(sid)
        _forget(("warning", _("Signed out: the key of {name} was revoked.").format(name=device.who.name)), sid)
        return None
    return device


def _check(typed: str) -> bool:
    """Sign this device in with ``typed``, if it is a key of the store."""
    from domain.access import AccessDenied

    app = store(typed or "")
    try:
        holder = app.holder()
    except AccessDenied:
        return False
    finally:
        app.close()
    if holder is None:
        return False
    sid = devices().add(typed, Who(holder.name, holder.role), _folder(), idle_minutes() * 60)
    st.session_state[SID] = sid
    st.session_state[OP] = {"nonce": secrets.token_hex(8), "kind": "set",
                            "ticket": TICKETS.issue("set", sid, cookie_name())}
    return True


@in_the_pages_language
def sign_out() -> None:
    """Sign this device out: here, in every tab of the browser, and on the server."""
    sid = st.session_state.get(SID)
    devices().drop(sid)
    _forget(("success", _("Signed out.")), sid)


def _forget(notice: tuple[str, str] | None, sid: str | None) -> None:
    """Forget everything of this tab (the key's application service, what its forms and pages hold) and clear
    the browser's cookie of ``sid``; ``notice`` is said in the sidebar. A tab that showed someone signed in
    is loaded again afresh by the browser as well: what its forms hold in the browser goes too."""
    kept = st.session_state.get(APP)
    if kept is not None:
        kept[2].close()
    shown = bool(st.session_state.get(SHOWN))
    for name in [k for k in st.session_state if k not in (COMPONENT, SPOKEN)]:  # the tab keeps its language
        del st.session_state[name]
    st.session_state[SID] = None
    st.session_state[OP] = {"nonce": secrets.token_hex(8), "kind": "clear", "reload": shown,
                            "ticket": TICKETS.issue("clear", sid or "", cookie_name()),
                            "notice": notice[1] if notice else ""}
    if notice is not None:
        st.session_state[NOTICE] = notice


# --- the browser's side ------------------------------------------------------------------------------------

def _browser(device: Device | None) -> None:
    """Mount the browser's side (static/session.js): the cookie the server is to set or clear, the idle time, who
    is signed in (for the chip shown while the sidebar is folded away), where the sign-in's routes are."""
    from dashboard.signin_routes import PATH

    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    component("rollcall_session", '<div class="rc-device"></div>', "session")(
        data={"cookie": cookie_name(), "op": st.session_state.get(OP), "idle_ms": int(idle_minutes() * 60_000),
              "routes": f"/{base}{PATH}" if base else PATH,
              "signed_in": f"{device.who.name} ({role_text(device.who.role)})" if device else "",
              "texts": {"sign_out": _("Sign out"),
                        "offline": _("Lost the server: what is tapped now is not stored. Trying again…")}},
        key=COMPONENT, on_applied_change=_applied, on_idle_change=_idle,
        on_tab_change=_other_tab, on_sign_out_change=sign_out, height="content")


def _said(name: str):
    state = st.session_state.get(COMPONENT)
    return state.get(name) if state is not None and hasattr(state, "get") else None


def _applied() -> None:
    op = st.session_state.get(OP)
    if op is not None and _said("applied") == op["nonce"]:
        del st.session_state[OP]


def _idle() -> None:
    """The browser saw no tap or key for the idle time: the run this brings asks the server, which decides (another
    tab of the browser may have been used meanwhile)."""


def _other_tab() -> None:
    """Another tab of this browser signed in or out: this one follows (a sign-out is found by the next run). A
    sign-in comes as a ticket of the cookie's session id, which this tab never sees."""
    said = _said("tab")
    if not isinstance(said, dict) or said.get("kind") != "set" or _device() is not None:
        return
    ticket = TICKETS.redeem(said.get("ticket"), "tab")
    if ticket is not None and ticket.sid and devices().find(ticket.sid, _folder(), idle_minutes() * 60)[0] is not None:
        st.session_state[SID] = ticket.sid


def _keys_version() -> int:
    """The version of the store's keyring (0: no keys yet): it changes when a key is added or revoked."""
    return store().keys_version()


def _follow(sid: str | None, keys: int) -> None:
    """Run the page again when a key is added or revoked, or this device is signed out elsewhere (or left alone,
    as the server decides): told by the server once it happens (dashboard.changes), never looked for on a timer."""
    from dashboard import changes

    watch = {"keys": keys}
    if sid is not None:
        watch[changes.device_key(sid)] = 0  # told only when it is signed out
    changes.follow(watch, key="rc-session-changes")


def _minutes(minutes: float) -> str:
    return (_("{n} min").format(n=f"{minutes:g}") if minutes >= 1 else
            _("{n} s").format(n=f"{minutes * 60:g}"))
