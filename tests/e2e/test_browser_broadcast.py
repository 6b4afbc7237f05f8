"""``rollcall broadcast``'s own pages in a real browser: the Live page of a tournament and the stream overlay,
served by a front end over the data folder's feed, draw the follower's snapshots pushed to them — deflated, as a
browser takes them, and without the board's picture when an event left it as it was — and move on by themselves
when an event is recorded at the table; under a broadcast delay a
table is drawn as it stood before the delay; screenshots at 1,400, 820 and 390 px."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from broadcasting import CUP, GAME, FrontEnd, follower, free_port, record, tournaments
from delayed import NAME, PLAYING
from streamlit_server import chromium, new_page

from tests.processes import ROOT

pytestmark = pytest.mark.browser

SHOTS = ROOT / "test-output" / "screenshots"


def test_a_front_ends_live_page_and_overlay_draw_the_pushed_snapshots_and_move_on_by_themselves(
        tmp_path: Path) -> None:
    tournament = tournaments(tmp_path / "data")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with follower(tournament.data, None, tmp_path / "follower.log"):
        front = FrontEnd(None, "127.0.0.1", free_port(), ["--data", str(tournament.data)], tmp_path / "front.log")
        try:
            front.start()
            base = f"http://127.0.0.1:{front.port}"
            with chromium() as browser, new_page(browser) as page:
                streams = []
                page.on("response", lambda r: streams.append(r) if "/feed?" in r.url else None)
                page.set_viewport_size({"width": 1400, "height": 900})
                page.goto(f"{base}/live?tournament={urllib.parse.quote(CUP)}")
                card = page.locator(f".rc-live-card[data-game='{GAME}']")
                card.wait_for()
                seq = int(card.get_attribute("data-seq"))
                assert streams and streams[0].headers.get("content-encoding") == "deflate"
                page.screenshot(path=str(SHOTS / "broadcast-live-1400.png"), full_page=True)
                now = record(tournament)
                assert now == seq + 1
                page.wait_for_selector(f".rc-live-card[data-game='{GAME}'][data-seq='{now}']", timeout=60_000)
                # a note left the board as it was: sent without the picture, the card keeps drawing it
                assert page.locator(f".rc-live-card[data-game='{GAME}'] svg").count() >= 1
                for width in (820, 390):
                    page.set_viewport_size({"width": width, "height": 900})
                    page.screenshot(path=str(SHOTS / f"broadcast-live-{width}.png"), full_page=True)
                    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                    assert overflow <= 1, f"the Live page is {overflow} px wider than {width} px"

                page.set_viewport_size({"width": 1400, "height": 900})
                page.goto(f"{base}/live?tournament={urllib.parse.quote(NAME)}")
                held = page.locator(f".rc-live-card[data-game='{PLAYING}']")
                held.wait_for()
                assert held.get_attribute("data-seq") == "0"  # every event of it was stored within the delay

                page.set_viewport_size({"width": 1280, "height": 720})
                page.goto(f"{base}/overlay?game={GAME}")
                page.wait_for_selector(f".rc-ov[data-seq='{now}']")
                now = record(tournament)
                page.wait_for_selector(f".rc-ov[data-seq='{now}']", timeout=60_000)
                assert page.locator(".rc-ov-board svg").count() >= 1
                page.screenshot(path=str(SHOTS / "broadcast-overlay-1280.png"))
        finally:
            front.kill()
