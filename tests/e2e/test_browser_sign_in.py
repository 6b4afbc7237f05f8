"""One sign-in per device in a real browser (Debian chromium through playwright): it holds across a reload and
new tabs through a cookie of a random session id (never the key), ends in every tab at Sign out, ends by
itself on a device left alone, shows up on the Record page once the first key is added mid-game, and on a
phone is one tap from Sign out. Screenshots in test-output/screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

from service.application import Rollcall
from tests.processes import until
from projections.projector import Projector

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
SIDEBAR = "[data-testid=stSidebar]"
expect.set_options(timeout=20_000)  # a busy machine: a rerun may take seconds


def lines_of(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


def keyed_store(data: Path, lines: list[str]) -> dict[str, str]:
    """A store with keys (Olga organises, Jules judges) holding ``lines`` of seed 004's first example."""
    store = Rollcall.open(data)
    keys = {"organiser": store.add_key("organiser", "Olga")}
    store.key = keys["organiser"]
    keys["judge"] = store.add_key("judge", "Jules")
    store.import_record(lines, str(EX1))
    store.close()
    Projector(data).run()
    return keys


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, str], Path]]:
    """A dashboard over a store with keys: (its URL, the data folder, the keys, the server's log)."""
    data = tmp_path_factory.mktemp("sign-in") / "data"
    keys = keyed_store(data, lines_of(EX1))
    log = tmp_path_factory.mktemp("streamlit-sign-in") / "server.log"
    with streamlit_server(data, log) as base:
        yield base, data, keys, log


def shot(page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"sign-in-{name}.png"), full_page=True)


def sidebar(page):
    return page.locator(SIDEBAR)


def open_sidebar(page) -> None:
    """On a tablet the sidebar is folded away when a tab first loads the dashboard: open it, as a person who
    signs in does (it stays open for the tab)."""
    page.wait_for_function("() => window.__rcSidebarFolded")
    if page.locator('#stSidebar[data-collapsed="true"]').count():
        page.locator('[data-testid="stExpandSidebarButton"]').click()
        page.locator('#stSidebar[data-collapsed="false"]').wait_for(state="attached")


def sign_in(page, key: str) -> None:
    sidebar(page).get_by_label("Your key", exact=True).fill(key)
    sidebar(page).get_by_role("button", name="Sign in").click()
    signed_in(page)


def signed_in(page, timeout: float = 20_000) -> None:
    sidebar(page).get_by_text("Signed in as").wait_for(timeout=timeout)


def signed_out(page, timeout: float = 20_000) -> None:
    sidebar(page).get_by_label("Your key", exact=True).wait_for(timeout=timeout)
    assert not sidebar(page).get_by_text("Signed in as").count()


def loaded_afresh(page, notice: str = "Signed out.", timeout: float = 20_000) -> None:
    """The tab signed out and loaded afresh, saying why in the sidebar."""
    page.locator(".rc-device-notice", has_text=notice).wait_for(timeout=timeout)
    signed_out(page)


def session_cookies(context) -> list[dict]:
    return [c for c in context.cookies() if c["name"].startswith("rollcall_session")]


def until_cookies(context, timeout: float = 20.0, *, there: bool = True) -> list[dict]:
    """The session cookie, once the server has set it (the page asks for it right after signing in), or (``there``
    False) once the server has cleared it."""
    import contextlib

    with contextlib.suppress(AssertionError):  # (what it is then, the caller asserts)
        until(lambda: bool(session_cookies(context)) == there, timeout, "the session cookie")
    return session_cookies(context)


def rulings(data: Path) -> list[dict]:
    store = Rollcall.open(data)
    try:
        return [line for line in store.stored_lines(GAME) if line.get("type") == "RulingMade"]
    finally:
        store.close()


