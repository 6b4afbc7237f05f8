"""Records the fuzzing found (tests/integration/test_fuzz_records.py): each is refused with one line naming
the file, the line and the field, or imported, never a traceback."""

from __future__ import annotations

import json

import pytest

from domain.application import Rollcall
from domain.errors import RecordError
from mutants import golden

FILE = "hostile.rollcall.jsonl"


@pytest.fixture
def app() -> Rollcall:
    return Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


def texts(lines: list[dict]) -> list[str]:
    return [json.dumps(line) for line in lines]


def refused(app: Rollcall, lines: list[dict], **kwargs) -> str:
    with pytest.raises(RecordError) as info:
        app.import_record(texts(lines), FILE, **kwargs)
    assert list(app.headers()) == []
    return str(info.value)


def test_an_event_type_with_a_line_break_is_refused_on_one_line(app: Rollcall) -> None:
    lines = golden("seed004-ex1-shove-enemy-failed-dodge")
    lines[2]["type"] = "Dice\nRolled"
    message = refused(app, lines)
    assert "\n" not in message and message.startswith(f"{FILE}:3 (Dice\\nRolled): unknown event type")


def test_a_wizards_spell_that_is_not_an_id_is_refused_naming_the_field(app: Rollcall) -> None:
    lines = golden("t9a-dispelled-failed-bound")
    lines[0]["setup"]["wizards"][0]["spells"][0] = {"id": "fireball"}
    assert refused(app, lines).startswith(f"{FILE}:1: setup.wizards[0].spells must list spell ids")


@pytest.mark.parametrize("lenient", [False, True])
def test_a_derived_list_given_with_lists_inside_is_refused_naming_the_field(app: Rollcall, lenient: bool) -> None:
    lines = golden("double-entry-resolved-once")
    moved = next(i for i, line in enumerate(lines) if line.get("type") == "ModelMoved" and line.get("entered"))
    lines[moved]["entered"] = [["v1"]]
    message = refused(app, lines, lenient=lenient)
    assert message.startswith(f"{FILE}:{moved + 1} (ModelMoved): field `entered` cannot be [[\"v1\"]]")


def test_an_optional_field_given_as_null_is_left_to_the_rules(app: Rollcall) -> None:
    lines = golden("seed000-stabilisation-crit-hostile-explore")
    drawn = next(i for i, line in enumerate(lines) if line.get("type") == "PhenomenonDrawn")
    vortex, lines[drawn]["vortex"] = lines[drawn]["vortex"], None
    imported = app.import_record(texts(lines), FILE)
    assert imported.violations == 0
    assert app.stored_lines(imported.game)[drawn]["vortex"] == vortex
