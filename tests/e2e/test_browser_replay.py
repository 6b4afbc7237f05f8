"""The Replay page in a real browser: deep links and their errors, stepping in the browser (arrow keys,
buttons, autoplay, jumps, the luck graph), the URL kept in step, and the step latency on games of about
5,000 events of every system.

Starts `streamlit run dashboard/app.py` on a free port and drives Debian's chromium through playwright.
Skipped only when /usr/bin/chromium is missing and CI is unset. Screenshots go to ROLLCALL_SCREENSHOTS.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from streamlit_server import SCREENSHOTS, chromium, new_page, streamlit_server

pytestmark = pytest.mark.browser
SYSTEMS = ("tornscape", "t9a", "claustrophobia")


@pytest.fixture(scope="module")
def server(replay_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(replay_data, tmp_path_factory.mktemp("streamlit") / "server.log") as base:
        yield base


@pytest.fixture(scope="module")
def long_server(long_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(long_data, tmp_path_factory.mktemp("streamlit-long") / "server.log") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser) -> Iterator:
    with new_page(browser) as pg:
        yield pg


def shot(page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


def open_replay(page, url: str, seq: int | None = None) -> None:
    page.goto(url)
    selector = ".rc-replay[data-seq]" if seq is None else f".rc-replay[data-seq='{seq}']"
    page.wait_for_selector(selector, timeout=60_000)
    page.wait_for_timeout(300)


def model_at(page, model: str) -> str:
    return page.locator(f"svg.rc-board g#model-{model}").get_attribute("data-at")


def at_seq(page) -> int:
    return int(page.locator(".rc-replay").get_attribute("data-seq"))


def url_seq(page) -> int | None:
    values = parse_qs(urlparse(page.url).query).get("seq")
    return int(float(values[0])) if values else None


def focus(page) -> None:
    """Click the page outside any input, so that keys reach the replay."""
    box = page.locator(".rc-caption").bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + 5)


def test_deep_link_then_arrow_keys_step_and_the_url_follows(server: str, page) -> None:
    open_replay(page, f"{server}/replay?game=e2e-legal&seq=4", 4)
    page.wait_for_selector("svg.rc-board[data-seq='4']")
    assert model_at(page, "a1") == "4,2"
    assert page.locator("svg.rc-board .rc-hl-ring[data-model='a1']").count() == 1
    nav = page.locator("[data-testid='stSidebarNav']")
    nav.get_by_text("Replay", exact=True).wait_for()
    assert nav.get_by_text("app", exact=True).count() == 0
    shot(page, "replay-seq4")

    focus(page)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("svg.rc-board[data-seq='5']")
    assert model_at(page, "a1") == "6,3"
    page.wait_for_function("() => new URL(location.href).searchParams.get('seq') === '5'")
    assert parse_qs(urlparse(page.url).query).get("game") == ["e2e-legal"]
    page.locator(".rc-next").click()
    page.wait_for_selector("svg.rc-board[data-seq='6']")
    assert model_at(page, "b1") == "7,4"
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("svg.rc-board[data-seq='5']")
    assert model_at(page, "b1") == "6,3"
    page.keyboard.press("ArrowDown")  # ↓: the last event, as on a chess board
    page.wait_for_selector("svg.rc-board[data-seq='17']")
    assert page.locator(".rc-ev.rc-now").get_attribute("data-seq") == "17"  # the list follows to the end
    page.keyboard.press("ArrowUp")  # ↑: the setup
    page.wait_for_selector("svg.rc-board[data-seq='0']")
    page.wait_for_function("() => new URL(location.href).searchParams.get('seq') === '0'")
    # the details beside the board follow once the browser has said where it is
    page.locator(".rc-ev[data-seq='3']").click()
    page.locator("[data-testid='stMarkdownContainer']", has_text="ActivationStarted").first.wait_for()


def test_violation_jump_and_its_rule(server: str, page) -> None:
    open_replay(page, f"{server}/replay?game=e2e-lenient&seq=0", 0)
    page.locator(".rc-jump[data-kind='violation'][data-dir='1']").click()
    page.wait_for_selector(".rc-replay[data-seq='4']")
    assert "R42" in page.locator(".rc-caption").inner_text()
    assert model_at(page, "a2") == "9,3"
    page.locator("[data-testid='stAlert']", has_text="R42").first.wait_for()
    shot(page, "replay-violation")


def test_flip_turns_the_board_to_the_other_players_side(server: str, page) -> None:
    open_replay(page, f"{server}/replay?game=e2e-legal&seq=4", 4)
    side = page.locator(".rc-side").inner_text()
    page.locator(".rc-flip").click()
    assert page.locator(".rc-replay").get_attribute("data-flipped") == "true"
    assert "rc-flipped" in page.locator("svg.rc-board").get_attribute("class")
    assert page.locator("svg.rc-board .rc-turn").get_attribute("transform").startswith("rotate(180")
    assert page.locator(".rc-side").inner_text() != side
    shot(page, "replay-flipped")
    focus(page)
    page.keyboard.press("f")
    assert page.locator(".rc-replay").get_attribute("data-flipped") == "false"


def test_autoplay_plays_and_pauses(server: str, page) -> None:
    open_replay(page, f"{server}/replay?game=e2e-legal&seq=0", 0)
    page.locator(".rc-speed").select_option("16")
    page.locator(".rc-play").click()
    page.wait_for_function("() => +document.querySelector('.rc-replay') === 0 || true")
    page.wait_for_timeout(600)
    page.locator(".rc-play").click()  # pause
    paused = at_seq(page)
    assert paused > 3
    page.wait_for_timeout(400)
    assert at_seq(page) == paused


def test_deep_link_errors_are_said_plainly(server: str, page) -> None:
    page.goto(f"{server}/replay?game=no-such-game&seq=3")
    page.get_by_text("There is no game", exact=False).first.wait_for()
    page.goto(f"{server}/replay?game=e2e-legal&seq=9999")
    page.get_by_text("past the end", exact=False).first.wait_for()
    page.wait_for_selector(".rc-replay[data-seq='17']")
    page.goto(f"{server}/replay")
    page.get_by_text("No game chosen", exact=False).first.wait_for()
    shot(page, "replay-no-game")


def test_games_page_links_to_replay(server: str, page) -> None:
    page.goto(f"{server}/")
    page.locator("[data-testid='stDataFrame']").wait_for()
    page.locator("td[role='gridcell']", has_text="e2e-lenient").first.wait_for(state="attached")
    page.locator("td[role='gridcell']", has_text="replay").first.wait_for(state="attached")
    assert page.get_by_role("button", name="Deploy").count() == 0  # no Streamlit toolbar for the readers
    shot(page, "games")


# --- games of about 5,000 events ------------------------------------------------------------------

def step_times(page, presses: int, gap_ms: int) -> list[float]:
    """Press → presses, ``gap_ms`` apart; each press's time from the key event to the next painted frame."""
    page.evaluate("() => { window.__rcStepTimes = []; }")
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(gap_ms)
    page.wait_for_timeout(200)
    return page.evaluate("() => window.__rcStepTimes")


