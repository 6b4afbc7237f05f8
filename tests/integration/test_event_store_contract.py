"""One contract for every event store Rollcall runs on: in-memory (eventsourcing.popo), SQLite and
PostgreSQL. PostgreSQL uses the ``postgres_env`` fixture of tests/conftest.py (a schema of its own per
test; skipped when the server is unreachable, a failure when CI is set)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.application import GAME_CREATED, Rollcall, game_uuid
from domain.errors import RecordError, RuleViolation

GAMES = Path(__file__).resolve().parents[1] / "games"
EX1 = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
EX4 = GAMES / "seed004-ex4-shove-order.rollcall.jsonl"


def golden_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rollcall]:
    if request.param == "memory":
        env = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    elif request.param == "sqlite":
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite"),
               "SQLITE_LOCK_TIMEOUT": "30"}
    else:
        env = request.getfixturevalue("postgres_env")
    application = Rollcall(env=env)
    yield application
    application.close()


def test_the_store_is_the_one_asked_for(app: Rollcall, request: pytest.FixtureRequest) -> None:
    module = type(app.factory).__module__
    expected = {"memory": "eventsourcing.popo", "sqlite": "eventsourcing.sqlite",
                "postgres": "eventsourcing.postgres"}[request.node.callspec.params["app"]]
    assert module == expected
    if expected == "eventsourcing.postgres":
        assert app.factory.datastore.schema == request.getfixturevalue("postgres_env")["POSTGRES_SCHEMA"]


def test_import_then_export_gives_the_record_back(app: Rollcall) -> None:
    imported = app.import_record(golden_lines(EX1), str(EX1))
    assert (imported.game, imported.events, imported.violations) == ("seed004-ex1", 7, 0)
    assert app.exists("seed004-ex1") is True
    assert list(app.export_lines("seed004-ex1")) == golden_lines(EX1)
    state = app.get_game("seed004-ex1").state.to_json()
    assert state["models"]["swordsman"]["at"] == [[7, 5]]


def test_record_one_event_then_export_and_verify(app: Rollcall) -> None:
    app.import_record(golden_lines(EX1), str(EX1))
    recorded = app.record("seed004-ex1", {"type": "Noted", "text": "the Swordsman burns", "by": "judge"})
    assert recorded["seq"] == 8
    exported = list(app.export_lines("seed004-ex1"))
    assert exported[:-1] == golden_lines(EX1)
    last = json.loads(exported[-1])
    assert (last["seq"], last["type"], last["text"], last["hash"]) == (8, "Noted", "the Swordsman burns",
                                                                       recorded["hash"])
    result = app.verify("seed004-ex1")
    assert result.ok and result.events == 8


def test_a_recorded_event_breaking_a_rule_is_refused_and_not_stored(app: Rollcall) -> None:
    app.import_record(golden_lines(EX1), str(EX1))
    app.record("seed004-ex1", {"type": "TurnStarted", "turn": 2})
    app.record("seed004-ex1", {"type": "ActivationStarted", "model": "faceless"})
    app.record("seed004-ex1", {"type": "ModelMoved", "model": "faceless", "action": "step", "path": [[3, 5]]})
    with pytest.raises(RuleViolation) as info:
        app.record("seed004-ex1", {"type": "ModelMoved", "model": "faceless", "action": "step", "path": [[5, 6]]})
    assert info.value.rule == "R41"
    assert app.get_game("seed004-ex1").state.seq == 10  # the turn, the activation and the first step only
    assert app.verify("seed004-ex1").ok


def test_list_headers_in_the_order_the_games_were_recorded(app: Rollcall) -> None:
    app.import_record(golden_lines(EX4), str(EX4))
    app.import_record(golden_lines(EX1), str(EX1))
    headers = list(app.headers())
    assert [h["game"] for h in headers] == ["seed004-ex4", "seed004-ex1"]
    assert headers[1] == json.loads(golden_lines(EX1)[0])


def test_a_duplicate_import_is_refused_and_changes_nothing(app: Rollcall) -> None:
    app.import_record(golden_lines(EX1), str(EX1))
    with pytest.raises(RecordError, match="already recorded"):
        app.import_record(golden_lines(EX1), str(EX1))
    assert [h["game"] for h in app.headers()] == ["seed004-ex1"]
    assert list(app.export_lines("seed004-ex1")) == golden_lines(EX1)


def test_a_refused_import_stores_nothing(app: Rollcall) -> None:
    lines = golden_lines(EX1)
    broken = json.loads(lines[6])
    broken.pop("hash")
    broken["to"] = [10, 2]  # not a nearest free hex: R57
    with pytest.raises(RecordError, match=r":7 \(ModelEjected\): R57 "):
        app.import_record(lines[:6] + [json.dumps(broken)], "broken")
    assert app.exists("seed004-ex1") is False
    assert list(app.headers()) == []


def test_stored_topics_are_stable_names(app: Rollcall) -> None:
    app.import_record(golden_lines(EX1), str(EX1))
    stored = app.recorder.select_events(game_uuid("seed004-ex1"))
    topics = [s.topic for s in stored]
    assert topics[0] == GAME_CREATED == "rollcall:GameCreated"
    assert [s.originator_version for s in stored] == list(range(1, 9))
    moved = stored[4]  # seq 4, originator_version 5
    assert moved.originator_version == 5 and moved.topic == "rollcall:ModelMoved"
    assert topics[1:] == ["rollcall:" + json.loads(line)["type"] for line in golden_lines(EX1)[1:]]
    notifications = app.recorder.select_notifications(start=None, limit=100, topics=["rollcall:ModelMoved"])
    assert [n.originator_version for n in notifications] == [5]
