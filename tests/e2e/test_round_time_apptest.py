"""A round's time on the pages (streamlit.testing.v1.AppTest, an injected time source): the organiser starts the
last paired round's time on the Standings page, with the format's round length offered; Standings and the Record
page of a table of that round count it down from what the server says now (the browser counts on: no run per
second), and say "time is called" once it ran out; the spectators' snapshots (Live, the overlay) carry it; a
player's sign-in cannot start it (P04); `rollcall tournament time` starts it from the command line."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import record_table
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from cli.main import app as cli
from dashboard import round_time_ui
from domain.access import AccessDenied
from domain.formats import parse
from projections import spectators
from projections.projector import Projector
from projections.queries import connect_read
from service.application import Rollcall

ROOT = Path(__file__).resolve().parents[2]
STANDINGS = str(ROOT / "dashboard" / "views" / "standings.py")
RECORD = str(ROOT / "dashboard" / "views" / "record.py")
NAME = "Timed Open"
T0 = datetime(2026, 12, 7, 10, 0, tzinfo=timezone.utc)
FORMAT = {"format": "timed", "clock": {"seconds": 9000}, "round_seconds": 2 * 3600, "round_end": "phase"}


class Injected:
    def __init__(self) -> None:
        self.moment = T0

    def __call__(self) -> datetime:
        return self.moment


@pytest.fixture
def time(monkeypatch: pytest.MonkeyPatch) -> Injected:
    source = Injected()
    monkeypatch.setattr(round_time_ui, "clock_source", source)
    return source


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    store.create_tournament(NAME, "t9a", format=parse(FORMAT, "timed"))
    for player in ("Anna", "Boris"):
        store.register_player(NAME, player)
    store.pair_round(NAME, 1, seed=1)
    store.close()
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def page(path: str, **params) -> AppTest:
    at = AppTest.from_file(path, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def game_of(data: Path) -> str:
    store = Rollcall.open(data)
    try:
        return store.tournament(NAME).rounds[1]["tables"][0]["game"]
    finally:
        store.close()


def test_the_organiser_starts_the_rounds_time_with_the_formats_length_and_the_pages_count_it_down(data, time) -> None:
    at = page(STANDINGS, tournament=NAME)
    assert record_table.sent(at, "standings-round-time") is None  # not started yet
    minutes = at.number_input(key="round_time_minutes")
    assert minutes.value == 120  # the format's round time
    minutes.set_value(90)
    next(b for b in at.button if b.label == "Start round 1's time").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Round 1's time started: 90 min." in s.value for s in at.success)
    Projector(data).run()

    time.moment = T0 + timedelta(minutes=30)
    at = page(STANDINGS, tournament=NAME)
    sent = record_table.sent(at, "standings-round-time")
    assert (sent["ends"], sent["now"], sent["words"]) == ("2026-12-07T11:30:00Z", "2026-12-07T10:30:00Z",
                                                        "Round 1: 1:00:00 left")
    assert "Start round 1's time" not in [b.label for b in at.button]
    record = page(RECORD, game=game_of(data))
    assert record_table.sent(record, "rc-round-time")["words"] == "Round 1: 1:00:00 left"

    time.moment = T0 + timedelta(minutes=95)
    record = page(RECORD, game=game_of(data))
    sent = record_table.sent(record, "rc-round-time")
    assert sent["called"] and sent["words"] == "Round 1: time is called"
    assert "End at time …" in record_table.labels(record)
    assert any("finish the current phase, then end the game at time" in c.value for c in record.caption)


def test_the_spectators_snapshots_of_the_round_and_its_tables_carry_the_rounds_time(data) -> None:
    store = Rollcall.open(data)
    store.start_round(NAME, "2026-12-07T10:00:00Z", seconds=5400)
    store.close()
    Projector(data).run()
    con = connect_read(data)
    try:
        made = spectators.Spectators(languages=("en",)).look(con)
        round_snap = json.loads(spectators.made_now(con, "round/en/timed-open/1"))
        table_snap = json.loads(spectators.made_now(con, f"table/en/{game_of(data)}"))
    finally:
        con.close()
    for snap in (round_snap, table_snap):
        assert snap["round_time"] | {"called_words": None} == {
            "round": 1, "started": "2026-12-07T10:00:00Z", "ends": "2026-12-07T11:30:00Z", "seconds": 5400,
            "left_words": "Round 1: {left} left", "called_words": None}
    assert any(key.startswith("round/en/timed-open/1") and b'"round_time":{"round":1' in body for key, body in made)


def test_a_players_sign_in_cannot_start_the_rounds_time(tmp_path: Path) -> None:
    folder = tmp_path / "keyed"
    store = Rollcall.open(folder)
    organiser = store.add_key("organiser", "Olga")
    store.close()
    store = Rollcall.open(folder, key=organiser)
    store.create_tournament(NAME, "t9a")
    for player in ("Anna", "Boris"):
        store.register_player(NAME, player)
    store.pair_round(NAME, 1, seed=1)
    store.check_in(NAME, "Anna")
    code = store.issue_player_signin(NAME, "Anna")
    store.close()
    player = Rollcall.open(folder, key=code)
    with pytest.raises(AccessDenied, match="P04"):
        player.start_round(NAME, "2026-12-07T10:00:00Z", seconds=600)
    assert Rollcall.open(folder).tournament(NAME).round_time() is None


def test_the_command_line_starts_the_last_paired_rounds_time(data) -> None:
    done = CliRunner().invoke(cli, ["tournament", "time", NAME, "--minutes", "150", "--data", str(data)])
    assert done.exit_code == 0, done.output
    assert "round 1's time started at" in done.output and "150 min" in done.output
    again = CliRunner().invoke(cli, ["tournament", "time", NAME, "--data", str(data)])
    assert again.exit_code == 1 and "C09 round 1's time was started already" in again.output


def test_the_new_game_page_offers_the_clock_the_tournaments_format_sets(data) -> None:
    at = page(str(ROOT / "dashboard" / "views" / "new_game.py"))
    at.selectbox(key=[s.key for s in at.selectbox if s.label == "Tournament"][0]).set_value(NAME).run()
    assert not at.exception, [e.value for e in at.exception]
    assert next(t for t in at.toggle if t.label == "Chess clock").value is True
    assert next(n for n in at.number_input if n.label == "Each player's time (minutes)").value == 150
