"""Read models projected with other SQL definitions (an older or newer Rollcall) are rebuilt, not extended."""

from __future__ import annotations

from pathlib import Path

import duckdb

from service.application import Rollcall
from simulation.games import record_lines, simulate_tornscape
from domain.settings import READ_FILES
from projections.projector import Projector, definitions_version


def stored(data: Path, n: int) -> None:
    store = Rollcall.open(data)
    for i in range(n):
        store.import_record(record_lines(simulate_tornscape(i, f"upgrade-{i}", turns=1)), f"sim {i}")
    store.close()


def test_the_same_definitions_resume_from_the_tracking_position(tmp_data: Path) -> None:
    stored(tmp_data, 2)
    first = Projector(tmp_data).run()
    assert first > 0
    assert Projector(tmp_data).run() == 0


def test_changed_definitions_rebuild_every_read_model(tmp_data: Path) -> None:
    stored(tmp_data, 2)
    total = Projector(tmp_data).run()
    con = duckdb.connect(str(tmp_data / READ_FILES[0]))
    con.execute("UPDATE read_model_version SET version = 'an older Rollcall'")
    con.execute("DELETE FROM fct_events WHERE seq > 3")  # what an older projection might have lacked
    con.close()
    assert Projector(tmp_data).run() == total
    con = duckdb.connect(str(tmp_data / "rollcall.read.duckdb"), read_only=True)
    assert con.execute("SELECT version FROM read_model_version").fetchone()[0] == definitions_version()
    assert con.execute("SELECT count(*) FROM fct_events").fetchone()[0] + 2 == total  # headers are not events
    con.close()
