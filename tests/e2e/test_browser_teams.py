"""A round of a team event (`t9a-teams-4`) run from the Standings page in a real browser: the organiser pairs the
teams, enters the captains' matchups of the match in its form (two players swapped across the tables), the
results come in, and the page shows the match's totals, the teams' standings and the players'. Screenshots at
1,400, 820 and 390 px in test-output/screenshots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit_server import SCREENSHOTS, chromium, new_page, streamlit_server

pytestmark = pytest.mark.browser
NAME = "Team Cup"
TEAMS = ("Aachen", "Bergen")


def settled(page) -> None:
    page.locator("[data-testid='stMainBlockContainer']").wait_for()
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=20_000)


def test_an_organiser_pairs_the_teams_enters_the_matchups_and_sees_the_teams_standings(tmp_path: Path) -> None:
    from domain.formats import shipped_format
    from domain.player_lists import Registration
    from projections.projector import Projector
    from service.application import Rollcall

    data = tmp_path / "data"
    store = Rollcall.open(data)
    store.create_tournament(NAME, "t9a", format=shipped_format("t9a-teams-4"))
    store.register_players(NAME, [Registration(f"{t} {i}", "orcs", t) for t in TEAMS for i in range(1, 5)])
    store.close()
    Projector(data).run()
    with streamlit_server(data, tmp_path / "server.log") as base, chromium() as browser, new_page(browser) as page:
        page.goto(f"{base}/standings?tournament=Team+Cup")
        settled(page)
        page.get_by_text("teams of 4: a match won at 44 or more", exact=False).wait_for()
        page.get_by_role("button", name="Pair round").click()
        page.get_by_text("round 1 paired: 1 team match").wait_for()
        heading = page.get_by_text(re.compile(r"^Match 1: \w+ v \w+$"))
        heading.wait_for()  # the matchups' form, once the follower has published the pairing
        first, other = heading.inner_text().removeprefix("Match 1: ").split(" v ")
        for mine, theirs in ((1, 2), (2, 1)):  # two players swapped across the tables
            pick = page.get_by_test_id("stSelectbox").filter(has_text=f"{first} {mine} plays")
            pick.scroll_into_view_if_needed()
            pick.get_by_role("combobox").click()
            page.get_by_role("option", name=f"{other} {theirs}", exact=True).click()
            settled(page)
        page.get_by_role("button", name="Enter matchups").click()
        page.get_by_text("match 1 of round 1: 4 tables").wait_for()
        page.get_by_text(f"Match 1: {first} 0 – 0 {other} (so far: 0 of 4 games ended)").wait_for()

        store = Rollcall.open(data)
        try:
            tables = store.tournament(NAME).rounds[1]["tables"]
            assert [(t["players"][0]["name"], t["players"][1]["name"]) for t in tables] == [
                (f"{first} 1", f"{other} 2"), (f"{first} 2", f"{other} 1"), (f"{first} 3", f"{other} 3"),
                (f"{first} 4", f"{other} 4")]
            for t, (a, b) in zip(tables, ((3000, 1000), (2000, 2000), (2000, 2000), (2500, 2000))):
                store.enter_result(NAME, 1, t["table"], {"p1": a, "p2": b})  # 18-2, 10-10, 10-10, 12-8
        finally:
            store.close()
        page.get_by_text(f"Match 1: {first} 50 – 30 {other} ({first} wins)").wait_for(timeout=30_000)
        page.get_by_text(f"{first} 1, {first} 2, {first} 3, {first} 4").first.wait_for(state="attached")
        for width in (1400, 820, 390):
            page.set_viewport_size({"width": width, "height": 1000})
            page.reload()  # (the sidebar folds away below 1,100 px when a page loads)
            settled(page)
            page.get_by_text(f"Match 1: {first} 50 – 30 {other} ({first} wins)").wait_for()
            page.get_by_text("Teams", exact=True).first.scroll_into_view_if_needed()
            page.evaluate("() => new Promise(drawn => requestAnimationFrame(() => requestAnimationFrame(drawn)))")
            page.screenshot(path=f"{SCREENSHOTS}/standings-teams-{width}.png")
