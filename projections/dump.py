"""The read models as files for analysts: Parquet (or CSV), one file per read model its SQL file says is dumped,
and a README.md of their columns written from the files' schemas and what each model's SQL file says its
columns mean (projections.models). Read from the published read models, never a file the projector writes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
from i18n import _
import pyarrow as pa

from projections.models import column_docs, dumped
from projections.csvcells import text_column

BATCH_ROWS = 100_000
FORMATS = {"parquet": "Parquet", "csv": "CSV"}  # format -> its name in prose


def dump(con: duckdb.DuckDBPyConnection, folder: str | os.PathLike, fmt: str = "parquet") -> dict[str, int]:
    """Write every dumped read model (projections.models.dumped) into ``folder`` as ``<name>.<fmt>`` and the README.md; rows per file."""
    if fmt not in FORMATS:
        raise ValueError(_("format {format!r} is not one of {formats}").format(format=fmt, formats=", ".join(FORMATS)))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written, schemas = {}, {}
    for name, (table, _what) in dumped().items():
        reader = con.table(table).to_arrow_reader(BATCH_ROWS)
        schema = plain_schema(reader.schema, csv=fmt == "csv")
        written[name] = _write(reader, schema, folder / f"{name}.{fmt}", fmt)
        schemas[name] = schema
    for name, (made, _what, _docs) in computed().items():
        table = made(con)
        written[name] = _write(table.to_reader(BATCH_ROWS), table.schema, folder / f"{name}.{fmt}", fmt)
        schemas[name] = table.schema
    (folder / "README.md").write_text(readme(schemas, written, fmt), encoding="utf-8")
    return written


def computed() -> dict:
    """The files a dump makes in Python rather than from one read model: name -> (function of a connection giving
    an Arrow table, what a row is, each column's meaning)."""
    from projections.tournaments import FORMAT_STANDINGS_DOCS, format_standings_table

    return {"tournament_standings": (format_standings_table, "One row per player of every tournament, ranked by "
                                     "the tournament's format (its scoring, bonuses and penalties, tiebreaks).",
                                     FORMAT_STANDINGS_DOCS)}


def plain_schema(schema: pa.Schema, csv: bool = False) -> pa.Schema:
    """Types every reader knows: DuckDB's 128-bit integers as 64-bit ones, JSON as text; for CSV, lists as
    JSON text too."""
    fields = []
    for f in schema:
        kind = f.type
        if pa.types.is_decimal(kind) and kind.scale == 0:
            kind = pa.int64()
        elif isinstance(kind, pa.ExtensionType) or (csv and pa.types.is_list(kind)):
            kind = pa.string()
        fields.append(pa.field(f.name, kind))
    return pa.schema(fields)


def _write(reader: pa.RecordBatchReader, schema: pa.Schema, path: Path, fmt: str) -> int:
    import pyarrow.csv
    import pyarrow.parquet

    rows = 0
    writer = pyarrow.parquet.ParquetWriter(path, schema) if fmt == "parquet" else pyarrow.csv.CSVWriter(path, schema)
    try:
        for batch in reader:
            batch = _converted(batch, schema, fmt)
            writer.write_batch(batch)
            rows += batch.num_rows
    finally:
        writer.close()
    return rows


def _converted(batch: pa.RecordBatch, schema: pa.Schema, fmt: str) -> pa.RecordBatch:
    """A batch in the types of ``schema``; for CSV, text a spreadsheet would run is written as text
    (projections.csvcells)."""
    columns = []
    for column, target in zip(batch.columns, schema):
        if pa.types.is_list(column.type) and pa.types.is_string(target.type):
            column = pa.array([None if v is None else json.dumps(v) for v in column.to_pylist()], pa.string())
        elif isinstance(column.type, pa.ExtensionType):
            column = column.storage.cast(target.type)
        column = column.cast(target.type)
        columns.append(text_column(column) if fmt == "csv" else column)
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def readme(schemas: dict[str, pa.Schema], rows: dict[str, int], fmt: str) -> str:
    """The README.md of a dump: how to read the files, then each file's columns, types and meanings."""
    lines = ["# Rollcall read models", "",
             f"Written by `rollcall dump --{fmt}`: one {FORMATS[fmt]} file per read model of the DuckDB file "
             "(its table or view in brackets).", ""]
    if fmt == "parquet":
        lines += ["- pandas: `pandas.read_parquet('games.parquet')`; polars: `polars.read_parquet('games.parquet')`",
                  "- R: `arrow::read_parquet('games.parquet')`",
                  "- DuckDB: `SELECT * FROM 'games.parquet'`", ""]
    else:
        lines += ["Each file has a header line; JSON values and lists are JSON text, an empty cell is no value. A "
                  "text cell starting with =, +, -, @, a tab or a carriage return is written with a leading ' so that "
                  "a spreadsheet shows it as text instead of running it.", ""]
    lines += ["Seats are player ids `p1`, `p2`; tournament tables name players by name.", ""]
    for name, schema in schemas.items():
        if name in computed():
            _made, what, docs = computed()[name]
            table = "ranked by projections/tournaments.py"
        else:
            table, what = dumped()[name]
            docs = column_docs(table)
        lines += [f"## {name}.{fmt} ({table})", "", f"{what} {rows[name]:,} rows.", "",
                  "| column | type | meaning |", "|---|---|---|"]
        lines += [f"| `{f.name}` | {f.type} | {docs.get(f.name, '')} |" for f in schema]
        lines.append("")
    return "\n".join(lines)
