"""Rolls outside the phases the rules model: `DiceRolled` of purpose `other` with a `label` and, on a numbered
die, the face a die `needs` to count as a success. Every system takes one in any phase; a wrong one is refused
naming its field, and nothing of the game is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.errors import RecordError

GAMES = Path(__file__).resolve().parents[1] / "games"
RECORDS = {"tornscape": "seed004-ex1-shove-enemy-failed-dodge", "t9a": "t9a-dispelled-failed-bound",
           "claustrophobia": "claustrophobia-seed003-sceptre-three-dice"}
SHOOTING = {"type": "DiceRolled", "player": "p2", "purpose": "other", "die": "d6",
            "faces": [6, 6, 6, 6, 6, 6, 6, 5, 4, 1], "needs": 4, "label": "shooting: to hit"}


def lines_of(name: str) -> list[dict]:
    text = (GAMES / f"{name}.rollcall.jsonl").read_text(encoding="utf-8")
    lines = [json.loads(line) for line in text.splitlines() if line.strip() and not line.startswith("#")]
    for line in lines:
        line.pop("hash", None)
    return lines


def with_roll_after(lines: list[dict], after: int, roll: dict) -> list[str]:
    """The record up to its event ``after`` (the game as it stands then, in whatever phase), then ``roll``."""
    return [json.dumps(line) for line in [*lines[:after + 1], {**roll, "seq": after + 1}]]


@pytest.mark.parametrize("system", sorted(RECORDS))
def test_every_system_takes_an_other_roll_in_any_phase(app, system: str) -> None:
    lines = lines_of(RECORDS[system])
    for after in range(1, len(lines) - 1, max(1, (len(lines) - 2) // 4)):  # a few moments of the game
        record = with_roll_after(lines, after, SHOOTING)
        game = f"{system}-other-{after}"
        header = {k: v for k, v in json.loads(record[0]).items() if k not in ("tournament", "round", "table")}
        record[0] = json.dumps({**header, "game": game})
        imported = app.import_record(record, f"{game}.rollcall.jsonl")
        assert imported.violations == 0
        stored = app.stored_lines(game)[-1]
        assert (stored["purpose"], stored["label"], stored["needs"]) == ("other", "shooting: to hit", 4)


@pytest.mark.parametrize("change, says", [
    ({"purpose": "dodge"}, "field `label`: only a roll of purpose `other` takes a label (this one is a dodge roll)"),
    ({"purpose": "dodge", "label": None}, "field `needs`: only a roll of purpose `other` takes a needs"),
    ({"needs": 7}, "field `needs`: 7 is no face of the d6 die (1 to 6)"),
    ({"needs": "4+"}, "field `needs`"),
    ({"label": "x" * 81}, "field `label`: says what the roll was for in 1 to 80 characters"),
    ({"label": "   "}, "field `label`: says what the roll was for in 1 to 80 characters"),
    ({"die": "attack", "faces": ["success", "blank"]}, "field `needs`: the attack die has no numbers to reach"),
])
def test_a_wrong_other_roll_is_refused_naming_its_field_and_nothing_is_stored(app, change: dict, says: str) -> None:
    lines = lines_of(RECORDS["tornscape"])
    record = with_roll_after(lines, 3, {k: v for k, v in {**SHOOTING, **change}.items() if v is not None})
    with pytest.raises(RecordError) as refused:
        app.import_record(record, "shooting.rollcall.jsonl")
    assert says in str(refused.value) and "shooting.rollcall.jsonl:5" in str(refused.value)
    assert not app.exists(json.loads(record[0])["game"])
