"""The dashboard in the players' language, in a real browser: a browser whose language is Russian opens the
dashboard in Russian; the sidebar's picker turns a tablet's pages to Russian (or back) and the browser
remembers it after a reload and in a new tab; another browser, left alone, keeps its own language.

Screenshots of the Russian pages at 820 px (and 1,400 and 390 px) go to test-output/screenshots (language-*)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

pytestmark = pytest.mark.browser
TABLET = {"width": 820, "height": 1180}
CYRILLIC = re.compile("[А-Яа-яЁё]")
RUN_OVER = """() => { const w = document.querySelector('[data-testid="stStatusWidget"]');
  return !w || !/stop|running|connecting|останов|выполн/i.test(w.innerText); }"""


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from projections.projector import Projector
    from service.application import Rollcall
    from simulation.tournaments import simulate_tournament

    folder = tmp_path_factory.mktemp("language") / "data"
    store = Rollcall.open(folder)
    store.create_tournament("Кубок Вихря", "tornscape")
    for game in simulate_tournament("tornscape", "Кубок Вихря", 4, 2, 11, turns=3):
        store.import_record(game.lines, game.game)
    store.close()
    Projector(folder).run()
    return folder


@pytest.fixture(scope="module")
def base(data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("streamlit-language") / "server.log"
    with streamlit_server(data, log, env={"LANG": "C.UTF-8", "ROLLCALL_LANG": ""}) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with chromium() as found:
        yield found


def opened(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector('[data-testid="stSidebarNav"]', state="attached")
    page.wait_for_function(RUN_OVER)
    page.wait_for_timeout(600)
    page.wait_for_function(RUN_OVER)


def main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


HEADING = '[data-testid="stMain"] h1, [data-testid="stMain"] h2, [data-testid="stMain"] h3'
CHANGED = """([selector, before]) => JSON.stringify([...document.querySelectorAll(selector)]
  .map(h => h.innerText.trim()).filter(t => t)) !== JSON.stringify(before)"""


def headings(page) -> list[str]:
    return [h.strip() for h in page.locator(HEADING).all_inner_texts() if h.strip()]


def open_sidebar(page) -> None:
    """Below 1,100 px the sidebar is folded away: a tap opens it over the page."""
    if page.locator('#stSidebar[data-collapsed="true"]').count():
        page.locator('[data-testid="stExpandSidebarButton"]').click()
        page.locator('#stSidebar[data-collapsed="false"]').wait_for(state="attached")


def pick(page, language: str, *, changes: bool = True) -> None:
    """Tap a language in the picker and wait for the page's run in it (on a busy machine the run can start
    well after the tap: a language other than the one shown is awaited until the headings change)."""
    open_sidebar(page)
    before = headings(page) if changes else None
    page.locator('[data-testid="stSidebar"] button', has_text=language).first.click()
    if before is not None:
        with contextlib.suppress(PlaywrightTimeout):  # unchanged: the assertions after say what the page shows
            page.wait_for_function(CHANGED, arg=[HEADING, before], timeout=30_000)
    page.wait_for_timeout(400)
    page.wait_for_function(RUN_OVER)


def shot(page, name: str) -> None:
    """A screenshot of the page with the sidebar folded away (a tap opens it over the page)."""
    if page.locator('#stSidebar[data-collapsed="false"]').count() and page.viewport_size["width"] < 1100:
        page.locator('[data-testid="stSidebarCollapseButton"] button').click()
        page.locator('#stSidebar[data-collapsed="true"]').wait_for(state="attached")
        page.wait_for_timeout(300)
    page.screenshot(path=str(Path(SCREENSHOTS) / f"language-{name}.png"), full_page=True)


def a_game(data: Path) -> str:
    from projections.queries import connect_read, list_games

    con = connect_read(data)
    try:
        return list_games(con)[0]["game"]
    finally:
        con.close()


def test_a_russian_browser_opens_the_dashboard_in_russian(browser, base: str) -> None:
    context = browser.new_context(viewport=TABLET, locale="ru-RU")
    try:
        page = context.new_page()
        opened(page, f"{base}/standings")
        assert headings(page) and all(CYRILLIC.search(h) for h in headings(page)), headings(page)
        shot(page, "ru-820-standings")
        page.set_viewport_size({"width": 1400, "height": 1000})  # a desk's screen: the sidebar beside the page
        for path, name in (("/standings", "standings"), ("/analytics", "analytics")):
            opened(page, base + path)
            assert all(CYRILLIC.search(h) for h in headings(page)), (path, headings(page))
            shot(page, f"ru-1400-{name}")
    finally:
        context.close()


def test_the_picker_turns_a_tablet_to_russian_and_the_browser_remembers_it(browser, base: str, data: Path) -> None:
    context = browser.new_context(viewport=TABLET, locale="en-GB")
    try:
        page = context.new_page()
        opened(page, f"{base}/")
        english = headings(page)
        assert english and not any(CYRILLIC.search(h) for h in english), english
        pick(page, "Русский")
        assert all(CYRILLIC.search(h) for h in headings(page)), headings(page)
        # a tap on the language shown does not unselect it: the tab keeps speaking it
        pick(page, "Русский", changes=False)
        assert all(CYRILLIC.search(h) for h in headings(page)), headings(page)
        nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "Игры" in nav and "Турниры" in nav, nav
        shot(page, "ru-820-games")
        for path, name in (("/standings", "standings"), ("/analytics", "analytics"), ("/new_game", "new-game"),
                           ("/live", "live"), (f"/record?game={a_game(data)}", "record"),
                           (f"/replay?game={a_game(data)}&seq=5", "replay")):
            opened(page, base + path)
            shown = headings(page) or [main_text(page)]  # the Replay page shows its board and caption alone
            assert all(CYRILLIC.search(h) for h in shown), (path, shown)
            assert "Traceback" not in main_text(page)
            if name == "record":  # its parts rerun alone (fragments, every 1.5 s): they speak the tab's language too
                page.wait_for_timeout(3500)
                page.wait_for_function(RUN_OVER)
                text = main_text(page)
                assert "Исправления" in text and "Corrections" not in text and "Last events" not in text, text
            shot(page, f"ru-820-{name}")
        other = context.new_page()  # a new tab of the same browser: the choice is remembered
        opened(other, f"{base}/")
        assert all(CYRILLIC.search(h) for h in headings(other)), headings(other)
        other.close()
        pick(page, "English")
        opened(page, f"{base}/")
        assert not any(CYRILLIC.search(h) for h in headings(page)), headings(page)
    finally:
        context.close()


def test_a_phone_reads_russian_from_a_link_and_another_browser_keeps_english(browser, base: str) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    alone = browser.new_context(viewport=TABLET, locale="en-US")
    try:
        page = phone.new_page()
        opened(page, f"{base}/standings?lang=ru")
        assert all(CYRILLIC.search(h) for h in headings(page)), headings(page)
        shot(page, "ru-390-standings")
        other = alone.new_page()
        opened(other, f"{base}/standings")
        assert not any(CYRILLIC.search(h) for h in headings(other)), headings(other)
    finally:
        phone.close()
        alone.close()
