"""A crowded venue on one laptop: 6 tablets signed in on the Record page of their tables (each its own browser, with
its table's scorekeeper's key) and 5 spectators on the round's Live page, all on one dashboard server. Every
tablet signs in, taps what its table records next, and sees it stored; every spectator's page shows every table's
event; each event is stored once. Before the pages stopped running on timers, the fifth tablet's sign-in did not
finish in 180 s (bench/README.md), so this crowd fails there. The full venue, 16 tablets and 25 Live pages, how long
it all takes and taps made at once: bench/venue_load.py (``--tablets 16 --spectators 25``). ``-m crowd``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from crowd import WAIT, cards_at, live_url, record_url, shows, tap, venue
from streamlit_server import SCREENSHOTS, chromium, streamlit_server
from test_browser_venue import sign_in

from service.application import Rollcall

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.crowd]

TABLETS, SPECTATORS = 6, 5  # more than the four tablets a server on timers held
TABLET = {"width": 1180, "height": 820}  # a tablet held sideways: the sidebar's sign-in shows


@pytest.fixture
def crowd(tmp_path: Path) -> Iterator[tuple[str, Path, object]]:
    data = tmp_path / "data"
    held = venue(data, TABLETS)
    with streamlit_server(data, tmp_path / "server.log") as base:
        yield base, data, held


def test_six_signed_in_tablets_and_five_live_pages_on_one_server_each_record_at_their_table(crowd) -> None:
    base, data, held = crowd
    signing: list[float] = []
    with chromium() as browser:
        tablets = []
        for game, key in zip(held.games, held.keys):
            page = browser.new_context(viewport=TABLET).new_page()
            page.set_default_timeout(WAIT)
            started = time.monotonic()
            page.goto(record_url(base, game))
            sign_in(page, key)
            shows(page, game, 0)
            signing.append(time.monotonic() - started)
            tablets.append(page)
        spectators = []
        for _ in range(SPECTATORS):
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(WAIT)
            page.goto(live_url(base))
            spectators.append(page)
        for page in spectators:
            cards_at(page, held.games, 0)

        for page, game in zip(tablets, held.games):  # table after table (a burst of taps: bench/venue_load.py)
            assert tap(page) == "Turn 1"
            shows(page, game, 1)
            page.get_by_text("Recorded seq 1:").wait_for()
        for page in spectators:
            cards_at(page, held.games, 1)
        tablets[-1].screenshot(path=str(Path(SCREENSHOTS) / "crowd-last-tablet.png"))
        spectators[-1].screenshot(path=str(Path(SCREENSHOTS) / "crowd-last-live-page.png"), full_page=True)
    store = Rollcall.open(data)
    try:
        stored = {game: [line["type"] for line in store.stored_lines(game)[1:]] for game in held.games}
    finally:
        store.close()
    assert stored == {game: ["TurnStarted"] for game in held.games}
    print(f"sign-ins (s): {' '.join(f'{s:.1f}' for s in signing)}")
