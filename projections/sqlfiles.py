"""The SQL files of ``projections/sql/``: one file per table, ``$name`` parameters.

A model's file defines its table (``CREATE TABLE IF NOT EXISTS``, a comment after each column saying what it
means), then fills it; projections.models tells the two apart (:attr:`Statement.defines`).

A statement may start with a comment ``-- when: TypeA, facts``: the projector then runs it only for
a batch holding an event of one of those types (``GameCreated`` for new games) or recording one of those
facts (``moves``: domain.systems.facts); without such events it would change nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from typing import NamedTuple

_END = re.compile(r";[ \t]*(?:--[^\n]*)?$", re.MULTILINE)
_WHEN = re.compile(r"^\s*--\s*when:\s*(.+)$", re.MULTILINE)
_DEFINES = re.compile(r"CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\b", re.I)


class Statement(NamedTuple):
    sql: str
    when: frozenset[str] | None  # event types that make it do something; None: always

    def needed(self, types: set[str]) -> bool:
        return self.when is None or not self.when.isdisjoint(types)

    @property
    def code(self) -> str:
        """The statement without its leading comment lines."""
        return "\n".join(line for line in self.sql.splitlines() if not line.lstrip().startswith("--")).lstrip()

    @property
    def defines(self) -> bool:
        """Whether it defines a stored table (run once, when the read models are opened; not for every batch)."""
        return _DEFINES.match(self.code) is not None


@cache
def sql_text(name: str) -> str:
    """The text of ``projections/sql/<name>.sql``."""
    return resources.files("projections").joinpath("sql", f"{name}.sql").read_text(encoding="utf-8")


@cache
def statements(name: str) -> tuple[Statement, ...]:
    """The statements of a file: each ends with ``;`` at the end of a line."""
    found = []
    for part in _END.split(sql_text(name)):
        if _has_code(part):
            when = _WHEN.search(part)
            types = frozenset(t.strip() for t in when.group(1).split(",")) if when else None
            found.append(Statement(part.strip(), types))
    return tuple(found)


def _has_code(part: str) -> bool:
    return any(line.strip() and not line.strip().startswith("--") for line in part.splitlines())


@contextmanager
def transaction(con) -> Iterator[None]:
    """One DuckDB transaction on ``con`` (not a cursor): committed at the end, rolled back on any error."""
    import duckdb

    con.execute("BEGIN TRANSACTION").fetchall()
    try:
        yield
        con.execute("COMMIT").fetchall()
    except BaseException:
        try:
            con.execute("ROLLBACK").fetchall()
        except duckdb.Error:
            pass
        raise
