"""Records the fuzzing found (tests/integration/test_fuzz_records.py): each is refused with one line naming
the file, the line and the field, or imported, never a traceback."""

from __future__ import annotations

import json

import pytest

from service.application import Rollcall
from domain.errors import MalformedRecord, RecordError
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


# --- an event given on the command line: the checks of a record line ----------------------------------------

@pytest.fixture
def cli_game(tmp_path, monkeypatch):
    """A game imported by the command line into a data folder on disk (each command opens the store anew)."""
    from typer.testing import CliRunner

    from domain.settings import PERSISTENCE_ENV

    monkeypatch.delenv(PERSISTENCE_ENV)
    from cli.main import app as cli

    data = tmp_path / "data"
    runner = CliRunner()
    record = golden("seed004-ex1-shove-enemy-failed-dodge")
    (tmp_path / "g.rollcall.jsonl").write_text("".join(json.dumps(line) + "\n" for line in record))
    assert runner.invoke(cli, ["import", str(tmp_path / "g.rollcall.jsonl"), "--data", str(data)]).exit_code == 0

    def record_event(text: str):
        return runner.invoke(cli, ["record", record[0]["game"], text, "--data", str(data)])

    return record_event


@pytest.mark.parametrize("text, says", [
    ('{"type": "Noted", "text": "x", "x_n": NaN}', "<event>: not valid JSON: NaN is not a finite JSON number"),
    ('{"type": "Noted", "text": "x", "x_n": ' + "[" * 1000 + "]" * 1000 + "}", "<event>: nested deeper than"),
    ('{"type": "Noted", "text": "x", "x_n": ' + "9" * 5000 + "}", "<event>: not a record line: a number with"),
    ('{"type": "Noted", "text": "\\ud800"}', "<event>: holds a lone surrogate"),
    ('{"type": "Noted", "text": "x", "x_n": 1e999}', "<event>: not valid JSON: 1e999 is not a finite"),
    ('{"type": "Noted", "txt": "x"}', "missing field `text` (`txt` is given: did you mean `text`?)"),
    ('{"typ": "Noted", "text": "x"}', "missing field `type` (`typ` is given: did you mean `type`?)"),
])
def test_an_event_on_the_command_line_is_read_as_a_record_line(cli_game, text: str, says: str) -> None:
    result = cli_game(text)
    assert result.exit_code == 1 and says in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error: ")


def test_a_misspelt_required_header_field_is_named_with_the_field_meant(app: Rollcall) -> None:
    lines = golden("t9a-dispelled-failed-bound")
    lines[0]["setup"]["wizards"][0]["playr"] = lines[0]["setup"]["wizards"][0].pop("player")
    assert refused(app, lines).endswith("unknown field `setup.wizards[0].playr` (did you mean `player`?)")


@pytest.mark.parametrize("started", ["yesterday", "2026-13-45", "28/11/2026 10:00", ""])
def test_started_is_an_iso_8601_date_and_time(app: Rollcall, started: str) -> None:
    lines = golden("seed004-ex1-shove-enemy-failed-dodge")
    lines[0]["started"] = started
    assert refused(app, lines).startswith(f"{FILE}:1: field `started` must be an ISO 8601 date and time")


def test_an_event_built_by_a_program_is_checked_as_a_line_is(app: Rollcall) -> None:
    app.import_record(texts(golden("seed004-ex1-shove-enemy-failed-dodge")), FILE)
    with pytest.raises(MalformedRecord, match="lone surrogate"):
        app.record("seed004-ex1", {"type": "Noted", "text": "\ud800"})
    with pytest.raises(MalformedRecord, match="nested deeper"):
        deep: list = []
        for _ in range(40):
            deep = [deep]
        app.record("seed004-ex1", {"type": "Noted", "text": "x", "x_deep": deep})
    assert len(app.stored_lines("seed004-ex1")) == 8
