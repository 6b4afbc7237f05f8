"""Scenarios: ready-made game setups shipped with Rollcall, one JSON file per scenario in
``domain/scenarios/<system>/<name>.json`` (the file holds a header's ``setup`` object, seats ``p1`` and
``p2``). A paired tournament round takes its setup from here unless the organiser gives one."""

from __future__ import annotations

import json
from pathlib import Path

from i18n import _

FOLDER = Path(__file__).resolve().parent


USER_FOLDER = "scenarios"  # <data>/scenarios/<system>/<name>.json: a user's own scenarios


def scenarios(system: str) -> dict[str, dict]:
    """The shipped scenarios of ``system`` (any of its aliases), by name (the file's stem), in name order."""
    from domain.systems import system_for

    folder = FOLDER / system_for(system).alias
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))}


def own_scenarios(system: str, data_dir) -> tuple[dict[str, dict], list[str]]:
    """A user's own scenarios of ``system`` in ``<data_dir>/scenarios/<system>/*.json`` by name, and what is
    wrong with the files that are not one (a file that is not a JSON object, named with its reason)."""
    from domain.systems import system_for

    found, problems = {}, []
    folder = Path(data_dir) / USER_FOLDER / system_for(system).alias
    for path in sorted(folder.glob("*.json")):
        try:
            setup = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            problems.append(_("{file}: not a JSON file ({why})").format(file=path, why=exc))
            continue
        if not isinstance(setup, dict):
            problems.append(_("{file}: a scenario is a JSON object (a header's setup)").format(file=path))
            continue
        found[path.stem] = setup
    return found, problems
