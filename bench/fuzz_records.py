"""Fuzzing: import mutants of the golden records (tests/mutants.py, every mutation kind in turn) through the
import path of ``rollcall import``, strict and lenient in turn, then export every stored game and project.

Prints, per mutation kind, how many mutants were stored, refused with a one-line error naming the file and
line, or ended in a traceback (or a refusal that names no line); then whether every export was valid JSON
and every stored game's read models are current; then half as many mutated events appended one by one to
golden games cut short, as ``rollcall record`` appends them. The reference, in the same run: the golden records
themselves imported the same way (mutants/s beside records/s).

    .venv/bin/python bench/fuzz_records.py [--mutants 10000] [--seed 1] [--work DIR]
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mutants import GAMES, KINDS, mutants  # noqa: E402
from fuzzing import FuzzStore, record_event_mutants  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="rollcall-fuzz-"))

    reference = FuzzStore(work / "reference")
    golden = sorted(GAMES.glob("*.rollcall.jsonl"))
    start = time.perf_counter()
    for path in golden:
        reference.import_lines(path.stem, path.read_bytes().splitlines(keepends=True), lenient=False)
    reference_rate = len(golden) / (time.perf_counter() - start)

    store = FuzzStore(work / "fuzz")
    counts: dict[str, collections.Counter] = {kind: collections.Counter() for kind in KINDS}
    crashes: dict[str, tuple[str, str]] = {}
    start = time.perf_counter()
    for number, kind, game, lines in mutants(args.mutants, args.seed):
        outcome = store.import_lines(game, lines, lenient=number % 3 == 2)
        counts[kind][outcome.kind] += 1
        if outcome.kind == "traceback":
            frames = [t for t in outcome.detail.splitlines() if t.strip().startswith("File ")]
            where = frames[-1].strip() if frames else ""
            crashes.setdefault(f"{where} {outcome.detail.splitlines()[-1][:160]}", (kind, outcome.detail))
    rate = args.mutants / (time.perf_counter() - start)
    appended, problems = record_event_mutants(args.mutants // 2, args.seed)
    exports = store.bad_exports()
    behind = store.project_and_check()

    width = max(map(len, KINDS))
    print(f"{'kind':<{width}}  {'stored':>7} {'refused':>8} {'traceback':>10}")
    for kind, counter in counts.items():
        print(f"{kind:<{width}}  {counter['stored']:>7} {counter['refused']:>8} {counter['traceback']:>10}")
    total = sum(counts.values(), collections.Counter())
    print(f"{'all':<{width}}  {total['stored']:>7} {total['refused']:>8} {total['traceback']:>10}")
    print(f"exports that are not valid JSON: {len(exports)}; games whose read models are not current: {len(behind)}"
          f" ({len(store.unreplayable)} named unreplayable)")
    print(f"events appended one by one (rollcall record): {appended['stored']} stored, {appended['refused']} refused, "
          f"{len(problems)} tracebacks or refusals of more than one line")
    print(f"{rate:.0f} mutants/s; reference: {reference_rate:.0f} golden records/s ({rate / reference_rate:.2f}x)")
    for line, (kind, detail) in list(crashes.items())[:20]:
        print(f"\n--- {kind}: {line}\n{detail}")
    for game, problem in (exports + behind)[:20]:
        print(f"{game}: {problem}")
    for problem in problems[:10]:
        print(problem)
    return 1 if crashes or exports or behind or problems else 0


if __name__ == "__main__":
    sys.exit(main())
