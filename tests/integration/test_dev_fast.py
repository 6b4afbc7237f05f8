"""`python3 dev.py test --fast`: the unit tests without the slow ones, on two workers; the whole suite stays the
default (CI runs it), and names its slowest tests."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TWO = ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"]  # two workers, each taking whole files


def dev():
    spec = importlib.util.spec_from_file_location("dev_entry", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ran(monkeypatch, argv: list[str]) -> list[str]:
    module = dev()
    calls = []
    monkeypatch.setattr(module, "ensure_venv", lambda: None)
    monkeypatch.setattr(module, "run", lambda args: calls.append(args) or 0)
    assert module.main(argv) == 0
    [args] = calls
    return args[args.index("pytest") + 1:]


def test_fast_runs_the_unit_tests_that_are_not_slow_on_two_workers(monkeypatch) -> None:
    assert ran(monkeypatch, ["test", "--fast"]) == [*TWO, "tests/unit", "-m", "not slow", "-q"]
    assert ran(monkeypatch, ["test", "--fast", "tests/unit/test_hexes.py"]) == [
        *TWO, "-m", "not slow", "tests/unit/test_hexes.py"]
    assert ran(monkeypatch, ["test", "-q"]) == ["--durations=30", *TWO, "-q"]  # everything, as CI runs it


def test_a_run_names_its_thirty_slowest_tests_unless_told_otherwise(monkeypatch) -> None:
    assert ran(monkeypatch, ["test", "tests/e2e"]) == ["--durations=30", *TWO, "tests/e2e"]
    assert ran(monkeypatch, ["test", "--durations=0", "-n", "1"]) == ["--durations=0", "-n", "1"]
    assert ran(monkeypatch, ["test", "--durations", "5"]) == [*TWO, "--durations", "5"]


def test_fast_with_options_that_take_values_still_runs_the_unit_tests_alone(monkeypatch) -> None:
    assert ran(monkeypatch, ["test", "--fast", "-p", "no:cacheprovider", "-k", "vortex"]) == [
        *TWO, "tests/unit", "-m", "not slow", "-q", "-p", "no:cacheprovider", "-k", "vortex"]
    assert ran(monkeypatch, ["test", "--fast", "tests/unit/test_hexes.py::test_neighbours"]) == [
        *TWO, "-m", "not slow", "tests/unit/test_hexes.py::test_neighbours"]


def test_the_fast_selection_leaves_out_the_slow_unit_tests_and_keeps_the_rest() -> None:
    def collected(*args: str) -> int:
        out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "tests/unit", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return sum(1 for line in out.splitlines() if "::" in line)

    every, fast = collected(), collected("-m", "not slow")
    assert 0 < every - fast < every / 10  # a few slow ones out, the rule tests in


def test_the_browser_tests_count_as_slow() -> None:
    def collected(*args: str) -> int:
        out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "tests/e2e", *args], cwd=ROOT, capture_output=True, text=True).stdout
        return sum(1 for line in out.splitlines() if "::" in line)

    assert collected("-m", "browser") > 0  # (pytest exits with 5 when it collects none: not checked)
    assert collected("-m", "browser and not slow") == 0
