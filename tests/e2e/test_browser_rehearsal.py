"""A whole event rehearsed in a real browser (Debian's chromium), as an organiser runs it.

Before the day the store gets an organiser's, a scorekeeper's and a judge's key and the tournament a broadcast
delay; round 1 was played on paper and comes in as records. On the day the organiser, signed in in the sidebar,
registers the players' list and pairs round 2 on the Standings page and downloads its table cards. The dashboard
runs as at a venue (``rollcall dashboard --host 0.0.0.0``), and every device but the organiser's desk is a browser
of its own on another host (a network namespace, tests/netns.py) reaching it at this machine's network address:
four tablets (820 px) open their table from the QR code of its printed card (read with zbarimg) and, each signed in
with the scorekeeper's key, record their table: two by taps of play and then the result,
one the result alone, one taking back a mis-tap through Corrections; a judge at a tablet opens a dispute on the
Dispute page and rules on it; a spectator's phone (390 px) follows the round on the Live page and never sees an
event stored within the delay. Round 3 is paired on the Standings page and its results entered with
``rollcall tournament result``; the final standings are on the Standings page and from ``rollcall tournament
standings``. Afterwards every game's export verifies, each game holds exactly the events recorded, and no page
showed a traceback or the command line's advice. A screenshot of every step in test-output/screenshots
(rehearsal-*.png)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from elsewhere import PLAYERS, players_csv, round_records
from streamlit_server import SCREENSHOTS, chromium, new_page
from test_browser_record import Table
from test_browser_tournament import downloaded

from tests.netns import devices, host, network_address
from tests.venue import card_codes, dashboard

pytestmark = pytest.mark.browser

NAME = "Spring Open"
DELAY = 20  # seconds the spectators are kept behind each game
TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
WAIT = 90_000  # ms: the longest a step may take on a busy machine


@dataclass
class Event:
    """The data folder and the keys of the rehearsal, with what each game should hold at the end."""

    data: Path
    organiser: str
    scorekeeper: str
    judge: str
    lines: dict[str, int] = field(default_factory=dict)  # game -> its record's lines (header included)


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    from projections.projector import Projector
    from service.application import Rollcall

    data = tmp_path_factory.mktemp("rehearsal") / "data"
    store = Rollcall.open(data)
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    keys = Event(data, organiser, store.add_key("scorekeeper", "Sam"), store.add_key("judge", "Jules"))
    store.create_tournament(NAME, "t9a", rounds=3)
    store.set_broadcast_delay(NAME, DELAY)
    store.key = keys.scorekeeper
    for lines in round_records(NAME, 1):  # round 1, played on paper
        written = store.import_record(lines)
        keys.lines[written.game] = 2
    store.close()
    Projector(data).run()
    return keys


@pytest.fixture(scope="module")
def server(event: Event, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard as the venue runs it (``rollcall dashboard --host 0.0.0.0``), at this machine's network
    address: where the tablets and the phone, on another host, reach it."""
    address = network_address()
    with dashboard(event.data, "--host", "0.0.0.0", at=address) as served:
        yield f"http://{address}:{served.port}"


# --- what every step checks and keeps --------------------------------------------------------------------

ADVICE = ("--key", "ROLLCALL_KEY")


def clean(page) -> None:
    """The page shows no traceback and none of the command line's advice."""
    assert page.locator("[data-testid='stException']").count() == 0, page.locator(
        "[data-testid='stException']").first.inner_text()
    assert "Traceback" not in page.content()
    said = page.inner_text("body")
    assert not [a for a in ADVICE if a in said], f"the page gives the command line's advice: {said[:600]}"


SHOTS: list[str] = []


def settled(page) -> None:
    page.locator("[data-testid='stMainBlockContainer']").wait_for()
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=WAIT)


def shot(page, step: str, full: bool = True) -> None:
    """A screenshot of a step (numbered in order), once the page is checked."""
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=WAIT)
    clean(page)
    name = f"rehearsal-{len(SHOTS) + 1:02d}-{step}.png"
    page.screenshot(path=str(Path(SCREENSHOTS) / name), full_page=full)
    SHOTS.append(name)


