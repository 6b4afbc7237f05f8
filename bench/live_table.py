"""Benchmark: recording at the table and following it live.

1. **A tap on the Record page** (headless chromium, the embedded SQLite store): from the click on a button
   that records an event (activations, their ends, turns and phases of a Tornscape scenario) until the page
   says the event is recorded (stored, and the page drawn again from the store). Reference in the same run:
   the same write through the application service alone (``Rollcall.record``, in this process), and a tap
   that records nothing (a rerun of the page: picking a form).
2. **An event recorded to the Live page**: the Live page open on a round; an event recorded through the
   application service (as another device or ``rollcall record`` would) until the page's card of its game
   shows it. Reference: the same event until the projector has republished the read models.
3. **Eight recorders at once**: eight threads, each with an application service of its own recording a game
   of its own event by event (as eight Record page sessions write), on SQLite and on PostgreSQL (when the
   server answers; POSTGRES_* variables), in events/s; reference: one recorder alone on the same store.

    .venv/bin/python bench/live_table.py [--taps 40] [--live 15] [--events 150]

Targets: a tap median ≤ 300 ms; an event to the Live page median ≤ 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from streamlit_server import chromium, streamlit_server  # noqa: E402

from service.application import Rollcall  # noqa: E402
from projections.projector import Projector  # noqa: E402
from simulation.games import record_lines, simulate_tornscape  # noqa: E402

TAPPABLE = ("end ", "activate ", "Turn ", "Activation phase")
TAPPABLE_RE = re.compile("^(" + "|".join(re.escape(t) for t in TAPPABLE) + ")")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def figures(name: str, values: list[float], unit: str = "ms") -> str:
    return (f"{name}: median {statistics.median(values):.0f} {unit}, p95 {percentile(values, 0.95):.0f} {unit} "
            f"({len(values)} samples)")


def scenario_game(data: Path, game: str) -> None:
    from domain.scenarios import scenarios

    setup = {**scenarios("tornscape")["ash-crossing"], "vortices": []}  # turns go on without Phase V
    header = {"rollcall": 1, "system": "tornscape", "game": game, "setup": setup,
              "players": [{"id": "p1", "name": "Anna", "faction": "engeln"},
                          {"id": "p2", "name": "Boris", "faction": "castilla"}]}
    Rollcall.open(data).write(header=header)


def idle(page) -> None:
    page.wait_for_timeout(100)
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=30_000)


def taps(page, base: str, game: str, count: int) -> tuple[list[float], list[float]]:
    """(a tap that records, a tap that only reruns) in ms."""
    page.goto(f"{base}/record?game={game}")
    page.get_by_text("Record a game").wait_for()
    recording, rerunning = [], []
    seq = 0
    for _ in range(count):
        idle(page)
        page.get_by_role("button", name=TAPPABLE_RE).first.wait_for()
        labels = page.get_by_role("button").all_inner_texts()
        label = next((x for x in labels if x.startswith(TAPPABLE) and not x.endswith("…")), None)
        if label is None:
            raise SystemExit(f"nothing to tap among {labels}")
        started = time.perf_counter()
        page.get_by_role("button", name=label, exact=True).first.click()
        seq += 1
        try:
            page.get_by_text(f"Recorded seq {seq}:").wait_for(timeout=30_000)
        except Exception:
            raise SystemExit(f"no word of seq {seq} after tapping {label!r} among {labels}")
        recording.append((time.perf_counter() - started) * 1000)
    for _ in range(max(5, count // 4)):
        idle(page)
        started = time.perf_counter()
        page.get_by_role("button", name="Points scored …", exact=True).click()
        page.get_by_role("button", name="Cancel", exact=True).wait_for()
        rerunning.append((time.perf_counter() - started) * 1000)
        idle(page)
        page.get_by_role("button", name="Cancel", exact=True).click()
    return recording, rerunning


def writes_alone(data: Path, game: str, count: int) -> list[float]:
    """The application service's write of the same kind of events, in this process (ms)."""
    app = Rollcall.open(data)
    out = []
    for _ in range(count):
        state = app.get_game(game).state
        action = next(a for a in app.get_game(game).system.legal_actions(state)
                      if a.complete and a.event["type"] in ("ActivationStarted", "ActivationEnded", "TurnStarted",
                                                            "PhaseStarted"))
        started = time.perf_counter()
        app.record(game, action.event, after=state.seq)
        out.append((time.perf_counter() - started) * 1000)
    return out


def live(page, base: str, data: Path, game: str, count: int) -> tuple[list[float], list[float]]:
    """(an event recorded until the Live page shows it, until the read models are republished) in s."""
    app = Rollcall.open(data)
    page.goto(f"{base}/live")
    page.locator(f'.rc-live-card[data-game="{game}"]').wait_for(timeout=60_000)
    published = data / "rollcall.read.duckdb"
    shown, republished = [], []
    for i in range(count):
        idle(page)
        page.wait_for_timeout(300)
        before = published.stat().st_mtime_ns
        started = time.perf_counter()
        seq = app.record(game, {"type": "Noted", "text": f"live {i}"})["seq"]
        while published.stat().st_mtime_ns == before:
            time.sleep(0.01)
        republished.append(time.perf_counter() - started)
        page.locator(f'.rc-live-card[data-game="{game}"][data-seq="{seq}"]').wait_for(timeout=30_000)
        shown.append(time.perf_counter() - started)
    return shown, republished


