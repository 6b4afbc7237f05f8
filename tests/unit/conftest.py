"""Fixtures of the rule tests: each test's stores in memory (eventsourcing's POPO store: no files), since
what the rules decide does not depend on where the events are kept; the stores on disk are the integration
tests' (tests/integration)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.settings import PERSISTENCE_ENV
from service.application import Rollcall


@pytest.fixture(autouse=True)
def in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every store a unit test opens is in memory (the environment names eventsourcing's POPO store)."""
    monkeypatch.setenv(PERSISTENCE_ENV, "eventsourcing.popo")


@pytest.fixture
def app(tmp_path: Path) -> Rollcall:
    return Rollcall.open(tmp_path / "data")