def test_a_sign_in_holds_across_a_reload_and_new_tabs_and_sign_out_ends_it_in_every_tab(keyed) -> None:
    base, _, keys, log = keyed
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        first = context.new_page()
        first.set_default_timeout(20_000)
        first.goto(f"{base}/dispute?game={GAME}&seq=6")
        sign_in(first, keys["judge"])
        [cookie] = until_cookies(context)
        assert cookie["sameSite"] == "Strict" and cookie["path"] == "/" and len(cookie["value"]) >= 43
        assert cookie["httpOnly"], "page scripts can read the session cookie"
        assert "rollcall_session" not in first.evaluate("document.cookie")
        assert cookie["value"] != keys["judge"]
        shot(first, "signed-in")

        first.reload()
        signed_in(first)
        second = context.new_page()
        second.set_default_timeout(20_000)
        second.goto(f"{base}/record?game={GAME}")
        signed_in(second)
        assert sidebar(second).get_by_text("Signed in as Jules (judge)").count() == 1
        for page in (first, second):  # the key is in no URL, page or cookie
            assert keys["judge"] not in page.url and keys["judge"] not in page.content()
        assert all(keys["judge"] not in c["value"] for c in context.cookies())

        sidebar(second).get_by_role("button", name="Sign out").click()
        loaded_afresh(second)
        loaded_afresh(first, timeout=40_000)  # the other tab follows by itself
        assert not until_cookies(context, there=False)
        first.reload()
        signed_out(first)
        shot(first, "signed-out")
        context.close()
    assert keys["judge"] not in log.read_text(errors="replace")  # nor in the server's log


def test_a_judge_rules_with_the_sidebar_sign_in_and_after_sign_out_the_next_person_cannot(keyed) -> None:
    base, data, keys, _ = keyed
    before = len(rulings(data))
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 820, "height": 1180})  # a tablet
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{base}/dispute?game={GAME}&seq=6")
        open_sidebar(page)
        sign_in(page, keys["judge"])
        assert page.locator("[data-testid=stMain] input[type=password]").count() == 0  # no key field in a form
        form = page.locator("[data-testid='stForm']").filter(has_text="Record a ruling")
        expect(form.get_by_label("Judge", exact=True)).to_have_value("Jules")  # the judge signed in
        form.get_by_label("Ruling").fill("the nearest free hex was chosen")
        form.get_by_role("button", name="Record ruling").click()
        said = form.locator("[data-testid='stAlert']", has_text="RulingMade")
        said.wait_for()
        # said under the button, where the judge looks (once the rerun that wrote it has laid the page out)
        until(lambda: said.is_visible() and in_view(page, said), 10, "the ruling said in view")
        expect(form.get_by_label("Ruling")).to_have_value("")  # written: the form is empty again
        shot(page, "ruled-820")

        sidebar(page).get_by_role("button", name="Sign out").click()
        loaded_afresh(page)
        expect(form.get_by_label("Judge", exact=True)).to_have_value("")
        form.get_by_label("Judge", exact=True).fill("Jules")  # the next person at the tablet
        form.get_by_label("Ruling").fill("as the judge would have")
        form.get_by_role("button", name="Record ruling").click()
        refused = form.locator("[data-testid='stAlert']", has_text="Sign in with a judge's key in the sidebar")
        refused.wait_for()
        assert in_view(page, refused)
        assert form.get_by_label("Ruling").input_value() == "as the judge would have"  # kept
        assert "--key" not in page.content() and "ROLLCALL_KEY" not in page.content()
        shot(page, "refused-820")
        context.close()
    assert len(rulings(data)) == before + 1


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height


def test_on_a_phone_a_chip_says_who_is_signed_in_and_signs_out_at_one_tap(keyed) -> None:
    base, _, keys, _ = keyed
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{base}/live")
        sign_in(page, keys["judge"])
        assert until_cookies(context)  # the sign-in's cookie set (a sign-out before it lands is signed in again)
        chip = page.locator("#rc-device-chip")
        assert not chip.is_visible()  # the sidebar says it
        page.set_viewport_size({"width": 390, "height": 844})
        chip.wait_for(state="visible")
        assert chip.inner_text().startswith("Jules (judge)")
        shot(page, "chip-390")
        chip.get_by_role("button", name="Sign out").click()
        chip.wait_for(state="detached")
        assert not until_cookies(context, there=False)
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.reload()
        signed_out(page)
        context.close()


