"""Benchmark: recording at the table and following it live.

1. **A tap on the Record page** (headless chromium, the embedded SQLite store): a tap on a button that
   records an event (activations, their ends, turns and phases of a Tornscape scenario), measured in the page
   (``window.rcRecordTaps``, static/record.js): from the tap until its new state is drawn (the frame after the
   preview is applied), and until it is confirmed (the page's run that stored it has drawn the stored state);
   and from the click until the page says the event is recorded. Reference in the same run: the same write
   through the application service alone (``Rollcall.record``, in this process), and a tap that records
   nothing (a rerun of the page: picking a form).
2. **An event recorded to the Live page**: the Live page open on a round; an event recorded through the
   application service (as another device or ``rollcall record`` would) until the page's card of its game
   shows it. Reference: the same event until the projector has republished the read models. And the same
   event until **the other phone at the table** (its Record page open, 390 px) shows it: within the live figure.
3. **A long game** (``--only long``): taps on the Record page of a game of 5,000 events and of one of 50 (the same
   simulated Tornscape game, cut there), and the write alone on each: a tap is to cost the new events, not the
   game (issue 34: within 1.2× of the short game's).
4. **Eight recorders at once**: eight threads, each with an application service of its own recording a game
   of its own event by event (as eight Record page sessions write), on SQLite and on PostgreSQL (when the
   server answers; POSTGRES_* variables), in events/s; reference: one recorder alone on the same store.

    .venv/bin/python bench/live_table.py [--taps 40] [--live 15] [--events 150] [--only taps|live|long|recorders]

Targets: a tap drawn ≤ 50 ms and confirmed ≤ 100 ms p95 (issue 33); an event to the Live page median ≤ 2 s.
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


def settled(page, game: str, seq: int) -> None:
    """The Record page shows ``seq`` with no tap waiting for its answer, and its taps' previews have come."""
    idle(page)
    page.wait_for_function(
        "([seq, game]) => { const t = (window.rcRecordTables || {})[game];"
        " return t && !t.pending && t.previews.seq === seq && t.boardRoot?.dataset.seq === String(seq); }", arg=[seq, game], timeout=30_000)


