"""The Record page on a tablet (820 × 1180) in a real browser, with screenshots at 1,400, 820 and 390 px.

* The sidebar is folded away (opened again, it lies over the page): the board gets the width, at least
  600 px, its model tokens at least 24 px; the controls are under it.
* A tap on a button under the board records, the button it was is gone at once (no stale offer), and the
  board stays where it was on the screen (the page does not scroll it away).
* The faces of dice to tap, in a form of several dice and of one, are at least 32 px; a vortex's facing is
  chosen with a small picture of each facing (a hex with an arrow) above the choice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

from projections.projector import Projector
from service.application import Rollcall

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "games"
TABLET = {"width": 820, "height": 1180}
# (golden record, events imported, its game id): the Faceless active (seq 3), a 9th Age casting roll due,
# a vortex to move (its roll made), a Claustrophobia initiative roll due
PREFIXES = (("seed004-ex1-shove-enemy-failed-dodge", 3, "seed004-ex1"),
            ("t9a-dispelled-failed-bound", 4, "t9a-dispelled-failed-bound"),
            ("vortex-moves-onto-burning-ground", 8, "vortex-burning-ground"),
            ("claustrophobia-seed003-sceptre-three-dice", 2, "claustrophobia-seed003-sceptre-three-dice"))
BOARD_LEAST = 600  # px: the board's width on a tablet, at least
TOKEN_LEAST = 24  # px: a model's token on the board, at least
FACE_LEAST = 32  # px: a die's face to tap, at least


def lines_of(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("tablet") / "data"
    store = Rollcall.open(data)
    for name, events, _ in PREFIXES:
        path = GAMES / f"{name}.rollcall.jsonl"
        store.import_record(lines_of(path)[:events + 1], str(path))
    store.close()
    Projector(data).run()
    with streamlit_server(data, tmp_path_factory.mktemp("streamlit-tablet") / "server.log") as base:
        yield base, data


def idle(page) -> None:
    page.wait_for_timeout(150)
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')"
                           " && !document.querySelector('[data-stale=true]')", timeout=30_000)


def open_record(browser, base: str, game: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{base}/record?game={game}")
    page.get_by_text("Record a game").wait_for()
    page.locator(".rc-rec-status").first.wait_for()
    idle(page)
    return context, page


def shot(page, name: str) -> None:
    idle(page)
    page.screenshot(path=str(Path(SCREENSHOTS) / f"record-tablet-{name}.png"), full_page=True)


FACES_JS = """(group) => {
      const box = document.querySelector(group);
      return box ? box.querySelectorAll('button').length : 0; }"""


def face_sizes(page, group: str, faces: int) -> list[float]:
    """The font size of each face of the dice pickers (radio groups) or of the one-die face buttons in
    ``group``, once the page shows ``faces`` of them (and no other form)."""
    others = ", ".join(f".st-key-rc-dice-{kind}" for kind in ("faces", "one", "open") if f"-{kind}" not in group)
    page.wait_for_function(f"() => ({FACES_JS})({group!r}) === {faces} && !document.querySelector({others!r})")
    return page.evaluate("""(group) => {
      const box = document.querySelector(group);
      return box ? [...box.querySelectorAll('button')].filter(b => /[\\u2680-\\u2685\\u25cb\\u2605-\\u2736\\u2694\\u2726]|[^\\x00-\\x7f]/.test(b.innerText))
        .map(b => parseFloat(getComputedStyle(b.querySelector('p') || b).fontSize)) : [];
    }""", group)


def test_on_a_tablet_the_board_has_the_width_and_a_tap_under_it_leaves_it_in_place(server) -> None:
    base, _ = server
    with chromium() as browser:
        context, page = open_record(browser, base, "seed004-ex1", TABLET)
        try:
            sidebar = page.locator("#stSidebar").bounding_box()
            assert sidebar is None or sidebar["x"] + sidebar["width"] <= 1, f"the sidebar takes {sidebar}"
            board = page.locator("svg.rc-board")
            box = board.bounding_box()
            assert box["width"] >= BOARD_LEAST, f"the board is {box['width']:.0f} px wide at 820 px"
            tokens = [page.locator(f"svg g#model-{m}").bounding_box()["width"] for m in ("faceless", "swordsman")]
            assert min(tokens) >= TOKEN_LEAST, f"tokens of {tokens} px"
            shot(page, "activated-820")
            label = "end the activation of The Faceless (Boris)"
            button = page.get_by_role("button", name=label, exact=True)
            button.scroll_into_view_if_needed()
            idle(page)
            before = board.bounding_box()
            assert before["y"] + before["height"] > 0, "the board is off the screen before the tap"
            button.click()
            page.get_by_text("Recorded seq 4:").wait_for()
            idle(page)
            page.wait_for_timeout(500)
            after = board.bounding_box()
            assert abs(after["y"] - before["y"]) <= 2 and abs(after["x"] - before["x"]) <= 2, (before, after)
            assert page.get_by_role("button", name=label, exact=True).count() == 0  # no stale offer stays
            assert page.get_by_role("button", name="activate Engeln Swordsman (Anna)", exact=True).count() == 1
            shot(page, "after-tap-820")
            page.locator('[data-testid="stExpandSidebarButton"]').click()  # opened again, to sign in
            page.locator("#stSidebar").get_by_text("Record").first.wait_for()
            page.wait_for_timeout(400)
            opened = board.bounding_box()
            assert abs(opened["x"] - after["x"]) <= 2 and abs(opened["width"] - after["width"]) <= 2, (after, opened)
            shot(page, "sidebar-opened-820")
            page.locator('[data-testid="stSidebarCollapseButton"] button').click()  # a tap folds it away again
            page.locator('#stSidebar[data-collapsed="true"]').wait_for(state="attached")
        finally:
            context.close()


def tap_until_checked(page, radio) -> None:
    """Tap a radio until it shows checked: a tap that lands while the page's parts rerun (every 1.5 s) is lost,
    on a real tablet as here, and the player taps again."""
    for _attempt in range(3):
        radio.click()
        idle(page)
        if radio.is_checked():
            return
    assert radio.is_checked(), "three taps on the radio did not check it"


def test_dice_faces_to_tap_are_large_in_forms_of_several_dice_and_of_one(server) -> None:
    base, _ = server
    with chromium() as browser:
        context, page = open_record(browser, base, "t9a-dispelled-failed-bound", TABLET)
        try:
            page.get_by_role("button", name="Anna: casting roll …", exact=True).click()
            idle(page)
            tap_until_checked(page, page.get_by_role("radiogroup", name="Dice").get_by_role("radio", name="3", exact=True))
            page.get_by_role("radiogroup", name="Die 3").wait_for()
            faces = face_sizes(page, ".st-key-rc-dice-faces", 18)
            assert len(faces) == 18 and min(faces) >= FACE_LEAST, f"faces of {faces} px"
            for name in ("Die 1", "Die 2", "Die 3"):
                option = page.get_by_role("radiogroup", name=name).get_by_role("radio").first.bounding_box()
                assert option["height"] >= FACE_LEAST and option["width"] >= FACE_LEAST, option
            shot(page, "three-dice-820")
            tap_until_checked(page, page.get_by_role("radiogroup", name="Dice").get_by_role("radio", name="1", exact=True))
            faces = face_sizes(page, ".st-key-rc-dice-one", 6)
            assert len(faces) == 6 and min(faces) >= FACE_LEAST, f"one die's faces of {faces} px"
            shot(page, "one-die-820")
        finally:
            context.close()


def test_a_vortex_facing_is_chosen_with_a_picture_of_each_facing(server) -> None:
    base, _ = server
    with chromium() as browser:
        context, page = open_record(browser, base, "vortex-burning-ground", TABLET)
        try:
            page.get_by_role("button", name="move Vortex 1 and turn it …", exact=True).click()
            idle(page)
            pictures = page.locator(".rc-choice-picture svg.rc-facing")
            pictures.first.wait_for()
            assert pictures.count() == 6
            assert [pictures.nth(i).get_attribute("data-facing") for i in range(6)] == [str(i) for i in range(6)]
            assert all(pictures.nth(i).bounding_box()["width"] >= TOKEN_LEAST for i in range(6))
            assert page.get_by_role("radiogroup", name="Facing").get_by_role("radio").count() == 6
            shot(page, "facing-820")
        finally:
            context.close()


@pytest.mark.parametrize("width", (1400, 820, 390))
def test_screenshots_of_the_record_page_of_each_system(server, width: int) -> None:
    base, _ = server
    with chromium() as browser:
        for _, _, game in PREFIXES:
            context, page = open_record(browser, base, game, {"width": width, "height": 1180})
            try:
                wide = page.evaluate("() => [...document.querySelectorAll('[data-testid=\"stMainBlockContainer\"] *')]"
                                     ".filter(e => e.getBoundingClientRect().width > 0"
                                     " && e.getBoundingClientRect().right > window.innerWidth + 1).length")
                assert wide == 0, f"{game}: {wide} elements run off the page at {width} px"
                shot(page, f"{game}-{width}")
            finally:
                context.close()
