"""The read models as models: one SQL file of ``projections/sql`` per table or view, named after it. Each
names, in its SQL, what it reads (``FROM``/``JOIN`` and the macros it calls) and what it makes (``CREATE`` a
table, view or macro; ``INSERT INTO``, ``UPDATE``, ``DELETE FROM`` a table). The order they run in is derived
from those names: a model runs after the model that makes what it reads (the file that creates it, or the
file named after the table it fills). Adding a read model is adding its file.

A stored table's file begins with its definition (``CREATE TABLE IF NOT EXISTS``, run once when the read
models are opened), each column followed by a comment saying what it means; a view's file says what its
columns mean in a ``-- Columns:`` block (``--   name: meaning``). A model dumped for analysts says so in a line
``-- Dumped as <file>: <what a row is>``; the dump's README is written from these (:func:`dumped`,
:func:`column_docs`).

Three kinds, by what a file reads and makes:

- the setup: ``macros`` (the connection's helpers), run first;
- **batch** models: they read a batch's tables (``batch_events``, … from projections.replay, or
  ``batch_headers``, which a batch model makes of them) and fill their table; run for every batch, in one
  transaction;
- **view** models: the views and macros over the tables; created once when the read models are opened;
- **statistics** models (``stat_*``): tables refreshed per game at the end of a projector run
  (projections.stats): ``stat_touched`` finds the games to refresh, then each table replaces its rows of them.

Files that make nothing (the queries of the pages and the CLI) are not models.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from projections.sqlfiles import Statement, sql_text, statements

SETUP = ("macros",)
# the tables projections.replay gives each batch (registered as batch_<name>)
BATCH_TABLES = frozenset({"batch_events", "batch_changes", "batch_closes", "batch_rolls", "batch_resets",
                          "batch_failures"})
# loaded by the projector from the domain: the packs' default dice (rule data) and facts (domain.systems.facts),
# and the names' slug (domain.record.slug) as the macro name_slug
LOADED = frozenset({"dim_default_dice", "dim_facts", "name_slug"})
NOT_MODELS: frozenset[str] = frozenset()
STATISTICS = "stat_"  # the statistics models' names start with it (their macros, stat_macros, are a view model)
# DuckDB's table functions and system views a model may read
BUILT_IN = frozenset({"range", "unnest", "generate_series", "query_table", "json_each", "duckdb_tables",
                      "duckdb_views", "information_schema"})

_NAME = r"([a-z_][a-z0-9_]*)"
_CREATES = re.compile(r"\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP\s+|TEMPORARY\s+)?(?:TABLE|VIEW|MACRO)\s+"
                      r"(?:IF\s+NOT\s+EXISTS\s+)?" + _NAME, re.I)
_WRITES = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+" + _NAME, re.I)
_READS = re.compile(r"\b(?:FROM|JOIN)\s+" + _NAME, re.I)
_CALLS = re.compile(r"\b" + _NAME + r"\s*\(", re.I)
_CTES = re.compile(r"(?:\bWITH(?:\s+RECURSIVE)?|,)\s*" + _NAME + r"\s*(?:\([^()]*\))?\s+AS\s*(?:NOT\s+)?(?:MATERIALIZED\s*)?\(",
                   re.I)
_PARAMS = re.compile(r"\bMACRO\s+[a-z_][a-z0-9_]*\s*\(([^()]*)\)", re.I)
_NOISE = re.compile(r"--[^\n]*|'(?:[^']|'')*'|\bDISTINCT\s+FROM\b", re.I)
# a table named by a string to a macro whose first parameter is a table (``stat_rows_of('fct_events', $few)``)
_TABLE_ARG = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(\s*'([a-z_][a-z0-9_]*)'", re.I)
_MACRO = re.compile(r"\bMACRO\s+" + _NAME + r"\s*\(\s*([a-z_0-9]*)", re.I)  # a macro and its first parameter


class ModelError(ValueError):
    """The models cannot be ordered: a cycle, or a name read that nothing makes."""


@dataclass(frozen=True)
class Model:
    name: str
    creates: frozenset[str]  # tables, views and macros it creates
    writes: frozenset[str]  # tables it fills or changes
    reads: frozenset[str]  # what it reads: tables, views, macros (its own CTEs, parameters and creations left out)

    @property
    def kind(self) -> str:
        if self.name in SETUP:
            return "setup"
        if self.name.startswith(STATISTICS) and self.name != "stat_macros":
            return "statistics"
        return "batch" if any(read.startswith("batch_") for read in self.reads) else "view"

    @property
    def makes(self) -> frozenset[str]:
        """The names it is the maker of: what it creates, and the table named after it that it fills."""
        return self.creates | (self.writes & {self.name})


def parse(name: str, text: str) -> Model:
    uncommented = re.sub(r"--[^\n]*", " ", text)
    named = {table.lower() for macro, table in _TABLE_ARG.findall(uncommented)
             if macro.lower() in _table_macros() | {"query_table"}}
    code = _NOISE.sub(" ", text)
    creates = {m.lower() for m in _CREATES.findall(code)}
    writes = {m.lower() for m in _WRITES.findall(code)}
    local = {m.lower() for m in _CTES.findall(code)}
    for params in _PARAMS.findall(code):
        local |= {p.strip().lower() for p in params.split(",") if p.strip()}
    reads = {m.lower() for m in _READS.findall(code)} | named
    calls = {m.lower() for m in _CALLS.findall(code)}
    return Model(name, frozenset(creates), frozenset(writes - creates),
                 frozenset((reads | (calls & _macro_names())) - local - creates - BUILT_IN))


@cache
def _files() -> tuple[str, ...]:
    folder = resources.files("projections").joinpath("sql")
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".sql")))


@cache
def _macros() -> dict[str, str]:
    """Every macro the SQL files create, by name: its first parameter (``tbl``: it takes a table's name)."""
    found = {}
    for name in _files():
        for macro, first in _MACRO.findall(_NOISE.sub(" ", sql_text(name))):
            found[macro.lower()] = first.lower()
    return found


def _table_macros() -> frozenset[str]:
    """The macros whose first parameter is a table's name (``tbl``)."""
    return frozenset(m for m, first in _macros().items() if first == "tbl")


def _macro_names() -> frozenset[str]:
    return frozenset(_macros())


@cache
def models() -> dict[str, Model]:
    """Every model of projections/sql, by name (files that make nothing, and NOT_MODELS, left out)."""
    found = {}
    for name in _files():
        if name in NOT_MODELS:
            continue
        model = parse(name, sql_text(name))
        if model.creates or model.writes:
            found[name] = model
    return found


def ordered(found: dict[str, Model], kind: str) -> tuple[str, ...]:
    """The models of ``kind`` in an order where each follows the makers of what it reads and of the tables it
    changes (the other kinds come first or apart: their makers are not waited for); ties alphabetical.
    ModelError on a cycle or on a name read that no model, batch table or built-in makes."""
    makers: dict[str, str] = {}
    for model in found.values():
        for made in model.makes:
            makers.setdefault(made, model.name)
    wanted = {name: m for name, m in found.items() if m.kind == kind}
    batch_made = _batch_made(found)
    before: dict[str, set[str]] = {}
    for name, model in wanted.items():
        needs = set()
        for read in model.reads | (model.writes - model.makes):
            maker = makers.get(read)
            if maker is None:
                if read not in BATCH_TABLES | LOADED and read not in batch_made:
                    raise ModelError(f"{name}.sql reads {read}, which no read model makes")  # untranslated: for who writes SQL files
                maker = batch_made.get(read)
            if maker is not None and maker != name and maker in wanted:
                needs.add(maker)
        before[name] = needs
    order: list[str] = []
    left = dict(before)
    while left:
        ready = sorted(n for n, needs in left.items() if not needs - set(order))
        if not ready:
            raise ModelError("the read models read each other in a cycle: " + ", ".join(sorted(left)))  # untranslated: for who writes SQL files
        order.append(ready[0])
        del left[ready[0]]
    return tuple(order)


def _batch_made(found: dict[str, Model]) -> dict[str, str]:
    """Tables a batch model creates for the later ones of the same batch (batch_headers)."""
    return {made: m.name for m in found.values() if m.kind == "batch" for made in m.creates}


@cache
def run_order() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the batch models, the view models), each in the order they run."""
    found = models()
    return ordered(found, "batch"), ordered(found, "view")


@cache
def refresh_order() -> tuple[str, ...]:
    """The statistics models in the order a refresh runs them (``stat_touched`` first: every other reads it)."""
    return ordered(models(), "statistics")


def definitions(name: str) -> tuple[Statement, ...]:
    """The statements of a model's file that define its stored table (run once, when the read models open)."""
    return tuple(s for s in statements(name) if s.defines)


