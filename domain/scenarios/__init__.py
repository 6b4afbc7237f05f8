"""Scenarios: ready-made game setups shipped with Rollcall, one JSON file per scenario in
``domain/scenarios/<system>/<name>.json`` (the file holds a header's ``setup`` object, seats ``p1`` and
``p2``). A paired tournament round takes its setup from here unless the organiser gives one."""

from __future__ import annotations

import json
from pathlib import Path

FOLDER = Path(__file__).resolve().parent


def scenarios(system: str) -> dict[str, dict]:
    """The shipped scenarios of ``system`` (any of its aliases), by name (the file's stem), in name order."""
    from domain.systems import system_for

    folder = FOLDER / system_for(system).alias
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))}
