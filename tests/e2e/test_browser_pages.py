"""Every page of the dashboard in a real browser at 1,400 and 820 px wide: nothing runs off the page, no
Streamlit toolbar; screenshots of each kept in test-output/screenshots (or ROLLCALL_SCREENSHOTS). Over a small simulated tournament of each
system."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit_server import SCREENSHOTS, chromium, opened, streamlit_server

pytestmark = pytest.mark.browser
TOURNAMENTS = (("tornscape", "Page Open", 6, 2), ("t9a", "Page Magic Cup", 4, 2),
               ("claustrophobia", "Page Descent", 4, 2))


@pytest.fixture(scope="module")
def pages_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from service.application import Rollcall
    from projections.projector import Projector
    from simulation.tournaments import simulate_tournament

    data = tmp_path_factory.mktemp("pages") / "data"
    store = Rollcall.open(data)
    for system, name, players, rounds in TOURNAMENTS:
        store.create_tournament(name, system)
        for game in simulate_tournament(system, name, players, rounds, 5, turns=3,
                                        on_bye=lambda r, p, f, name=name: store.award_bye(name, r, p, f)):
            store.import_record(game.lines, game.game)
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(scope="module")
def server(pages_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(pages_data, tmp_path_factory.mktemp("streamlit-pages") / "server.log") as base:
        yield base


def first_game(data: Path) -> str:
    from projections.queries import connect_read, list_games

    con = connect_read(data)
    try:
        return list_games(con)[0]["game"]
    finally:
        con.close()


@pytest.mark.parametrize("width", (1400, 820))
def test_every_page_fits_the_width_and_has_no_toolbar(server: str, pages_data: Path, width: int) -> None:
    game = first_game(pages_data)
    pages = {"games": "/", "replay": f"/replay?game={game}&seq=12", "dispute": f"/dispute?game={game}&seq=5",
             "standings": "/standings?tournament=Page+Open", "analytics": "/analytics?tournament=Page+Open",
             "pairings": "/public?tournament=Page+Open", "live": "/live?tournament=Page+Open",
             "new_game": "/new_game", "record": f"/record?game={game}"}
    with chromium() as browser:
        context = browser.new_context(viewport={"width": width, "height": 1100})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            for name, path in pages.items():
                opened(page, server + path)
                if name == "standings":
                    page.locator(".dvn-scroller").first.wait_for()  # (a grid is drawn after the page's run)
                assert page.get_by_role("button", name="Deploy").count() == 0
                assert not page.locator("[data-testid='stException']").count(), name
                wide = page.evaluate("() => [...document.querySelectorAll('[data-testid=\"stMainBlockContainer\"] *')]"
                                     ".filter(e => !e.closest('[data-testid=\"stDataFrame\"]')"  # a grid scrolls inside itself
                                     " && e.getBoundingClientRect().width > 0"
                                     " && e.getBoundingClientRect().right > window.innerWidth + 1).length")
                if SCREENSHOTS:
                    page.screenshot(path=str(Path(SCREENSHOTS) / f"page-{name}-{width}.png"), full_page=True)
                assert wide == 0, f"{name}: {wide} elements run off the page at {width} px"
                if name == "standings":  # the standings grid shows every column without scrolling sideways
                    clipped = page.evaluate("() => [...document.querySelectorAll('[data-testid=\"stDataFrame\"]"
                                            " .dvn-scroller')].map(e => e.scrollWidth - e.clientWidth)")
                    assert clipped and max(clipped) <= 1, f"standings grids scroll sideways by {clipped} px"
        finally:
            context.close()
