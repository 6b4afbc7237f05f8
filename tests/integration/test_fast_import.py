"""Importing through the stored-row fast path (domain.storedrows, used by ``import_record`` and the
bulk import) stores exactly the rows the ordinary aggregate path (``Game.record`` + ``save``) stores:
byte for byte, but for each row's timestamp."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from domain.application import Rollcall
from domain.bulk import import_files
from domain.errors import GameAlreadyRecorded, RecordError
from domain.record import canonical, canonical_plain, compact_plain, loads_plain
from simulation.games import record_lines, simulate

GAMES = Path(__file__).resolve().parents[1] / "games"
RECORDS = sorted(GAMES.glob("*.rollcall.jsonl"))
TIMESTAMP = re.compile(rb'"timestamp":\{"_type_":"datetime_iso","_data_":"[^"]*"\}')


def name_of(path: Path) -> str:
    return path.name[: -len(".rollcall.jsonl")]


def ordinary_import(app: Rollcall, lines: list[str], source: str, *, lenient: bool = False) -> None:
    """The aggregate path: every line through ``Game.record``, then ``save`` (via ``save_new``)."""
    app.save_new(app.read_record(lines, source, lenient=lenient))


def rows(data: Path) -> list[tuple]:
    """The stored rows in notification order, each state with its timestamp blanked."""
    with sqlite3.connect(data / "events.sqlite") as con:
        stored = con.execute("SELECT originator_id, originator_version, topic, state FROM stored_events "
                             "ORDER BY rowid").fetchall()
    return [(oid, version, topic, TIMESTAMP.sub(b'"timestamp":null', state)) for oid, version, topic, state in stored]


def both_ways(tmp_path: Path, lines: list[str], *, lenient: bool = False, author: str | None = None,
              ) -> tuple[list[tuple], list[tuple]]:
    fast, slow = Rollcall.open(tmp_path / "fast"), Rollcall.open(tmp_path / "slow")
    fast.acting_as = slow.acting_as = author
    fast.import_record(lines, "record", lenient=lenient)
    ordinary_import(slow, lines, "record", lenient=lenient)
    return rows(tmp_path / "fast"), rows(tmp_path / "slow")


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_fast_import_stores_the_rows_of_the_aggregate_path(tmp_path: Path, path: Path) -> None:
    fast, slow = both_ways(tmp_path, path.read_text(encoding="utf-8").splitlines())
    assert len(fast) > 1
    assert fast == slow


@pytest.mark.parametrize("system", ["tornscape", "t9a", "claustrophobia"])
def test_fast_import_of_simulated_games_stores_the_rows_of_the_aggregate_path(tmp_path: Path, system: str) -> None:
    lines = record_lines(simulate(system, 7, f"sim-{system}"))
    fast, slow = both_ways(tmp_path, lines)
    assert len(fast) == len(lines)
    assert fast == slow


def test_fast_import_writes_the_author_of_every_event(tmp_path: Path) -> None:
    fast, slow = both_ways(tmp_path, (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl")
                           .read_text(encoding="utf-8").splitlines(), author="Judge Dredd")
    assert fast == slow
    assert all(json.loads(state)["author"] == "Judge Dredd" for *_, state in fast)


def test_fast_import_of_a_lenient_record_keeps_the_violations_as_the_aggregate_path(tmp_path: Path) -> None:
    lines = (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    objs = [json.loads(line) for line in lines if not line.startswith("#")]
    bare = [json.dumps({k: v for k, v in o.items() if k != "hash"}) for o in objs]
    moved = next(i for i, o in enumerate(objs) if o.get("type") == "ModelMoved")
    broken = {k: v for k, v in objs[moved].items() if k != "hash"}
    broken["free_attacks"] = ["nobody"]
    bare[moved] = json.dumps(broken)
    fast, slow = both_ways(tmp_path, bare, lenient=True)
    assert fast == slow
    assert b'"violations"' in fast[moved][3]


def test_lines_with_floats_escapes_and_huge_numbers_are_stored_as_the_aggregate_path(tmp_path: Path) -> None:
    lines = [line for line in (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl")
             .read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    objs = [json.loads(line) for line in lines]
    for i, extra in enumerate([1e-05, 1e16, 0.1, 2 ** 53, -(2 ** 53), "é \"quoted\" \\ \u2028",
                               [1.5, {"e": 2}], True, None]):
        target = objs[1 + i % (len(objs) - 1)]
        target.pop("hash", None)
        target[f"x_extra{i}"] = extra
    objs[0].pop("hash")
    objs[0]["x_ratio"] = 0.25
    text = [json.dumps(o, ensure_ascii=i % 2 == 0) for i, o in enumerate(objs)]
    fast, slow = both_ways(tmp_path, text)
    assert fast == slow
    assert b"1e-05" in b"".join(state for *_, state in fast)


@pytest.mark.parametrize(("text", "floats"), [
    ('{"a": 1, "b": [true, false, null], "c": "x.y e5 E"}', False), ('{"a": 1e5}', True), ('{"a": 1.0}', True),
    ('{"a": -0}', False), ('{"a": 12345678901234567890123}', False), ('{"a": "\\u00e9"}', False),
    ('{"a": 1E-7, "b": "\\"}"}', True), ('{"a": "\\ud800"}', False), ('{"é": "ü"}', False)])
def test_plain_json_reads_as_json_and_writes_as_json_does(text: str, floats: bool) -> None:
    value, plain = loads_plain(text)
    assert value == json.loads(text)
    assert plain is not floats
    if plain:
        try:
            assert canonical_plain(value) == canonical(value).encode()
            assert compact_plain(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        except TypeError:  # orjson refuses what it cannot write as json does (the caller falls back)
            assert "12345678901234567890123" in text or "ud800" in text


def test_bulk_import_stores_the_rows_of_the_aggregate_path(tmp_path: Path) -> None:
    fast = Rollcall.open(tmp_path / "fast")
    results = list(import_files(fast, RECORDS, workers=2))
    assert all(not isinstance(r, Exception) for r in results)
    slow = Rollcall.open(tmp_path / "slow")
    for path in RECORDS:
        ordinary_import(slow, path.read_text(encoding="utf-8").splitlines(), str(path))
    assert rows(tmp_path / "fast") == rows(tmp_path / "slow")


def test_bulk_import_refuses_a_game_given_twice_and_stores_the_rest(tmp_path: Path) -> None:
    files = RECORDS[:3] + RECORDS[:1] + RECORDS[3:5]
    app = Rollcall.open(tmp_path / "data")
    results = list(import_files(app, files, workers=1))  # one batch: the duplicate is in it
    refused = [r for r in results if isinstance(r, RecordError)]
    assert len(refused) == 1 and isinstance(refused[0].cause, GameAlreadyRecorded)
    assert results.index(refused[0]) == 3
    assert sorted(h["game"] for h in app.headers()) == sorted(r.game for r in results if r not in refused)
    again = list(import_files(app, RECORDS[:2], workers=1))
    assert all(isinstance(r, RecordError) and isinstance(r.cause, GameAlreadyRecorded) for r in again)


def test_fast_import_of_a_broken_record_stores_nothing(tmp_path: Path) -> None:
    lines = (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    lines[-1] = lines[-1].replace('"hash": "', '"hash": "0')
    app = Rollcall.open(tmp_path / "data")
    with pytest.raises(RecordError) as caught:
        app.import_record(lines, "edited.rollcall.jsonl")
    assert caught.value.line == len(lines)
    assert list(app.headers()) == []


@pytest.mark.postgres
def test_bulk_import_into_postgresql_stores_the_rows_of_the_aggregate_path(tmp_path: Path, postgres_env) -> None:
    app = Rollcall(env=postgres_env)
    try:
        results = list(import_files(app, RECORDS[:3] + RECORDS[:1], workers=1))
        assert isinstance(results[3], RecordError) and isinstance(results[3].cause, GameAlreadyRecorded)
        slow = Rollcall.open(tmp_path / "slow")
        for path in RECORDS[:3]:
            ordinary_import(slow, path.read_text(encoding="utf-8").splitlines(), str(path))
        for result in results[:3]:
            stored = app.recorder.select_events(slow.get_game(result.game).id)
            expected = slow.recorder.select_events(slow.get_game(result.game).id)
            assert [(s.originator_version, s.topic, TIMESTAMP.sub(b"", s.state)) for s in stored] == \
                [(s.originator_version, s.topic, TIMESTAMP.sub(b"", s.state)) for s in expected]
            assert app.verify(result.game).ok
    finally:
        app.close()
