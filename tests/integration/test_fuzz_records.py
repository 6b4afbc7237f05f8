"""Fuzzing: a few thousand mutants of the golden records (tests/mutants.py: deep nesting, integers of
thousands of digits, huge numbers, NaN and Infinity, lone surrogates, fields replaced, removed, renamed or of
the wrong type, truncated and shuffled lines, broken rules data, unknown vocabularies, bad bytes …) imported
as ``rollcall import`` imports them, strict and lenient, beside the golden games themselves.

Never a traceback: each refusal is one line naming the file (and the line); nothing of a refused game is
stored; every export of a stored game is valid JSON; after ``project`` every stored game's read models are
current, the golden games' among them. ``ROLLCALL_FUZZ_SEED`` picks other mutants (bench/fuzz_records.py
runs 10,000)."""

from __future__ import annotations

import collections
import os

import pytest

from fuzzing import FuzzStore, record_event_mutants
from mutants import GAMES, KINDS, mutants

SEED = int(os.environ.get("ROLLCALL_FUZZ_SEED", "20261203"))
COUNT = 3_000


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory) -> tuple[FuzzStore, dict, list]:
    store = FuzzStore(tmp_path_factory.mktemp("fuzz") / "data")
    for path in sorted(GAMES.glob("*.rollcall.jsonl")):
        outcome = store.import_lines(path.stem, path.read_bytes().splitlines(keepends=True), lenient=False)
        assert outcome.kind == "stored"
        store.golden.add(outcome.detail)
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    crashes = []
    for number, kind, game, lines in mutants(COUNT, SEED):
        outcome = store.import_lines(game, lines, lenient=number % 3 == 2)
        counts[kind][outcome.kind] += 1
        if outcome.kind == "traceback":
            crashes.append((kind, number, outcome.detail))
    return store, counts, crashes


def test_no_mutant_ends_in_a_traceback_or_a_refusal_that_names_no_file(fuzzed) -> None:
    _, counts, crashes = fuzzed
    assert set(counts) == set(KINDS)  # every kind of mutation was tried
    assert crashes == [], f"seed {SEED}: {crashes[:3]}"


def test_mutants_are_both_stored_and_refused(fuzzed) -> None:
    _, counts, _ = fuzzed
    total = sum(counts.values(), collections.Counter())
    assert total["stored"] > 0 and total["refused"] > 0
    for kind in ("deep_nesting", "long_integer", "nan_infinity", "lone_surrogate", "truncated_line"):
        assert counts[kind]["stored"] == 0, kind  # what JSON cannot hold never gets in


def test_every_export_of_a_stored_mutant_is_valid_json(fuzzed) -> None:
    store, _, _ = fuzzed
    assert store.bad_exports() == []


def test_the_read_models_of_every_stored_game_are_current_after_project(fuzzed) -> None:
    store, _, _ = fuzzed
    assert store.project_and_check() == []
    assert len(store.golden) == len(list(GAMES.glob("*.rollcall.jsonl")))
    assert not store.golden & store.unreplayable


def test_mutated_events_appended_one_by_one_are_stored_or_refused_in_one_line() -> None:
    counts, problems = record_event_mutants(COUNT // 2, SEED)
    assert problems == [], f"seed {SEED}: {problems[:3]}"
    assert counts["stored"] > 0 and counts["refused"] > 0
