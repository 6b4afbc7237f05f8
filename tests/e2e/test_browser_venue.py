"""The dashboard tested as a venue is: `rollcall dashboard --host 0.0.0.0` on this machine, the organiser's desk
here printing the table cards with the Standings page's button, and a tablet (820 px) and a phone (390 px) on
another host — a network namespace (tests/netns.py) — reaching it at its network address from the QR codes of
those cards, read with zbarimg. Through a faulty link (tests/faulty.py: delays, stalls, cuts, a lost answer, the
server gone) every tap the page acknowledged is stored exactly once, a tap whose answer was lost and that is tapped
again is stored once, and the page says it lost the server and catches up when it is back. Over HTTPS (a test
certificate) the sign-in cookie is Secure. Screenshots: test-output/screenshots/venue-*.png."""

from __future__ import annotations

import contextlib
import re
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from elsewhere import PLAYERS
from streamlit_server import SCREENSHOTS, chromium
from test_browser_tournament import downloaded

from tests.faulty import faulty_link
from tests.processes import until
from tests.netns import browser as browser_in, host, network_address
from tests.venue import card_codes, certificate, dashboard, read_codes

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAME = "Venue Open"
TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
WAIT = 90_000


@pytest.fixture
def event(tmp_path: Path) -> dict:
    """A store with an organiser's and a scorekeeper's key, and a tournament of four registered players."""
    from projections.projector import Projector
    from service.application import Rollcall

    data = tmp_path / "data"
    store = Rollcall.open(data)
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    scorekeeper = store.add_key("scorekeeper", "Sam")
    store.create_tournament(NAME, "t9a", rounds=2)
    for name, faction, club in PLAYERS[:4]:
        store.register_player(NAME, name, faction, club)
    store.close()
    Projector(data).run()
    return {"data": data, "organiser": organiser, "scorekeeper": scorekeeper}


def shot(page, name: str) -> Path:
    path = Path(SCREENSHOTS) / f"venue-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def settled(page) -> None:
    page.locator("[data-testid='stMainBlockContainer']").wait_for(timeout=WAIT)
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=WAIT)


def sign_in(page, key: str) -> None:
    """Sign in in the sidebar (opened first where the screen folded it away), then fold it away again."""
    sidebar = page.locator("[data-testid=stSidebar]")
    signed = sidebar.get_by_text("Signed in as")
    for _attempt in range(3):  # a step that did not take on a busy machine (the sidebar drawn again) is made again
        try:
            settled(page)
            page.wait_for_function("() => window.__rcSidebarFolded", timeout=WAIT)
            if page.locator('[data-testid=stSidebar][data-collapsed="true"]').count():
                page.locator("[data-testid=stExpandSidebarButton]").click()
            sidebar.get_by_label("Your key", exact=True).fill(key, timeout=30_000)
            sidebar.get_by_role("button", name="Sign in").click(timeout=30_000)
            signed.wait_for(timeout=WAIT)
            break
        except Exception:  # noqa: BLE001  looked at again below
            if signed.count():
                break
    signed.wait_for(timeout=WAIT)
    settled(page)
    if page.viewport_size["width"] < 1100 and page.locator('[data-testid=stSidebar][data-collapsed="false"]').count():
        page.locator("[data-testid=stSidebarCollapseButton] button").click()


def printed_cards(desk, local: str, organiser: str, tmp: Path) -> dict[int, tuple[str, str]]:
    """The organiser pairs round 1 on the Standings page and prints its table cards with the button; table ->
    (the Record page's code, the Live view's code), each read from a screenshot of the printed card."""
    desk.goto(f"{local}/standings?tournament={NAME.replace(' ', '+')}")
    sign_in(desk, organiser)
    desk.get_by_role("button", name="Pair round").click()
    desk.get_by_text("round 1 paired: 2 tables").wait_for(timeout=WAIT)
    cards = Path(downloaded(desk, re.compile("Table cards, round 1")).path()).read_text(encoding="utf-8")
    return {table: (next(c for c in codes if "/record?" in c), next(c for c in codes if "/live?" in c))
            for table, codes in card_codes(desk, cards, tmp).items()}