def recorders(data: Path, tables: int, events: int) -> tuple[float, float]:
    """(events/s of ``tables`` recorders at once, events/s of one recorder alone) on the store of ``data``."""
    played = []
    for i in range(tables + 1):
        lines = record_lines(simulate_tornscape(300 + i, f"rec-{i}-{time.time_ns()}"))
        played.append((lines[0], [{k: v for k, v in json.loads(x).items() if k not in ("seq", "hash")}
                                   for x in lines[1:events + 1]]))
    setup = Rollcall.open(data)
    for header, _ in played:
        setup.import_record([header], "bench")

    def record(app: Rollcall, header: str, evs: list[dict], start: threading.Barrier | None = None) -> None:
        game, seen = json.loads(header)["game"], 0
        if start is not None:
            start.wait()
        for event in evs:
            seen = app.record(game, event, after=seen)["seq"]

    alone = Rollcall.open(data)
    started = time.perf_counter()
    record(alone, *played[-1])
    one = len(played[-1][1]) / (time.perf_counter() - started)
    sessions = [Rollcall.open(data) for _ in range(tables)]
    start = threading.Barrier(tables + 1)
    threads = [threading.Thread(target=record, args=(app, *g, start)) for app, g in zip(sessions, played[:tables])]
    for t in threads:
        t.start()
    start.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    many = sum(len(g[1]) for g in played[:tables]) / (time.perf_counter() - started)
    return many, one


def postgres_reachable() -> bool:
    import socket

    try:
        socket.create_connection((os.environ.get("POSTGRES_HOST", "127.0.0.1"),
                                  int(os.environ.get("POSTGRES_PORT", "5432"))), 2).close()
        return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--live", type=int, default=15)
    parser.add_argument("--events", type=int, default=150)
    parser.add_argument("--only", choices=("taps", "live", "recorders"), help="one part alone")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "data"
        scenario_game(data, "bench-taps")
        scenario_game(data, "bench-alone")
        scenario_game(data, "bench-live")
        Projector(data).run()
        with streamlit_server(data, Path(work) / "server.log") as base, chromium() as browser:
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(30_000)
            if args.only in (None, "taps"):
                recording, rerunning = taps(page, base, "bench-taps", args.taps)
                alone = writes_alone(data, "bench-alone", args.taps)
                print(figures("tap on the Record page to the event stored and shown", recording)
                      + "  (target ≤ 300 ms median)")
                print(figures("  reference: the write alone (Rollcall.record)", alone)
                      + f"; ratio {statistics.median(recording) / statistics.median(alone):.1f}×")
                print(figures("  reference: a tap that only reruns the page", rerunning)
                      + f"; ratio {statistics.median(recording) / statistics.median(rerunning):.2f}×")
            if args.only in (None, "live"):
                shown, republished = live(page, base, data, "bench-live", args.live)
                print(figures("event recorded to the Live page", [s * 1000 for s in shown])
                      + "  (target ≤ 2 s median)")
                print(figures("  reference: the event until the read models are republished",
                              [s * 1000 for s in republished]))
        if args.only in (None, "recorders"):
            many, one = recorders(data, 8, args.events)
            print(f"8 recorders at once on SQLite: {many:,.0f} events/s; one alone {one:,.0f} events/s; "
                  f"ratio {many / one:.2f}")
    if args.only in (None, "recorders") and postgres_reachable():
        import psycopg
        from psycopg import sql

        schema = f"bench_{os.getpid()}"
        conninfo = {"host": os.environ.get("POSTGRES_HOST", "127.0.0.1"), "port": os.environ.get("POSTGRES_PORT", "5432"),
                    "user": os.environ.get("POSTGRES_USER", "postgres"),
                    "password": os.environ.get("POSTGRES_PASSWORD", ""),
                    "dbname": os.environ.get("POSTGRES_DBNAME", "test"), "autocommit": True}
        with psycopg.connect(**conninfo) as admin:
            admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
            try:
                os.environ.update({"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_SCHEMA": schema,
                                   **{f"POSTGRES_{k.upper()}": str(v) for k, v in conninfo.items()
                                      if k in ("host", "port", "user", "password", "dbname")}})
                with tempfile.TemporaryDirectory() as work:
                    many, one = recorders(Path(work), 8, args.events)
                print(f"8 recorders at once on PostgreSQL: {many:,.0f} events/s; one alone {one:,.0f} events/s; "
                      f"ratio {many / one:.2f}")
            finally:
                admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    else:
        print("PostgreSQL does not answer: its recorders were not measured")


if __name__ == "__main__":
    main()
