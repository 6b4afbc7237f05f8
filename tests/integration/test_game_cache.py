"""A game read again costs the events stored since (service.application.KeptRepository: eventsourcing's
aggregate cache, fast-forwarded, not copied): and it is the game replayed from its events — after another
writer's events, a take-back, a void ruling, a refused write and a write checked but never stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.errors import MalformedRecord, RecordError, RuleViolation
from service.application import Rollcall, game_uuid

GAMES = Path(__file__).resolve().parents[1] / "games"
EX1 = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
WRONG_STEP = {"type": "ModelMoved", "model": "faceless", "action": "step", "path": [[1, 4]]}


@pytest.fixture
def app(tmp_path: Path) -> Rollcall:
    return Rollcall.open(tmp_path / "data")


def started(app: Rollcall, events: int = 3) -> tuple[str, list[dict]]:
    """seed004-ex1 recorded up to its seq ``events``; every event of it."""
    lines = [x for x in EX1.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    played = [{k: v for k, v in json.loads(x).items() if k not in ("hash", "seq")} for x in lines[1:]]
    app.import_record([lines[0], *map(json.dumps, played[:events])], str(EX1))
    return GAME, played


def shifted(events: list[dict], by: int) -> list[dict]:
    """The events recorded ``by`` seqs later: the rolls they use are that much later too."""
    return [{**e, **{k: e[k] + by for k in ("roll", "dodge") if k in e}} for e in events]


def replayed(app: Rollcall, game: str = GAME) -> dict:
    """The game as a new application replays it from every stored event."""
    fresh = Rollcall.open(Path(app.env.get("SQLITE_DBNAME")).parent)
    try:
        return seen(fresh, game)
    finally:
        fresh.close()


def seen(app: Rollcall, game: str = GAME) -> dict:
    read = app.get_game(game)
    return json.loads(json.dumps({"version": read.version, "state": read.state.to_json(), "lines": read.state.lines}))


def events_read(app: Rollcall, monkeypatch) -> list[int | None]:
    """The ``gt`` of every read of a game's stored events (None: from its first), as the repository asks them."""
    asked: list[int | None] = []
    original = app.repository.event_store.get

    def get(originator_id, *args, **kwargs):
        if originator_id == game_uuid(GAME):
            asked.append(kwargs.get("gt"))
        return original(originator_id, *args, **kwargs)

    monkeypatch.setattr(app.repository.event_store, "get", get)
    return asked


def test_a_game_read_again_reads_only_the_events_stored_since(app: Rollcall, monkeypatch) -> None:
    game, played = started(app, events=3)
    version = app.get_game(game).version
    asked = events_read(app, monkeypatch)
    app.record(game, played[3])
    app.get_game(game)
    assert asked and all(gt is not None and gt >= version for gt in asked)
    assert seen(app) == replayed(app)


def test_a_game_read_again_after_another_writers_events_is_the_game_replayed(app: Rollcall) -> None:
    game, played = started(app, events=3)
    seen(app)
    other = Rollcall.open(Path(app.env.get("SQLITE_DBNAME")).parent)
    for event in played[3:6]:
        other.record(game, event)
    other.close()
    assert seen(app) == replayed(app)
    assert app.get_game(game).state.seq == 6


def test_a_taken_back_and_a_voided_game_read_through_the_cache_is_the_game_replayed(app: Rollcall) -> None:
    game, played = started(app, events=3)
    app.record(game, WRONG_STEP)
    seen(app)
    app.record(game, {"type": "TakenBack", "from": 4})
    assert seen(app) == replayed(app)
    for event in shifted(played[3:], 2):
        app.record(game, event)
    app.make_ruling(game, "Jules", [9], "void", "the activation goes on")
    assert seen(app) == replayed(app)
    assert app.get_game(game).state.activation is not None


def test_a_refused_write_leaves_the_game_read_again_as_stored(app: Rollcall) -> None:
    game, played = started(app, events=3)
    before = seen(app)
    with pytest.raises(RecordError):
        app.write(game, [played[3], WRONG_STEP, WRONG_STEP])  # the first is legal, the rest not
    assert seen(app) == before == replayed(app)
    with pytest.raises((RuleViolation, MalformedRecord)):
        app.record(game, {"type": "TurnStarted", "turn": 99})
    assert seen(app) == before


def test_a_write_checked_and_never_stored_leaves_the_game_read_again_as_stored(app: Rollcall) -> None:
    game, played = started(app, events=3)
    before = seen(app)
    checked = app.check(game, [played[3]])
    assert checked.game.state.seq == 4
    assert seen(app) == before == replayed(app)
    app.record(game, played[3])
    assert app.get_game(game).state.seq == 4 and seen(app) == replayed(app)


def test_a_write_the_store_could_not_take_leaves_the_game_read_again_as_stored(app: Rollcall, monkeypatch) -> None:
    import sqlite3

    from domain.errors import StoreFault

    game, played = started(app, events=3)
    before = seen(app)
    insert = app.recorder.insert_events
    failures = [sqlite3.OperationalError("database is locked")]

    def failing(*args, **kwargs):  # another writer holds the store, once: the events were collected already
        if failures:
            raise failures.pop()
        return insert(*args, **kwargs)

    monkeypatch.setattr(app.recorder, "insert_events", failing)
    with pytest.raises(StoreFault):
        app.record(game, played[3])
    assert seen(app) == before == replayed(app)
    app.record(game, played[3])
    assert seen(app) == replayed(app) and app.get_game(game).state.seq == 4
