"""Imports point one way: every import of every package's modules (at module level and inside functions, read
with ast, nothing run) is one the package table of docs/architecture.md allows (its "may import" column)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
LEFT_OUT = {"tests", "bench", "docs", "data"}
EVERYTHING = "everything"


def packages(root: Path) -> list[str]:
    """The project's top-level packages: every folder with an __init__.py (tests, benchmarks and docs aside)."""
    return sorted(p.parent.name for p in root.glob("*/__init__.py")
                  if p.parent.name not in LEFT_OUT and not p.parent.name.startswith("."))


def allowed(table: str, names: list[str]) -> dict[str, set[str]]:
    """Package -> the project's packages it may import, from the rows ``| `pkg/` | … | may import |`` of a
    Markdown table (``everything``: every package)."""
    found: dict[str, set[str]] = {}
    for row in table.splitlines():
        if not row.startswith("| `"):
            continue
        cells = row.strip().strip("|").split("|")
        package = cells[0].strip().strip("`").rstrip("/")
        words = {w.strip().split(" ")[0] for w in cells[-1].replace(";", ",").split(",")}
        found[package] = set(names) if EVERYTHING in words else words & set(names)
    return found


def imported(path: Path, module: str) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, wherever it is (a relative import resolved against ``module``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                package = parts if path.name == "__init__.py" else parts[:-1]
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            out.append((node.lineno, base))
    return out


def violations(root: Path, rules: dict[str, set[str]]) -> list[str]:
    """``file:line: package imports other`` for each import the rules do not allow; a package with no rule is
    one too (a new package is placed in the table)."""
    names = packages(root)
    found = [f"{name}/: not in the package table" for name in names if name not in rules]
    for name in names:
        for path in sorted((root / name).rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts)
            for line, target in imported(path, module):
                top = target.split(".")[0]
                if top in names and top != name and top not in rules.get(name, set()):
                    found.append(f"{path.relative_to(root)}:{line}: {name} imports {target}")
    return found


def cycles(rules: dict[str, set[str]]) -> list[str]:
    """The packages of the table that may import, around a ring, themselves (the table's order is not one way)."""
    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for other in rules.get(start, ()):
            if other == goal or (other not in seen and reaches(other, goal, seen | {other})):
                return True
        return False

    return [name for name, may in rules.items() if EVERYTHING not in may and reaches(name, name, {name})]


def test_every_import_of_every_package_follows_the_documented_layers() -> None:
    rules = allowed(ARCHITECTURE.read_text(encoding="utf-8"), packages(ROOT))
    assert violations(ROOT, rules) == []


def test_the_documented_layers_point_one_way() -> None:
    rules = allowed(ARCHITECTURE.read_text(encoding="utf-8"), packages(ROOT))
    assert {"domain", "store", "service", "projections", "dashboard", "cli"} <= set(rules)
    assert "service" not in rules["store"] and "service" not in rules["projections"]
    assert cycles({k: v for k, v in rules.items() if k != "cli"}) == []


TABLE = """
| package | what | may import |
|---|---|---|
| `domain/` | the games | stdlib |
| `store/` | rows | domain; eventsourcing |
| `service/` | the write path | store, domain |
"""


def planted(tmp_path: Path, files: dict[str, str]) -> Path:
    for name in ("domain", "store", "service"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("", encoding="utf-8")
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("text, line", [
    ("from service.application import Rollcall\n", 1),
    ("import os\n\n\ndef bulk():\n    from service import application\n    return application\n", 5),
    ("def bulk():\n    import service.application\n", 2),
    ("from ..service import application\n", 1),
], ids=["module level", "inside a function", "import inside a function", "relative"])
def test_an_upward_import_planted_in_a_tree_is_found(tmp_path: Path, text: str, line: int) -> None:
    root = planted(tmp_path, {"store/bulk.py": text, "service/app.py": "from store import bulk\n"})
    rules = allowed(TABLE, packages(root))
    found = violations(root, rules)
    assert len(found) == 1 and found[0].startswith(f"store/bulk.py:{line}: store imports service")


def test_a_tree_importing_downward_only_passes_and_a_package_outside_the_table_does_not(tmp_path: Path) -> None:
    root = planted(tmp_path, {"store/rows.py": "from domain import x\n", "service/app.py": "from store import rows\n"})
    assert violations(root, allowed(TABLE, packages(root))) == []
    (root / "extra").mkdir()
    (root / "extra" / "__init__.py").write_text("", encoding="utf-8")
    assert violations(root, allowed(TABLE, packages(root))) == ["extra/: not in the package table"]


def test_a_table_whose_layers_go_round_is_not_one_way() -> None:
    ring = TABLE.replace("| `domain/` | the games | stdlib |", "| `domain/` | the games | service |")
    assert set(cycles(allowed(ring, ["domain", "store", "service"]))) == {"domain", "store", "service"}
