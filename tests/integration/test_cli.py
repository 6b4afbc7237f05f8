"""The command line, end to end over a real SQLite store and DuckDB read models (CliRunner)."""

from __future__ import annotations

import json
import sqlite3
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from mutants import stepped_twice

GAMES = Path(__file__).resolve().parents[1] / "games"
EXAMPLE = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"


@pytest.fixture
def run(tmp_data: Path):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, [*args, "--data", str(tmp_data)])

    return invoke


def game_id(path: Path) -> str:
    header = json.loads(next(line for line in path.read_text().splitlines() if line.strip()))
    return header["game"]


def test_import_prints_the_game_and_lists_it(run):
    result = run("import", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    assert f"imported {game_id(EXAMPLE)}" in result.output
    listed = run("games")
    assert game_id(EXAMPLE) in listed.output


def test_strict_violation_names_file_line_type_and_rule_and_stores_nothing(run, tmp_path):
    path, line = stepped_twice(EXAMPLE, tmp_path)  # a second "step" onto the same hexon
    result = run("import", str(path))
    assert result.exit_code == 1
    assert f"{path}:{line} (ModelMoved): R42" in result.output
    assert "Traceback" not in result.output
    assert game_id(EXAMPLE) not in run("games").output


def test_lenient_import_keeps_the_game_with_violations_marked(run, tmp_path):
    header = {"rollcall": 1, "system": "tornscape", "game": "lenient-1",
              "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
              "setup": {"board": {"width": 8, "height": 8},
                        "models": [{"id": "a", "player": "p1", "size": "infantry", "at": [[1, 1]], "step": 1}]}}
    events = [{"type": "ActivationStarted", "model": "a"},
              {"type": "ModelMoved", "model": "a", "action": "step", "path": [[2, 1], [3, 1]]}]
    path = tmp_path / "lenient.rollcall.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n")
    assert run("import", str(path)).exit_code == 1
    result = run("import", "--lenient", str(path))
    assert result.exit_code == 0, result.output
    assert "1 violations marked" in result.output
    exported = run("export", "lenient-1").output.splitlines()
    assert json.loads(exported[2])["violations"][0]["rule"] == "R42"


def test_reimport_of_a_recorded_game_is_refused_and_changes_nothing(run, tmp_data):
    run("import", str(EXAMPLE))
    before = sqlite3.connect(tmp_data / "events.sqlite").execute("SELECT count(*) FROM stored_events").fetchone()
    result = run("import", str(EXAMPLE))
    assert result.exit_code == 1
    assert "already recorded" in result.output
    after = sqlite3.connect(tmp_data / "events.sqlite").execute("SELECT count(*) FROM stored_events").fetchone()
    assert before == after


def test_record_appends_an_event_with_the_same_checks(run):
    run("import", str(EXAMPLE))
    game = game_id(EXAMPLE)
    ok = run("record", game, '{"type": "Noted", "text": "table wobbled"}')
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["type"] == "Noted"
    refused = run("record", game, '{"type": "TurnStarted", "turn": 7}')
    assert refused.exit_code == 1
    assert "F02" in refused.output
    malformed = run("record", game, '{"type": "TurnStarted"')
    assert malformed.exit_code == 1 and "not valid JSON" in malformed.output


def test_header_only_record_creates_an_empty_game(run, tmp_path):
    header = {"rollcall": 1, "system": "tornscape", "tournament": "Spring Cup", "round": 1, "table": 3,
              "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
              "setup": {"board": {"width": 6, "height": 6}}}
    path = tmp_path / "empty.rollcall.jsonl"
    path.write_text(json.dumps(header) + "\n")
    result = run("import", str(path))
    assert "imported spring-cup-r1-t3: 0 events" in result.output
    assert run("record", "spring-cup-r1-t3", '{"type": "TurnStarted", "turn": 1}').exit_code == 0


def test_games_lists_the_tournament_round_and_table_a_game_names_and_nothing_it_leaves_out(run, tmp_path):
    base = {"rollcall": 1, "system": "tornscape", "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
            "setup": {"board": {"width": 6, "height": 6}}}
    for name, extra in (("paired", {"tournament": "Spring Cup", "round": 2, "table": 3}),
                        ("named", {"game": "friendly-1", "tournament": "Spring Cup"})):
        (tmp_path / f"{name}.rollcall.jsonl").write_text(json.dumps({**base, **extra}) + "\n")
        assert run("import", str(tmp_path / f"{name}.rollcall.jsonl")).exit_code == 0
    listed = run("games").output.splitlines()
    assert "spring-cup-r2-t3  tornscape  A (-) vs B (-)  Spring Cup, round 2, table 3" in listed
    assert "friendly-1  tornscape  A (-) vs B (-)  Spring Cup" in listed
    assert "None" not in "\n".join(listed)


