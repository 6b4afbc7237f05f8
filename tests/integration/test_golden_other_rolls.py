"""The golden record of rolls outside the modelled phases (purpose other, with a label and the face each die
needs, in a 9th Age shooting phase): it imports strictly, replays to its hand-checked state, exports as it is
(comment aside), and its luck is the hand-counted one: 9 successes against 7 expected for Boris (10 × 1/2 +
6 × 1/3), pips for Anna's break test that needs nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app as cli
from service.application import Rollcall

GAMES = Path(__file__).resolve().parents[1] / "games"
NAME = "t9a-other-rolls-shooting"
RECORD = GAMES / f"{NAME}.rollcall.jsonl"


def test_the_golden_record_replays_to_its_state_and_exports_as_it_is(tmp_path: Path) -> None:
    rollcall = Rollcall.open(tmp_path / "data")
    lines = RECORD.read_text(encoding="utf-8").splitlines()
    imported = rollcall.import_record(lines, NAME)
    assert imported.violations == 0
    expected = json.loads((GAMES / f"{NAME}.expected.json").read_text(encoding="utf-8"))
    assert rollcall.get_game(imported.game).state.to_json() == expected
    assert list(rollcall.export_lines(imported.game)) == [line for line in lines if not line.startswith("#")]
    rolls = rollcall.get_game(imported.game).state.rolls
    assert [(r.label, r.needs) for r in rolls.values()] == [("shooting: to hit", 4), ("shooting: to wound", 5),
                                                           ("break test", None)]


def test_the_golden_records_luck_is_the_hand_counted_one(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(RECORD), "--data", data]).exit_code == 0
    result = runner.invoke(cli, ["stats", "--game", NAME, "--json", "--data", data])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    rows = {(r["player"], r["unit"]): r for r in stats["luck_by_player"]}
    assert set(rows) == {("Boris", "successes"), ("Anna", "pips")}
    assert (rows["Boris", "successes"]["observed"], rows["Boris", "successes"]["dice"]) == (9, 16)
    assert rows["Boris", "successes"]["expected"] == pytest.approx(7)
    assert (rows["Anna", "pips"]["observed"], rows["Anna", "pips"]["expected"]) == (8, pytest.approx(7))
