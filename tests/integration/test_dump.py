"""`rollcall dump`: the read models as Parquet or CSV files with a README.md of their columns, read back
with DuckDB (and pandas) as an analyst would."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from cli.main import app
from projections.dump import computed
from projections.models import column_docs, dumped

SIMULATED = (("tornscape", "Dump Open", 5, 2), ("t9a", "Dump Magic", 2, 1), ("claustrophobia", "Dump Descent", 2, 1))


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with a small simulated tournament of each system and a dispute, projected."""
    folder = tmp_path_factory.mktemp("dump") / "data"
    runner = CliRunner()
    for system, name, players, rounds in SIMULATED:
        result = runner.invoke(app, ["simulate", "--tournament", name, "--system", system, "--players", str(players),
                                     "--rounds", str(rounds), "--turns", "2", "--data", str(folder)])
        assert result.exit_code == 0, result.output
    disputed = runner.invoke(app, ["dispute", "open", "dump-open-r1-t1", "--by", "p1", "--about", "3",
                                   "--claim", "wrong die", "--data", str(folder)])
    assert disputed.exit_code == 0, disputed.output
    assert runner.invoke(app, ["project", "--data", str(folder)]).exit_code == 0
    return folder


@pytest.fixture(scope="module")
def parquet(data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("parquet")
    result = CliRunner().invoke(app, ["dump", "--parquet", str(out), "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert f"wrote {len(dumped()) + len(computed())} Parquet files" in result.output
    return out


def read_model_rows(data: Path, table: str) -> int:
    con = duckdb.connect(str(data / "rollcall.read.duckdb"), read_only=True)
    try:
        return len(con.table(table).fetchall())
    finally:
        con.close()


def query(sql: str, path: Path) -> list[tuple]:
    """``sql`` over the file ``path`` ($path), with a DuckDB of its own."""
    con = duckdb.connect()
    try:
        return con.execute(sql, {"path": str(path)}).fetchall()
    finally:
        con.close()


def test_every_read_model_reads_back_with_duckdb_row_for_row(data: Path, parquet: Path) -> None:
    for name, (table, _) in dumped().items():
        written = query("SELECT count(*) FROM read_parquet($path)", parquet / f"{name}.parquet")[0][0]
        assert written == read_model_rows(data, table), name
    assert read_model_rows(data, "fct_events") > 100 and read_model_rows(data, "fct_disputes") == 1


def test_parquet_columns_have_types_every_reader_knows(parquet: Path) -> None:
    import pandas as pd

    standings = pd.read_parquet(parquet / "standings.parquet")
    assert str(standings["tournament_points"].dtype) == "int64"
    events = query("SELECT payload::JSON ->> 'type', type FROM read_parquet($path)", parquet / "events.parquet")
    assert events and all(parsed == kind for parsed, kind in events)


def test_the_readme_describes_every_column_of_every_file(parquet: Path) -> None:
    readme = (parquet / "README.md").read_text()
    assert {"events", "games", "casts", "standings", "rulings"} <= set(dumped())
    for name, (table, _) in dumped().items():
        columns = query("DESCRIBE SELECT * FROM read_parquet($path)", parquet / f"{name}.parquet")
        assert f"## {name}.parquet ({table})" in readme
        for column, *_ in columns:
            meaning = column_docs(table).get(column)
            assert meaning, f"{table}.{column}: nothing in projections/sql/{table}.sql says what it means"
            assert f"| `{column}` | " in readme and meaning in readme


def test_csv_files_hold_the_same_rows(data: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["dump", "--csv", str(tmp_path), "--data", str(data)])
    assert result.exit_code == 0, result.output
    rows = query("SELECT count(*) FROM read_csv($path)", tmp_path / "results.csv")[0][0]
    assert rows == read_model_rows(data, "fct_results")
    about = query("SELECT about FROM read_csv($path, all_varchar = true)", tmp_path / "disputes.csv")[0][0]
    assert about == "[3]"


def test_dump_without_a_folder_says_what_it_needs(data: Path) -> None:
    result = CliRunner().invoke(app, ["dump", "--data", str(data)])
    assert result.exit_code == 1 and "--parquet DIR or --csv DIR" in result.output


def test_csv_cells_a_spreadsheet_would_run_are_text_and_parquet_keeps_them_as_they_are(tmp_path: Path) -> None:
    import csv
    import json

    from domain.scenarios import scenarios

    # a name holds no tab or carriage return (domain.names): those two starts are tested in tests/unit/test_csv_cells.py
    folder, names = tmp_path / "data", ("=HYPERLINK(\"http://x.invalid\",\"x\")", "=1+1", "+1", "-2", "@A1", "@SUM(A1)")
    for number, (a, b) in enumerate(zip(names[::2], names[1::2]), start=1):
        header = {"rollcall": 1, "system": "t9a", "game": f"formula-{number}", "tournament": "-Cup", "round": number,
                  "table": 1, "players": [{"id": "p1", "name": a, "faction": "=orcs"}, {"id": "p2", "name": b}],
                  "setup": next(iter(scenarios("t9a").values()))}
        record = tmp_path / f"formula-{number}.rollcall.jsonl"
        record.write_text(json.dumps(header) + "\n", encoding="utf-8")
        assert CliRunner().invoke(app, ["import", str(record), "--data", str(folder)]).exit_code == 0
    for fmt in ("csv", "parquet"):
        result = CliRunner().invoke(app, ["dump", f"--{fmt}", str(tmp_path / fmt), "--data", str(folder)])
        assert result.exit_code == 0, result.output
    with (tmp_path / "csv" / "players.csv").open(encoding="utf-8", newline="") as f:
        players = list(csv.DictReader(f))
    assert sorted(p["name"] for p in players) == sorted("'" + n for n in names)
    assert {p["faction"] for p in players} == {"'=orcs", ""} and {p["seat"] for p in players} == {"1", "2"}
    with (tmp_path / "csv" / "pairings.csv").open(encoding="utf-8", newline="") as f:
        assert {p["tournament"] for p in csv.DictReader(f)} == {"'-Cup"}
    assert "leading '" in (tmp_path / "csv" / "README.md").read_text(encoding="utf-8")
    parquet = query("SELECT name FROM read_parquet($path) ORDER BY name", tmp_path / "parquet" / "players.parquet")
    assert [n for (n,) in parquet] == sorted(names)