def join_code(desk, local: str, tmp: Path) -> list[str]:
    """What the join code of the Standings page says (the organiser shows it to the tablets)."""
    desk.goto(f"{local}/standings?tournament={NAME.replace(' ', '+')}")
    settled(desk)
    desk.get_by_text("Tablets and phones: join the dashboard").click()
    image = desk.locator("[data-testid=stExpanderDetails] img").first
    image.wait_for(timeout=WAIT)
    image.evaluate("(img) => img.decode()")  # drawn, not only in the page
    png = tmp / "join.png"

    def shows_a_code() -> list[str]:  # (the expander may still be opening: looked at again until it shows a code)
        image.screenshot(path=str(png), animations="disabled")
        return read_codes(png)

    return until(shows_a_code, 30, "the join code read from the Standings page")


def stored_types(data: Path, game: str) -> list[str]:
    from service.application import Rollcall

    store = Rollcall.open(data)
    try:
        lines = store.stored_lines(game)
    finally:
        store.close()
    assert [line.get("seq") for line in lines[1:]] == list(range(1, len(lines))), "a seq twice or missing"
    return [line["type"] + (f" {line['turn']}" if "turn" in line else "") for line in lines[1:]]


def until_stored(data: Path, game: str, events: int, timeout: float = 60) -> None:
    until(lambda: len(stored_types(data, game)) >= events, timeout, f"{game}: {events} events stored")


# every element matching a selector, in the page and in the shadow roots of its components (the Record page's
# table is a component of its own: document.querySelector does not see into it, playwright's locators do)
DEEP = ("(sel) => { const out = []; const walk = (root) => { out.push(...root.querySelectorAll(sel));"
        " for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot); };"
        " walk(document); return out; }")


def shown(page) -> tuple[str | None, bool]:
    """The Record page's status line as drawn, and whether a tap's preview is pending there."""
    return tuple(page.evaluate(f"() => {{ const deep = {DEEP}; const s = deep('.rc-rec-status')[0];"
                               " return [s ? s.textContent : null, deep('.rc-pending').length > 0]; }"))


def caught_up(page, seq: int) -> None:
    """The page shows the game as stored at ``seq`` (its own run, not a tap's preview)."""
    page.wait_for_function(
        f"(seq) => {{ const deep = {DEEP}; const s = deep('.rc-rec-status')[0];"
        r" return !!s && !deep('.rc-pending').length && (s.textContent.match(/event (\d+)/) || [])[1] === String(seq); }",
        arg=seq, timeout=WAIT)


def status_seq(page) -> int:
    """The seq the page shows the game at, once no tap's preview is pending."""
    page.wait_for_function(f"() => {{ const deep = {DEEP}; return deep('.rc-rec-status').length > 0"
                           " && !deep('.rc-pending').length; }", timeout=WAIT)
    found = re.search(r"event (\d+)", shown(page)[0] or "")
    return int(found.group(1))


def test_a_tablet_and_a_phone_on_another_host_reach_the_dashboard_from_the_printed_cards(event, tmp_path) -> None:
    address = network_address()
    with dashboard(event["data"], "--host", "0.0.0.0") as served, chromium() as here:
        network = f"http://{address}:{served.port}"
        desk = here.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True).new_page()
        desk.set_default_timeout(WAIT)
        cards = printed_cards(desk, f"http://localhost:{served.port}", event["organiser"], tmp_path)
        assert join_code(desk, f"http://localhost:{served.port}", tmp_path) == [network]
        assert sorted(cards) == [1, 2]
        for record, live in cards.values():
            assert urlsplit(record).netloc == urlsplit(live).netloc == f"{address}:{served.port}", (record, live)
        with host() as ns, browser_in(ns, via=here.browser_type) as there:
            tablet = there.new_context(viewport=TABLET).new_page()
            tablet.set_default_timeout(WAIT)
            tablet.goto(cards[1][0])
            sign_in(tablet, event["scorekeeper"])
            tablet.get_by_role("button", name="Turn 1", exact=True).click()
            tablet.get_by_text("Recorded seq 1:").wait_for()
            shot(tablet, "tablet-from-the-card")
            phone = there.new_context(viewport=PHONE).new_page()
            phone.set_default_timeout(WAIT)
            phone.goto(cards[1][1])
            game = parse_game(cards[1][0])
            phone.locator(f".rc-live-card[data-game='{game}']").wait_for(state="attached")
            shot(phone, "phone-from-the-card")
        assert stored_types(event["data"], game) == ["TurnStarted 1"]


