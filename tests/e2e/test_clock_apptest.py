"""The game clock on the Record page under AppTest, over a real store and an injected clock (no test waits for
time to pass): both players' time sent to the page's component, a tap starts and passes the clock with the
instant of the tap, a tap the clock no longer offers stores nothing, a judge adjusts with a reason; the New game
page sets each player's time in the header."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import record_table
from streamlit.testing.v1 import AppTest

from dashboard import clock_ui
from projections.projector import Projector
from service.application import Rollcall

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "dashboard" / "views" / "record.py")
NEW_GAME = str(ROOT / "dashboard" / "views" / "new_game.py")
GAME = "clocked-table"
T0 = datetime(2026, 12, 7, 10, 0, tzinfo=timezone.utc)
HEADER = {"rollcall": 1, "game": GAME, "system": "t9a", "clock": {"seconds": 600},
          "players": [{"id": "p1", "name": "Anna", "faction": "orcs"}, {"id": "p2", "name": "Boris"}], "setup": {}}


class Injected:
    """The server's time source, moved on by the test."""

    def __init__(self) -> None:
        self.moment = T0

    def __call__(self) -> datetime:
        return self.moment

    def later(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


@pytest.fixture
def time(monkeypatch: pytest.MonkeyPatch) -> Injected:
    source = Injected()
    monkeypatch.setattr(clock_ui, "clock_source", source)
    return source


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    Rollcall.open(folder).import_record([json.dumps(HEADER)], "clocked")
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def record_page() -> AppTest:
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = GAME
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(at: AppTest) -> dict:
    sent = record_table.sent(at, clock_ui.MOUNT)
    assert sent is not None, "no clock on the page"
    return sent


def tap(at: AppTest, action: str) -> AppTest:
    return record_table.send(at, clock_ui.MOUNT, {"action": action, "seq": shown(at)["seq"]})


def stored(data: Path) -> list[dict]:
    """The game's events as stored (the header left out)."""
    return Rollcall.open(data).stored_lines(GAME)[1:]


def test_the_record_page_shows_both_players_time_and_starts_the_clock_for_the_player_tapped(data, time) -> None:
    at = record_page()
    sent = shown(at)
    assert [(f["name"], f["remaining"], f["shown"]) for f in sent["faces"]] == [("Anna", 600_000, "10:00"),
                                                                            ("Boris", 600_000, "10:00")]
    assert set(sent["taps"]) == {"start:p1", "start:p2"}
    tap(at, "start:p1")
    assert stored(data)[-1] | {"hash": None} == {"type": "ClockStarted", "player": "p1", "at": "2026-12-07T10:00:00Z",
                                                 "seq": 1, "hash": None}
    assert shown(at)["faces"][0]["running"] and set(shown(at)["taps"]) == {"pass", "pause"}


def test_one_tap_passes_the_clock_with_the_time_of_the_tap(data, time) -> None:
    at = record_page()
    tap(at, "start:p1")
    time.later(90.25)
    tap(at, "pass")
    last = stored(data)[-1]
    assert (last["type"], last["player"], last["at"]) == ("ClockPassed", "p1", "2026-12-07T10:01:30.250Z")
    faces = shown(at)["faces"]
    assert [(f["remaining"], f["running"]) for f in faces] == [(509_750, False), (600_000, True)]
    assert shown(at)["taps"]["pass"] == "Boris: pass the clock"


def test_a_tap_the_clock_no_longer_offers_stores_nothing(data, time) -> None:
    at = record_page()
    tap(at, "start:p1")
    tap(at, "resume")  # the clock runs: nothing to resume
    assert [line["type"] for line in stored(data)] == ["ClockStarted"]
    assert any("clock moved on" in w.value for w in at.warning)


def test_a_paused_clock_offers_its_resume_and_spends_no_time(data, time) -> None:
    at = record_page()
    tap(at, "start:p2")
    time.later(30)
    tap(at, "pause")
    time.later(300)
    at.run()
    assert [f["remaining"] for f in shown(at)["faces"]] == [600_000, 570_000]
    assert set(shown(at)["taps"]) == {"resume"}


def test_a_flag_falls_by_itself_at_the_instant_the_time_ran_out_and_then_only_the_end_at_time(data, time) -> None:
    at = record_page()
    tap(at, "start:p1")
    time.later(599)
    at.run()
    assert "flag:p1" not in shown(at)["taps"] and stored(data)[-1]["type"] == "ClockStarted"
    time.later(75.5)  # the page next runs well after the time ran out (nobody looked)
    at.run()
    last = stored(data)[-1]
    assert (last["type"], last["player"], last["at"]) == ("FlagFell", "p1", "2026-12-07T10:10:00Z")
    assert record_table.labels(at) == ["End at time …"]
    assert shown(at)["faces"][0]["flagged"] and "Flag fell: Anna" in shown(at)["status"]


def test_the_flag_the_phone_saw_fall_is_recorded_once_and_the_other_phones_word_is_no_news(data, time) -> None:
    first, second = record_page(), record_page()
    tap(first, "start:p2")
    time.later(600)
    second.run()  # the second phone's page ran as the time ran out: it records the flag
    record_table.send(first, clock_ui.MOUNT, {"action": "flag:p2", "seq": shown(first)["seq"], "auto": True})
    assert [line["type"] for line in stored(data)] == ["ClockStarted", "FlagFell"]
    assert not any("clock moved on" in w.value for w in first.warning)
    assert not first.error


def test_a_judge_adjusts_a_players_time_with_a_reason(data, time) -> None:
    at = record_page()
    tap(at, "start:p1")
    time.later(10)
    at.run()
    at.selectbox(key="rc-clock-adjust-player").set_value("p2")
    at.number_input(key="rc-clock-adjust-seconds").set_value(120)
    at.text_input(key="rc-clock-adjust-reason").set_value("a rules question")
    next(b for b in at.button if b.label == "Adjust the clock").click()
    at.run()
    lines = stored(data)
    assert [(l["type"], l.get("seconds"), l.get("reason")) for l in lines[1:]] == [
        ("ClockPaused", None, None), ("ClockAdjusted", 120, "a rules question")]
    assert [f["remaining"] for f in shown(at)["faces"]] == [590_000, 720_000]


def test_an_adjustment_below_zero_is_refused_naming_c06_and_nothing_stored(data, time) -> None:
    at = record_page()
    tap(at, "start:p1")
    at.number_input(key="rc-clock-adjust-seconds").set_value(-700)
    at.text_input(key="rc-clock-adjust-reason").set_value("slow play")
    at.checkbox(key="rc-clock-adjust-pause").uncheck()
    next(b for b in at.button if b.label == "Adjust the clock").click()
    at.run()
    assert [line["type"] for line in stored(data)] == ["ClockStarted"]
    assert any("C06" in e.value for e in at.error)


def test_the_new_game_page_sets_each_players_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "data"
    Rollcall.open(folder)
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    at = AppTest.from_file(NEW_GAME, default_timeout=30)
    at.run()
    names = [w for w in at.text_input if w.label == "Name"]
    names[0].set_value("Anna")
    names[1].set_value("Boris")
    next(t for t in at.toggle if t.label == "Chess clock").set_value(True)
    at.run()
    next(n for n in at.number_input if n.label == "Each player's time (minutes)").set_value(90)
    at.run()
    next(b for b in at.button if b.label == "Start the game").click()
    at.run()
    headers = list(Rollcall.open(folder).headers())
    assert [h["clock"] for h in headers] == [{"seconds": 5400, "flag": "time"}]


PLAYED = [
    {"type": "ClockStarted", "at": "2026-12-07T10:00:00Z", "player": "p1"},
    {"type": "TurnStarted", "turn": 1, "at": "2026-12-07T10:00:00Z"},
    {"type": "ClockPassed", "at": "2026-12-07T10:12:00Z", "player": "p1"},
    {"type": "ClockPassed", "at": "2026-12-07T10:40:00Z", "player": "p2"},
    {"type": "TurnStarted", "turn": 2, "at": "2026-12-07T10:40:00Z"},
    {"type": "ClockPaused", "at": "2026-12-07T10:45:00Z", "judge": "Jo"},
    {"type": "ClockAdjusted", "at": "2026-12-07T10:46:00Z", "player": "p2", "seconds": -120, "judge": "Jo",
     "reason": "slow play"},
]


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A projected store holding a clocked game played two turns, with a judge's adjustment for slow play."""
    folder = tmp_path / "data"
    header = {**HEADER, "clock": {"seconds": 9000}}
    Rollcall.open(folder).import_record([json.dumps(header)] + [json.dumps(e) for e in PLAYED], "played")
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def test_the_analytics_page_shows_time_on_the_clock_per_turn_by_player_and_faction(played) -> None:
    at = AppTest.from_file(str(ROOT / "dashboard" / "views" / "analytics.py"), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Time on the game clock" in [h.value for h in at.subheader]
    frame = next(d.value for d in at.dataframe if "Anna" in d.value.to_string())
    assert sorted(float(x) for x in frame.iloc[:, -1]) == [300.0, 720.0, 1680.0]  # Anna 12 min, Boris 28 min, Anna 5 min


def test_the_dispute_page_shows_the_clock_around_the_disputed_moment(played) -> None:
    at = AppTest.from_file(str(ROOT / "dashboard" / "views" / "dispute.py"), default_timeout=60)
    at.query_params["game"] = GAME
    at.query_params["seq"] = "4"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "The clock around these events" in [h.value for h in at.subheader]
    frame = next(d.value for d in at.dataframe if "Boris" in d.value.columns)
    assert frame["Boris"].tolist() == ["2:30:00", "2:30:00", "2:02:00", "2:02:00", "2:00:00"]
    assert frame["Anna"].tolist()[-1] == "2:13:00"
    assert frame["time used"].tolist()[:4] == ["", "12:00", "28:00", "5:00"]


def test_the_replay_shows_both_clocks_at_every_event(played) -> None:
    from replay_payload import component_data

    at = AppTest.from_file(str(ROOT / "dashboard" / "views" / "replay.py"), default_timeout=60)
    at.query_params["game"] = GAME
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    _head, game = component_data(at)
    captions = game["captions"]
    assert "rc-cap-clock" not in captions[0]  # the setup: the clock not started yet
    assert "▶ Anna <b>2:30:00</b>" in captions[1] and "Boris <b>2:30:00</b>" in captions[1]
    assert "Anna <b>2:18:00</b>" in captions[3] and "▶ Boris <b>2:30:00</b>" in captions[3]
    assert "Boris <b>2:00:00</b>" in captions[7]
