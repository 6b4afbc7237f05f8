"""Cells a spreadsheet opens as text: a text cell starting with a character that makes a spreadsheet run it as a
formula (``=``, ``+``, ``-``, ``@``, a tab, a carriage return) is written with a leading ``'``, as OWASP advises
against CSV injection. :func:`as_text` decides it for every CSV Rollcall writes: the tournament tables
(``rollcall tournament … --csv``, the dashboard's downloads) and the read models (``rollcall dump --csv``).
Parquet and JSON keep every value as it is."""

from __future__ import annotations

import re
from typing import Any

import pyarrow as pa

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_STARTS = "^[" + re.escape("".join(FORMULA_STARTS)) + "]"  # the same test, for a whole column at once


def as_text(value: Any) -> Any:
    """``value`` as a CSV cell: a string a spreadsheet would run gets a leading ``'``; anything else is kept."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def text_column(column: pa.Array) -> pa.Array:
    """A string column whose cells are :func:`as_text`; the column itself when no cell needs it (most)."""
    import pyarrow.compute as pc

    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        return column
    if not pc.any(pc.match_substring_regex(column, _STARTS)).as_py():
        return column
    return pa.array([as_text(v) for v in column.to_pylist()], column.type)