def test_a_device_left_alone_signs_out_and_one_in_use_does_not(tmp_path_factory: pytest.TempPathFactory) -> None:
    data = tmp_path_factory.mktemp("idle") / "data"
    keys = keyed_store(data, lines_of(EX1))
    log = tmp_path_factory.mktemp("streamlit-idle") / "server.log"
    with streamlit_server(data, log, env={"ROLLCALL_IDLE_MINUTES": "0.1"}) as base, chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{base}/replay?game={GAME}&seq=3")
        sign_in(page, keys["judge"])
        for _ in range(8):  # 12 s in use (keys pressed, nothing written): twice the idle time
            page.keyboard.press("Shift")
            page.wait_for_timeout(1500)
            assert sidebar(page).get_by_text("Signed in as").count() == 1
        loaded_afresh(page, "Signed out: this device was left alone for 6 s.", timeout=30_000)  # then left alone
        assert not session_cookies(context)
        page.reload()
        signed_out(page)
        context.close()


def test_a_page_left_open_never_keeps_a_device_signed_in_nor_its_copied_cookie(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The Live page reruns by itself; its runs are not a person's use: the device signs out after the idle time,
    and the session id copied to another browser meanwhile stops working with it."""
    data = tmp_path_factory.mktemp("idle-open") / "data"
    keys = keyed_store(data, lines_of(EX1))
    log = tmp_path_factory.mktemp("streamlit-idle-open") / "server.log"
    with streamlit_server(data, log, env={"ROLLCALL_IDLE_MINUTES": "0.2"}) as base, chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{base}/live")
        sign_in(page, keys["judge"])
        [cookie] = until_cookies(context)
        copied = browser.new_context(viewport={"width": 1400, "height": 1000})
        copied.add_cookies([{k: cookie[k] for k in ("name", "value", "domain", "path", "httpOnly", "sameSite")}])
        thief = copied.new_page()
        thief.goto(f"{base}/live")
        signed_in(thief)  # the copied id works while the device is in use
        thief.close()
        loaded_afresh(page, "Signed out: this device was left alone for 12 s.", timeout=40_000)
        thief = copied.new_page()
        thief.goto(f"{base}/live")
        signed_out(thief)
        copied.close()
        context.close()


def test_the_record_page_shows_the_sign_in_once_the_first_key_is_added_mid_game(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    data = tmp_path_factory.mktemp("first-key") / "data"
    store = Rollcall.open(data)
    store.import_record(lines_of(EX1)[:4], str(EX1))  # up to the Faceless's activation, no keys
    store.close()
    Projector(data).run()
    log = tmp_path_factory.mktemp("streamlit-first-key") / "server.log"
    with streamlit_server(data, log) as base, chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{base}/record?game={GAME}")
        end = page.get_by_role("button", name="end the activation of The Faceless (Boris)", exact=True)
        end.wait_for()
        assert not sidebar(page).get_by_label("Your key", exact=True).count()  # no keys: nobody signs in
        store = Rollcall.open(data)
        organiser = store.add_key("organiser", "Olga")  # the organiser adds the first key meanwhile
        store.close()
        signed_out(page)  # the sign-in appears by itself, no reload
        page.get_by_text("Sign in with a scorekeeper's key in the sidebar to record this game.").wait_for()
        expect(page.get_by_text("Last events", exact=True)).to_have_count(1)  # (once the rerun that drew it ended)
        assert "--key" not in page.content() and "ROLLCALL_KEY" not in page.content()
        shot(page, "record-first-key")
        sign_in(page, organiser)
        end.click()
        page.get_by_text("Recorded seq 4:").wait_for()
        # one list of the last events once the page has settled (each publish of the event reruns it, and a rerun
        # shows the old elements beside the new ones until it ends)
        expect(page.get_by_text("Last events", exact=True)).to_have_count(1)
        context.close()
