"""The dispute flow in a real browser: from the replay to the Dispute page, a judge's ruling with the
sidebar's sign-in, and the as-ruled replay that follows (Debian chromium through playwright)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from streamlit_server import SCREENSHOTS, chromium, new_page, streamlit_server

from service.application import Rollcall
from projections.projector import Projector

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
SETUP = {m["id"]: ",".join(map(str, m["at"][0]))
         for m in json.loads(EX1.read_text().splitlines()[0])["setup"]["models"]}


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A store with keys holding seed004-ex1: (data folder, a scorekeeper's key, a judge's key)."""
    data = tmp_path_factory.mktemp("dispute") / "data"
    store = Rollcall.open(data)
    store.key = store.add_key("organiser", "Olga")
    scorekeeper, judge = store.add_key("scorekeeper", "Sam"), store.add_key("judge", "Jules")
    store.key = scorekeeper
    with open(EX1, encoding="utf-8") as handle:
        store.import_record(handle, str(EX1))
    store.close()
    Projector(data).run()
    return data, scorekeeper, judge


@pytest.fixture(scope="module")
def page(judged, tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    with streamlit_server(judged[0], tmp_path_factory.mktemp("streamlit") / "server.log") as base, \
            chromium() as browser, new_page(browser) as pg:
        pg.base = base
        yield pg


def model_at(page, board: int, model: str) -> str:
    return page.locator("svg.rc-board").nth(board).locator(f"g#model-{model}").get_attribute("data-at")


def sign_in(page, key: str) -> None:
    """Sign in with ``key`` in the sidebar (signing out whoever is signed in first)."""
    sidebar = page.locator("[data-testid=stSidebar]")
    if sidebar.get_by_role("button", name="Sign out").count():
        sidebar.get_by_role("button", name="Sign out").click()
        page.locator(".rc-device-notice").wait_for()  # the page loaded afresh, signed out
    sidebar.get_by_label("Your key", exact=True).fill(key)
    sidebar.get_by_role("button", name="Sign in").click()
    sidebar.get_by_text("Signed in as").wait_for()


def record_ruling(page) -> None:
    form = page.locator("[data-testid='stForm']").filter(has_text="Record a ruling")
    form.get_by_label("Judge", exact=True).fill("Jules")
    form.get_by_text("void", exact=True).click()
    form.get_by_label("Ruling").fill("the Faceless had activated already")
    form.get_by_role("button", name="Record ruling").click()


def test_a_judge_rules_from_the_replay_and_the_as_ruled_replay_follows(page, judged) -> None:
    _, scorekeeper, judge = judged
    page.goto(f"{page.base}/replay?game={GAME}&seq=4")
    page.wait_for_selector("svg.rc-board[data-seq='4']")
    page.locator("a.rc-dispute-link").click()
    page.wait_for_url("**/dispute?*")
    page.wait_for_selector("svg.rc-board >> nth=1")
    assert parse_qs(urlparse(page.url).query)["seq"] == ["4"]

    about = page.locator("input[aria-label='Disputed events']")
    about.fill("4-6")
    about.press("Enter")
    page.wait_for_function("() => new URL(location.href).searchParams.get('about') === '4-6'")
    page.wait_for_selector("svg.rc-board[data-seq='6']")  # the state after the last disputed event
    page.locator("[data-testid='stAlert']", has_text="every rule checked holds").first.wait_for()
    assert model_at(page, 1, "swordsman") != SETUP["swordsman"]  # as played: ejected

    assert page.locator("input[type=password]").count() == 1  # the sidebar's sign-in alone asks for a key
    sign_in(page, scorekeeper)
    record_ruling(page)  # a scorekeeper's key is not enough
    page.locator("[data-testid='stAlert']", has_text="who may not record a ruling").wait_for()

    sign_in(page, judge)
    record_ruling(page)
    page.locator("[data-testid='stAlert']", has_text="RulingMade").wait_for()
    page.wait_for_function("() => new URL(location.href).searchParams.get('ruled') === 'true'")
    page.wait_for_function(
        f"() => document.querySelectorAll('svg.rc-board')[1]?.querySelector('g#model-swordsman')"
        f"?.getAttribute('data-at') === '{SETUP['swordsman']}'")
    assert model_at(page, 1, "faceless") == SETUP["faceless"]
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / "dispute-ruled.png"), full_page=True)

    page.locator("a.rc-replay-link").click()
    page.wait_for_url("**/replay?*")
    page.wait_for_selector("svg.rc-board[data-seq='6']")
    assert parse_qs(urlparse(page.url).query).get("ruled") == ["true"]
    assert model_at(page, 0, "faceless") == SETUP["faceless"]
    assert model_at(page, 0, "swordsman") == SETUP["swordsman"]
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / "replay-as-ruled.png"), full_page=True)
