"""Importing many records at once (service.importing: checked in worker processes, stored in batches) stores
exactly the rows one write of each record stores (``Rollcall.import_record``): byte for byte, but for
each row's timestamp and the order in which games follow one another."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import orjson
import pytest

from service.application import Rollcall
from domain.errors import GameAlreadyRecorded, RecordError
from domain.seats import seats_of
from domain.record import canonical, canonical_plain, loads_plain
from simulation.games import record_lines, simulate
from service.importing import import_files

GAMES = Path(__file__).resolve().parents[1] / "games"
RECORDS = sorted(GAMES.glob("*.rollcall.jsonl"))
TIMESTAMP = re.compile(rb'"timestamp":\{"_type_":"datetime_iso","_data_":"[^"]*"\}')


def name_of(path: Path) -> str:
    return path.name[: -len(".rollcall.jsonl")]


def ordinary_import(app: Rollcall, lines: list[str], source: str, *, lenient: bool = False) -> None:
    """One record through the application's one write path."""
    app.import_record(lines, source, lenient=lenient)


def rows(data: Path) -> list[tuple]:
    """The stored rows in notification order, each state with its timestamp blanked."""
    with sqlite3.connect(data / "events.sqlite") as con:
        stored = con.execute("SELECT originator_id, originator_version, topic, state FROM stored_events "
                             "ORDER BY rowid").fetchall()
    return [(oid, version, topic, TIMESTAMP.sub(b'"timestamp":null', state)) for oid, version, topic, state in stored]


