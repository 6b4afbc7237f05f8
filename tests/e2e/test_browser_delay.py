"""The broadcast delay and hostile links in a real browser (Debian's chromium, the dashboard as `rollcall
dashboard` runs it): a spectator's open Replay page moves on by itself as the delayed events come due, with no
new event; the Record page sends a spectator to the delayed replay and shows the game once signed in; links
with infinities, huge numbers, runaway ranges, long strings and broken UTF-8 give a plain message, never a
traceback. Screenshots in test-output/screenshots."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit_server import SCREENSHOTS, chromium, new_page, streamlit_server

pytestmark = pytest.mark.browser

NAME, DELAY, GAME = "Browser Cup", 8, "browser-delayed"


def delayed_store(tmp_path: Path, delay: int, events: int = 40) -> tuple[Path, str, list[dict]]:
    """A store with keys and a tournament broadcast ``delay`` s behind, one game with its first ``events`` events
    recorded just now, projected: (data folder, an organiser's key, the game's next events)."""
    from service.application import Rollcall
    from projections.projector import Projector
    from simulation.games import record_lines, simulate_tornscape

    data = tmp_path / "data"
    store = Rollcall.open(data)
    key = store.add_key("organiser", "Olga")
    store.key = key
    store.create_tournament(NAME, "tornscape")
    store.set_broadcast_delay(NAME, delay)
    lines = [json.loads(x) for x in record_lines(simulate_tornscape(6, GAME))]
    header = {**lines[0], "tournament": NAME, "round": 1, "table": 1, "hash": None}
    played = [{k: v for k, v in e.items() if k != "hash"} for e in lines[1:]]
    store.import_record([json.dumps(header), *map(json.dumps, played[:events])], GAME)
    store.close()
    Projector(data).run()
    return data, key, played[events:]


def no_traceback(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0, page.locator(
        "[data-testid='stException']").first.inner_text()
    assert "Traceback" not in page.content()


def test_an_open_replay_moves_on_as_the_delayed_events_come_due(tmp_path: Path) -> None:
    from service.application import Rollcall

    data, key, later = delayed_store(tmp_path, DELAY, events=0)
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser, new_page(browser) as page:
        page.goto(f"{base}/replay?game={GAME}&seq=0")
        page.wait_for_selector("svg.rc-board[data-seq='0']")
        store = Rollcall.open(data, key=key)
        store.write(GAME, later[:40])  # recorded at the table; then nothing more is stored
        stored = time.monotonic()
        store.close()
        page.get_by_text(f"Broadcast with a delay of {DELAY} s", exact=False).first.wait_for()
        assert page.locator("svg.rc-board").get_attribute("data-seq") == "0"
        page.screenshot(path=str(Path(SCREENSHOTS) / "delay-replay-held.png"))
        page.wait_for_selector("svg.rc-board[data-seq='40']", timeout=(DELAY + 20) * 1000)
        waited = time.monotonic() - stored
        assert waited >= DELAY - 1, "shown before its delay had passed"
        print(f"the open replay moved on to seq 40 {waited:.1f} s after the events were stored (delay {DELAY} s)")
        no_traceback(page)
        page.screenshot(path=str(Path(SCREENSHOTS) / "delay-replay-caught-up.png"))


def test_the_record_page_shows_a_delayed_game_only_once_signed_in(tmp_path: Path) -> None:
    data, key, _ = delayed_store(tmp_path, 3600)
    last = 40
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser:
        for width in (1400, 820, 390):
            with new_page(browser) as page:
                page.set_viewport_size({"width": width, "height": 1000})
                page.goto(f"{base}/record?game={GAME}")
                page.get_by_text("broadcast with a delay of 3600 s", exact=False).first.wait_for()
                assert f"event {last}" not in page.inner_text("body")
                page.screenshot(path=str(Path(SCREENSHOTS) / f"delay-record-spectator-{width}.png"), full_page=True)
                no_traceback(page)
        with new_page(browser) as page:
            page.goto(f"{base}/record?game={GAME}")
            page.get_by_text("broadcast with a delay of 3600 s", exact=False).first.wait_for()
            field = page.locator("input[type='password']").first
            field.fill(key)
            field.press("Enter")
            page.locator(".rc-rec-status").get_by_text(f"event {last}", exact=False).wait_for()


HOSTILE_LINKS = ("/replay?game={g}&seq=inf", "/replay?game={g}&seq=-inf", "/replay?game={g}&seq=1e309",
                 "/replay?game={g}&seq=nan", "/replay?game={g}&seq=" + "9" * 5000, "/replay?game=%ED%A0%80&seq=1",
                 "/replay?game=%uD800", "/dispute?game={g}&seq=inf", "/dispute?game={g}&about=1-1000000000",
                 "/dispute?game={g}&seq=-5&about=%ED%A0%80", "/live?tournament=" + "x" * 10_000 + "&round=1e309",
                 "/analytics?tournament=nope&luck_game=" + "y" * 10_000, "/standings?tournament=%ED%A0%80",
                 "/public?tournament={t}&round=inf", "/record?game=nope", "/record?game=%ED%A0%80", "/games?game=inf")


def test_hostile_links_give_a_plain_message_never_a_traceback(tmp_path: Path) -> None:
    data, _, _ = delayed_store(tmp_path, 3600)
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser, new_page(browser) as page:
        for i, link in enumerate(HOSTILE_LINKS):
            started = time.monotonic()
            page.goto(base + link.format(g=GAME, t=NAME.replace(" ", "+")))
            page.wait_for_selector("[data-testid='stMain'] [data-testid='stElementContainer']")  # the page runs
            page.wait_for_function("!document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000)
            no_traceback(page)
            print(f"{link[:60]}: {time.monotonic() - started:.1f} s")
            if i in (0, 8, 10):
                page.screenshot(path=str(Path(SCREENSHOTS) / f"hostile-link-{i}.png"))
        page.goto(f"{base}/replay?game={GAME}&seq=inf")
        page.get_by_text("is not an event number", exact=False).first.wait_for()
        page.goto(f"{base}/live?tournament={'x' * 10_000}")
        page.get_by_text("longer than 300 characters", exact=False).first.wait_for()
