"""The New game page under AppTest over a real store: it offers only the registered players not seated yet
in the round (player 2 never among player 1's), and a refusal says why (the player is seated already at a
table, the same player on both sides), not that "another writer" was first."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from service.application import Rollcall
from domain.errors import RollcallError
from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
NEW_GAME = str(ROOT / "dashboard" / "views" / "new_game.py")
CLUB = "Club Night"
PLAYERS = ("Anna", "Boris", "Cleo", "Dario")


def header(round_no: int, table: int, first: str, second: str) -> dict:
    from domain.scenarios import scenarios

    return {"rollcall": 1, "system": "tornscape", "tournament": CLUB, "round": round_no, "table": table,
            "players": [{"id": "p1", "name": first, "faction": "engeln"},
                        {"id": "p2", "name": second, "faction": "castilla"}],
            "dice_mode": "physical", "rules": {}, "setup": next(iter(scenarios("tornscape").values()))}


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Club Night, four players registered; Anna plays Boris at table 1 of round 1."""
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    store.create_tournament(CLUB, "tornscape")
    for name in PLAYERS:
        store.register_player(CLUB, name, "engeln")
    store.write(header=header(1, 1, "Anna", "Boris"))
    store.close()
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def page() -> AppTest:
    at = AppTest.from_file(NEW_GAME, default_timeout=30)
    at.run()
    at.selectbox(key=[s.key for s in at.selectbox if s.label == "Tournament"][0]).set_value(CLUB).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def name_boxes(at: AppTest) -> list:
    return [s for s in at.selectbox if s.label == "Name"]


def test_new_game_offers_only_the_players_not_seated_in_the_round(data: Path) -> None:
    at = page()
    first, second = name_boxes(at)
    assert first.options == ["Cleo", "Dario"]  # Anna and Boris play at table 1 already
    assert any("Anna (table 1" in c.value and "Boris (table 1" in c.value for c in at.caption)
    first.set_value("Cleo").run()
    assert name_boxes(at)[1].options == ["Dario"]  # never player 1 again
    at.number_input(key=[n.key for n in at.number_input if n.label == "Round"][0]).set_value(2).run()
    assert name_boxes(at)[0].options == list(PLAYERS)  # round 2: nobody is seated yet


def test_a_player_seated_already_is_refused_with_the_table_where_they_play(data: Path) -> None:
    store = Rollcall.open(data)
    with pytest.raises(RollcallError) as refused:
        store.write(header=header(1, 2, "Cleo", "Anna"))
    assert "F11" in str(refused.value) and "Anna is seated already at table 1" in str(refused.value)
    assert "another writer" not in str(refused.value)


def test_one_player_on_both_sides_is_refused_by_name(data: Path) -> None:
    store = Rollcall.open(data)
    with pytest.raises(RollcallError) as refused:
        store.write(header=header(1, 2, "Cleo", "Cleo"))
    assert "F11" in str(refused.value) and "Cleo cannot play both sides" in str(refused.value)
    assert "another writer" not in str(refused.value)
    assert not store.exists("club-night-r1-t2")


def test_the_page_asks_for_two_different_players_before_it_starts_a_game(data: Path) -> None:
    at = AppTest.from_file(NEW_GAME, default_timeout=30)
    at.run()
    for box in [t for t in at.text_input if t.label == "Name"]:
        box.input("Cleo")
    at.run()
    start = [b for b in at.button if b.label == "Start the game"][0]
    assert start.disabled and any("two different players" in c.value for c in at.caption)


def test_a_name_with_a_text_direction_control_is_refused_naming_the_field_and_nothing_is_stored(data: Path) -> None:
    at = AppTest.from_file(NEW_GAME, default_timeout=30)
    at.run()
    first, second = [t for t in at.text_input if t.label == "Name"]
    first.input("Cleo\u202eoelC")
    second.input("Dario")
    at.run()
    next(b for b in at.button if b.label == "Start the game").click().run()
    assert not at.exception, [e.value for e in at.exception]
    said = [e.value for e in at.error]
    assert any("field `players[0].name` holds a text-direction control (U+202E), which no name may hold" in e
               for e in said), said
    store = Rollcall.open(data)
    try:
        assert [h["game"] for h in store.headers()] == ["club-night-r1-t1"]
    finally:
        store.close()
