"""The read models of several projector workers read as one.

Worker w of W (domain.settings.worker) projects its share of the games into its own data folder; a reader opens
the W folders' published read models together (``open_union``): each ATTACHed read-only, every stored table a
view of the same name over the partitions (``UNION ALL BY NAME``), and the read models' views and macros made
again over those (a view kept in a file reads its own file's tables). What a table holds per game or per
tournament is the union of the partitions; what one holds summed over every game (SUMMED: the season's faces per
fairness test) is summed again; the last event the statistics took in is the last of the partitions'; what
every partition holds alike (the packs' rule data and facts) is read from
the first. The readers open the union when ``ROLLCALL_PARTITIONS`` names the folders
(projections.queries.connect_read)."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from domain.settings import PUBLISHED_FILE
from projections.models import SETUP, defined, fills, run_order, slug_macro
from projections.publish import open_published
from projections.sqlfiles import statements

# tables summed over every game: (the columns that key a row, the columns summed, the columns alike in every row)
SUMMED = {"stat_fairness_faces": (("level", "who", "die", "spec", "face"), ("thrown", "n"), ("ord", "probability"))}
# tables every partition holds alike (made from the rules packs, not from the store)
ALIKE = ("dim_default_dice", "dim_facts", "read_model_version")
# tables of one row, the last notification id a partition's statistics took in: the union's is the last of them
LATEST = ("stat_position",)


def open_union(folders: list[Path]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB over the published read models of ``folders`` (FileNotFoundError: one has none yet)."""
    con = duckdb.connect(":memory:")
    try:
        for i, folder in enumerate(folders):
            open_published(Path(folder) / PUBLISHED_FILE).close()  # (missing, or held while a link turns: said here)
            con.execute(f"ATTACH '{_quoted(Path(folder) / PUBLISHED_FILE)}' AS p{i} (READ_ONLY)").fetchall()
        parts = [f"p{i}" for i in range(len(folders))]
        for table in (*defined(), "tracking"):
            con.execute(f"CREATE VIEW {table} AS {_union(table, parts)}").fetchall()
        for table in ALIKE:
            con.execute(f"CREATE VIEW {table} AS SELECT * FROM p0.{table}").fetchall()
        for name in SETUP:
            for statement in statements(name):
                con.execute(statement.sql).fetchall()
        con.execute(slug_macro()).fetchall()
        for name in run_order()[1]:
            for statement in fills(name):
                con.execute(statement.sql).fetchall()
    except BaseException:
        con.close()
        raise
    return con


def _union(table: str, parts: list[str]) -> str:
    rows = " UNION ALL BY NAME ".join(f"SELECT * FROM {part}.{table}" for part in parts)
    if table in LATEST:
        return f"SELECT max(notification_id) AS notification_id FROM ({rows})"
    if table not in SUMMED:
        return rows
    keys, summed, alike = SUMMED[table]
    return (f"SELECT {', '.join(keys)}, {', '.join(f'any_value({c}) AS {c}' for c in alike)}, "
            f"{', '.join(f'sum({c})::BIGINT AS {c}' for c in summed)} FROM ({rows}) GROUP BY {', '.join(keys)}")


def _quoted(path: Path) -> str:
    return os.fspath(path).replace("'", "''")
