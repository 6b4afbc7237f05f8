"""A write carries the seq it was offered at: sent again after its answer was lost, it is recognised as the same
events already stored right after that seq, and nothing is stored twice; a different write at a stale seq is
still told the game moved on (real SQLite store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.errors import GameMovedOn
from service.application import Rollcall
from test_digital_dice import digital_header

GAMES = Path(__file__).resolve().parents[1] / "games"
EX1 = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"


def lines() -> list[str]:
    return [x for x in EX1.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


def given(line: str, at: str) -> dict:
    """An event of the record as a page gives it: without seq and hash, with the time at the table."""
    event = {k: v for k, v in json.loads(line).items() if k not in ("seq", "hash")}
    return {**event, "at": at}


@pytest.fixture
def store(tmp_data: Path) -> Rollcall:
    app = Rollcall.open(tmp_data)
    app.import_record(lines()[:3], str(EX1))  # the header, TurnStarted, PhaseStarted: at seq 2
    yield app
    app.close()


def test_a_write_sent_again_at_the_seq_it_was_offered_at_is_stored_once(store) -> None:
    event = lines()[3]
    first = store.write(GAME, [given(event, "2026-12-07T10:00:00Z")], after=2)
    again = store.write(GAME, [given(event, "2026-12-07T10:00:07Z")], after=2)  # its answer was lost: tapped again
    assert not first.recognised and again.recognised
    assert again.lines == first.lines and again.events == 0
    assert store.last_seq(GAME) == 3
    assert [json.loads(x).get("seq") for x in store.export_lines(GAME)] == [None, 1, 2, 3]


def test_the_one_event_form_says_the_stored_line(store) -> None:
    event = given(lines()[3], "2026-12-07T10:00:00Z")
    stored = store.record(GAME, event, after=2)
    assert store.record(GAME, event, after=2) == stored
    assert store.last_seq(GAME) == 3


def test_it_is_recognised_after_the_game_moved_on_further(store) -> None:
    third, fourth = lines()[3], lines()[4]
    store.write(GAME, [given(third, "t1")], after=2)
    store.write(GAME, [given(fourth, "t2")], after=3)
    assert store.write(GAME, [given(third, "t3")], after=2).recognised
    assert store.last_seq(GAME) == 4


def test_a_different_write_at_a_stale_seq_is_told_the_game_moved_on(store) -> None:
    store.write(GAME, [given(lines()[3], "t1")], after=2)
    other = {"type": "Noted", "text": "a note typed on a second tablet", "at": "t2"}
    with pytest.raises(GameMovedOn) as moved:
        store.write(GAME, [other], after=2)
    assert moved.value.now_at == 3
    assert store.last_seq(GAME) == 3


def test_a_write_without_the_seq_it_was_offered_at_is_never_taken_for_another(store) -> None:
    note = {"type": "Noted", "text": "the objective counts double", "at": "t1"}
    store.write(GAME, [note])
    store.write(GAME, [note])  # said twice on purpose: two notes
    assert store.last_seq(GAME) == 4


def test_a_digital_roll_sent_again_at_its_seq_is_the_same_roll_stored_once(tmp_data: Path) -> None:
    app = Rollcall.open(tmp_data)
    game = "digital-again"
    app.import_record([json.dumps(digital_header(game))], "header")
    app.record(game, {"type": "TurnStarted", "turn": 1}, after=0)
    first = app.roll(game, "p1", "other", "attack", 3, after=1)
    again = app.roll(game, "p1", "other", "attack", 3, after=1)
    assert again == first and app.last_seq(game) == 2
    later = app.roll(game, "p1", "other", "attack", 3, after=2)
    assert later["seq"] == 3
    app.close()
