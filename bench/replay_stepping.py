"""Benchmark: stepping through a game of about 5,000 events on the Replay page, in headless chromium.

For each system it opens the Replay page on a simulated game (simulation.games.long_games), presses → a
number of times (apart enough for each step to be timed alone) and prints the median and p95 of a step:
from the key event to the next painted frame. The reference, measured in the same run on the same page:
one Streamlit rerun of the page (the browser reports a position; the script runs and the details beside
the board show the new event).

    .venv/bin/python bench/replay_stepping.py [--steps 100] [--work DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from long_records import long_games_data  # noqa: E402
from streamlit_server import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SYSTEMS = ("tornscape", "t9a", "claustrophobia")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def rerun_ms(page, seq: int) -> float:
    """One Streamlit rerun of the page: the stepper reports seq; until the details show it."""
    start = time.perf_counter()
    page.evaluate("(s) => { const c = window.__rcReplay; c.go(s, {quiet: true}); "
                  "c.setStateValue('position', {token: c.token, seq: s, flipped: false}); }", seq)
    page.locator("[data-testid='stMarkdownContainer']", has_text=f"seq {seq} ·").first.wait_for(timeout=60_000)
    return (time.perf_counter() - start) * 1000


def bench_system(browser, base: str, system: str, steps: int) -> tuple[list[float], list[float], int]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{base}/replay?game=long-{system}&seq=100")
    page.wait_for_selector(".rc-replay[data-seq='100']", timeout=120_000)
    page.wait_for_timeout(500)
    last = int(page.locator(".rc-last").inner_text())
    box = page.locator(".rc-caption").bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + 5)
    page.evaluate("() => { window.__rcStepTimes = []; }")
    for _ in range(steps):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    times = page.evaluate("() => window.__rcStepTimes")
    page.wait_for_timeout(600)
    reruns = [rerun_ms(page, 100 + steps + 10 * (i + 1)) for i in range(5)]
    page.close()
    return times, reruns, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--work", type=Path, default=None, help="Folder for the data (default: a temporary one).")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    from streamlit_server import streamlit_server

    work = args.work or Path(tempfile.mkdtemp(prefix="rollcall-replay-bench-"))
    data = work / "data"
    if not (data / "rollcall.read.duckdb").exists():
        print("simulating and projecting the long games ...", flush=True)
        long_games_data(data)
    with streamlit_server(data, work / "streamlit.log") as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"{'system':<16}{'events':>8}{'step median':>13}{'step p95':>10}{'rerun (ref.)':>14}"
              f"{'p95/rerun':>11}")
        for system in SYSTEMS:
            times, reruns, last = bench_system(browser, base, system, args.steps)
            rerun = statistics.median(reruns)
            p95 = percentile(times, 0.95)
            print(f"{system:<16}{last:>8}{statistics.median(times):>10.1f} ms{p95:>7.1f} ms{rerun:>11.1f} ms"
                  f"{p95 / rerun:>11.2f}", flush=True)
        browser.close()
    print(f"steps timed from the key event to the next painted frame ({args.steps} per system, 100 ms apart); "
          "target p95 <= 150 ms")


if __name__ == "__main__":
    main()
