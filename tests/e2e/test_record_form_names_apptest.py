"""The Record page's forms name the players as their names are written (AppTest over a real store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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
    [end] = [b for b in at.button if b.label == "End of the game …"]
    end.click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    labels = [n.label.replace("\\", "") for n in at.number_input]  # (Markdown's escapes aside)
    assert "Anna Lind's score" in labels and "Élodie Ørsted's score" in labels, labels