def both_ways(tmp_path: Path, lines: list[str], *, lenient: bool = False, author: str | None = None,
              ) -> tuple[list[tuple], list[tuple]]:
    """The rows of ``lines`` imported by the bulk import and by one write."""
    (tmp_path / "record.rollcall.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    bulk, single = Rollcall.open(tmp_path / "bulk"), Rollcall.open(tmp_path / "single")
    bulk.acting_as = single.acting_as = author
    (result,) = import_files(bulk, [tmp_path / "record.rollcall.jsonl"], lenient=lenient, workers=1)
    assert not isinstance(result, Exception), result
    ordinary_import(single, lines, "record", lenient=lenient)
    return rows(tmp_path / "bulk"), rows(tmp_path / "single")


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_bulk_import_stores_the_rows_of_one_write(tmp_path: Path, path: Path) -> None:
    bulk, single = both_ways(tmp_path, path.read_text(encoding="utf-8").splitlines())
    assert len(bulk) > 1
    assert bulk == single


@pytest.mark.parametrize("system", ["tornscape", "t9a", "claustrophobia"])
def test_bulk_import_of_simulated_games_stores_the_rows_of_one_write(tmp_path: Path, system: str) -> None:
    lines = record_lines(simulate(system, 7, f"sim-{system}"))
    bulk, single = both_ways(tmp_path, lines)
    assert len(bulk) == len(lines)
    assert bulk == single


def test_bulk_import_writes_the_author_of_every_event(tmp_path: Path) -> None:
    bulk, single = both_ways(tmp_path, (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl")
                             .read_text(encoding="utf-8").splitlines(), author="Judge Dredd")
    assert bulk == single
    assert all(json.loads(state)["author"] == "Judge Dredd" for _, _, topic, state in bulk if topic.startswith("rollcall:"))


def test_bulk_import_of_a_lenient_record_keeps_the_violations_as_one_write(tmp_path: Path) -> None:
    lines = (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    objs = [json.loads(line) for line in lines if not line.startswith("#")]
    bare = [json.dumps({k: v for k, v in o.items() if k != "hash"}) for o in objs]
    moved = next(i for i, o in enumerate(objs) if o.get("type") == "ModelMoved")
    broken = {k: v for k, v in objs[moved].items() if k != "hash"}
    broken["free_attacks"] = ["nobody"]
    bare[moved] = json.dumps(broken)
    bulk, single = both_ways(tmp_path, bare, lenient=True)
    assert bulk == single
    assert b'"violations"' in bulk[moved][3]


def test_lines_with_floats_escapes_and_huge_numbers_are_stored_as_one_write(tmp_path: Path) -> None:
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
    bulk, single = both_ways(tmp_path, text)
    assert bulk == single
    app = Rollcall.open(tmp_path / "bulk")
    stored = app.stored_lines(objs[0]["game"])
    assert stored[1]["x_extra0"] == 1e-05 and stored[4]["x_extra3"] == 2 ** 53
    assert app.verify(objs[0]["game"]).ok


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
            assert orjson.dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        except TypeError:  # orjson refuses what it cannot write as json does (the caller falls back)
            assert "12345678901234567890123" in text or "ud800" in text


@pytest.mark.parametrize("text", ['{"a": NaN}', '{"a": -Infinity}', '{"a": 1e400}'])
def test_what_json_cannot_hold_is_refused_when_read(text: str) -> None:
    with pytest.raises(ValueError):
        loads_plain(text)


def test_bulk_import_in_worker_processes_stores_the_rows_of_one_write_each(tmp_path: Path) -> None:
    bulk = Rollcall.open(tmp_path / "bulk")
    results = list(import_files(bulk, RECORDS, workers=2))
    assert all(not isinstance(r, Exception) for r in results)
    single = Rollcall.open(tmp_path / "single")
    for path in RECORDS:
        ordinary_import(single, path.read_text(encoding="utf-8").splitlines(), str(path))
    assert sorted(rows(tmp_path / "bulk")) == sorted(rows(tmp_path / "single"))


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


def club_night_with_a_freed_seat(data: Path) -> tuple[Rollcall, dict]:
    """A store whose round 1 was paired again, so that Player 3's seat is held by a withdrawn game; and the
    header of a new game seating Player 3 in that round."""
    app = Rollcall.open(data)
    app.create_tournament("Club Night", "tornscape")
    for i in range(3):
        app.register_player("Club Night", f"Player {i + 1}", "engeln")
    withdrawn = app.pair_round("Club Night", 1, seed=1)["tables"][0]["game"]
    assert withdrawn in app.pair_round("Club Night", 1, seed=5)["withdrawn"]
    header = {k: v for k, v in app.stored_lines(withdrawn)[0].items() if k != "hash"}
    header["game"] = "club-night-r1-guest"
    header["players"][0]["name"] = "Guest"
    return app, header


def test_bulk_import_of_a_game_taking_a_seat_a_withdrawn_game_freed_stores_it_as_one_write(tmp_path: Path) -> None:
    bulk, header = club_night_with_a_freed_seat(tmp_path / "bulk")
    single, _ = club_night_with_a_freed_seat(tmp_path / "single")
    (tmp_path / "guest.rollcall.jsonl").write_text(json.dumps(header) + "\n", encoding="utf-8")
    (result,) = import_files(bulk, [tmp_path / "guest.rollcall.jsonl"], workers=1)
    assert not isinstance(result, Exception), result
    ordinary_import(single, [json.dumps(header)], "guest")
    assert rows(tmp_path / "bulk")[-3:] == rows(tmp_path / "single")[-3:]
    assert bulk.seat_taken(seats_of(header)[1][1]) == "club-night-r1-guest"


def test_import_of_a_broken_record_stores_nothing(tmp_path: Path) -> None:
    lines = (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    lines[-1] = lines[-1].replace('"hash": "', '"hash": "0')
    app = Rollcall.open(tmp_path / "data")
    with pytest.raises(RecordError) as caught:
        app.import_record(lines, "edited.rollcall.jsonl")
    assert caught.value.line == len(lines)
    assert list(app.headers()) == []


@pytest.mark.postgres
def test_bulk_import_into_postgresql_stores_the_rows_of_one_write(tmp_path: Path, postgres_env) -> None:
    app = Rollcall(env=postgres_env)
    try:
        results = list(import_files(app, RECORDS[:3] + RECORDS[:1], workers=1))
        assert isinstance(results[3], RecordError) and isinstance(results[3].cause, GameAlreadyRecorded)
        single = Rollcall.open(tmp_path / "single")
        for path in RECORDS[:3]:
            ordinary_import(single, path.read_text(encoding="utf-8").splitlines(), str(path))
        for result in results[:3]:
            stored = app.recorder.select_events(single.get_game(result.game).id)
            expected = single.recorder.select_events(single.get_game(result.game).id)
            assert [(s.originator_version, s.topic, TIMESTAMP.sub(b"", s.state)) for s in stored] == \
                [(s.originator_version, s.topic, TIMESTAMP.sub(b"", s.state)) for s in expected]
            assert app.verify(result.game).ok
    finally:
        app.close()


def counting_checks(monkeypatch) -> list[str]:
    """The sources ``Rollcall.check_record`` is asked to check, in every application of this process."""
    checked: list[str] = []
    original = Rollcall.check_record

    def check_record(self, lines, source="<record>", **kwargs):
        checked.append(source)
        return original(self, lines, source, **kwargs)

    monkeypatch.setattr(Rollcall, "check_record", check_record)
    return checked


def test_bulk_import_checks_a_game_taking_a_seat_held_in_the_store_once(tmp_path: Path, monkeypatch) -> None:
    bulk, header = club_night_with_a_freed_seat(tmp_path / "bulk")
    guest = tmp_path / "guest.rollcall.jsonl"
    guest.write_text(json.dumps(header) + "\n", encoding="utf-8")
    checked = counting_checks(monkeypatch)
    results = list(import_files(bulk, [RECORDS[0], guest, RECORDS[1]], workers=1))
    assert not any(isinstance(r, Exception) for r in results), results
    assert sorted(checked) == sorted(map(str, [RECORDS[0], guest, RECORDS[1]]))


def test_bulk_import_refuses_a_second_game_seating_a_player_in_the_same_round_checking_each_once(
        tmp_path: Path, monkeypatch) -> None:
    header = json.loads(RECORDS[0].read_text(encoding="utf-8").splitlines()[0])
    header = {k: v for k, v in header.items() if k != "hash"} | {"tournament": "Club Night", "round": 1}
    first, second = tmp_path / "first.rollcall.jsonl", tmp_path / "second.rollcall.jsonl"
    first.write_text(json.dumps(header | {"game": "club-night-r1-t1"}) + "\n", encoding="utf-8")
    second.write_text(json.dumps(header | {"game": "club-night-r1-t2"}) + "\n", encoding="utf-8")
    checked = counting_checks(monkeypatch)
    app = Rollcall.open(tmp_path / "data")
    stored, refused = import_files(app, [first, second], workers=1)
    assert stored.game == "club-night-r1-t1"
    assert isinstance(refused, RecordError) and refused.line == 1 and refused.cause.rule == "F11"
    assert str(refused).startswith(f"{second}:1")
    assert sorted(checked) == sorted(map(str, [first, second]))


@pytest.mark.parametrize("content", [None, b"", b"\n"], ids=["a folder", "empty", "a blank line"])
def test_bulk_import_refuses_a_file_that_fails_whole_at_line_1(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "bad.rollcall.jsonl"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    app = Rollcall.open(tmp_path / "data")
    for workers in (1, 2):
        refused, stored = import_files(app, [path, RECORDS[workers]], workers=workers)
        assert isinstance(refused, RecordError) and refused.line == 1, refused
        assert str(refused).startswith(f"{path}:1"), refused
        assert stored.game == name_of(RECORDS[workers]) or not isinstance(stored, Exception)


def test_bulk_import_asks_the_key_of_each_game_as_one_write_does(tmp_path: Path) -> None:
    open_store = Rollcall.open(tmp_path / "open")
    lines = record_lines(simulate("tornscape", 7, "ruled"))
    open_store.import_record(lines, "ruled")
    open_store.open_dispute("ruled", "p1", [1], "the first event")
    open_store.make_ruling("ruled", "Judy", [1], "stands", "it stands")
    ruled = tmp_path / "ruled.rollcall.jsonl"
    ruled.write_text("\n".join(open_store.export_lines("ruled")) + "\n", encoding="utf-8")
    data = tmp_path / "keyed"
    app = Rollcall.open(data)
    app.key = app.add_key("organiser", "Olga")
    scorekeeper = app.add_key("scorekeeper", "Sam")
    app = Rollcall.open(data, key=scorekeeper)
    results = list(import_files(app, [RECORDS[0], ruled, RECORDS[1]], workers=1))
    refused = results[1]
    assert isinstance(refused, RecordError) and type(refused.cause).__name__ == "AccessDenied", refused
    assert refused.line == 1 and str(refused).startswith(f"{ruled}:1")
    assert {h["game"] for h in app.headers()} == {name_of(RECORDS[0]), name_of(RECORDS[1])}
