"""Export → import into another store → export is byte-identical; an edited file is refused by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import Rollcall
from domain.errors import RecordError

GAMES = Path(__file__).resolve().parents[1] / "games"
RECORDS = sorted(GAMES.glob("*.rollcall.jsonl"))


def name_of(path: Path) -> str:
    return path.name[: -len(".rollcall.jsonl")]


def export(app: Rollcall, game: str) -> str:
    return "".join(line + "\n" for line in app.export_lines(game))


def store(tmp_path: Path, name: str) -> Rollcall:
    return Rollcall.open(tmp_path / name)


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_golden_record_round_trips_byte_identical(tmp_path: Path, path: Path) -> None:
    first = store(tmp_path, "a")
    game = first.import_record(path.read_text(encoding="utf-8").splitlines(), str(path)).game
    exported = export(first, game)
    second = store(tmp_path, "b")
    assert second.import_record(exported.splitlines(), "exported").game == game
    again = export(second, game)
    assert again.encode("utf-8") == exported.encode("utf-8")
    # the golden file is itself an export, with its comment line
    golden = "".join(line + "\n" for line in path.read_text(encoding="utf-8").splitlines()
                     if not line.startswith("#"))
    assert exported == golden
    assert second.verify(game).ok
    assert second.get_game(game).state.to_json() == first.get_game(game).state.to_json()


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_record_without_derived_fields_and_hashes_exports_the_golden_lines(tmp_path: Path, path: Path) -> None:
    """What a user types (no seq, no derived fields, no hash) imports to the same game as the golden."""
    derived = {"seq", "hash", "free_attacks", "destroyed", "must_eject", "markers_to_eject", "entered", "dodged"}
    golden = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    bare = [json.dumps({k: v for k, v in golden[0].items() if k != "hash"})]
    bare += [json.dumps({k: v for k, v in event.items() if k not in derived}) for event in golden[1:]]
    app = store(tmp_path, "a")
    game = app.import_record(bare, "bare").game
    assert [json.loads(line) for line in app.export_lines(game)] == golden


def lenient_record() -> list[str]:
    """A game breaking R76 (header), R44 and R42 (line 5) and R41 (line 6)."""
    zone = [[q, r] for r in (0, 1, 2) for q in range(14)]
    header = {"rollcall": 1, "system": "tornscape", "game": "lenient-1",
              "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}],
              "setup": {"board": {"width": 14, "height": 12}, "deployment_zones": {"p1": zone},
                        "models": [{"id": "a", "player": "p1", "size": "infantry", "at": [[2, 2]], "step": 3},
                                   {"id": "e", "player": "p2", "size": "infantry", "at": [[3, 2]]},
                                   {"id": "w", "player": "p1", "size": "infantry", "at": [[2, 9]]}]}}
    events = [{"type": "TurnStarted", "turn": 1}, {"type": "PhaseStarted", "phase": "activation"},
              {"type": "ActivationStarted", "model": "a"},
              {"type": "ModelMoved", "model": "a", "action": "step", "path": [[3, 2], [4, 2], [5, 2], [6, 2]]},
              {"type": "ModelMoved", "model": "a", "action": "step", "path": [[7, 2]], "note": "again"},
              {"type": "ActivationEnded", "model": "a"}]
    return [json.dumps(header)] + [json.dumps(e) for e in events]


def test_lenient_game_with_violations_round_trips_byte_identical(tmp_path: Path) -> None:
    first = store(tmp_path, "a")
    imported = first.import_record(lenient_record(), "lenient", lenient=True)
    assert imported.violations == 4
    exported = export(first, imported.game)
    lines = [json.loads(line) for line in exported.splitlines()]
    assert [v["rule"] for v in lines[0]["violations"]] == ["R76"]
    assert [v["rule"] for v in lines[4]["violations"]] == ["R42", "R44"]
    assert [v["rule"] for v in lines[5]["violations"]] == ["R41"]

    second = store(tmp_path, "b")
    assert second.import_record(exported.splitlines(), "exported", lenient=True).violations == 4
    assert export(second, imported.game).encode("utf-8") == exported.encode("utf-8")
    assert second.verify(imported.game).ok

    third = store(tmp_path, "c")
    with pytest.raises(RecordError, match=r"^exported:1: R76 w "):
        third.import_record(exported.splitlines(), "exported")  # strict: stops at the first violation
    assert third.exists(imported.game) is False


def test_violations_in_a_file_are_recomputed_not_trusted(tmp_path: Path) -> None:
    first = store(tmp_path, "a")
    game = first.import_record(lenient_record(), "lenient", lenient=True).game
    lines = [json.loads(line) for line in first.export_lines(game)]
    lines[5]["violations"] = []  # hide the R41 violation (and drop the now-wrong hashes)
    tampered = [json.dumps({k: v for k, v in line.items() if k != "hash"}) for line in lines]
    second = store(tmp_path, "b")
    second.import_record(tampered, "tampered", lenient=True)
    assert [v["rule"] for v in second.stored_lines(game)[5]["violations"]] == ["R41"]


@pytest.fixture
def exported_ex1(tmp_path: Path) -> list[str]:
    app = store(tmp_path, "a")
    path = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
    game = app.import_record(path.read_text(encoding="utf-8").splitlines(), str(path)).game
    return list(app.export_lines(game))


def refused_at(tmp_path: Path, lines: list[str], line: int, event: str | None, says: str) -> None:
    app = store(tmp_path, "other")
    with pytest.raises(RecordError) as info:
        app.import_record(lines, "edited.rollcall.jsonl")
    where = f"edited.rollcall.jsonl:{line} ({event}): " if event else f"edited.rollcall.jsonl:{line}: "
    assert str(info.value).startswith(where), str(info.value)
    assert says in str(info.value)
    assert info.value.line == line
    assert list(app.headers()) == []


def test_a_file_whose_hash_was_edited_is_refused_with_the_line(tmp_path: Path, exported_ex1: list[str]) -> None:
    lines = list(exported_ex1)
    event = json.loads(lines[4])
    event["hash"] = ("0" if event["hash"][0] != "0" else "1") + event["hash"][1:]
    lines[4] = json.dumps(event)
    refused_at(tmp_path, lines, 5, "ModelMoved", "`hash` does not match")


def test_a_file_whose_header_hash_was_edited_is_refused_on_line_1(tmp_path: Path, exported_ex1: list[str]) -> None:
    lines = list(exported_ex1)
    lines[0] = lines[0].replace('"table": 1', '"table": 9')
    refused_at(tmp_path, lines, 1, None, "`hash` does not match")


def test_a_legal_edit_without_a_new_hash_is_refused_with_the_line(tmp_path: Path, exported_ex1: list[str]) -> None:
    lines = list(exported_ex1)
    assert '"to": [7, 5]' in lines[6]
    lines[6] = lines[6].replace('"to": [7, 5]', '"to": [3, 6]')  # another nearest free hex: the rules allow it
    refused_at(tmp_path, lines, 7, "ModelEjected", "`hash` does not match")


def test_a_file_with_a_line_removed_is_refused_with_the_line(tmp_path: Path, exported_ex1: list[str]) -> None:
    lines = exported_ex1[:2] + exported_ex1[3:]  # drop seq 2
    refused_at(tmp_path, lines, 3, "ActivationStarted", "field `seq` is 3")


def test_a_file_with_lines_swapped_is_refused_with_the_line(tmp_path: Path, exported_ex1: list[str]) -> None:
    lines = list(exported_ex1)
    lines[1], lines[2] = lines[2], lines[1]
    refused_at(tmp_path, lines, 2, "PhaseStarted", "field `seq` is 2")


def test_comment_lines_do_not_take_part_in_the_chain(tmp_path: Path, exported_ex1: list[str]) -> None:
    lines = list(exported_ex1)
    lines.insert(3, "# a judge's remark added by hand")
    lines.insert(0, "")
    app = store(tmp_path, "other")
    assert app.import_record(lines, "commented").events == 7
    assert list(app.export_lines("seed004-ex1")) == exported_ex1
