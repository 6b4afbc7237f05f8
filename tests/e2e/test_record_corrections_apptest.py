"""Corrections on the Record page under AppTest, over a real store: a take-back and a judge's rewind start on
the last event, show the events they would take out struck through and in words before anything is stored,
and store only at the second tap (Confirm) exactly the range shown; changing the seq puts the pending
confirmation away."""

from __future__ import annotations

from pathlib import Path

import pytest
import record_table
from streamlit.testing.v1 import AppTest

from projections.projector import Projector
from service.application import Rollcall

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "dashboard" / "views" / "record.py")
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store holding seed 004's whole first example (seq 1 to 7)."""
    folder = tmp_path / "data"
    lines = [x for x in EX1.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    Rollcall.open(folder).import_record(lines, str(EX1))
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def page() -> AppTest:
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = GAME
    return ran(at)


def ran(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


labels = record_table.offered
tap = record_table.tap_any


def stored(data: Path) -> list[dict]:
    return Rollcall.open(data).stored_lines(GAME)


def struck(at: AppTest, kind: str = "take-back") -> list[str]:
    """The events shown struck through by the take-back (or the rewind), as they read."""
    import re

    return [part for m in at.markdown
            for part in re.findall(rf'<div class="rc-rec-line rc-taken-{kind}"><s>(.*?)</s></div>', m.value)]


def test_take_back_starts_on_the_last_event_and_shows_it_struck_through_in_words(data: Path) -> None:
    at = page()
    assert record_table.seq_field(at, "rc-take-from").value == 7
    assert struck(at) == ["7. The Faceless (Boris) ends its activation"]  # names, not ids


def test_a_single_tap_stores_nothing_and_the_confirmation_stores_exactly_the_range_shown(data: Path) -> None:
    at = page()
    record_table.seq_field(at, "rc-take-from").set_value(5)
    at = ran(at)
    assert [s.split(".")[0] for s in struck(at)] == ["5", "6", "7"]
    at = tap(at, "Take back")
    assert len(stored(data)) == 8  # the header and seven events: nothing stored at the first tap
    assert "Confirm take-back" in labels(at)
    at = tap(at, "Confirm take-back")
    last = stored(data)[-1]
    assert (last["type"], last["from"], last["taken_back"]) == ("TakenBack", 5, [5, 6, 7])
    assert any("took back 3 events from seq 5" in s.value for s in at.success)
    assert record_table.seq_field(at, "rc-take-from").value == 4  # the next take-back starts on the new last event
    assert "Confirm take-back" not in labels(at)


def test_changing_the_seq_puts_a_pending_take_back_away(data: Path) -> None:
    at = tap(page(), "Take back")
    assert "Confirm take-back" in labels(at)
    record_table.seq_field(at, "rc-take-from").set_value(6)
    at = ran(at)
    assert "Confirm take-back" not in labels(at) and "Take back" in labels(at)
    at = tap(at, "Keep them") if "Keep them" in labels(at) else at
    assert len(stored(data)) == 8


def test_a_rewind_starts_before_the_last_event_names_what_it_takes_out_and_asks_to_confirm(data: Path) -> None:
    at = page()
    assert record_table.seq_field(at, "rc-rewind-to").value == 6  # the last event taken out, not the whole game
    assert [s.split(".")[0] for s in struck(at, "rewind")] == ["7"]
    record_table.seq_field(at, "rc-rewind-to").set_value(3)
    at.text_input(key="rc-rewind-judge").input("Jules")
    at.text_input(key="rc-rewind-text").input("replay the shove")
    at = ran(at)
    rewind_struck = struck(at, "rewind")
    assert [s.split(".")[0] for s in rewind_struck] == ["4", "5", "6", "7"]
    assert any("The Faceless (Boris)" in s for s in rewind_struck)
    at = tap(at, "Rewind the game")
    assert len(stored(data)) == 8 and "Confirm rewind" in labels(at)
    at.text_input(key="rc-rewind-text").input("replay the whole shove")  # a change puts it away
    at = ran(at)
    assert "Confirm rewind" not in labels(at)
    at = tap(tap(at, "Rewind the game"), "Confirm rewind")
    last = stored(data)[-1]
    assert (last["type"], last["to"], last["taken_back"], last["text"]) == (
        "GameRewound", 3, [4, 5, 6, 7], "replay the whole shove")
