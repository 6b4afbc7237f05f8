"""What people typed is shown as text on every page (AppTest of the whole dashboard over a real store): names,
factions, clubs, a key holder, notes, claims and rulings holding Markdown images and links, HTML tags, scripts and
bold reach the page escaped wherever it is read as Markdown or HTML, and still read as themselves. No page shows
the data folder's path or the command line's advice (a visitor cannot run it), with read models or without."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pandas as pd
import pytest
from hostile import HOLDER, HOSTILE, NOTE, PLAYERS, TOURNAMENT, Hostile, hostile_data
from signing import app_page, sign_in
from spectated import spectate_data
from streamlit.testing.v1 import AppTest

PAGES = {"games": {}, "replay": {"game": "hostile-1", "seq": "41"}, "dispute": {"game": "hostile-1", "seq": "5"},
         "live": {"tournament": TOURNAMENT}, "analytics": {"tournament": TOURNAMENT},
         "standings": {"tournament": TOURNAMENT}, "public": {"tournament": TOURNAMENT},
         "record": {"game": "hostile-1"}, "new_game": {}}
# what each page shows of the hostile texts (every page shows a player's name, but New game)
SHOWN = {"games": [PLAYERS[0]], "replay": [PLAYERS[0], NOTE], "dispute": [PLAYERS[0]],
         "live": [TOURNAMENT], "analytics": [PLAYERS[0], TOURNAMENT], "standings": [PLAYERS[0], TOURNAMENT],
         "public": [PLAYERS[0], TOURNAMENT], "record": [PLAYERS[0]], "new_game": [TOURNAMENT]}
CLI_ADVICE = ("rollcall project", "--key", "ROLLCALL_KEY", "rollcall import", "rollcall demo", "--data")
# elements whose text Streamlit reads as Markdown (with or without HTML)
MARKDOWN = {"markdown", "caption", "title", "header", "subheader", "alert", "error", "warning", "info", "success",
            "button", "expander", "tab", "toast", "metric", "radio", "segmented_control", "checkbox", "toggle"}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Hostile:
    return hostile_data(tmp_path_factory.mktemp("hostile-text") / "data")


def said(node) -> list[tuple[str, str]]:
    """(kind, text) of every element under ``node``: Markdown bodies, labels, options, the cells of tables."""
    out = []
    kind = getattr(node, "type", "")
    proto = getattr(node, "proto", None)
    for attr in ("value", "label", "body"):
        try:
            value = getattr(node, attr)
        except Exception:  # noqa: BLE001  (an element without it)
            continue
        if isinstance(value, str):
            out.append((kind, value))
        elif isinstance(value, pd.DataFrame):  # a table: plain text, cell by cell
            out.append(("dataframe", value.to_csv()))
    if kind == "unknown" or proto is None:
        proto = getattr(node, "proto", None)
    if proto is not None and hasattr(proto, "options") and not callable(proto.options):
        out += [(f"{kind}-option", str(o)) for o in proto.options]
    if proto is not None and hasattr(proto, "help") and proto.help:
        out.append(("help", proto.help))
    if proto is not None and getattr(proto, "body", None) and kind not in MARKDOWN:
        out.append(("html" if "html" in kind or "unknown" in kind else kind, proto.body))
    for child in getattr(node, "children", {}).values():
        out += said(child)
    return out


def everything(at: AppTest) -> list[tuple[str, str]]:
    return said(at.main) + said(at.sidebar)


def as_read(kind: str, text: str) -> str:
    """What a reader sees of ``text``: Markdown's escapes and HTML's references resolved."""
    if kind in MARKDOWN or kind == "html":
        text = re.sub(r"\\(.)", r"\1", html.unescape(text))
    return text.replace("  \n", "\n").replace("\u2060", "")  # (the word joiner that keeps an address text)


def opened(page: str, hostile: Hostile, monkeypatch, signed_in: bool) -> AppTest:
    monkeypatch.setenv("ROLLCALL_DATA", str(hostile.data))
    at = app_page(page, **PAGES[page])
    return sign_in(at, hostile.key) if signed_in else at


@pytest.mark.parametrize("signed_in", [False, True], ids=["spectator", "judge"])
@pytest.mark.parametrize("page", list(PAGES))
def test_what_people_typed_is_shown_as_text_on_every_page(page: str, signed_in: bool, hostile: Hostile,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    at = opened(page, hostile, monkeypatch, signed_in)
    assert not at.exception, [e.value for e in at.exception]
    found = everything(at)
    markup = [(kind, text[:160]) for kind, text in found if kind in MARKDOWN or kind == "html"
              for bad in HOSTILE if bad in text]
    assert not markup, markup  # in Markdown or HTML, each of them would be markup
    read = "\n".join(as_read(kind, text) for kind, text in found)
    for text in SHOWN[page]:
        assert text in read, f"{text!r} not shown as itself on {page}"
    if page == "live" and signed_in:  # the cards are the component's to draw (escaped by it: the browser's test)
        assert PLAYERS[0] in "\n".join(s["scores"] for s in spectate_data(at)["snapshots"] if s["kind"] == "table")


def test_a_note_a_claim_a_ruling_and_a_key_holder_read_as_themselves(hostile: Hostile,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from hostile import CLAIM, RULING

    at = opened("dispute", hostile, monkeypatch, signed_in=True)
    read = "\n".join(as_read(kind, text) for kind, text in everything(at))
    for text in (CLAIM, RULING, HOLDER):
        assert text in read, text


@pytest.mark.parametrize("page", list(PAGES))
def test_no_page_shows_the_data_folder_or_the_command_line(page: str, hostile: Hostile, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for data in (hostile.data, tmp_path / "data"):  # read models and games; then nothing recorded at all
        monkeypatch.setenv("ROLLCALL_DATA", str(data))
        at = app_page(page, **PAGES[page])
        assert not at.exception, [e.value for e in at.exception]
        text = "\n".join(t for _, t in everything(at))
        assert str(data) not in text and str(data.parent) not in text, page
        assert not [advice for advice in CLI_ADVICE if advice in text], (page, text[:400])
        if data != hostile.data and page not in ("new_game", "record"):
            assert "Nothing has been recorded yet" in text, (page, text[:400])
