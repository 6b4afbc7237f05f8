"""Tables as people read them: numbers rounded, nothing shown as "None", factions in words."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from domain.systems.presentation import title_words, words
from i18n import _

MISSING = "—"


def number(value: Any, column: str = "") -> Any:
    """A float rounded for reading: p-values to three decimals (below 0.001 said so), others to two."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, bool) or not isinstance(value, float):
        return value
    if column == "p" or column.startswith("p_") or column.endswith("_p") or "p_value" in column:
        return "< 0.001" if 0 <= value < 0.001 else f"{value:.3f}"
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value)}"


IN_WORDS = ("purpose", "phase", "test", "kind")  # columns whose values are ids of the record ("vortex_move")


def readable(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` for display: floats rounded, missing values as "—", factions, purposes and phases
    in words, column names too ("z score", not ``z_score``)."""
    out = frame.copy()
    for column in out.columns:
        name = str(column)
        if "faction" in name:
            out[column] = [title_words(v) if isinstance(v, str) and v else MISSING for v in out[column]]
        elif name in IN_WORDS:
            out[column] = [words(v) if isinstance(v, str) else number(v, name) for v in out[column]]
        elif out[column].dtype.kind == "f" or out[column].dtype == object:
            out[column] = [number(v, name) for v in out[column]]
    return out.rename(columns={c: _(words(c)) for c in out.columns if isinstance(c, str)})  # a catalog's, if any