@pytest.mark.parametrize("system", SYSTEMS)
def test_stepping_a_5000_event_game_loses_no_key(long_server: str, page, system: str) -> None:
    open_replay(page, f"{long_server}/replay?game=long-{system}&seq=100", 100)
    assert int(page.locator(".rc-last").inner_text()) >= 5000
    focus(page)
    before = at_seq(page)
    for _ in range(10):  # 10 presses 50 ms apart move exactly 10 steps
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
    page.wait_for_function(f"() => new URL(location.href).searchParams.get('seq') === '{before + 10}'")
    assert at_seq(page) == before + 10
    times = sorted(step_times(page, 40, 120))
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{system}: browser step median {times[len(times) // 2]:.1f} ms, p95 {p95:.1f} ms over {len(times)} steps")
    assert len(times) == 40  # the speed itself is bench/replay_stepping.py's figure, not a test's
    page.wait_for_function(f"() => new URL(location.href).searchParams.get('seq') === '{before + 50}'")
    assert at_seq(page) == before + 50
    shot(page, f"replay-long-{system}")


def test_the_luck_graph_jumps_to_a_throw_and_marks_the_seq(long_server: str, page) -> None:
    open_replay(page, f"{long_server}/replay?game=long-tornscape&seq=0", 0)
    page.locator(".rc-jump[data-kind='swing'][data-dir='1']").click()
    assert "Big luck swing" in page.locator(".rc-caption").inner_text()
    assert "z = " in page.locator(".rc-caption").inner_text()
    point = page.locator("svg.rc-luck circle[data-seq]").nth(20)
    target = int(point.get_attribute("data-seq"))
    point.dispatch_event("click")
    page.wait_for_selector(f".rc-replay[data-seq='{target}']")
    marker = page.locator(".rc-luck-now").evaluate("el => el.style.transform")
    assert marker.startswith("translateX(") and not marker.startswith("translateX(0")


@pytest.mark.parametrize("width", (1400, 820))
def test_replay_screenshots_at_two_widths(long_server: str, browser, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 1100})
    pg = context.new_page()
    try:
        for system in SYSTEMS:
            open_replay(pg, f"{long_server}/replay?game=long-{system}&seq=60", 60)
            box = pg.locator(".rc-replay").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width  # nothing runs off the page
            shot(pg, f"replay-{system}-{width}")
    finally:
        context.close()
