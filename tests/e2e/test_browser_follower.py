"""The pages while the follower is held up, in a real browser: an open page says "Read models N s behind" once the
follower has not found them up to date for more than 5 s, a published copy written over meanwhile is a plain
message, and the page shows the games again by itself once the follower goes on and publishes the copy again."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest
from processes import following, until
from streamlit_server import SCREENSHOTS, chromium, new_page, streamlit_server

from service.application import Rollcall
from domain.settings import PUBLISHED_FILE
from projections.projector import Projector

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
TABLE = "[data-testid=stDataFrame]"  # the Games page's table of games
BEHIND = re.compile(r"Read models \d+ s behind")


def test_an_open_page_says_behind_and_comes_back_when_the_follower_goes_on(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with open(EX1, encoding="utf-8") as handle:
        Rollcall.open(data).import_record(handle, str(EX1))
    Projector(data).run()
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser, new_page(browser) as page:
        page.goto(base)  # the Games page
        page.locator(TABLE).wait_for()
        follower = until(lambda: following(data), 30, "the follower found the copy up to date")
        os.kill(follower, signal.SIGSTOP)  # held up (as a process stuck on a disk would be)
        try:
            (data / PUBLISHED_FILE).write_bytes(os.urandom(300_000))
            page.get_by_text("The games cannot be read just now").wait_for(timeout=20_000)
            page.get_by_text(BEHIND).wait_for(timeout=20_000)
            assert "Traceback" not in page.content()
            for width in (1400, 820, 390):
                page.set_viewport_size({"width": width, "height": 900})
                page.wait_for_timeout(300)
                page.screenshot(path=str(Path(SCREENSHOTS) / f"read-models-behind-{width}.png"))
        finally:
            os.kill(follower, signal.SIGCONT)
        page.locator(TABLE).wait_for(timeout=20_000)  # the copy published again, the page back by itself
        page.get_by_text(BEHIND).wait_for(state="detached", timeout=20_000)
        assert page.get_by_text("The games cannot be read just now").count() == 0