def test_export_to_file_round_trips_byte_identically(run, tmp_path):
    run("import", str(EXAMPLE))
    first = tmp_path / "first.rollcall.jsonl"
    assert run("export", game_id(EXAMPLE), "-o", str(first)).exit_code == 0
    other = CliRunner()
    second_data = tmp_path / "other"
    assert other.invoke(app, ["import", str(first), "--data", str(second_data)]).exit_code == 0
    second = tmp_path / "second.rollcall.jsonl"
    other.invoke(app, ["export", game_id(EXAMPLE), "-o", str(second), "--data", str(second_data)])
    assert first.read_bytes() == second.read_bytes()


def test_verify_reports_damage_with_exit_status_1(run, tmp_data):
    run("import", str(EXAMPLE))
    assert run("verify").exit_code == 0
    con = sqlite3.connect(tmp_data / "events.sqlite")
    with con:
        con.execute("UPDATE stored_events SET state = replace(state, '\"blank\"', '\"success\"') "
                    "WHERE topic = 'rollcall:DiceRolled'")
    result = run("verify")
    assert result.exit_code == 1
    assert "DAMAGED" in result.output and "changed" in result.output


def test_replay_json_gives_models_positions_at_the_seq(run):
    run("import", str(EXAMPLE))
    game = game_id(EXAMPLE)
    lines = [json.loads(x) for x in run("export", game).output.splitlines()]
    moved = next(e for e in lines if e.get("type") == "ModelMoved")
    before = json.loads(run("replay", game, "--seq", str(moved["seq"] - 1), "--json").output)
    after = json.loads(run("replay", game, "--seq", str(moved["seq"]), "--json").output)
    assert after["models"][moved["model"]]["at"] != before["models"][moved["model"]]["at"]
    assert after["models"][moved["model"]]["at"][0] == moved["path"][-1]
    board = run("replay", game, "--seq", str(moved["seq"]))
    assert board.exit_code == 0 and moved["model"] in board.output
    assert board.output.strip().startswith(f"seq {moved['seq']}: ModelMoved by ")  # what event N was, and who made it
    assert "q (row 0)" in board.output and "r0 " in board.output  # columns as well as rows


def test_replay_past_the_last_event_is_an_error_naming_it_and_the_end_is_said(run):
    run("import", str(EXAMPLE))
    game = game_id(EXAMPLE)
    last = len(run("export", game).output.splitlines()) - 1
    result = run("replay", game, "--seq", str(last + 5))
    assert result.exit_code == 1 and f"its last event is seq {last}" in result.output
    ended = run("replay", game)
    assert ended.exit_code == 0
    lines = [json.loads(x) for x in run("export", game).output.splitlines()]
    if any(line.get("type") == "GameEnded" for line in lines):
        assert "the game has ended" in ended.output


def test_unknown_game_is_a_clear_error(run):
    result = run("export", "no-such-game")
    assert result.exit_code == 1
    assert "no game 'no-such-game'" in result.output


