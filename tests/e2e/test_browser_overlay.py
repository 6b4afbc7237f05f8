"""The stream overlay in a real browser: transparent, without sidebar or buttons, and an event recorded through
the application reaches it by itself; screenshots at broadcast sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit_server import chromium, new_page, streamlit_server

from projections.projector import Projector
from service.application import Rollcall

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
SHOTS = ROOT / "test-output" / "screenshots"


def test_the_overlay_is_transparent_bare_and_follows_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Rollcall.open(data)
    with open(EX1, encoding="utf-8") as handle:
        last = store.import_record(handle, str(EX1)).events
    Projector(data).run()
    SHOTS.mkdir(parents=True, exist_ok=True)
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser, new_page(browser) as page:
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(f"{base}/overlay?game={GAME}")
        page.wait_for_selector(f".rc-ov[data-seq='{last}']")
        for where in ("html", "body", ".stApp"):
            colour = page.eval_on_selector(where, "e => getComputedStyle(e).backgroundColor")
            assert colour in ("rgba(0, 0, 0, 0)", "transparent"), (where, colour)
        assert not page.locator("[data-testid='stSidebar']").is_visible()
        assert page.locator("button:visible").count() == 0
        page.screenshot(path=str(SHOTS / "overlay-1920.png"))
        store.record(GAME, {"type": "Noted", "text": "recorded elsewhere"})
        page.wait_for_selector(f".rc-ov[data-seq='{last + 1}']", timeout=15_000)
        page.set_viewport_size({"width": 1280, "height": 720})
        page.screenshot(path=str(SHOTS / "overlay-1280.png"))
