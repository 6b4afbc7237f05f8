"""The stream overlay under AppTest over a real store: players by name with score, turn, phase and the last roll
with its odds; an unknown game is a plain message; a broadcast delay holds it like any spectator page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from projections.projector import Projector
from service.application import Rollcall

ROOT = Path(__file__).resolve().parents[2]
OVERLAY = str(ROOT / "dashboard" / "views" / "overlay.py")
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rollcall:
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    store.create_tournament("Seed 004 examples", "tornscape")
    with open(EX1, encoding="utf-8") as handle:
        store.import_record(handle, str(EX1))
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return store


def overlay(**params: str) -> str:
    at = AppTest.from_file(OVERLAY, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return "\n".join(m.value for m in at.markdown)


def test_the_overlay_shows_players_score_turn_phase_and_the_last_roll_with_its_odds(store) -> None:
    shown = overlay(game=GAME)
    assert "Anna" in shown and "Boris" in shown and 'class="rc-ov-score">0<' in shown
    assert "Turn 1" in shown and "activation" in shown
    assert 'class="rc-ov-panel rc-ov-roll" data-seq="5"' in shown and "odds 50.0%" in shown and "luck -0.50" in shown
    assert "<svg" in shown


def test_a_table_of_a_tournament_finds_its_current_game(store) -> None:
    assert f'data-game="{GAME}"' in overlay(tournament="Seed 004 examples", table="1")
    assert "No game at table 9" in overlay(tournament="Seed 004 examples", table="9")


def test_an_unknown_game_is_a_plain_message(store) -> None:
    shown = overlay(game="<b>nope</b>")
    assert "No game &lt;b&gt;nope&lt;/b&gt;." in shown and "<b>nope" not in shown


def test_under_a_broadcast_delay_the_overlay_shows_only_events_that_came_due(store) -> None:
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    store.set_broadcast_delay("Seed 004 examples", 600)
    Projector(Path(os.environ["ROLLCALL_DATA"])).run()
    shown = overlay(game=GAME)
    assert 'data-seq="0"' in shown and "rc-ov-roll" not in shown
