"""Benchmark: what one live event costs the follower, against the size of the store it follows.

On a projected data folder (``--data``, e.g. the store of bench/import_rebuild.py or bench/season.py),
``rollcall dashboard`` runs (its Streamlit server and the follower it starts) while this script records
``--events`` notes into a game of its own, one at a time, and reads the published read models as the pages do
(a connection opened for each look). For each event it prints, as medians and worst: the time from the write to
the event being readable in the published read models (what the Live page reads), and the bytes the dashboard's
process tree wrote to disk meanwhile (``write_bytes`` of /proc/PID/io of the server, the follower and their
children), beside the size of the read models. ``--follower-only`` runs the follower alone.

    .venv/bin/python bench/live_cost.py --data DIR [--events 20] [--follower-only]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.settings import FOLLOWER_FILE, READ_FILES  # noqa: E402


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    return found


def written(pids: list[int], dead: dict[int, int]) -> int:
    """Bytes the processes wrote to disk so far (those gone: what they had written when last seen)."""
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/io").read_text().splitlines():
                if line.startswith("write_bytes:"):
                    dead[p] = int(line.split()[1])
        except OSError:
            pass
    return sum(dead.values())


def visible_seq(data: Path, game: str) -> int:
    import duckdb

    from projections.queries import connect_read

    try:
        con = connect_read(data)
    except (OSError, duckdb.Error):
        return -1
    try:
        row = con.execute("SELECT max(seq) FROM fct_events WHERE game = $g", {"g": game}).fetchone()
        return row[0] or 0
    except duckdb.Error:
        return -1
    finally:
        con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--follower-only", action="store_true", help="the follower alone, without the dashboard")
    args = parser.parse_args()
    data = Path(args.data)

    from projections.projector import Projector
    from service.application import Rollcall
    from simulation.tournaments import simulate_tournament

    Projector(data).run()
    app = Rollcall.open(data)
    stored = app.recorder.max_notification_id() or 0
    game = next(iter(simulate_tournament("tornscape", f"Live cost {time.time_ns()}", 2, 1, 3, turns=1)))
    lines = [line for line in game.lines if json.loads(line).get("type") != "GameEnded"]  # a game under way
    app.import_record(lines, game.game)
    from cli.options import free_port

    command = ([sys.executable, "-m", "projections.follow", str(data)] if args.follower_only else
               [sys.executable, "-m", "cli.main", "dashboard", "--no-open", "--port", str(free_port(8790)),
                "--data", str(data)])
    follower = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 600
        while visible_seq(data, game.game) < len(lines) - 1 or not (data / FOLLOWER_FILE).exists():
            if time.monotonic() > deadline:
                raise SystemExit("the follower did not catch up within 10 minutes")
            time.sleep(0.2)
        time.sleep(2)  # settled: its first publish done
        dead: dict[int, int] = {}
        seconds, bytes_ = [], []
        for i in range(args.events):
            before = written(tree(follower.pid), dead)
            start = time.monotonic()
            seq = app.record(game.game, {"type": "Noted", "text": f"live cost {i}"})["seq"]
            while visible_seq(data, game.game) < seq:
                time.sleep(0.01)
            seconds.append(time.monotonic() - start)
            time.sleep(0.5)  # the follower's status write and the publish's tail land in this event's bytes
            bytes_.append(written(tree(follower.pid), dead) - before)
    finally:
        follower.terminate()
        follower.wait(timeout=30)
        app.close()
    files = [data / f for f in READ_FILES if (data / f).exists()]
    size = max(f.stat().st_size for f in files)
    print(f"store: {stored:,} events; read models {size / 2**20:,.0f} MB (each of {len(files)} files)")
    print(f"event recorded -> readable in the published read models: median {statistics.median(seconds):.2f} s, "
          f"worst {max(seconds):.2f} s ({args.events} events)")
    who = "the follower's processes" if args.follower_only else "the dashboard's processes"
    print(f"bytes {who} wrote per event: median {statistics.median(bytes_) / 2**20:,.1f} MB, "
          f"mean {statistics.mean(bytes_) / 2**20:,.1f} MB (with the checkpoints a file's log earns now and then), "
          f"worst {max(bytes_) / 2**20:,.1f} MB (target <= 16 MB whatever the store's size)")
    print(json.dumps({"events": stored, "read_models_bytes": size, "median_s": statistics.median(seconds),
                      "worst_s": max(seconds), "median_bytes": statistics.median(bytes_),
                      "mean_bytes": statistics.mean(bytes_), "worst_bytes": max(bytes_)}))


if __name__ == "__main__":
    main()
