"""The stream overlay under AppTest over a real store: it follows its game's table and board snapshots from the
feed (players by name with score, turn, phase and the last roll with its odds and luck are in them); a table of a
tournament finds its current game; an unknown game is a plain message; a broadcast delay holds what it is sent
like any spectator page."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from spectated import spectate_data
from streamlit.testing.v1 import AppTest

from projections.projector import Projector
from projections.queries import connect_read
from projections.spectators import made_now
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


def overlay(**params: str) -> AppTest:
    at = AppTest.from_file(OVERLAY, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def said(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def sent(wanted: str) -> dict:
    con = connect_read(Path(os.environ["ROLLCALL_DATA"]))
    try:
        return json.loads(made_now(con, wanted))
    finally:
        con.close()


def test_the_overlay_follows_its_games_table_and_board_from_the_feed(store) -> None:
    shown = spectate_data(overlay(game=GAME))
    assert shown["view"] == "overlay" and shown["feed"] == "/rc/broadcast/feed"
    assert shown["keys"] == [f"table/en/{GAME}", f"board/en/{GAME}"]
    table = sent(f"table/en/{GAME}")
    assert [(p["name"], p["score"]) for p in table["players"]] == [("Anna", 0), ("Boris", 0)]
    assert table["turn"] == "Turn 1 · activation" and table["roll"]["seq"] == 5
    assert table["roll"]["odds"] == "odds 50.0%" and table["roll"]["luck"].startswith("luck -0.50")
    assert "<svg" in sent(f"board/en/{GAME}")["picture"]


def test_a_table_of_a_tournament_finds_its_current_game(store) -> None:
    assert spectate_data(overlay(tournament="Seed 004 examples", table="1"))["keys"][0] == f"table/en/{GAME}"
    assert "No game at table 9" in said(overlay(tournament="Seed 004 examples", table="9"))


def test_an_unknown_game_is_a_plain_message(store) -> None:
    shown = said(overlay(game="<b>nope</b>"))
    assert "No game &lt;b&gt;nope&lt;/b&gt;." in shown and "<b>nope" not in shown


def test_under_a_broadcast_delay_the_overlay_is_sent_only_events_that_came_due(store) -> None:
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    store.set_broadcast_delay("Seed 004 examples", 600)
    Projector(Path(os.environ["ROLLCALL_DATA"])).run()
    table = sent(f"table/en/{GAME}")
    assert table["seq"] == 0 and table["roll"] is None
