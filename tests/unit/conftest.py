"""Fixtures of the rule tests: a fresh embedded store per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.application import Rollcall


@pytest.fixture
def app(tmp_path: Path) -> Rollcall:
    return Rollcall.open(tmp_path / "data")
