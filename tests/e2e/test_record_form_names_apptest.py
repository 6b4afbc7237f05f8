"""The Record page's forms name the players as their names are written (AppTest over a real store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import record_table
from streamlit.testing.v1 import AppTest

from service.application import Rollcall

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "dashboard" / "views" / "record.py")


def test_a_result_form_names_each_players_score_as_the_name_is_written(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from domain.scenarios import scenarios

    data = tmp_path / "data"
    header = {"rollcall": 1, "system": "t9a", "game": "names-t1", "setup": next(iter(scenarios("t9a").values())),
              "players": [{"id": "p1", "name": "Anna Lind", "faction": "orcs"},
                          {"id": "p2", "name": "Élodie Ørsted", "faction": "sylvan"}]}
    Rollcall.open(data).import_record([json.dumps(header, ensure_ascii=False)])
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = "names-t1"
    at.run()
    record_table.tap(at, "End of the game …")
    assert not at.exception, [e.value for e in at.exception]
    labels = [n.label.replace("\\", "") for n in at.number_input]  # (Markdown's escapes aside)
    assert "Anna Lind's score" in labels and "Élodie Ørsted's score" in labels, labels


def test_the_end_of_a_game_asks_who_holds_the_secondary_objective_where_the_format_has_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from domain.formats import shipped_format

    data = tmp_path / "data"
    store = Rollcall.open(data)
    store.create_tournament("Ninth Open", "t9a", format=shipped_format("t9a-20-0"))
    for player in ("Anna Lind", "Boris Brandt"):
        store.register_player("Ninth Open", player, "orcs")
    game = store.pair_round("Ninth Open", 1, seed=1)["tables"][0]["game"]
    store.close()
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = game
    at.run()
    record_table.tap(at, "End of the game …")
    assert not at.exception, [e.value for e in at.exception]
    (held,) = [g for g in at.segmented_control if "Secondary objective" in g.label]
    assert [o.content for o in held.proto.options] == ["Boris Brandt", "Anna Lind"]  # seats p1, p2 as paired
    next(g for g in at.segmented_control if g.label == "Reason").set_value("turn limit")
    held.set_value("p1")  # Boris holds it: 12-8 becomes 9-11
    for number in at.number_input:
        number.set_value(2000 if "Anna" in number.label else 1550)  # a 10 % margin: Anna 12-8
    at.run()
    next(b for b in at.button if b.label == "Record").click().run()
    assert not at.exception, [e.value for e in at.exception]
    ended = Rollcall.open(data).stored_lines(game)[-1]
    assert ended["type"] == "GameEnded" and ended["secondary"] == "p1" and ended["winner"] == "p2", ended


def test_the_end_of_a_game_asks_no_secondary_objective_where_the_format_has_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    store = Rollcall.open(data)
    store.create_tournament("Club Night", "t9a")
    for player in ("Anna Lind", "Boris Brandt"):
        store.register_player("Club Night", player, "orcs")
    game = store.pair_round("Club Night", 1, seed=1)["tables"][0]["game"]
    store.close()
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = game
    at.run()
    record_table.tap(at, "End of the game …")
    assert not at.exception, [e.value for e in at.exception]
    assert not [g for g in at.segmented_control if "Secondary objective" in g.label]
