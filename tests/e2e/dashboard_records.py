"""Small game records for the dashboard tests (written out as record files by the tests)."""

from __future__ import annotations

import json
from pathlib import Path


def header(game: str) -> dict:
    """A 12×10 board: p1 has a large Warden (a1) and a Swordsman (a2); p2 two infantry (b1, b2)."""
    return {
        "rollcall": 1, "system": "tornscape", "game": game,
        "players": [{"id": "p1", "name": "Anna", "faction": "engeln"},
                    {"id": "p2", "name": "Boris", "faction": "castilla"}],
        "setup": {
            "board": {"width": 12, "height": 10},
            "terrain": [{"id": "rock", "kind": "solid", "hexes": [[6, 5], [7, 5]]}],
            "models": [
                {"id": "a1", "player": "p1", "name": "Warden", "size": "large", "at": [[2, 1]],
                 "step": 2, "run": 3, "agility": 1},
                {"id": "a2", "player": "p1", "name": "Swordsman", "size": "infantry", "at": [[8, 1]],
                 "step": 3, "run": 5, "agility": 1},
                {"id": "b1", "player": "p2", "name": "Rogue", "size": "infantry", "at": [[6, 3]],
                 "step": 3, "run": 5, "agility": 1},
                {"id": "b2", "player": "p2", "name": "Ranger", "size": "infantry", "at": [[2, 8]],
                 "step": 3, "run": 5, "agility": 0},
            ],
        },
    }


# A legal game: at seq 5 the Warden a1 runs onto b1, which is ejected to [7,4] at seq 6.
LEGAL_EVENTS = [
    {"type": "TurnStarted", "turn": 1},                                                   # 1
    {"type": "PhaseStarted", "phase": "activation"},                                      # 2
    {"type": "ActivationStarted", "model": "a1"},                                         # 3
    {"type": "ModelMoved", "model": "a1", "action": "step", "path": [[4, 2]]},            # 4
    {"type": "ModelMoved", "model": "a1", "action": "run", "path": [[6, 3]]},             # 5
    {"type": "ModelEjected", "model": "b1", "by": "a1", "to": [7, 4]},                    # 6
    {"type": "ActivationEnded", "model": "a1"},                                           # 7
    {"type": "ActivationStarted", "model": "b2"},                                         # 8
    {"type": "ModelMoved", "model": "b2", "action": "step", "path": [[3, 7], [4, 6]]},    # 9
    {"type": "ActivationEnded", "model": "b2"},                                           # 10
    {"type": "PointsScored", "player": "p1", "points": 1, "reason": "objective held"},    # 11
    {"type": "TurnStarted", "turn": 2},                                                   # 12
    {"type": "PhaseStarted", "phase": "activation"},                                      # 13
    {"type": "ActivationStarted", "model": "a2"},                                         # 14
    {"type": "ModelMoved", "model": "a2", "action": "step", "path": [[9, 1], [10, 1]]},   # 15
    {"type": "ActivationEnded", "model": "a2"},                                           # 16
    {"type": "GameEnded", "score": {"p1": 1, "p2": 0}, "winner": "p1", "reason": "turn limit"},  # 17
]

# Imported with --lenient: seq 4 breaks R42 (4 hexes on a step of 3), seq 6 breaks F05.
LENIENT_EVENTS = [
    {"type": "TurnStarted", "turn": 1},
    {"type": "PhaseStarted", "phase": "activation"},
    {"type": "ActivationStarted", "model": "a2"},
    {"type": "ModelMoved", "model": "a2", "action": "step", "path": [[9, 1], [10, 1], [10, 2], [9, 3]]},
    {"type": "ActivationEnded", "model": "a2"},
    {"type": "ModelMoved", "model": "b2", "action": "step", "path": [[3, 7]]},
]


def write_record(path: Path, game: str, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(obj) + "\n" for obj in [header(game), *events]), encoding="utf-8")
    return path