def parse_game(record_url: str) -> str:
    from urllib.parse import parse_qs

    return parse_qs(urlsplit(record_url).query)["game"][0]


def tap_until_stored(tablet, link, label: str, seq: int, acknowledged: list[int]) -> None:
    """Tap ``label`` (the game at seq ``seq`` - 1) as a scorekeeper on bad wifi does: once the page says it was
    recorded it is acknowledged; when the page says nothing, wait until it is connected again and look: tapped
    again while the page still offers it at the same seq."""
    for _attempt in range(8):
        tablet.wait_for_function("() => !document.body.classList.contains('rc-lost')", timeout=WAIT)
        if status_seq(tablet) >= seq:
            return  # stored, its answer lost: the page caught up
        button = tablet.get_by_role("button", name=label, exact=True)
        try:
            button.click(timeout=20_000)
            tablet.get_by_text(f"Recorded seq {seq}:").wait_for(timeout=20_000)
            acknowledged.append(seq)
            return
        except Exception:  # noqa: BLE001  no word from the page: the link lost it somewhere
            continue
    raise AssertionError(f"{label} never stored through the faulty link ({link.counts})")


@contextmanager
def tablet_behind_a_faulty_link(event: dict, tmp_path: Path):
    """The dashboard served through a faulty link (its cards link to the link's address), and a tablet in another
    namespace at table 2's Record page from its printed card, signed in: (tablet, link, game, served)."""
    address = network_address()
    with faulty_link(address, ("127.0.0.1", 9), seed=7) as link:
        proxied = f"http://{address}:{link.listen[1]}"
        with dashboard(event["data"], "--host", "0.0.0.0", "--base-url", proxied) as served, chromium() as here:
            link.target = ("127.0.0.1", served.port)
            desk = here.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True).new_page()
            desk.set_default_timeout(WAIT)
            cards = printed_cards(desk, f"http://localhost:{served.port}", event["organiser"], tmp_path)
            record = cards[2][0]
            assert record.startswith(proxied + "/record?"), record
            with host() as ns, browser_in(ns, via=here.browser_type) as there:
                tablet = there.new_context(viewport=TABLET).new_page()
                tablet.set_default_timeout(WAIT)
                tablet.goto(record)
                sign_in(tablet, event["scorekeeper"])
                yield tablet, link, parse_game(record), served
        said = served.output  # the server's terminal, after browsers left through cut connections
        assert "Traceback" not in said and "Exception in ASGI" not in said, said[-4000:]


def test_through_a_faulty_link_every_tap_the_page_acknowledged_is_stored_once(event, tmp_path) -> None:
    with tablet_behind_a_faulty_link(event, tmp_path) as (tablet, link, game, _served):
        link.faulty = True  # taps through delays, stalls and cuts at random
        acknowledged: list[int] = []
        turn = 0
        # four taps at least, and on until the link has stalled or cut one (a few chunks each: luck may spare four)
        while turn < 4 or (link.counts.cuts + link.counts.stalls == 0 and turn < 6):  # (a game of The 9th Age has six)
            turn += 1
            tap_until_stored(tablet, link, f"Turn {turn}", turn, acknowledged)
        link.faulty = False
        assert stored_types(event["data"], game) == [f"TurnStarted {t}" for t in range(1, turn + 1)]
        assert acknowledged, "no tap was acknowledged through the faulty link"
        print(f"the faulty link: {link.counts}; acknowledged {acknowledged}")
    assert link.counts.cuts + link.counts.stalls > 0


