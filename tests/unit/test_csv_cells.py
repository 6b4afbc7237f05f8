"""A CSV cell a spreadsheet would run as a formula is written as text; every other value is kept."""

from __future__ import annotations

import pyarrow as pa

from projections.csvcells import as_text, text_column


def test_every_start_a_spreadsheet_runs_gets_a_leading_quote() -> None:
    cells = ["=1+1", "+1", "-2", "@A1", "\tTab", "\rCR"]
    assert [as_text(c) for c in cells] == ["'=1+1", "'+1", "'-2", "'@A1", "'\tTab", "'\rCR"]


def test_other_text_and_other_types_are_kept() -> None:
    assert [as_text(v) for v in ("Anna", "a=b", " =x", "", 3, None)] == ["Anna", "a=b", " =x", "", 3, None]


def test_a_column_is_quoted_cell_by_cell_and_kept_whole_when_no_cell_needs_it() -> None:
    mixed = pa.array(["Anna", "\tTab", None, "\rCR", "-2"], pa.string())
    assert text_column(mixed).to_pylist() == ["Anna", "'\tTab", None, "'\rCR", "'-2"]
    plain = pa.array(["Anna", "Boris"], pa.large_string())
    assert text_column(plain) is plain
    numbers = pa.array([1, 2])
    assert text_column(numbers) is numbers