def fills(name: str) -> tuple[Statement, ...]:
    """The statements of a model's file that fill its table or create its view (every batch, or once)."""
    return tuple(s for s in statements(name) if not s.defines)


@cache
def defined() -> tuple[str, ...]:
    """The models that define a stored table."""
    return tuple(name for name in models() if definitions(name))


_DUMPED = re.compile(r"^--\s*Dumped as ([a-z_]+):\s*(.+)$", re.M)
_COLUMN_LINE = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s+[A-Z][^\n]*?--\s*(.+)$")
_COLUMN_DOC = re.compile(r"^--\s{2,}([a-z_][a-z0-9_]*):\s*(.*)$")


@cache
def dumped() -> dict[str, tuple[str, str]]:
    """The models dumped for analysts: file name -> (model, what a row is), from their ``-- Dumped as`` lines."""
    found = {}
    for name in models():
        for file, what in _DUMPED.findall(sql_text(name)):
            found[file] = (name, what.strip())
    return dict(sorted(found.items()))


@cache
def column_docs(name: str) -> dict[str, str]:
    """What each column of model ``name`` means: the comment after it in its table's definition, or its line
    in the file's ``-- Columns:`` block."""
    docs: dict[str, str] = {}
    for statement in definitions(name):
        for line in statement.code.splitlines()[1:]:
            found = _COLUMN_LINE.match(line)
            if found:
                docs[found.group(1)] = found.group(2).strip()
    block = False
    for line in sql_text(name).splitlines():
        if line.strip() == "-- Columns:":
            block = True
        elif block:
            found = _COLUMN_DOC.match(line)
            if not found:
                block = False
            elif found.group(2):
                docs[found.group(1)] = found.group(2).strip()
    return docs


def slug_macro() -> str:
    """The macro ``name_slug(t)``: domain.record.slug in SQL (a tournament's or a player's key, as the
    read models join names), made from the domain's own letters so that the two never differ."""
    from domain.record import SLUG_KEPT, SLUG_LETTERS

    text = "lower(t)"
    for letter, latin in SLUG_LETTERS.items():
        text = f"replace({text}, '{letter}', '{latin}')"
    return f"CREATE OR REPLACE MACRO name_slug(t) AS trim(regexp_replace({text}, '[^{SLUG_KEPT}]+', '-', 'g'), '-')"
