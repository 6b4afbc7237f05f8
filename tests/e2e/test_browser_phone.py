"""The spectators' pages on a phone (390 px), the Live page's cards, and a quiet server, in a real browser.

* At 390 px the Live, Replay, Standings and Pairings pages keep every column of every table on the screen:
  each cell's right edge is within the viewport, and a grid (if one shows) does not scroll sideways; the
  Replay's caption shows its whole text at every event stepped through.
* The Live page's cards of The 9th Age and Claustrophobia are sized like the Tornscape board's: no die or
  token larger than a tap target, nothing inside a card past its edges, no card much taller than a board's.
* A normal run prints no Streamlit warning: every page opened, with and without its deep-link parameters,
  leaves no "Warning" nor "widget with key" line in the server's log.

Screenshots of every page at 1,400, 820 and 390 px go to test-output/screenshots (or ROLLCALL_SCREENSHOTS)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from streamlit_server import SCREENSHOTS, chromium, streamlit_server

pytestmark = pytest.mark.browser
TOURNAMENTS = (("tornscape", "Phone Open", 6, 2), ("t9a", "Phone Magic Cup", 4, 2),
               ("claustrophobia", "Phone Descent", 4, 2))
PAIRED = "Phone Club"  # a tournament paired by Rollcall: the Pairings page has a round to show
WIDTHS = (1400, 820, 390)
PHONE = 390
TOKEN_MOST = 24  # px: a die or a token of a Live card, at most
CARD_TALLER = 1.25  # a Live card at most this many times as tall as a board's card


@pytest.fixture(scope="module")
def phone_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from service.application import Rollcall
    from projections.projector import Projector
    from simulation.tournaments import simulate_tournament

    data = tmp_path_factory.mktemp("phone") / "data"
    store = Rollcall.open(data)
    for system, name, players, rounds in TOURNAMENTS:
        store.create_tournament(name, system)
        for game in simulate_tournament(system, name, players, rounds, 7, turns=3,
                                        on_bye=lambda r, p, f, name=name: store.award_bye(name, r, p, f)):
            store.import_record(game.lines, game.game)
    store.create_tournament(PAIRED, "tornscape")
    for player, faction in (("Anna Lindqvist-Hernández", "engeln"), ("Boris Berg", "castilla"),
                            ("Chiara Costa", "faceless"), ("Dmitri Dietz", "shadowstep")):
        store.register_player(PAIRED, player, faction)
    store.pair_round(PAIRED, 1)
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(scope="module")
def server(phone_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    log = tmp_path_factory.mktemp("streamlit-phone") / "server.log"
    with streamlit_server(phone_data, log) as base:
        yield base, log


def games_of(data: Path, tournament: str) -> list[str]:
    from projections.queries import connect_read, list_games

    con = connect_read(data)
    try:
        return [g["game"] for g in list_games(con) if g.get("tournament") == tournament]
    finally:
        con.close()


RUN_OVER = """() => { const w = document.querySelector('[data-testid="stStatusWidget"]');
  return !w || !/stop|running|connecting/i.test(w.innerText); }"""


# what shows once a page has drawn its content
READY = {"/live": ".rc-live-card", "/replay": ".rc-replay", "/standings": "table.rc-compact",
         "/public": "table.rc-compact"}


def settle(page, path: str, base: str) -> None:
    """Open ``path`` and wait until the page has run (and drawn its content, for a page of READY)."""
    page.goto(base + path)
    page.locator("[data-testid='stMainBlockContainer']").wait_for()
    for _ in range(2):  # the script runs once the page has connected: wait for it to start, then to end
        page.wait_for_timeout(1000)
        page.wait_for_function(RUN_OVER, polling=250)
    ready = READY.get(path.split("?")[0]) if "?" in path else None
    if ready:
        page.locator(ready).first.wait_for(state="attached")
    page.wait_for_timeout(1000)
    assert not page.locator("[data-testid='stException']").count(), path


def shoot(page, name: str, width: int) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"phone-{name}-{width}.png"), full_page=True)


def spectator_pages(data: Path) -> dict[str, str]:
    game = games_of(data, "Phone Open")[-1]
    return {"live-tornscape": "/live?tournament=Phone+Open", "live-t9a": "/live?tournament=Phone+Magic+Cup",
            "live-claustrophobia": "/live?tournament=Phone+Descent", "replay": f"/replay?game={game}&seq=5",
            "standings": "/standings?tournament=Phone+Open", "pairings": f"/public?tournament={quote_plus(PAIRED)}",
            "pairings-open": "/public?tournament=Phone+Open"}


# what a person sees of the tables: each cell's right edge (the Replay's event list is in its component's
# shadow root), and how far each visible grid scrolls sideways
CELLS_OFF_SCREEN = """() => { const found = [];
  const walk = root => { found.push(...root.querySelectorAll('th, td, .rc-list-head > span, .rc-ev > span'));
                         root.querySelectorAll('*').forEach(e => e.shadowRoot && walk(e.shadowRoot)); };
  walk(document.querySelector('[data-testid="stMainBlockContainer"]'));
  return found.filter(e => e.getClientRects().length && e.getBoundingClientRect().width > 0)
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.innerText.slice(0, 30)); }"""
TABLE_SHOWN = """() => [...document.querySelectorAll('td, [data-testid="stDataFrame"]')]
  .some(e => e.getClientRects().length)"""
GRIDS_SCROLLING = """() => [...document.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller')]
  .filter(e => e.getClientRects().length && e.getBoundingClientRect().width > 0)
  .map(e => e.scrollWidth - e.clientWidth).filter(d => d > 1)"""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_spectators_pages_keep_every_column_on_the_screen(server, phone_data: Path, width: int) -> None:
    base, _ = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": width, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            for name, path in spectator_pages(phone_data).items():
                settle(page, path, base)
                if name.startswith("pairings") or name == "standings":
                    try:  # a grid draws after the run that sent it: wait for it to show
                        page.wait_for_function(TABLE_SHOWN, polling=250, timeout=30_000)
                    except PlaywrightTimeout:
                        pytest.fail(f"{name}: no table shows at {width} px")
                shoot(page, name, width)
                assert page.evaluate(CELLS_OFF_SCREEN) == [], f"{name}: cells off the screen at {width} px"
                assert page.evaluate(GRIDS_SCROLLING) == [], f"{name}: a grid scrolls sideways at {width} px"
        finally:
            context.close()


def test_the_replay_caption_shows_its_whole_text_on_a_phone(server, phone_data: Path) -> None:
    base, _ = server
    game = games_of(phone_data, "Phone Open")[-1]
    with chromium() as browser:
        context = browser.new_context(viewport={"width": PHONE, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            settle(page, f"/replay?game={game}&seq=1", base)
            caption = page.locator(".rc-caption")
            clipped = []
            for _ in range(40):  # step through the first events, each caption in turn
                seq = page.locator(".rc-replay").get_attribute("data-seq")
                box = caption.evaluate("e => [e.scrollHeight - e.clientHeight, e.getBoundingClientRect().right]")
                if box[0] > 1 or box[1] > PHONE + 1:
                    clipped.append((seq, caption.inner_text()))
                page.locator("button.rc-next").click()
                page.wait_for_selector(f".rc-replay:not([data-seq='{seq}'])")
            shoot(page, "replay-caption", PHONE)
            assert clipped == []
        finally:
            context.close()


CARD_SIZES = """() => [...document.querySelectorAll('.rc-live-card')].map(card => {
  const box = card.getBoundingClientRect();
  const inside = [...card.querySelectorAll('*')].filter(e => e.getClientRects().length);
  const small = [...card.querySelectorAll('.rc-live-pic svg')].filter(s => !s.classList.contains('rc-board')
      && !s.closest('svg.rc-board'));
  return {game: card.dataset.game, height: box.height, board: !!card.querySelector('svg.rc-board'),
          biggest: Math.max(0, ...small.map(s => Math.max(s.getBoundingClientRect().width,
                                                          s.getBoundingClientRect().height))),
          outside: inside.filter(e => { const r = e.getBoundingClientRect();
              return r.width > 0 && (r.bottom > box.bottom + 1 || r.right > box.right + 1); }).length,
          hidden: [...card.querySelectorAll('.rc-live-pic')].map(p => p.scrollHeight - p.clientHeight)
                  .filter(d => d > 1).length};
})"""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_live_cards_of_every_system_are_sized_like_a_board_and_cut_nothing(server, width: int) -> None:
    base, _ = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": width, "height": 1200})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            cards = {}
            for tournament in ("Phone Open", "Phone Magic Cup", "Phone Descent"):
                settle(page, f"/live?tournament={quote_plus(tournament)}&round=2", base)
                cards[tournament] = page.evaluate(CARD_SIZES)
                assert cards[tournament], tournament
            board = max(c["height"] for c in cards["Phone Open"])
            assert all(c["board"] for c in cards["Phone Open"])
            for tournament in ("Phone Magic Cup", "Phone Descent"):
                for card in cards[tournament]:
                    assert card["biggest"] <= TOKEN_MOST, f"{card['game']}: a {card['biggest']:.0f} px die or token"
                    assert card["outside"] == 0 and card["hidden"] == 0, f"{card['game']}: cut at {width} px"
                    assert card["height"] <= CARD_TALLER * board, (
                        f"{card['game']}: {card['height']:.0f} px tall, a board's card {board:.0f} px")
        finally:
            context.close()


def every_page(data: Path) -> list[str]:
    """Every page, bare and with its deep-link parameters (a game that is not the first, an event)."""
    game = games_of(data, "Phone Magic Cup")[-1]
    with_links = [f"/replay?game={game}&seq=5", f"/replay?game={game}&seq=5&ruled=true",
                  f"/dispute?game={game}&seq=5", f"/record?game={game}", "/live?tournament=Phone+Magic+Cup&round=1",
                  "/standings?tournament=Phone+Descent", "/public?tournament=Phone+Descent&round=1",
                  "/analytics?tournament=Phone+Open", "/new_game"]
    bare = ["/", "/replay", "/dispute", "/record", "/live", "/standings", "/public", "/analytics"]
    return bare + with_links


def test_a_normal_run_prints_no_streamlit_warning(server, phone_data: Path) -> None:
    base, log = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            for path in every_page(phone_data):
                settle(page, path, base)
        finally:
            context.close()
    noisy = [line for line in log.read_text(errors="replace").splitlines()
             if "Warning" in line or "widget with key" in line]
    assert noisy == [], "\n".join(noisy)