def taps(page, base: str, game: str, count: int, seq: int = 0) -> dict[str, list[float]]:
    """In ms: a tap until drawn, until confirmed (in the page), until the page's word; a tap that only reruns
    (the game at ``seq`` when the page opens)."""
    page.goto(f"{base}/record?game={game}")
    page.get_by_text("Record a game").wait_for()
    found: dict[str, list[float]] = {"drawn": [], "confirmed": [], "said": [], "rerun": []}
    for _ in range(count):
        settled(page, game, seq)
        labels = page.locator("button.rc-offer").all_inner_texts()
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
        found["said"].append((time.perf_counter() - started) * 1000)
        page.wait_for_function("() => window.rcRecordTaps.at(-1).outcome !== null", timeout=30_000)
        tap = page.evaluate("() => window.rcRecordTaps.at(-1)")
        if tap["outcome"] != "stored" or not tap["previewed"]:
            raise SystemExit(f"tap {label!r}: {tap}")
        found["drawn"].append(tap["drawn"] - tap["tapped"])
        found["confirmed"].append(tap["answered"] - tap["tapped"])
    for _ in range(max(5, count // 4)):
        idle(page)
        started = time.perf_counter()
        page.get_by_role("button", name="Points scored …", exact=True).click()
        page.get_by_role("button", name="Cancel", exact=True).wait_for()
        found["rerun"].append((time.perf_counter() - started) * 1000)
        idle(page)
        page.get_by_role("button", name="Cancel", exact=True).click()
    return found


LONG, SHORT = 5_000, 50  # events of the long game and of the short one


def long_and_short(data: Path) -> None:
    """``bench-long`` (5,000 events) and ``bench-short`` (50): one simulated Tornscape game cut there."""
    from simulation.games import SIMULATORS, simulate

    lines = record_lines(simulate("tornscape", 1, "bench-long", **SIMULATORS["tornscape"].long_game))
    app = Rollcall.open(data)
    app.import_record(lines[:LONG + 1], "bench-long")
    header = {k: v for k, v in json.loads(lines[0]).items() if k != "hash"} | {"game": "bench-short"}
    app.import_record([json.dumps(header)] + lines[1:SHORT + 1], "bench-short", edited=True)


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


def live(page, base: str, data: Path, game: str, count: int,
         phone=None) -> tuple[list[float], list[float], list[float]]:
    """(an event recorded until the Live page shows it, until the read models are republished, until the other
    phone at the table shows it: ``phone``, a page open on the game's Record page) in s. Each event is recorded
    through the application service, as the first phone's tap or another device writes it."""
    app = Rollcall.open(data)
    page.goto(f"{base}/live")
    page.locator(f'.rc-live-card[data-game="{game}"]').wait_for(timeout=60_000)
    if phone is not None:
        phone.goto(f"{base}/record?game={game}")
        phone.get_by_text("Record a game").wait_for()
    published = data / "rollcall.read.duckdb"
    shown, republished, other = [], [], []
    for i in range(count):
        idle(page)
        if phone is not None:
            idle(phone)
        page.wait_for_timeout(300)
        before = published.stat().st_mtime_ns
        started = time.perf_counter()
        seq = app.record(game, {"type": "Noted", "text": f"live {i}"})["seq"]
        if phone is not None:
            phone.locator('div[class="rc-rec-line"]').filter(has_text=f"live {i}").wait_for(timeout=30_000)
            other.append(time.perf_counter() - started)
        while published.stat().st_mtime_ns == before:
            time.sleep(0.01)
        republished.append(time.perf_counter() - started)
        page.locator(f'.rc-live-card[data-game="{game}"][data-seq="{seq}"]').wait_for(timeout=30_000)
        shown.append(time.perf_counter() - started)
    return shown, republished, other


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
    parser.add_argument("--only", choices=("taps", "live", "long", "recorders"), help="one part alone")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "data"
        scenario_game(data, "bench-taps")
        scenario_game(data, "bench-alone")
        scenario_game(data, "bench-live")
        if args.only in (None, "long"):
            long_and_short(data)
        Projector(data).run()
        with streamlit_server(data, Path(work) / "server.log") as base, chromium() as browser:
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(30_000)
            if args.only in (None, "taps"):
                found = taps(page, base, "bench-taps", args.taps)
                alone = writes_alone(data, "bench-alone", args.taps)
                print(figures("tap on the Record page to its new state drawn", found["drawn"])
                      + "  (target ≤ 50 ms p95)")
                print(figures("tap on the Record page to its state confirmed (stored, drawn from the store)",
                              found["confirmed"]) + "  (target ≤ 100 ms p95)")
                print(figures("click to the page's word \"Recorded seq N\"", found["said"]))
                print(figures("  reference: the write alone (Rollcall.record)", alone)
                      + f"; ratio confirmed/write {statistics.median(found['confirmed']) / statistics.median(alone):.1f}×")
                print(figures("  reference: a tap that only reruns the page", found["rerun"])
                      + f"; ratio confirmed/rerun {statistics.median(found['confirmed']) / statistics.median(found['rerun']):.2f}×")
            if args.only in (None, "long"):
                confirmed, alone = {}, {}
                for game, events in (("bench-short", SHORT), ("bench-long", LONG)):
                    confirmed[game] = taps(page, base, game, args.taps, seq=events)["confirmed"]
                    alone[game] = writes_alone(data, game, args.taps)
                    print(figures(f"tap on a game of {events:,} events to its state confirmed", confirmed[game]))
                    print(figures(f"  the write alone on a game of {events:,} events", alone[game]))
                ratio = statistics.median(confirmed["bench-long"]) / statistics.median(confirmed["bench-short"])
                write = statistics.median(alone["bench-long"]) / statistics.median(alone["bench-short"])
                print(f"a tap on {LONG:,} events against one on {SHORT}: ratio {ratio:.2f}× (target ≤ 1.2×); "
                      f"the write alone {write:.2f}×")
            if args.only in (None, "live"):
                phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                            has_touch=True).new_page()
                phone.set_default_timeout(30_000)
                shown, republished, other = live(page, base, data, "bench-live", args.live, phone)
                print(figures("event recorded to the Live page", [s * 1000 for s in shown])
                      + "  (target ≤ 2 s median)")
                print(figures("  reference: the event until the read models are republished",
                              [s * 1000 for s in republished]))
                print(figures("event recorded to the other phone's Record page at the table", [s * 1000 for s in other])
                      + f"; ratio to the Live page {statistics.median(other) / statistics.median(shown):.2f}× "
                        "(target ≤ 1: within the live figure)")
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
    elif args.only in (None, "recorders"):
        print("PostgreSQL does not answer: its recorders were not measured")


if __name__ == "__main__":
    main()
