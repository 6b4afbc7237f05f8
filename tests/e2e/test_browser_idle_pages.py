"""An open page costs nothing while nothing changes: the Record, Live and Replay pages left open in a real browser run
nothing on the server (no run of the page's script, no fragment's) over an interval longer than any timer they
had (3 s: measured by the server watcher's own looks, dashboard.changes), and once an event is written elsewhere
(another process: ``rollcall record``) the Record page runs its table's fragment once and shows it, the Replay page
runs once per publish of the read models it is told of (and once more as its replay takes the longer game), and the spectators' Live page runs nothing (pushed)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from page_runs import count_runs, listening, looks_pass, watcher
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

from projections.projector import Projector
from service.application import Rollcall

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
IDLE_LOOKS = 40  # the watcher's looks (0.1 s each, longer on a busy machine): more than the 3 s of the old timers
ROLLCALL = Path(sys.executable).parent / "rollcall"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, list[str]]]:
    data = tmp_path_factory.mktemp("idle") / "data"
    lines = [x for x in EX1.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    Rollcall.open(data).import_record(lines[:4], str(EX1))  # at seq 3
    Projector(data).run()
    with streamlit_server(data, tmp_path_factory.mktemp("streamlit-idle") / "server.log") as base:
        yield base, data, lines


def settle(base: str, pages: dict) -> None:
    """The pages' first runs are over: none ran during 20 looks of the watcher."""
    for _attempt in range(6):
        for _page, runs in pages.values():
            runs.reset()
        looks_pass(base, 20)
        if not any(runs.total for _page, runs in pages.values()):
            return
    pytest.fail(f"the pages never stopped running: {[(n, r.log) for n, (_p, r) in pages.items()]}")


def test_idle_record_live_and_replay_pages_run_nothing_and_an_event_written_elsewhere_runs_the_record_table_once(
        server) -> None:
    base, data, lines = server
    with chromium() as browser:
        pages = {}
        for name, path in (("record", f"/record?game={GAME}"), ("live", "/live"), ("replay", f"/replay?game={GAME}")):
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(60_000)
            runs = count_runs(page)
            page.goto(base + path)
            listening(page)
            pages[name] = (page, runs)
        record, live, replay = (pages[n][0] for n in ("record", "live", "replay"))
        record.locator(".rc-rec-status").filter(has_text="event 3 ").wait_for()
        live.locator(f".rc-live-card[data-game='{GAME}'][data-seq='3']").wait_for()
        settle(base, pages)
        assert watcher(base)["streams"] >= 3

        looks_pass(base, IDLE_LOOKS)
        assert {n: r.log for n, (_p, r) in pages.items()} == {"record": [], "live": [], "replay": []}

        event = json.loads(lines[4])  # seq 4, written by another process
        done = subprocess.run([str(ROLLCALL), "record", GAME, json.dumps(event), "--data", str(data)],
                              capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        record.locator(".rc-rec-status").filter(has_text="event 4 ").wait_for()
        live.locator(f".rc-live-card[data-game='{GAME}'][data-seq='4']").wait_for()
        replay.wait_for_function("() => window.__rcReplay && window.__rcReplay.last === 4")
        settle_after = pages["replay"][1]
        looks_pass(base, 20)  # whatever else the event brings has come
        told = replay.evaluate("() => window.rcChanges.asked")
        for name, (page, _runs) in pages.items():
            page.screenshot(path=str(Path(SCREENSHOTS) / f"idle-{name}-after-an-event.png"))
    assert pages["record"][1].log == ["fragment"]  # the table alone, once
    assert pages["live"][1].log == []  # the spectators' Live page is pushed its snapshots
    # once per publish it is told of (the events, then the statistics), and the replay's own answer to a longer game
    assert 1 <= told <= 2 and settle_after.fragment == 0 and told <= settle_after.page <= told + 1, settle_after.log
