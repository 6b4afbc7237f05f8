"""A tap on the Record page in a real browser is drawn at once and confirmed when stored: the new state (status
line, board, the event in words) shows while the write is still waiting for the store, with the old buttons put
away; a tap the store refuses (another writer holds it past ROLLCALL_SQLITE_LOCK_TIMEOUT) is rolled back to the
state before it, under the refusal's message. The store is held by this test (SQLite's write lock), so both
happen every time, however loaded the machine is."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

from projections.projector import Projector
from service.application import Rollcall

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
END = "end the activation of The Faceless (Boris)"
LOCK_TIMEOUT = 3  # s a write of the page waits for another writer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("taps") / "data"
    lines = [x for x in EX1.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    Rollcall.open(data).import_record(lines[:4], str(EX1))  # the Faceless active (seq 3)
    Projector(data).run()
    with streamlit_server(data, tmp_path_factory.mktemp("streamlit-taps") / "server.log",
                          env={"ROLLCALL_SQLITE_LOCK_TIMEOUT": str(LOCK_TIMEOUT)}) as base:
        yield base, data


@contextmanager
def store_held(data: Path) -> Iterator[None]:
    """Another writer in the middle of its transaction: nothing else is stored until it ends."""
    other = sqlite3.connect(data / "events.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def stored(data: Path) -> int:
    return len(Rollcall.open(data).stored_lines(GAME)) - 1


def status(page) -> str:
    return page.locator(".rc-rec-status").inner_text()


def wait_settled(page, seq: int) -> None:
    """The page shows ``seq``, no tap waits for its answer, and the previews of its taps have come."""
    page.wait_for_function(
        "([seq, game]) => { const t = (window.rcRecordTables || {})[game];"
        " return t && !t.pending && t.previews.seq === seq && t.boardRoot?.dataset.seq === String(seq); }",
        arg=[seq, GAME])


def last_tap(page) -> dict:
    return page.evaluate("() => window.rcRecordTaps[window.rcRecordTaps.length - 1]")


def test_a_tap_shows_its_new_state_before_the_store_has_it_and_a_refused_one_is_rolled_back(server) -> None:
    base, data = server
    with chromium() as browser:
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{base}/record?game={GAME}")
        wait_settled(page, 3)
        before = status(page)
        assert before.startswith("event 3 · turn 1") and "active: The Faceless (Boris)" in before

        # refused: the store stays held past the page's lock timeout
        with store_held(data):
            page.get_by_role("button", name=END, exact=True).click()
            page.wait_for_function("() => window.rcRecordTaps.at(-1)?.drawn !== null")
            drawn = status(page)
            assert drawn.startswith("event 4 · turn 1") and "active:" not in drawn  # the activation ended
            assert page.locator(".rc-pending-line").inner_text().startswith("4. ")
            assert not page.get_by_role("button", name="Turn 2", exact=True).is_visible()  # no old buttons beside it
            page.screenshot(path=str(Path(SCREENSHOTS) / "record-tap-drawn-refused.png"))
            assert stored(data) == 3
            page.wait_for_function("() => window.rcRecordTaps.at(-1)?.outcome !== null",
                                   timeout=(LOCK_TIMEOUT + 30) * 1000)
        tap = last_tap(page)
        assert tap["outcome"] == "refused" and tap["drawn"] < tap["answered"]
        page.get_by_text("busy", exact=False).first.wait_for()  # the refusal's message
        assert status(page) == before  # rolled back to the state before the tap
        assert page.get_by_role("button", name=END, exact=True).is_visible()
        assert stored(data) == 3
        page.screenshot(path=str(Path(SCREENSHOTS) / "record-tap-rolled-back.png"))

        # acknowledged late: the store is held for a second, then lets the write through
        wait_settled(page, 3)
        with store_held(data):
            page.get_by_role("button", name=END, exact=True).click()
            page.wait_for_function("() => window.rcRecordTaps.at(-1)?.drawn !== null")
            assert status(page).startswith("event 4 · turn 1")
            assert stored(data) == 3 and last_tap(page)["answered"] is None  # drawn; not stored, not answered
            page.wait_for_timeout(1000)  # (the other writer's transaction takes a second: that is the test's point)
        page.get_by_text("Recorded seq 4:", exact=False).wait_for()
        tap = last_tap(page)
        assert tap["outcome"] == "stored" and tap["drawn"] < tap["answered"]
        assert status(page).startswith("event 4 · turn 1") and stored(data) == 4
        assert page.get_by_role("button", name="Turn 2", exact=True).is_visible()  # the new state's offers
