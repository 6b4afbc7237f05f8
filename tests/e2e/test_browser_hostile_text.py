"""What people typed stays text in a real browser: every page of the dashboard over a store whose names, notes,
claims and rulings hold Markdown images and links, HTML tags and scripts asks nothing of any host but the
dashboard's own (no image, no script, no font from elsewhere), shows no link to another site, and opens no
dialog — for a spectator, then for a judge signed in (who sees the Record page's buttons and forms)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from hostile import GAME, NOTE, PLAYERS, TOURNAMENT, Hostile, hostile_data
from streamlit_server import SCREENSHOTS, chromium, opened, streamlit_server

pytestmark = pytest.mark.browser
PAGES = {"games": "/", "replay": f"/replay?game={GAME}&seq=41", "replay-ruling": f"/replay?game={GAME}&seq=43",
         "dispute": f"/dispute?game={GAME}&seq=5", "live": f"/live?{urlencode({'tournament': TOURNAMENT})}",
         "analytics": f"/analytics?{urlencode({'tournament': TOURNAMENT})}",
         "standings": f"/standings?{urlencode({'tournament': TOURNAMENT})}",
         "pairings": f"/public?{urlencode({'tournament': TOURNAMENT})}", "record": f"/record?game={GAME}",
         "new_game": f"/new_game?{urlencode({'tournament': TOURNAMENT})}"}
LOCAL = {"localhost", "127.0.0.1"}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    return hostile_data(tmp_path_factory.mktemp("hostile-browser") / "data")


@pytest.fixture(scope="module")
def server(hostile: Hostile, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(hostile.data, tmp_path_factory.mktemp("streamlit-hostile") / "server.log") as base:
        yield base


def shown(text: str) -> str:
    """Text as read (without the invisible word joiner that keeps a web address from becoming a link)."""
    return text.replace("\u2060", "")


def test_no_page_asks_another_host_shows_its_link_or_runs_its_script(server: str, hostile: Hostile) -> None:
    elsewhere: list[str] = []
    dialogs: list[str] = []
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1100})

        def route(request_route) -> None:
            host = urlsplit(request_route.request.url).hostname
            if request_route.request.url.startswith(("http:", "https:", "ws:", "wss:")) and host not in LOCAL:
                elsewhere.append(request_route.request.url)
                request_route.abort()
            else:
                request_route.continue_()

        context.route("**/*", route)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        try:
            for who in ("spectator", "judge"):
                if who == "judge":
                    opened(page, server + "/")
                    bar = page.locator("[data-testid='stSidebar']")
                    bar.get_by_label("Your key", exact=True).fill(hostile.key)
                    bar.get_by_role("button", name="Sign in").click()
                    bar.get_by_text("Signed in as").wait_for(timeout=20_000)
                for name, path in PAGES.items():
                    opened(page, server + path)
                    assert not page.locator("[data-testid='stException']").count(), name
                    links = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)"
                                          ".concat([...document.querySelectorAll('iframe')].flatMap(f => {"
                                          " try { return [...f.contentDocument.querySelectorAll('a[href]')]"
                                          ".map(a => a.href) } catch (e) { return [] } }))")
                    foreign = [a for a in links if a.startswith("http") and urlsplit(a).hostname not in LOCAL
                               and "streamlit.io" not in a]  # (Streamlit's own menu links to its docs)
                    where = page.evaluate("() => [...document.querySelectorAll('a[href^=\"http://evil\"]')].map(a => (a.closest('[data-testid]')||a).outerHTML.slice(0, 600))")
                    assert not foreign, (who, name, foreign, where)
                    assert not page.locator('a[href^="http://evil"]').count(), (who, name)
                    if SCREENSHOTS:
                        page.screenshot(path=str(Path(SCREENSHOTS) / f"hostile-{who}-{name}.png"), full_page=True)
                    if name == "pairings":
                        assert TOURNAMENT in shown(page.locator("h1").first.inner_text()), name
                    if name == "live":
                        assert PLAYERS[0] in shown(page.locator(".rc-live-card").first.inner_text()), name
                    if name == "replay":
                        assert NOTE in shown(page.locator("[data-testid='stMainBlockContainer']").inner_text()), name
        finally:
            context.close()
    assert not elsewhere, elsewhere
    assert not dialogs, dialogs
