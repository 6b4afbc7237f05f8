"""The read models as models: each SQL file of ``projections/sql`` that makes a read model names, in its SQL,
what it reads (``FROM``/``JOIN`` and the macros it calls) and what it makes (``CREATE`` a table, view or macro;
``INSERT INTO``, ``UPDATE``, ``DELETE FROM`` a table). The order they run in is derived from those names: a
model runs after the model that makes what it reads (the file that creates it, or the file named after the
table it fills). Adding a read model is adding its file.

Three kinds, by what a file reads and makes:

- the setup: ``schema`` (the tables the batches fill) and ``macros``, run first;
- **batch** models: they read a batch's tables (``batch_events``, … from projections.replay, or
  ``batch_headers``, which a batch model makes of them) and fill their table; run for every batch, in one
  transaction;
- **view** models: the views and macros over the tables (and ``stat_tables``, the statistics' tables, which
  projections.stats refreshes); created once when the read models are opened.

Files that make nothing (the queries of the pages and the CLI) are not models.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from projections.sqlfiles import sql_text

SETUP = ("schema", "macros")
# the tables projections.replay gives each batch (registered as batch_<name>)
BATCH_TABLES = frozenset({"batch_events", "batch_changes", "batch_closes", "batch_rolls", "batch_resets",
                          "batch_failures"})
LOADED = frozenset({"dim_default_dice"})  # loaded by the projector from the packs' rule data (their default dice)
NOT_MODELS = frozenset({"stat_refresh"})  # the statistics' refresh (projections.stats): it fills stat_tables' tables
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
_NOISE = re.compile(r"--[^\n]*|'(?:[^']|'')*'")


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
        return "batch" if any(read.startswith("batch_") for read in self.reads) else "view"

    @property
    def makes(self) -> frozenset[str]:
        """The names it is the maker of: what it creates, and the table named after it that it fills."""
        return self.creates | (self.writes & {self.name})


def parse(name: str, text: str) -> Model:
    code = _NOISE.sub(" ", text)
    creates = {m.lower() for m in _CREATES.findall(code)}
    writes = {m.lower() for m in _WRITES.findall(code)}
    local = {m.lower() for m in _CTES.findall(code)}
    for params in _PARAMS.findall(code):
        local |= {p.strip().lower() for p in params.split(",") if p.strip()}
    reads = {m.lower() for m in _READS.findall(code)}
    calls = {m.lower() for m in _CALLS.findall(code)}
    return Model(name, frozenset(creates), frozenset(writes - creates),
                 frozenset((reads | (calls & _macro_names())) - local - creates - BUILT_IN))


@cache
def _files() -> tuple[str, ...]:
    folder = resources.files("projections").joinpath("sql")
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".sql")))


@cache
def _macro_names() -> frozenset[str]:
    found = set()
    for name in _files():
        found |= {m.lower() for m in re.findall(r"\bMACRO\s+" + _NAME, _NOISE.sub(" ", sql_text(name)), re.I)}
    return frozenset(found)


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
                    raise ModelError(f"{name}.sql reads {read}, which no read model makes")
                maker = batch_made.get(read)
            if maker is not None and maker != name and maker in wanted:
                needs.add(maker)
        before[name] = needs
    order: list[str] = []
    left = dict(before)
    while left:
        ready = sorted(n for n, needs in left.items() if not needs - set(order))
        if not ready:
            raise ModelError("the read models read each other in a cycle: " + ", ".join(sorted(left)))
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