def sign_in(page, key: str) -> None:
    """Sign in with ``key`` in the sidebar, opening it first where a narrow screen folded it away; on a busy
    machine a step that did not take is made again, as a person would."""
    sidebar = page.locator("[data-testid=stSidebar]")
    signed = sidebar.get_by_text("Signed in as")
    settled(page)
    for _ in range(4):
        if signed.count():
            break
        try:
            field_ = sidebar.get_by_label("Your key", exact=True)
            page.wait_for_function("() => window.__rcSidebarFolded", timeout=20_000)  # a tablet's fold decided
            if page.locator('[data-testid=stSidebar][data-collapsed="true"]').count():
                page.locator("[data-testid=stExpandSidebarButton]").click(timeout=20_000)
                page.locator('[data-testid=stSidebar][data-collapsed="false"]').wait_for(state="attached")
            field_.fill(key, timeout=20_000)
            sidebar.get_by_role("button", name="Sign in").click(timeout=20_000)
            signed.wait_for(state="attached", timeout=45_000)
            break
        except Exception:  # noqa: BLE001  the sidebar was folded or drawn again meanwhile: once more
            continue
    else:
        page.screenshot(path=str(Path(SCREENSHOTS) / "rehearsal-sign-in-failed.png"), full_page=True)
        signed.wait_for(state="attached", timeout=5_000)
    settled(page)
    fold(page)


def fold(page) -> None:
    """On a tablet, the sidebar opened to sign in lies over the page: folded away again, as a person does."""
    if page.viewport_size["width"] < 1100 and page.locator('[data-testid=stSidebar][data-collapsed="false"]').count():
        page.locator("[data-testid=stSidebarCollapseButton] button").click()
        page.locator('[data-testid=stSidebar][data-collapsed="true"]').wait_for(state="attached")


class Tablet(Table):
    """A table's scorekeeper at the Record page; notes the moment before each write (for the spectator's
    check of the delay)."""

    def __init__(self, page, game: str, seq: int = 0) -> None:
        super().__init__(page)
        self.game, self.seq = game, seq
        self.began: dict[int, float] = {}  # seq -> the wall time just before the tap that stored it

    def idle(self) -> None:  # as Table's, with the patience a machine running much else needs
        self.page.wait_for_timeout(120)
        self.page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')"
                                    " && !document.querySelector('[data-stale=true]')", timeout=WAIT)

    def recorded(self) -> None:
        self.seq += 1
        try:
            self.page.get_by_text(f"Recorded seq {self.seq}:").wait_for(timeout=WAIT)
        except Exception as exc:  # noqa: BLE001  say what the page shows instead
            said = self.page.locator("[data-testid=stAlert]").all_inner_texts()
            raise AssertionError(f"{self.game}: seq {self.seq} not recorded; the page says {said}") from exc

    def tap(self, label: str, *, records: bool = True, opens_form: bool | None = None) -> None:
        if records:
            self.began[self.seq + 1] = time.time()
        super().tap(label, records=records, opens_form=opens_form)

    def number(self, label: str, value: int) -> None:
        self.idle()
        box = self.page.get_by_label(label, exact=True)
        box.fill(str(value))
        box.press("Enter")
        self.idle()

    def result(self, names: list[str], score: tuple[int, int], reason: str) -> None:
        """The game's result: its form, both scores, the reason, Record."""
        self.tap("End of the game …", records=False)
        for name, points in zip(names, score):
            self.number(f"{name}'s score", points)
        self.choose("Reason", reason)
        self.tap("Record")

    def at_time(self, names: list[str], score: tuple[int, int]) -> None:
        """Time is called: the game ends at time, in whatever phase it stands, with both scores."""
        self.tap("End at time …", records=False)
        for name, points in zip(names, score):
            self.number(f"{name}'s score", points)
        self.tap("Record")


def take_back(tablet: Tablet) -> None:
    """Take back the last event through Corrections: its button, then Confirm (a take-back shows what it takes
    out and is stored at the second tap)."""
    page = tablet.page
    tablet.idle()
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    take = page.get_by_role("button", name=re.compile(r"^Take back(?! from)")).first
    for _attempt in range(3):  # a tap landing while the page's parts rerun is lost: the scorekeeper taps again
        page.get_by_text("Corrections", exact=True).click()
        try:
            take.wait_for(timeout=15_000)
            break
        except PlaywrightTimeout:  # the expander did not open (or closed again)
            tablet.idle()
    tablet.began[tablet.seq + 1] = time.time()
    take.click()
    confirm = page.get_by_role("button", name="Confirm take-back", exact=True)
    confirm.wait_for()
    shot(page, "take-back-confirm")
    done = page.get_by_text(f"Recorded seq {tablet.seq + 1}:")
    for _ in range(3):  # a tap that lands while the page is drawn again starts nothing: tapped again, as a person would
        if confirm.count():
            tablet.idle()
            confirm.click()
        try:
            done.wait_for(timeout=30_000)
            break
        except Exception:  # noqa: BLE001  not stored yet: look again
            continue
    tablet.recorded()


