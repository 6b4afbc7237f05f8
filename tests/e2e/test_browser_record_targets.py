"""The Record page on a tablet (820 px) and a phone (390 px) in a real browser: every control a finger hits there
is 44 px at least — the offers, the board's highlighted hexes (a round hit area where the drawn hex is smaller),
the Other roll's faces and "needs" buttons, a seq field's − and + — and the signed-in chip never lies over the
board when the page scrolls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

from projections.projector import Projector
from service.application import Rollcall
from tests.processes import until

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
FINGER = 44  # px


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    data = tmp_path_factory.mktemp("targets") / "data"
    lines = [x for x in EX1.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    store = Rollcall.open(data)
    store.import_record(lines[:4], str(EX1))  # the Faceless active (seq 3): its steps' hexes highlighted
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    key = store.add_key("scorekeeper", "Sam")
    store.close()
    Projector(data).run()
    with streamlit_server(data, tmp_path_factory.mktemp("streamlit-targets") / "server.log") as base:
        yield base, key


def idle(page) -> None:
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=30_000)


def signed_in(browser, base: str, key: str):
    """A browser signed in as the scorekeeper (at 1,400 px, the sidebar open)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{base}/record?game={GAME}")
    field = page.locator("[data-testid=stSidebar]").get_by_label("Your key", exact=True)
    field.fill(key)
    field.press("Enter")
    page.locator("[data-testid=stSidebar]").get_by_text("Signed in as").wait_for()
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')")
    # the server sets the browser's cookie (HttpOnly) once the page hands it the ticket
    until(lambda: any(c["name"].startswith("rollcall_session") for c in context.cookies()), 10,
          "the browser was given a sign-in cookie")
    return context, page


def opened(page, title: str, inside: str) -> None:
    """Open the expander ``title`` until ``inside`` shows (a tap on a busy machine that landed during a run of
    the page is made again, as a person would)."""
    summary = page.locator("[data-testid=stExpander] summary").filter(has_text=title)
    for _ in range(3):
        idle(page)
        summary.scroll_into_view_if_needed()
        summary.click()
        try:
            page.locator(inside).first.wait_for(state="attached", timeout=10_000)
            page.locator("[data-testid=stExpander] details[open]").filter(has_text=title).wait_for(timeout=10_000)
            return
        except Exception:  # noqa: BLE001  not opened: tapped again
            continue
    raise AssertionError(f"the expander {title!r} does not open")


def small(boxes: list[tuple[str, dict]]) -> list[str]:
    return [f"{what}: {box['width']:.0f}×{box['height']:.0f}" for what, box in boxes
            if box and (box["width"] < FINGER - 0.5 or box["height"] < FINGER - 0.5)]


def boxes_of(page, selector: str) -> list[tuple[str, dict]]:
    """The boxes of the elements ``selector`` finds that show (a hidden one has none)."""
    found = page.locator(selector)
    return [(f"{selector} {found.nth(i).inner_text()[:30]!r}", found.nth(i).bounding_box()) for i in range(found.count())
            if found.nth(i).is_visible()]


def hex_targets(page) -> list[tuple[str, float, float]]:
    """Each highlighted hex of the board and the size a finger hits there: the drawn hex, or its round hit area."""
    out = []
    hexes = page.locator("polygon.rc-hex.rc-target")
    for i in range(hexes.count()):
        at = hexes.nth(i).get_attribute("data-hex")
        boxes = [hexes.nth(i).bounding_box()]
        rings = page.locator(f'circle.rc-hit[data-hex="{at}"]')
        boxes += [rings.nth(j).bounding_box() for j in range(rings.count())]
        out.append((at, max(b["width"] for b in boxes), max(b["height"] for b in boxes)))
    return out


@pytest.mark.parametrize("width", (820, 390))
def test_every_control_a_finger_hits_is_44_px_and_the_chip_leaves_the_board_free(server, width: int) -> None:
    base, key = server
    with chromium() as browser:
        context, page = signed_in(browser, base, key)
        try:
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{base}/record?game={GAME}")
            page.locator("button.rc-offer").first.wait_for()
            idle(page)
            too_small = small(boxes_of(page, "button.rc-offer"))
            hexes = hex_targets(page)
            assert len(hexes) >= 3, hexes  # the Faceless's steps
            too_small += [f"hex {h}: {w:.0f}×{hh:.0f}" for h, w, hh in hexes if w < FINGER - 0.5 or hh < FINGER - 0.5]

            board = page.locator("svg.rc-board")
            board.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.mouse.wheel(0, 200)  # the page scrolled past the board's top, as a hand scrolls it
            page.wait_for_function("() => true")
            chip = page.locator("#rc-device-chip")
            if chip.is_visible():
                c, b = chip.bounding_box(), board.bounding_box()
                overlap = not (c["x"] + c["width"] <= b["x"] or b["x"] + b["width"] <= c["x"]
                               or c["y"] + c["height"] <= b["y"] or b["y"] + b["height"] <= c["y"])
                page.screenshot(path=str(Path(SCREENSHOTS) / f"record-chip-scrolled-{width}.png"))
                assert not overlap, f"the signed-in chip {c} lies over the board {b} at {width} px"

            opened(page, "Other roll…", ".st-key-rc-other-faces button")
            opened(page, "Corrections", "[data-testid=stNumberInputStepUp]")
            idle(page)
            faces = boxes_of(page, ".st-key-rc-other-faces button")
            assert len(faces) == 7, faces  # a face button each, and the one taking the last face back
            too_small += small(faces)
            too_small += small(boxes_of(page, "[class*='st-key-rc-other-needs'] button"))
            too_small += small(boxes_of(page, "[data-testid=stNumberInputStepUp]"))
            too_small += small(boxes_of(page, "[data-testid=stNumberInputStepDown]"))
            page.screenshot(path=str(Path(SCREENSHOTS) / f"record-targets-{width}.png"), full_page=True)
            assert not too_small, f"smaller than {FINGER} px at {width} px: {too_small}"
        finally:
            context.close()
