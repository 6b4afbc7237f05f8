"""Many tables at once: eight scorekeepers recording eight games together, each through an application
service of its own with the seq it last saw (as each Record page session writes), on the embedded SQLite
store and on PostgreSQL — nothing lost, nothing duplicated, every chain whole; and two devices on one game:
the later is told the game moved on and nothing of it is stored."""

from __future__ import annotations

import json
import threading

import pytest

from service.application import Rollcall
from domain.errors import GameMovedOn
from simulation.games import record_lines, simulate_tornscape

TABLES = 8


def games(n: int) -> list[tuple[str, list[dict]]]:
    """(header line, events without seq and hash) of ``n`` simulated games."""
    out = []
    for i in range(n):
        lines = record_lines(simulate_tornscape(100 + i, f"table-{i + 1}"))
        events = [{k: v for k, v in json.loads(x).items() if k not in ("seq", "hash")} for x in lines[1:]]
        out.append((lines[0], events[:60]))
    return out


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path, monkeypatch):
    """The data folder of a store of either kind (PostgreSQL: a schema of its own)."""
    if request.param == "postgres":
        for name, value in request.getfixturevalue("postgres_env").items():
            monkeypatch.setenv(name, value)
    return tmp_path / "data"


def test_eight_tables_recorded_at_once_lose_and_duplicate_nothing(store) -> None:
    played = games(TABLES)
    setup = Rollcall.open(store)
    for header, _ in played:
        setup.import_record([header], "new game")
    start = threading.Barrier(TABLES)
    failures: list[BaseException] = []

    sessions = [Rollcall.open(store) for _ in played]  # each scorekeeper's session has its own

    def scorekeeper(app: Rollcall, header: str, events: list[dict]) -> None:
        game = json.loads(header)["game"]
        seen = 0
        try:
            start.wait(timeout=60)
            for event in events:
                seen = app.record(game, event, after=seen)["seq"]
        except BaseException as exc:  # noqa: BLE001  reported below
            failures.append(exc)
        finally:
            app.close()

    threads = [threading.Thread(target=scorekeeper, args=(app, *g)) for app, g in zip(sessions, played)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    check = Rollcall.open(store)
    for header, events in played:
        game = json.loads(header)["game"]
        lines = check.stored_lines(game)
        assert [line["seq"] for line in lines[1:]] == list(range(1, len(events) + 1))
        assert [line["type"] for line in lines[1:]] == [e["type"] for e in events]
        assert check.verify(game).ok
    notifications = check.recorder.select_notifications(1, 100_000)
    ids = [n.id for n in notifications]
    assert len(ids) == len(set(ids))
    assert len(notifications) >= TABLES * (1 + 60)


def test_two_devices_on_one_game_the_later_is_told_it_moved_on(store) -> None:
    header, events = games(1)[0]
    game = json.loads(header)["game"]
    Rollcall.open(store).import_record([header], "new game")
    first, second = Rollcall.open(store), Rollcall.open(store)
    first.record(game, events[0], after=0)
    with pytest.raises(GameMovedOn) as info:
        second.record(game, events[1], after=0)  # it still shows the setup
    assert info.value.now_at == 1
    assert len(Rollcall.open(store).stored_lines(game)) == 2
    second.record(game, events[1], after=1)  # looked again: goes on