def device(launch, viewport: dict):
    """A page of a device of its own (a browser of its own on the other host, as a tablet or a phone on the
    venue's wifi is: ``launch``, tests.netns.devices); ``put_away(page)`` closes it."""
    own = launch()
    page = own.new_context(viewport=viewport).new_page()
    page.set_default_timeout(WAIT)
    return page


def scanned_cards(desk, cards: str, folder: Path) -> dict[int, str]:
    """Table -> the Record page's address, as a tablet's camera reads it from the QR code of the printed card."""
    return {table: next(c for c in codes if "/record?" in c) for table, codes in card_codes(desk, cards, folder).items()}


def put_away(page) -> None:
    page.context.browser.close()


def tablet(launch, card: str, game: str, key: str, step: str) -> Tablet:
    """A tablet at the Record page of ``game``, opened from the QR code of its table card (``card``): a
    spectator's view first (the delay), then signed in."""
    page = device(launch, TABLET)
    page.goto(card)
    page.get_by_text(f"broadcast with a delay of {DELAY} s", exact=False).first.wait_for()
    sign_in(page, key)
    page.locator(".rc-rec-status").get_by_text("event 0", exact=False).wait_for()
    shot(page, f"{step}-signed-in")
    return Tablet(page, game)


def players_of(data: Path, game: str) -> list[str]:
    from service.application import Rollcall

    return [p["name"] for p in Rollcall.open(data).stored_lines(game)[0]["players"]]


# --- the spectator's phone --------------------------------------------------------------------------------

def shown_seq(phone, game: str) -> int:
    phone.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=WAIT)
    return int(phone.locator(f".rc-live-card[data-game='{game}']").get_attribute("data-seq"))


def never_within_the_delay(phone, tablet_: Tablet) -> int:
    """What the phone shows of the tablet's game now: no event stored less than DELAY s ago (every event
    whose tap began within the delay is after what it shows)."""
    looked = time.time()
    seq = shown_seq(phone, tablet_.game)
    recent = [s for s, began in tablet_.began.items() if began > looked - DELAY]
    assert not recent or seq < min(recent), f"the phone shows seq {seq}, stored within the delay: {recent}"
    return seq


# --- the rehearsal -----------------------------------------------------------------------------------------

