"""Eight scorekeepers recording eight games at once through the dashboard, in a real browser: eight pages on
one server, each tapping its own game's Record page in turn, on the embedded SQLite store and on PostgreSQL.
Nothing is lost or duplicated, no page shows an exception, every chain verifies. A tap the browser lost on
the busy machine (nothing ran for it; see test_browser_record) is tapped again, as a scorekeeper would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit_server import chromium, streamlit_server

from domain.application import Rollcall
from domain.scenarios import scenarios
from projections.projector import Projector

pytestmark = pytest.mark.browser

TABLES, TAPS = 8, 3
TAPPABLE = re.compile(r"^(end |activate |Turn \d|Activation phase)")
IDLE = "() => !document.querySelector('[data-testid=stStatusWidget]')"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path, monkeypatch) -> Path:
    if request.param == "postgres":
        for name, value in request.getfixturevalue("postgres_env").items():
            monkeypatch.setenv(name, value)
    data = tmp_path / "data"
    app = Rollcall.open(data)
    setup = {**scenarios("tornscape")["ash-crossing"], "vortices": []}
    for table in range(1, TABLES + 1):
        app.write(header={"rollcall": 1, "system": "tornscape", "game": f"table-{table}", "setup": setup,
                          "players": [{"id": "p1", "name": f"Anna {table}"}, {"id": "p2", "name": f"Boris {table}"}]})
    Projector(data).run()
    return data


def test_eight_scorekeepers_record_at_once_through_the_dashboard(store: Path, tmp_path: Path) -> None:
    with streamlit_server(store, tmp_path / "server.log") as base, chromium() as browser:
        pages = []
        for table in range(1, TABLES + 1):
            page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{base}/record?game=table-{table}")
            pages.append(page)
        for page in pages:
            page.get_by_role("button", name=TAPPABLE).first.wait_for()
        for tap in range(1, TAPS + 1):
            for page in pages:
                page.wait_for_function(IDLE)
            tapped = []
            for page in pages:  # every scorekeeper taps before any of them is answered
                button = page.get_by_role("button", name=TAPPABLE).first
                tapped.append((button.inner_text(), page.locator("[data-testid=stAlert]").all_inner_texts()))
                button.click()
            for page, (label, said) in zip(pages, tapped):
                try:
                    page.get_by_text(f"Recorded seq {tap}:").wait_for(timeout=20_000)
                except Exception:  # a tap the browser lost (nothing ran for it: the page says what it said)
                    assert page.locator("[data-testid=stAlert]").all_inner_texts() == said
                    page.get_by_role("button", name=label, exact=True).click()
                    page.get_by_text(f"Recorded seq {tap}:").wait_for()
                page.get_by_role("button", name=TAPPABLE).first.wait_for()
        for page in pages:
            assert page.locator("[data-testid='stException']").count() == 0
    check = Rollcall.open(store)
    for table in range(1, TABLES + 1):
        lines = check.stored_lines(f"table-{table}")
        assert [line["seq"] for line in lines[1:]] == list(range(1, TAPS + 1))
        assert check.verify(f"table-{table}").ok
