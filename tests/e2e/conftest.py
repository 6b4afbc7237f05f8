"""Fixtures for the dashboard tests: a data folder with two small games, imported and projected."""

from __future__ import annotations

from pathlib import Path

import pytest
from dashboard_records import LEGAL_EVENTS, LENIENT_EVENTS, write_record


@pytest.fixture(scope="session")
def replay_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A projected data folder holding the games ``e2e-legal`` and ``e2e-lenient``."""
    from service.application import Rollcall
    from projections.projector import Projector

    root = tmp_path_factory.mktemp("dashboard")
    data = root / "data"
    store = Rollcall.open(data)
    for game, events, lenient in (("e2e-legal", LEGAL_EVENTS, False), ("e2e-lenient", LENIENT_EVENTS, True)):
        record = write_record(root / f"{game}.rollcall.jsonl", game, events)
        with open(record, encoding="utf-8") as handle:
            store.import_record(handle, str(record), lenient=lenient)
    store.close()
    Projector(data).run()
    assert (data / "rollcall.read.duckdb").exists()
    return data


# Golden records of the other systems (and a Tornscape game with ether phenomena) for the Replay page.
SYSTEM_GAMES = ("t9a-miscast-before-spell-and-attribute", "claustrophobia-seed003-sceptre-three-dice",
                "seed000-stabilisation-crit-hostile-explore")


@pytest.fixture(scope="session")
def systems_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A projected data folder holding the golden games of SYSTEM_GAMES (by the ids in their headers)."""
    from service.application import Rollcall
    from projections.projector import Projector

    games = Path(__file__).resolve().parents[1] / "games"
    data = tmp_path_factory.mktemp("systems") / "data"
    store = Rollcall.open(data)
    for name in SYSTEM_GAMES:
        record = games / f"{name}.rollcall.jsonl"
        with open(record, encoding="utf-8") as handle:
            store.import_record(handle, str(record))
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(scope="session")
def long_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A projected data folder holding a game of about 5,000 events of each system (long-<system>)."""
    from long_records import long_games_data

    data = tmp_path_factory.mktemp("long") / "data"
    long_games_data(data)
    return data