def test_an_event_runs_end_to_end_in_the_browser(event: Event, server: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from cli.main import app as cli
    from service.application import Rollcall

    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def rollcall(*args: str, key: str) -> str:
        done = runner.invoke(cli, [*args, "--data", str(event.data), "--key", key])
        assert done.exit_code == 0, done.output
        assert "Traceback" not in done.output
        return done.output

    listed = tmp_path / "players.csv"
    listed.write_bytes(players_csv())
    started = time.monotonic()
    with (chromium() as browser, new_page(browser) as desk, host() as ns,
          devices(ns, via=browser.browser_type) as launch):
        desk.set_default_timeout(WAIT)
        # --- the organiser's desk: register the list, pair round 2, print its cards ---
        desk.goto(f"{server}/standings?tournament=Spring+Open")
        settled(desk)
        desk.get_by_text("Nobody is registered yet").wait_for()
        shot(desk, "standings-round-1-on-paper")
        sign_in(desk, event.organiser)
        desk.locator("input[type=file]").set_input_files(str(listed))
        desk.get_by_text("players.csv").first.wait_for()
        desk.get_by_text("8 new players.").wait_for()  # the list's preview: it registers at the second tap
        shot(desk, "players-list-preview")
        desk.get_by_role("button", name="Register 8 players").click()
        desk.get_by_text("registered 8 players").wait_for()
        desk.get_by_text("8 players registered").wait_for()
        shot(desk, "players-registered")
        desk.wait_for_function("() => document.querySelector('.st-key-pair_round_no input')?.value === '2'",
                               timeout=WAIT)  # the round after the one played on paper
        desk.get_by_role("button", name="Pair round").click()
        desk.get_by_text("round 2 paired: 4 tables").wait_for()
        cards = Path(downloaded(desk, re.compile("Table cards, round 2")).path()).read_text(encoding="utf-8")
        assert re.findall(r'<div class="table">(Table \d)</div>', cards) == [f"Table {t}" for t in (1, 2, 3, 4)]
        assert all(name in cards for name, _, _ in PLAYERS)
        shot(desk, "round-2-paired")
        games = [f"spring-open-r2-t{t}" for t in (1, 2, 3, 4)]
        scanned = scanned_cards(desk, cards, tmp_path)
        assert all(urlsplit(url).netloc == urlsplit(server).netloc for url in scanned.values()), scanned
        assert [parse_qs(urlsplit(scanned[t]).query)["game"] for t in (1, 2, 3, 4)] == [[g] for g in games]
        names = {g: players_of(event.data, g) for g in games}
        desk.goto("about:blank")  # the organiser's desk waits for the round (its page would follow every write)

        # --- the spectator's phone follows round 2 on the Live page ---
        phone = device(launch, PHONE)
        phone.goto(f"{server}/live?tournament=Spring+Open&round=2")
        phone.locator(f".rc-live-card[data-game='{games[0]}']").wait_for(state="attached")
        shot(phone, "phone-live-round-2")

        # --- four tablets, signed in with the scorekeeper's key ---
        a1, b1 = names[games[0]]
        t3 = tablet(launch, scanned[3], games[2], event.scorekeeper, "table-3")
        t3.at_time(names[games[2]], (8, 12))  # the result alone, when time is called
        shot(t3.page, "table-3-result-only")
        put_away(t3.page)

        t4 = tablet(launch, scanned[4], games[3], event.scorekeeper, "table-4")
        t4.tap("Turn 1")
        t4.tap("Turn 2")  # a mis-tap: taken back
        take_back(t4)
        t4.page.get_by_role("button", name="Turn 2", exact=True).wait_for()  # play goes on from before it
        shot(t4.page, "table-4-taken-back")
        t4.result(names[games[3]], (10, 10), "turn limit")
        shot(t4.page, "table-4-result")
        put_away(t4.page)

        t1 = tablet(launch, scanned[1], games[0], event.scorekeeper, "table-1")
        t1.tap("Turn 1")
        t1.tap("Magic phase …", records=False)
        t1.choose("Active", a1)
        t1.tap("Record")
        t1.tap("Points scored …", records=False)
        t1.choose("Player", a1)
        t1.number("Points", 3)
        t1.choose("Reason", "objective")
        t1.tap("Record")
        shot(t1.page, "table-1-played")
        held = never_within_the_delay(phone, t1)
        assert held < t1.seq, "the phone shows table 1 as it is, within the delay"
        phone.get_by_text(f"delay of {DELAY} s", exact=False).first.wait_for(state="attached")
        shot(phone, "phone-live-held")

        t2 = tablet(launch, scanned[2], games[1], event.scorekeeper, "table-2")
        t2.tap("Turn 1")
        t2.tap("Points scored …", records=False)
        t2.choose("Player", names[games[1]][1])
        t2.number("Points", 2)
        t2.choose("Reason", "spell damage")
        t2.tap("Record")
        shot(t2.page, "table-2-played")
        never_within_the_delay(phone, t1)

        # --- a judge at a tablet: a dispute on table 1's points, and the ruling ---
        judge = device(launch, TABLET)
        judge.goto(f"{server}/dispute")
        sign_in(judge, event.judge)
        judge.goto(f"{server}/dispute?game={games[0]}&seq=3&about=3")
        opened = judge.locator("[data-testid='stForm']").filter(has_text="Open a dispute about seq 3")
        opened.wait_for()
        opened.get_by_label("Claim").fill("the objective was not held at the end of the turn")
        opened.get_by_role("button", name="Open dispute").click()
        judge.locator("[data-testid='stAlert']", has_text="DisputeOpened").wait_for()
        shot(judge, "judge-dispute-opened")
        ruling = judge.locator("[data-testid='stForm']").filter(has_text="Record a ruling")
        assert ruling.get_by_label("Judge", exact=True).input_value() == "Jules"
        ruling.get_by_text("void", exact=True).click()
        ruling.get_by_label("Ruling").fill("the objective was contested: no points")
        ruling.get_by_role("button", name="Record ruling").click()
        judge.locator("[data-testid='stAlert']", has_text="RulingMade").wait_for()
        t1.seq += 2  # the dispute and the ruling are table 1's events too
        rewound = judge.get_by_role("button", name=re.compile("^Rewind"))
        if rewound.count():  # a rewind offered beside the ruling
            rewound.first.click()
            confirm = judge.get_by_role("button", name=re.compile("^Confirm"))
            if confirm.count():
                confirm.first.click()
            t1.seq += 1
        shot(judge, "judge-ruled")
        put_away(judge)

        # --- tables 1 and 2 end their games ---
        t1.page.locator(".rc-rec-status").get_by_text(f"event {t1.seq}", exact=False).wait_for()  # it moved on
        t1.result([a1, b1], (15, 5), "scenario end")
        t2.result(names[games[1]], (6, 14), "concession")
        shot(t1.page, "table-1-result")
        shot(t2.page, "table-2-result")
        never_within_the_delay(phone, t1)
        for t in (t1, t2, t3, t4):
            event.lines[t.game] = t.seq + 1
        put_away(t1.page)
        put_away(t2.page)

        # --- the phone catches up once the delay has passed, never before ---
        phone.wait_for_function(
            f"() => document.querySelector(\".rc-live-card[data-game='{games[0]}']\")?.dataset.seq === '{t1.seq}'",
            timeout=(DELAY + 30) * 1000)
        assert time.time() - t1.began[t1.seq] >= DELAY - 1, "table 1's result shown within the delay"
        shot(phone, "phone-live-caught-up")
        put_away(phone)

        # --- round 3: paired on the Standings page, results from the command line ---
        desk.goto(f"{server}/standings?tournament=Spring+Open")
        settled(desk)
        desk.wait_for_function("() => document.querySelector('.st-key-pair_round_no input')?.value === '3'",
                               timeout=WAIT)
        desk.get_by_role("button", name="Pair round").click()
        desk.get_by_text("round 3 paired: 4 tables").wait_for()
        shot(desk, "round-3-paired")
        printed = []
        for table_no in (1, 2, 3, 4):
            game = f"spring-open-r3-t{table_no}"
            a, b = players_of(event.data, game)
            printed.append(rollcall("tournament", "result", NAME, "--round", "3", "--table", str(table_no),
                                    "--score", f"{a}={10 + table_no}", "--score", f"{b}={10 - table_no}",
                                    key=event.scorekeeper))
            assert printed[-1].strip() == f"round 3, table {table_no}: {a} {10 + table_no} – {10 - table_no} {b}; {a} wins"
            event.lines[game] = 2

        # --- the final standings ---
        desk.reload()
        settled(desk)
        desk.get_by_text("3 rounds played", exact=False).first.wait_for()
        desk.get_by_role("tab", name="Round 3").click()
        shot(desk, "final-standings")
        desk.set_viewport_size({"width": 820, "height": 1180})
        shot(desk, "final-standings-820")
    standings = json.loads(rollcall("tournament", "standings", NAME, "--json", key=event.organiser))
    table = rollcall("tournament", "standings", NAME, key=event.organiser)
    print(table)
    print(f"the rehearsal took {time.monotonic() - started:.0f} s; screenshots: {', '.join(SHOTS)}")

    assert sorted(r["player"] for r in standings) == sorted(p for p, _, _ in PLAYERS)
    assert all(r["games"] == 3 for r in standings), standings
    assert sum(r["wins"] for r in standings) == 4 + 3 + 4 and sum(r["draws"] for r in standings) == 2
    assert all(r["player"] in table for r in standings)

    store = Rollcall.open(event.data)
    tournament_games = sorted(h["game"] for h in store.headers() if h.get("tournament") == NAME)
    assert tournament_games == sorted(event.lines), "no game lost, none added"
    for game, lines in event.lines.items():
        assert store.verify(game).ok, (game, store.verify(game).damage)
        exported = list(store.export_lines(game))
        assert len(exported) == lines, (game, [json.loads(x)["type"] if "type" in x else "header" for x in exported])
        seqs = [json.loads(x).get("seq") for x in exported[1:]]
        assert seqs == list(range(1, lines)), (game, seqs)
