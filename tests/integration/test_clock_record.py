"""The clock in the record: a game with a clock and its clock events export, import into another store and
export again byte-identical; a clock event out of order is refused on import naming its line and rule, and
nothing of the game is stored; ``rollcall stats --json`` has each player's time per turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.errors import RecordError, RuleViolation
from service.application import Rollcall

HEADER = {"rollcall": 1, "game": "clocked", "system": "t9a", "clock": {"seconds": 9000, "flag": "phase"},
          "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}], "setup": {}}
EVENTS = [
    {"type": "ClockStarted", "at": "2026-12-07T10:00:00Z", "player": "p1"},
    {"type": "TurnStarted", "turn": 1, "at": "2026-12-07T10:00:01Z"},
    {"type": "ClockPassed", "at": "2026-12-07T10:12:30.250Z", "player": "p1"},
    {"type": "ClockPaused", "at": "2026-12-07T10:20:00Z", "judge": "Jo"},
    {"type": "ClockAdjusted", "at": "2026-12-07T10:21:00Z", "player": "p2", "seconds": 60, "judge": "Jo",
     "reason": "a rules question"},
    {"type": "ClockResumed", "at": "2026-12-07T10:22:00Z"},
    {"type": "ClockPassed", "at": "2026-12-07T10:30:00Z", "player": "p2"},
    {"type": "TurnStarted", "turn": 2, "at": "2026-12-07T10:30:00Z"},
    {"type": "GameEnded", "score": {"p1": 3, "p2": 1}, "winner": "p1", "reason": "concession",
     "at": "2026-12-07T10:40:00Z"},
]


def lines(events=EVENTS) -> list[str]:
    return [json.dumps(HEADER)] + [json.dumps(e) for e in events]


def test_a_clocked_game_round_trips_byte_identical(tmp_path: Path) -> None:
    first = Rollcall.open(tmp_path / "a")
    game = first.import_record(lines(), "clocked.rollcall.jsonl").game
    exported = list(first.export_lines(game))
    assert [json.loads(line)["type"] for line in exported[1:]] == [e["type"] for e in EVENTS]
    assert json.loads(exported[0])["clock"] == HEADER["clock"]
    second = Rollcall.open(tmp_path / "b")
    second.import_record(exported, "exported")
    assert list(second.export_lines(game)) == exported


def test_a_clock_event_out_of_order_is_refused_on_import_naming_line_and_rule(tmp_path: Path) -> None:
    app = Rollcall.open(tmp_path / "a")
    bad = EVENTS[:2] + [{"type": "ClockResumed", "at": "2026-12-07T10:01:00Z"}]
    with pytest.raises(RecordError) as caught:
        app.import_record(lines(bad), "bad.rollcall.jsonl")
    assert "bad.rollcall.jsonl:4 (ClockResumed): C04" in str(caught.value)
    assert not app.exists("clocked")


def test_an_adjustment_below_zero_is_refused_and_nothing_stored(tmp_path: Path) -> None:
    app = Rollcall.open(tmp_path / "a")
    app.import_record(lines(EVENTS[:3]), "clocked.rollcall.jsonl")
    with pytest.raises(RuleViolation) as caught:
        app.record("clocked", {"type": "ClockAdjusted", "at": "2026-12-07T10:13:00Z", "player": "p1",
                               "seconds": -9000, "judge": "Jo", "reason": "slow play"})
    assert caught.value.rule == "C06"
    assert app.last_seq("clocked") == 3


def test_stats_json_has_each_players_time_per_turn_and_the_dump_a_clock_table(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cli.main import app as cli
    from projections.projector import Projector

    data = tmp_path / "data"
    Rollcall.open(data).import_record(lines(), "clocked.rollcall.jsonl")
    Projector(data).run()
    result = CliRunner().invoke(cli, ["stats", "--game", "clocked", "--json", "--data", str(data)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["time_by_player"]
    assert [(r["name"], r["turn"], r["seconds"]) for r in rows] == [
        ("Anna", 0, 1.0), ("Anna", 1, 749.25), ("Boris", 1, 449.75 + 480.0), ("Anna", 2, 600.0)]
    result = CliRunner().invoke(cli, ["dump", "--csv", str(tmp_path / "csv"), "--data", str(data)])
    assert result.exit_code == 0, result.output
    import csv

    with (tmp_path / "csv" / "clock.csv").open(encoding="utf-8", newline="") as f:
        clock = list(csv.DictReader(f))
    adjusted = [r for r in clock if r["type"] == "ClockAdjusted"]
    assert {(r["player"], float(r["remaining_seconds"])) for r in adjusted} == {("p1", 9000 - 750.25),
                                                                             ("p2", 9000 - 449.75 + 60)}
    assert {r["reason"] for r in adjusted} == {"a rules question"}


def test_a_spectators_table_snapshot_carries_both_clocks_to_count_down(tmp_path: Path) -> None:
    import orjson

    from projections.projector import Projector
    from projections.queries import connect_read
    from projections.spectators import Spectators, key

    data = tmp_path / "data"
    Rollcall.open(data).import_record(lines(EVENTS[:3]), "clocked.rollcall.jsonl")
    Projector(data).run()
    con = connect_read(data)
    try:
        made = {k: orjson.loads(b) for k, b in Spectators().look(con)}
    finally:
        con.close()
    clock = made[key("table", "en", "clocked")]["clock"]
    assert clock["since"] == 1796638350250  # 2026-12-07T10:12:30.250Z, the last clock event, in ms
    assert clock["delay"] == 0 and not clock["paused"]
    assert [(f["name"], f["remaining"], f["running"], f["shown"]) for f in clock["faces"]] == [
        ("Anna", 8_249_750, False, "2:17:29"), ("Boris", 9_000_000, True, "2:30:00")]
