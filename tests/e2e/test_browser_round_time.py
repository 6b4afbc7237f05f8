"""A round's time in a real browser (Debian chromium), the browser's clock driven by the test (Playwright's clock:
no test waits for time to pass): the organiser started round 1's time three minutes long; the Live page (a spectator's,
pushed), the stream overlay and the Record page on a 390 px phone count it down, and once the three minutes are over
each says that time is called, with no run of the page. A phone whose own clock ran past a player's time
records no flag: the flag falls by the server's time. Screenshots at 1,400, 820 and 390 px go to
test-output/screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

from domain.clock import iso
from projections.projector import Projector
from service.application import Rollcall

pytestmark = pytest.mark.browser
T = "Minute Open"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("round-time")
    data = root / "data"
    Rollcall.open(data).close()
    Projector(data).run()
    with streamlit_server(data, root / "server.log") as base:
        yield base, data


def started_round(data: Path, name: str) -> str:
    """A tournament ``name`` of two players, round 1 paired and its time started now, three minutes long: its
    game."""
    store = Rollcall.open(data)
    try:
        store.create_tournament(name, "t9a")
        for player in ("Anna", "Boris"):
            store.register_player(name, player, "orcs_and_goblins")
        store.pair_round(name, 1, seed=1)
        store.start_round(name, iso(round(datetime.now(timezone.utc).timestamp()) * 1000), seconds=180)
        return store.tournament(name).rounds[1]["tables"][0]["game"]
    finally:
        store.close()


def counts_down_then_time_is_called(page, path: str, name: str) -> None:
    """``path`` opened in ``page`` (its clock installed first): the round's time shows what is left, and after
    the clock is moved past the round's end, that time is called."""
    page.clock.install()
    page.goto(path)
    timer = page.locator(".rc-round-time").first
    timer.wait_for()
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=60_000)
    assert timer.inner_text().startswith(("Round 1: 2:", "Round 1: 1:")) and timer.inner_text().endswith(" left")
    assert "rc-round-called" not in (timer.get_attribute("class") or "")
    page.screenshot(path=str(Path(SCREENSHOTS) / f"round-time-{name}.png"))
    page.clock.fast_forward("03:05")
    page.wait_for_function("(el) => el.classList.contains('rc-round-called')", arg=timer.element_handle(),
                           timeout=30_000)
    assert timer.inner_text() == "Round 1: time is called"
    page.screenshot(path=str(Path(SCREENSHOTS) / f"round-time-{name}-called.png"))


@pytest.mark.parametrize("width", [1400, 820, 390])
def test_live_the_overlay_and_the_record_page_count_the_round_down_and_say_time_is_called(server, width) -> None:
    base, data = server
    name = f"{T} {width}"
    game = started_round(data, name)
    with chromium() as browser:
        context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 500,
                                      has_touch=width < 500)
        try:
            for shown, path in (("live", f"live?tournament={name.replace(' ', '+')}&round=1"),
                                ("overlay", f"overlay?game={game}"), ("record", f"record?game={game}")):
                page = context.new_page()
                page.set_default_timeout(90_000)
                counts_down_then_time_is_called(page, f"{base}/{path}", f"{shown}-{width}")
                page.close()
        finally:
            context.close()


def test_a_phone_whose_own_clock_ran_out_first_records_no_flag_before_the_servers_time_did(server) -> None:
    """The Record page tells the server when its countdown of the running player's time reaches zero; the flag
    falls by the server's time (domain.clock.due_flag), so a phone whose clock runs ahead records nothing, and
    says nothing."""
    import json

    base, data = server
    game = "fast-phone"
    header = {"rollcall": 1, "game": game, "system": "t9a", "clock": {"seconds": 120},
              "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}], "setup": {}}
    store = Rollcall.open(data)
    store.import_record([json.dumps(header)], game)
    store.record(game, {"type": "ClockStarted", "player": "p1", "at": iso(round(datetime.now(timezone.utc).timestamp())
                                                                          * 1000)})
    store.close()
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        try:
            page = context.new_page()
            page.set_default_timeout(90_000)
            page.clock.install()
            page.goto(f"{base}/record?game={game}")
            page.locator('.rc-clock-face[data-player="p1"]').wait_for()
            page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=60_000)
            assert page.evaluate("window.__rcClockN") is None
            page.clock.fast_forward("02:05")  # the phone's clock, not the server's, is past the end of Anna's time
            page.wait_for_function("() => window.__rcClockN", timeout=30_000)  # the page told the server
            page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=60_000)
            page.locator(".rc-clock").wait_for()
            assert page.get_by_text("clock moved on").count() == 0 and page.get_by_text("Recorded seq").count() == 0
        finally:
            context.close()
    store = Rollcall.open(data)
    try:
        assert [line["type"] for line in store.stored_lines(game)[1:]] == ["ClockStarted"]
    finally:
        store.close()