def test_folder_import_checks_records_in_parallel_and_stores_each_good_game(run, tmp_path, tmp_data):
    from simulation.games import record_lines, simulate_tornscape

    folder = tmp_path / "round1"
    folder.mkdir()
    for i in range(9):
        lines = record_lines(simulate_tornscape(i, f"folder-{i}", turns=2))
        (folder / f"t{i}.rollcall.jsonl").write_text("\n".join(lines) + "\n")
    broken = folder / "t9.rollcall.jsonl"
    lines = (folder / "t0.rollcall.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["game"] = "folder-broken"
    header.pop("hash")
    moved = next(i for i, line in enumerate(lines) if '"ModelMoved"' in line)
    event = json.loads(lines[moved])
    event["free_attacks"] = ["nobody"]
    broken.write_text("\n".join([json.dumps(header)] + [json.dumps({k: v for k, v in json.loads(x).items()
                                                                     if k != "hash"}) for x in lines[1:moved]]
                                + [json.dumps({k: v for k, v in event.items() if k != "hash"})]) + "\n")
    result = run("import", str(folder))
    assert result.exit_code == 1
    assert f"{broken}:{moved + 1} (ModelMoved): R7" in result.output
    listed = run("games").output
    assert all(f"folder-{i}" in listed for i in range(9))
    assert "folder-broken" not in listed
    assert run("verify").exit_code == 0


def test_verify_against_published_heads_finds_a_lost_last_event(run, tmp_data, tmp_path):
    run("import", str(EXAMPLE))
    heads = tmp_path / "heads.jsonl"
    assert run("heads", "-o", str(heads)).exit_code == 0
    assert run("verify", "--against", str(heads)).exit_code == 0
    con = sqlite3.connect(tmp_data / "events.sqlite")
    with con:
        con.execute("DELETE FROM stored_events WHERE rowid = (SELECT max(rowid) FROM stored_events "
                    "WHERE topic LIKE 'rollcall:%' AND topic <> 'rollcall:GameCreated')")
    assert run("verify").exit_code == 0  # what is left chains
    result = run("verify", "--against", str(heads))
    assert result.exit_code == 1
    assert f"DAMAGED  {game_id(EXAMPLE)}" in result.output and "removed" in result.output


def test_a_malformed_anchor_file_is_named_with_its_line(run, tmp_path):
    run("import", str(EXAMPLE))
    bad = tmp_path / "heads.jsonl"
    bad.write_text(json.dumps({"game": game_id(EXAMPLE), "seq": 3, "hash": "abc"}) + "\n", encoding="utf-8")
    result = run("verify", "--against", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:1" in result.output and "hash" in result.output
    assert "Traceback" not in result.output


def test_heads_of_an_unknown_game_is_a_clear_error(run):
    result = run("heads", "no-such-game")
    assert result.exit_code == 1 and "no game 'no-such-game' is recorded" in result.output


def test_a_record_naming_a_system_by_another_alias_imports_replays_and_exports_under_the_main_alias(run, tmp_path):
    """A header may name a pack by any alias ("9th-age" for The 9th Age): it is stored under the pack's
    main alias, so every reader (text board, dashboard, statistics) meets one name."""
    source = GAMES / "t9a-eight-flux-cards.rollcall.jsonl"
    lines = [json.loads(line) for line in source.read_text().splitlines() if line.strip() and not line.startswith("#")]
    lines[0]["system"] = "9th-age"
    for line in lines:
        line.pop("hash", None)
    path = tmp_path / "alias.rollcall.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert run("import", str(path)).exit_code == 0
    replayed = run("replay", lines[0]["game"])
    assert replayed.exit_code == 0, replayed.output
    assert "magic phase" in replayed.output
    exported = run("export", lines[0]["game"])
    assert json.loads(exported.output.splitlines()[0])["system"] == "t9a"


def test_project_and_verify_name_a_game_its_rules_pack_cannot_replay(run, tmp_data, tmp_path):
    run("import", str(EXAMPLE))
    other = tmp_path / "other.rollcall.jsonl"
    lines = [json.loads(x) for x in EXAMPLE.read_text().splitlines() if x.strip() and not x.startswith("#")]
    lines[0] = {k: v for k, v in lines[0].items() if k not in ("hash", "round")} | {"game": "bystander"}
    other.write_text("".join(json.dumps({k: v for k, v in x.items() if k != "hash"}) + "\n" for x in lines))
    run("import", str(other))
    con = sqlite3.connect(tmp_data / "events.sqlite")
    with con:  # a stored move of the example now names a model its game never had
        rowid, state = con.execute("SELECT s.rowid, s.state FROM stored_events s WHERE s.topic = 'rollcall:ModelMoved' "
                                   "ORDER BY s.rowid LIMIT 1").fetchone()
        changed = json.loads(state)
        changed["data"]["model"] = "nobody"
        con.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(changed).encode(), rowid))
    con.close()
    projected = run("project")
    assert projected.exit_code == 1
    assert f"game {game_id(EXAMPLE)} cannot be replayed from seq" in projected.output and "KeyError" in projected.output
    assert "Traceback" not in projected.output
    listed = run("games")
    assert "bystander" in listed.output
    verified = run("verify")
    assert verified.exit_code == 1 and "OK       bystander" in verified.output
    assert f"DAMAGED  {game_id(EXAMPLE)}" in verified.output  # the chain breaks first (its line was changed)


def test_folder_import_stores_every_good_game_and_names_every_refused_file_with_its_line(run, tmp_path, tmp_data):
    from mutants import GAMES as GOLDEN, golden

    folder = tmp_path / "round"
    shutil.copytree(GOLDEN, folder, ignore=shutil.ignore_patterns("*.json"))
    bad = folder / "x-bad"  # after the golden records: the copy of one of them is the refused one
    bad.mkdir()
    first = GOLDEN / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
    lines = golden(first)
    lines[0]["game"] = "copy"
    lines[0]["round"] = 99  # (in the rounds of the golden games its players are seated already: refused at line 1 for that, F11)
    text = "".join(json.dumps(line) + "\n" for line in lines)
    refused = {
        "broken.rollcall.jsonl": ('{"rollcall": 1,\n', ":1: not valid JSON"),
        "deep.rollcall.jsonl": ("[" * 1000 + "]" * 1000 + "\n", ":1: "),
        "empty.rollcall.jsonl": ("", ": the record is empty"),
        "again.rollcall.jsonl": (first.read_text(encoding="utf-8"), ":1: game 'seed004-ex1' is already recorded"),
        "nan.rollcall.jsonl": (text.replace('"dodge": 5', '"dodge": NaN'), ": not valid JSON: NaN is not"),
    }
    for name, (content, _) in refused.items():
        (bad / name).write_text(content, encoding="utf-8")
    (bad / "bytes.rollcall.jsonl").write_bytes(b"\xff\xfe{}\n")
    refused["bytes.rollcall.jsonl"] = ("", ":1: not UTF-8 text")
    result = run("import", str(folder))
    assert result.exit_code == 1 and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(refused)
    for name, (_, says) in refused.items():
        assert any(line.startswith(f"error: {bad / name}") and says in line for line in errors), (name, errors)
    golden = len(list(GOLDEN.glob("*.rollcall.jsonl")))
    assert f"refused {len(refused)} files of {golden + len(refused)}" in result.output
    assert len(json.loads(run("games", "--json").output)) == golden
    assert run("verify").exit_code == 0
