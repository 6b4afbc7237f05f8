"""A browser tab of the whole dashboard under AppTest (dashboard/app.py: the navigation and the sidebar's sign-in)
open on one page, and what the tests of signing in ask of it."""

from __future__ import annotations

from pathlib import Path

from streamlit.proto.TextInput_pb2 import TextInput as TextInputProto
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboard" / "app.py")


def ran(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def app_page(page: str, **params: str) -> AppTest:
    """A new tab of the dashboard on ``views/<page>.py`` with the URL parameters ``params``."""
    at = AppTest.from_file(APP, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.switch_page(f"views/{page}.py")
    return ran(at)


def sidebar_button(at: AppTest, label: str):
    found = [b for b in at.sidebar.button if b.label == label]
    assert found, f"no button {label!r} in the sidebar: {[b.label for b in at.sidebar.button]}"
    return found[0]


def sign_in(at: AppTest, key: str) -> AppTest:
    """Type ``key`` into the sidebar's sign-in and press Sign in."""
    at.sidebar.text_input(key="rc_key_typed").input(key)
    sidebar_button(at, "Sign in").click()
    return ran(at)


def sign_out(at: AppTest) -> AppTest:
    sidebar_button(at, "Sign out").click()
    return ran(at)


def signed_in_as(at: AppTest) -> list[str]:
    """What the sidebar says of who is signed in."""
    return [m.value for m in at.sidebar.markdown if m.value.startswith("Signed in as")]


def key_fields(at: AppTest) -> list[str]:
    """The labels of the password fields of the page (outside the sidebar)."""
    return [t.label for t in at.main.text_input if t.proto.type == TextInputProto.PASSWORD]


def texts(at: AppTest) -> list[str]:
    """Everything the page says in words: alerts, Markdown, captions, in the page and the sidebar."""
    return [e.value for kind in ("error", "warning", "info", "success", "markdown", "caption")
            for e in getattr(at, kind)]


def form(at: AppTest, key: str):
    """The form ``key`` of the page (its block: what it holds, messages included)."""
    found = [f for f in at.main.form if f.key == key]
    assert found, f"no form {key!r}: {[f.key for f in at.main.form]}"
    return found[0]