def test_a_page_that_lost_the_server_says_so_and_catches_up_when_it_is_back(event, tmp_path) -> None:
    from service.application import Rollcall

    with tablet_behind_a_faulty_link(event, tmp_path) as (tablet, link, game, _served):
        tap_until_stored(tablet, link, "Turn 1", 1, [])
        # the server gone: the page says so; another device records meanwhile; back, the page catches up
        link.down()
        banner = tablet.locator("#rc-offline")
        banner.wait_for(state="visible", timeout=WAIT)
        assert "Lost the server" in banner.inner_text()
        shot(tablet, "tablet-lost-the-server")
        store = Rollcall.open(event["data"], key=event["scorekeeper"])
        store.record(game, {"type": "Noted", "text": "recorded at the judges' desk"}, after=1)
        store.close()
        link.up()
        banner.wait_for(state="hidden", timeout=WAIT)
        caught_up(tablet, 2)
        shot(tablet, "tablet-caught-up")
    assert stored_types(event["data"], game) == ["TurnStarted 1", "Noted"]


def test_a_tap_whose_answer_was_lost_is_stored_once_and_the_page_catches_up(event, tmp_path) -> None:
    with tablet_behind_a_faulty_link(event, tmp_path) as (tablet, link, game, _served):
        tap_until_stored(tablet, link, "Turn 1", 1, [])
        link.lose_next_answer()  # the tap reaches the server, its answer never comes back
        tablet.get_by_role("button", name="Turn 2", exact=True).click()
        tablet.wait_for_function("() => document.body.classList.contains('rc-lost')", timeout=WAIT)
        tablet.wait_for_function("() => !document.body.classList.contains('rc-lost')", timeout=WAIT)
        until_stored(event["data"], game, 2)
        caught_up(tablet, 2)
        link.hold_answers(6)  # the answer held back: the scorekeeper, seeing nothing happen, taps again
        again = tablet.get_by_role("button", name="Turn 3", exact=True)
        again.click()
        tablet.wait_for_function("() => { const t = window.rcRecordTaps.at(-1);"
                                 " return t && t.drawn !== null && t.answered === null; }", timeout=WAIT)
        with contextlib.suppress(PlaywrightTimeout):  # (unless the answer came first: then there is no Turn 3)
            again.click(timeout=5_000)  # the tapped button stays, dimmed, while its answer is awaited
        until_stored(event["data"], game, 3)
        caught_up(tablet, 3)
        tablet.wait_for_function("() => window.rcRecordTaps.every((t) => t.answered !== null)", timeout=WAIT)
        taps = tablet.evaluate("() => window.rcRecordTaps.map((t) => [t.seq, t.outcome])")
        print(f"the taps: {taps}; the faulty link: {link.counts}")
    assert stored_types(event["data"], game) == [f"TurnStarted {t}" for t in (1, 2, 3)]


def test_over_https_a_tablet_on_another_host_signs_in_with_a_secure_cookie(event, tmp_path) -> None:
    address = network_address()
    cert, key = certificate(tmp_path, address)
    with dashboard(event["data"], "--host", "0.0.0.0", "--tls-cert", str(cert), "--tls-key", str(key)) as served:
        url = f"https://{address}:{served.port}"
        with host() as ns, browser_in(ns) as there:
            context = there.new_context(viewport=TABLET, ignore_https_errors=True)
            tablet = context.new_page()
            tablet.set_default_timeout(WAIT)
            tablet.goto(f"{url}/standings?tournament={NAME.replace(' ', '+')}")
            sign_in(tablet, event["scorekeeper"])
            [cookie] = until(lambda: [c for c in context.cookies() if c["name"].startswith("rollcall_session")], 30,
                             "the session cookie")
            assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
            shot(tablet, "tablet-https")
