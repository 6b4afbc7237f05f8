"""Tables as people read them (dashboard/readable.py)."""

from __future__ import annotations

import math

import pandas as pd

from dashboard.readable import readable


def test_numbers_are_rounded_missing_values_said_and_factions_in_words() -> None:
    frame = pd.DataFrame({"faction": ["dread_elves", None], "luck": [1.23456, None], "p_value": [0.0004, 0.51234],
                          "games": [3, 4], "rate": [0.5, math.nan]})
    shown = readable(frame)
    assert list(shown["faction"]) == ["Dread Elves", "—"]
    assert list(shown["luck"]) == ["1.23", "—"]
    assert list(shown["p value"]) == ["< 0.001", "0.512"]
    assert list(shown["games"]) == [3, 4]
    assert list(shown["rate"]) == ["0.5", "—"]
    assert "None" not in shown.to_string()


def test_column_names_purposes_and_phases_read_as_words() -> None:
    frame = pd.DataFrame({"purpose": ["vortex_move", "dodge"], "z_score": [0.5, -1.25], "phase": ["vortex_movement", None]})
    shown = readable(frame)
    assert list(shown.columns) == ["purpose", "z score", "phase"]
    assert list(shown["purpose"]) == ["vortex move", "dodge"]
    assert list(shown["phase"]) == ["vortex movement", "—"]
