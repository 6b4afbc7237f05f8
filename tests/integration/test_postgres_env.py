"""The postgres_env fixture gives eventsourcing a working, isolated store."""

from __future__ import annotations

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

pytestmark = pytest.mark.postgres


class Counter(Aggregate):
    def __init__(self) -> None:
        self.n = 0

    @event("Incremented")
    def increment(self) -> None:
        self.n += 1


def test_application_round_trip_in_own_schema(postgres_env: dict[str, str]) -> None:
    app = Application(env=postgres_env)
    try:
        counter = Counter()
        counter.increment()
        counter.increment()
        app.save(counter)
        assert app.repository.get(counter.id).n == 2
        notifications = app.recorder.select_notifications(start=None, limit=10)
        assert len(notifications) == 3
        schema = postgres_env["POSTGRES_SCHEMA"]
        assert app.factory.datastore.schema == schema
    finally:
        app.close()
