"""Rule data (dice faces, tables, decks) shipped with each pack and overridden per game, and dice as data."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any


def load_rule_data(name: str) -> dict:
    text = resources.files("domain.rules_data").joinpath(f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def merge(base: dict, override: dict) -> dict:
    """Deep merge of a record's ``rules`` over the defaults; lists and scalars replace."""
    out = _deep_copy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = _deep_copy(value)
    return out


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _deep_copy(value: Any) -> Any:
    """``copy.deepcopy`` of JSON data (dicts, lists and scalars), faster; anything else by deepcopy."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _deep_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _deep_copy(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


class Dice:
    """Dice as data: each die a mapping face -> count; ``d6`` is built in."""

    def __init__(self, data: dict, crit_counts_as_success: bool = True) -> None:
        self.data = {name: dict(faces) for name, faces in data.items() if not name.startswith("_")}
        self.data.setdefault("d6", {str(i): 1 for i in range(1, 7)})
        self.crit_counts = crit_counts_as_success

    def faces_of(self, die: str) -> list:
        faces = self.data[die]
        return [int(f) for f in faces] if die == "d6" else list(faces)

    def is_face(self, die: str, face: Any) -> bool:
        if die == "d6":
            return isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6
        return isinstance(face, str) and face in self.data[die]

    def numbered(self, die: str) -> bool:
        """Whether every face of ``die`` is a number (a die a roll can say a face it ``needs`` of)."""
        return all(type(f) is int for f in self.faces_of(die))

    def successes(self, faces: list) -> int:
        return sum(1 for f in faces if f == "success" or (f == "crit" and self.crit_counts))


