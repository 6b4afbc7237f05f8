"""A data folder seen from a test: a simulated game stored as another device would, and the published read
models' tables, rows in a total order (to compare two ways of projecting one store)."""

from __future__ import annotations

from pathlib import Path

from domain.settings import PUBLISHED_FILE
from projections.projector import TABLES
from projections.publish import open_published
from service.application import Rollcall
from simulation.games import record_lines, simulate_tornscape


def add_game(data: Path, seed: int, prefix: str) -> None:
    """A simulated two-turn Tornscape game ``{prefix}-{seed}`` stored through the application, in this process."""
    store = Rollcall.open(data)
    try:
        store.import_record(record_lines(simulate_tornscape(seed, f"{prefix}-{seed}", turns=2)), f"{prefix}-{seed}",
                            lenient=True)
    finally:
        store.close()


def published_tables(data: Path) -> dict[str, list[tuple]]:
    """Every table of the published read models (projector.TABLES), rows in a total order; when each event was
    stored left out (the store's own, not the records')."""
    con = open_published(data / PUBLISHED_FILE)
    try:
        return {t: con.execute(f"SELECT * {'EXCLUDE (recorded_at)' if t == 'fct_events' else ''} FROM {t} "
                               "ORDER BY ALL").fetchall() for t in TABLES}
    finally:
        con.close()
