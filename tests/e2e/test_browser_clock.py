"""The game clock on the Record page in a real browser on a phone (390 px): the clock is started and passed by
one big tap each, the running time counts down in the browser with no run of the page, and what was tapped is
stored as the game's clock events. Screenshots at 1,400, 820 and 390 px go to test-output/screenshots."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

from projections.projector import Projector
from service.application import Rollcall

pytestmark = pytest.mark.browser
GAME = "phone-clock"
HEADER = {"rollcall": 1, "game": GAME, "system": "t9a", "clock": {"seconds": 9000},
          "players": [{"id": "p1", "name": "Anna", "faction": "orcs"}, {"id": "p2", "name": "Boris",
                                                                        "faction": "elves"}], "setup": {}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("clock") / "data"
    Rollcall.open(data).import_record([json.dumps(HEADER)], "phone-clock")
    Projector(data).run()
    with streamlit_server(data, tmp_path_factory.mktemp("streamlit-clock") / "server.log") as base:
        yield base, data


# an element of the page, looked for in the components' shadow roots too
DEEP = """(() => { const deep = (sel, root = document) => { const found = root.querySelector(sel); if (found) return found;
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const inner = deep(sel, el.shadowRoot);
  if (inner) return inner; } return null; }; return """


def events(data: Path) -> list[dict]:
    return Rollcall.open(data).stored_lines(GAME)[1:]


def remaining(page, player: str) -> int:
    return int(page.locator(f'.rc-clock-face[data-player="{player}"]').get_attribute("data-remaining"))


def passing_button(page, player: str):
    """The one button that passes ``player``'s clock, once the page shows one only (while a run draws the clock
    again, the one it replaces may still be there for a moment)."""
    button = page.get_by_role("button", name=f"{player}: pass the clock")
    expect(button).to_have_count(1, timeout=45_000)
    button.wait_for()  # (and drawn)
    return button


def test_a_player_passes_the_clock_with_one_big_tap_on_a_phone(server) -> None:
    base, data = server
    with chromium() as browser:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.set_default_timeout(45_000)
        page.goto(f"{base}/record?game={GAME}")
        page.get_by_role("button", name="Start: Anna's time runs").click()
        passing = passing_button(page, "Anna")
        box = passing.bounding_box()
        assert box["width"] >= 300 and box["height"] >= 88  # one big tap, across the phone
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        first = remaining(page, "p1")
        # the browser counts Anna's time down by itself: no run of the page is needed for it
        page.wait_for_function(DEEP + "(first) => +deep('.rc-clock-face[data-player=\"p1\"]')?.dataset.remaining"
                               " < first - 1500; })()", arg=first)
        assert remaining(page, "p2") == 9_000_000
        page.screenshot(path=str(Path(SCREENSHOTS) / "record-clock-390.png"), full_page=True)
        passing.click()
        passing_button(page, "Boris")
        assert [e["type"] for e in events(data)] == ["ClockStarted", "ClockPassed"]
        assert page.locator('.rc-clock-face[data-player="p2"]').get_attribute("class").count("rc-clock-running")
        passing_button(page, "Boris").click()
        passing_button(page, "Anna")
        stored = events(data)
        assert [(e["type"], e["player"]) for e in stored] == [("ClockStarted", "p1"), ("ClockPassed", "p1"),
                                                              ("ClockPassed", "p2")]
        for width in (820, 1400):
            page.set_viewport_size({"width": width, "height": 900})
            passing_button(page, "Anna")
            page.screenshot(path=str(Path(SCREENSHOTS) / f"record-clock-{width}.png"), full_page=True)


def test_live_and_the_overlay_show_both_clocks_running(tmp_path: Path) -> None:
    from datetime import datetime, timezone

    from domain.clock import iso

    data = tmp_path / "data"
    store = Rollcall.open(data)
    game = "clock-open-r1-t3"
    header = {**HEADER, "game": game, "tournament": "Clock Open", "round": 1, "table": 3}
    now = lambda: iso(round(datetime.now(timezone.utc).timestamp() * 1000))  # noqa: E731 - the table's instant
    store.import_record([json.dumps(header), json.dumps({"type": "ClockStarted", "at": now(), "player": "p1"})],
                        "clock-open")
    Projector(data).run()
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser:
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.set_default_timeout(45_000)
        page.goto(f"{base}/overlay?game={game}")
        running = page.locator('.rc-ov-clock .rc-clock-live-running[data-player="p1"]')
        running.wait_for()
        first = int(running.get_attribute("data-left"))
        page.wait_for_function(DEEP + "(first) => +deep('.rc-ov-clock .rc-clock-live-running')?.dataset.left"
                               " < first - 1500; })()", arg=first)
        assert page.locator('.rc-ov-clock [data-player="p2"] .rc-clock-live-time').inner_text() == "2:30:00"
        page.screenshot(path=str(Path(SCREENSHOTS) / "overlay-clock-1920.png"))
        store.record(game, {"type": "ClockPassed", "at": now(), "player": "p1"})  # passed at the table
        page.locator('.rc-ov-clock .rc-clock-live-running[data-player="p2"]').wait_for()
        for width in (1400, 820, 390):
            live = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            live.goto(f"{base}/live")
            live.locator('.rc-live-clock .rc-clock-live-running[data-player="p2"]').wait_for(timeout=45_000)
            live.screenshot(path=str(Path(SCREENSHOTS) / f"live-clock-{width}.png"), full_page=True)
            live.close()
