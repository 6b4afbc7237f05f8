"""Rolls outside the modelled phases count in luck and fairness: a 9th Age game's shooting rolls of purpose other
with the face each die needs give their player successes against the exact expectation (`rollcall stats --json`),
by label as well as purpose, and each roll's odds (exactly that many dice reaching the face)."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app as cli
from projections.queries import connect_read

HEADER = {"rollcall": 1, "system": "t9a", "game": "shooting-luck",
          "players": [{"id": "p1", "name": "Anna", "faction": "highborn"}, {"id": "p2", "name": "Boris", "faction": "orcs"}],
          "setup": {"spells": [{"id": "spark", "name": "Spark", "path": "evocation", "casting_value": 5}],
                    "wizards": [{"id": "mage", "player": "p1", "spells": ["spark"]}]}}
EVENTS = [{"type": "TurnStarted", "turn": 1},
          {"type": "DiceRolled", "player": "p2", "purpose": "other", "die": "d6", "faces": [6, 6, 6, 6, 6, 6, 6, 5, 4, 1],
           "needs": 4, "label": "shooting: to hit"},
          {"type": "DiceRolled", "player": "p2", "purpose": "other", "die": "d6", "faces": [1, 2, 3, 4, 1, 2],
           "needs": 5, "label": "shooting: to wound"},
          {"type": "DiceRolled", "player": "p1", "purpose": "other", "die": "d6", "faces": [3, 4], "label": "panic test"}]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    record = tmp_path / "shooting.rollcall.jsonl"
    record.write_text("".join(json.dumps(line) + "\n" for line in (HEADER, *EVENTS)), encoding="utf-8")
    folder = tmp_path / "data"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(record), "--data", str(folder)]).exit_code == 0
    assert runner.invoke(cli, ["project", "--data", str(folder)]).exit_code == 0
    return folder


def test_other_rolls_that_need_a_face_count_successes_against_the_exact_expectation(data: Path) -> None:
    result = CliRunner().invoke(cli, ["stats", "--game", "shooting-luck", "--json", "--data", str(data)])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    boris = [r for r in stats["luck_by_player"] if r["player"] == "Boris"]
    assert [(r["unit"], r["observed"], r["expected"]) for r in boris] == [("successes", 9, 7)]  # 10 x 1/2 + 6 x 1/3
    anna = [r for r in stats["luck_by_player"] if r["player"] == "Anna"]
    assert [(r["unit"], r["observed"], r["expected"]) for r in anna] == [("pips", 7, 7)]  # no needs: pips
    by_label = {r["label"]: (r["observed"], r["expected"]) for r in stats["luck_by_die"] if r["purpose"] == "other"}
    assert by_label == {"shooting: to hit": (9, 5), "shooting: to wound": (0, 2), "panic test": (7, 7)}


def test_an_other_roll_that_needs_a_face_has_the_odds_of_exactly_that_many_dice_reaching_it(data: Path) -> None:
    con = connect_read(data)
    try:
        odds = dict(con.execute("SELECT o.seq, o.p_outcome FROM fct_roll_odds o JOIN fct_rolls r USING (game, seq) "
                                "WHERE r.needs IS NOT NULL ORDER BY o.seq").fetchall())
        labels = dict(con.execute("SELECT seq, label FROM fct_rolls ORDER BY seq").fetchall())
    finally:
        con.close()
    assert odds == {2: pytest.approx(comb(10, 9) / 2 ** 10), 3: pytest.approx((2 / 3) ** 6)}
    assert labels == {2: "shooting: to hit", 3: "shooting: to wound", 4: "panic test"}
