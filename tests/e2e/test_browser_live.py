"""Live pages in a real browser: an event recorded elsewhere (another device, the command line) reaches the
open pages by itself, through the projector that follows the store beside the dashboard."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit_server import chromium, new_page, streamlit_server

from service.application import Rollcall
from projections.projector import Projector

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"


def ex1_store(tmp_path: Path) -> tuple[Path, Rollcall, int]:
    """A data folder holding seed 004's first example, projected: (folder, its store, the last seq)."""
    data = tmp_path / "data"
    store = Rollcall.open(data)
    with open(EX1, encoding="utf-8") as handle:
        last = store.import_record(handle, str(EX1)).events
    Projector(data).run()
    return data, store, last


def recorded_elsewhere(page, store: Rollcall, shows, count: int, what: str) -> None:
    """``count`` notes recorded through the application, each awaited on the page (``shows(n)``: the selector
    of the page showing the n-th); the times are printed."""
    seen = []
    for n in range(1, count + 1):
        started = time.monotonic()
        store.record(GAME, {"type": "Noted", "text": f"recorded elsewhere {n}"})
        page.wait_for_selector(shows(n), timeout=15_000)
        seen.append(time.monotonic() - started)
    print(f"event recorded to {what}: {', '.join(f'{s:.2f} s' for s in seen)}")


def test_a_replay_at_the_games_last_event_moves_on_with_the_game(tmp_path: Path) -> None:
    data, store, last = ex1_store(tmp_path)
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser, new_page(browser) as page:
        page.goto(f"{base}/replay?game={GAME}&seq={last}")
        page.wait_for_selector(f"svg.rc-board[data-seq='{last}']")
        recorded_elsewhere(page, store, lambda n: f"svg.rc-board[data-seq='{last + n}']", 2, "the open replay")
        # a page looking at an earlier event stays there
        page.goto(f"{base}/replay?game={GAME}&seq=2")
        page.wait_for_selector("svg.rc-board[data-seq='2']")
        store.record(GAME, {"type": "Noted", "text": "later"})
        page.wait_for_selector(f".rc-ev[data-seq='{last + 3}']", state="attached", timeout=15_000)
        assert page.locator("svg.rc-board").get_attribute("data-seq") == "2"


def test_the_live_page_shows_an_event_recorded_elsewhere_by_itself(tmp_path: Path) -> None:
    data, store, last = ex1_store(tmp_path)
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser, new_page(browser) as page:
        page.goto(f"{base}/live?tournament=Seed+004+examples")
        page.wait_for_selector(f".rc-live-card[data-game='{GAME}'][data-seq='{last}']")
        recorded_elsewhere(page, store, lambda n: f".rc-live-card[data-game='{GAME}'][data-seq='{last + n}']", 3,
                           "the Live page")
