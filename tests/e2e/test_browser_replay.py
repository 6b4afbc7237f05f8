"""The Replay page in a real browser: deep link, keyboard stepping, URL updates.

Starts `streamlit run dashboard/app.py` on a free port and drives Debian's chromium through
playwright. Skipped only when /usr/bin/chromium is missing and CI is unset.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from streamlit_server import SCREENSHOTS, chromium, new_page, streamlit_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(replay_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(replay_data, tmp_path_factory.mktemp("streamlit") / "server.log") as base:
        yield base


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator:
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser) -> Iterator:
    with new_page(browser) as pg:
        yield pg


def model_at(page, model: str) -> str:
    return page.locator(f"svg.rc-board g#model-{model}").get_attribute("data-at")


def url_seq(page) -> int | None:
    values = parse_qs(urlparse(page.url).query).get("seq")
    return int(float(values[0])) if values else None


def board_seq(page) -> str:
    return page.locator("svg.rc-board").get_attribute("data-seq")


def test_deep_link_then_arrow_key_steps(server: str, page) -> None:
    page.goto(f"{server}/replay?game=e2e-legal&seq=4")
    page.wait_for_selector("svg.rc-board[data-seq='4']")
    assert model_at(page, "a1") == "4,2"
    assert page.locator("svg.rc-board .rc-hl-ring[data-model='a1']").count() == 1
    # served through app.py's st.navigation (titled pages), even as the server's first request
    nav = page.locator("[data-testid='stSidebarNav']")
    nav.get_by_text("Replay", exact=True).wait_for()
    assert nav.get_by_text("app", exact=True).count() == 0
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / "replay-seq4.png"), full_page=True)

    # focus the page (not an input) and press the right arrow: the Next button's shortcut
    box = page.locator("svg.rc-board").bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + 5)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("svg.rc-board[data-seq='5']")
    assert model_at(page, "a1") == "6,3"
    page.wait_for_function("() => new URL(location.href).searchParams.get('seq') === '5'")
    assert url_seq(page) == 5
    assert parse_qs(urlparse(page.url).query).get("game") == ["e2e-legal"]

    # the Next button does the same
    page.get_by_role("button", name="Next").click()
    page.wait_for_selector("svg.rc-board[data-seq='6']")
    assert model_at(page, "b1") == "7,4"
    page.wait_for_function("() => new URL(location.href).searchParams.get('seq') === '6'")

    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("svg.rc-board[data-seq='5']")
    assert model_at(page, "b1") == "6,3"
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / "replay-seq5.png"), full_page=True)


def test_violation_deep_link(server: str, page) -> None:
    page.goto(f"{server}/replay?game=e2e-lenient&seq=4")
    page.wait_for_selector("svg.rc-board[data-seq='4']")
    # the violation's alert in the details panel (the event list's canvas grid also holds "R42", hidden)
    page.locator("[data-testid='stAlert']", has_text="R42").first.wait_for()
    assert model_at(page, "a2") == "9,3"
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / "replay-violation.png"), full_page=True)


def test_games_page_links_to_replay(server: str, page) -> None:
    page.goto(f"{server}/")
    page.locator("[data-testid='stDataFrame']").wait_for()
    # the grid draws on a canvas; its accessible cells hold the values
    page.locator("td[role='gridcell']", has_text="e2e-lenient").first.wait_for(state="attached")
    page.locator("td[role='gridcell']", has_text="replay").first.wait_for(state="attached")
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / "games.png"), full_page=True)
