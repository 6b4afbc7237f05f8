"""Benchmark: how many tables one laptop holds — T tablets recording by taps and S spectators on the Live page, all
on one dashboard server (`streamlit run dashboard/server.py` and its follower, as `rollcall dashboard` runs them).

For each T (tablets, each a headless Chromium context signed in on the Record page of its table with its own
scorekeeper's key, tests/e2e/crowd.py):
- the time each tablet took to sign in (from opening its page to its table shown signed in), the T-th's;
- the server's CPU (% of one core, the Streamlit process alone, browsers not counted) and memory with the T pages
  open and nobody tapping, over ``--idle`` seconds;
and for each S (spectators added on the round's Live page): the idle CPU again, then every tablet taps what its
table records next every ``--every`` seconds, ``--taps`` times: tap → new state drawn and → confirmed (stored and
drawn by the page's run; window.rcRecordTaps), event → shown on the spectators' pages (the card's seq, watched in
each page), taps refused or lost, pages disconnected, the server's CPU and memory while tapping.
Reference in the same run: the idle CPU of the server with no page open.

    .venv/bin/python bench/venue_load.py [--tablets 4,8,16] [--spectators 0,25] [--taps 4] [--every 3]
        [--idle 10] [--sign-in-timeout 60] [--root CHECKOUT]

``--root`` serves the dashboard of another checkout (its .venv, else this one's with the checkout's code first): the
same bench on an earlier commit (`git worktree add --detach DIR COMMIT`), for a before/after.
Targets (issue 33): 16 tablets and 100 spectators on a 2-core server; idle under 5 % of a core whatever is open;
16 tablets sign in within 5 s each; a tap drawn ≤ 50 ms and confirmed ≤ 100 ms p95; event → spectators ≤ 1 s p95.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from crowd import cards_at, live_url, record_url, shows, tap, venue  # noqa: E402
from streamlit_server import chromium  # noqa: E402
from test_browser_venue import sign_in  # noqa: E402

TABLET = {"width": 1180, "height": 820}
CLK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

WATCH_CARDS = """() => { if (window.__rcSeen) return; window.__rcSeen = [];
  new MutationObserver((changes) => { for (const c of changes) { const el = c.target;
    if (el.classList && el.classList.contains('rc-live-card') && el.dataset.game)
      window.__rcSeen.push([el.dataset.game, Number(el.dataset.seq), Date.now()]); } })
  .observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-seq'] }); }"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def ms(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values):.0f} / {percentile(values, 0.95):.0f} ms"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2 ** 20


def cpu_over(pid: int, seconds: float) -> float:
    """The process's CPU over ``seconds``, in % of one core."""
    before, started = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (cpu_seconds(pid) - before) / (time.monotonic() - started)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(root: Path, data: Path, log: Path):
    """The dashboard of checkout ``root`` over ``data`` (its server and follower): (base URL, server's pid)."""
    python = root / ".venv" / "bin" / "python"
    python = python if python.exists() else Path(sys.executable)  # a bare checkout: this venv, its code first
    port = free_port()
    env = {**os.environ, "ROLLCALL_DATA": str(data), "PYTHONPATH": str(root)}
    env.pop("ROLLCALL_KEY", None)
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [str(python), "-m", "streamlit", "run", str(root / "dashboard" / "server.py"), "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none", "--client.toolbarMode", "viewer"],
            cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
        follower = subprocess.Popen([str(python), "-m", "projections.follow", str(data)], cwd=root, env=env,
                                    stdout=out, stderr=subprocess.STDOUT)
    base = f"http://localhost:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the dashboard did not come up: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.2)
        yield base, server.pid
    finally:
        for child in (follower, server):
            child.terminate()
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def closed_counter(page, counts: dict) -> None:
    page.on("websocket", lambda ws: ws.on("close", lambda *_: counts.__setitem__("closed", counts["closed"] + 1)))


def tapping(tablets: list, games: list[str], spectators: list, taps: int, every: float, pid: int) -> dict:
    """Every tablet taps ``taps`` times, a round of taps every ``every`` seconds: the figures."""
    for page in spectators:
        page.evaluate("() => { window.__rcSeen = []; }")
    made: dict[str, list[tuple[int, float]]] = {g: [] for g in games}  # game -> (seq, tapped at, epoch ms)
    seqs = {g: page.evaluate("(g) => Number(window.rcRecordTables[g].boardRoot.dataset.seq)", g)
            for page, g in zip(tablets, games)}
    done = {"busy": 0, "none": 0}
    before, started = cpu_seconds(pid), time.monotonic()
    peak = rss_mb(pid)
    for _round in range(taps):
        round_started = time.monotonic()
        for page, game in zip(tablets, games):
            if page.evaluate("(g) => !!window.rcRecordTables[g].pending", game):
                done["busy"] += 1
                continue
            label = tap(page)
            if label is None:
                done["none"] += 1
                continue
            seqs[game] += 1
            made[game].append((seqs[game], page.evaluate("() => performance.timeOrigin + window.rcRecordTaps.at(-1).tapped")))
        peak = max(peak, rss_mb(pid))
        time.sleep(max(0.0, every - (time.monotonic() - round_started)))
    unshown = 0
    for page, game in zip(tablets, games):
        try:
            shows(page, game, seqs[game], timeout=60_000)
        except Exception:  # noqa: BLE001 - said in the figures
            unshown += 1
    cpu = 100 * (cpu_seconds(pid) - before) / (time.monotonic() - started)
    drawn, confirmed, refused = [], [], 0
    for page in tablets:
        for t in page.evaluate("() => window.rcRecordTaps"):
            if t.get("outcome") != "stored":
                refused += 1
                continue
            if t.get("drawn") is not None:
                drawn.append(t["drawn"] - t["tapped"])
            if t.get("answered") is not None:
                confirmed.append(t["answered"] - t["tapped"])
        page.evaluate("() => { window.rcRecordTaps.length = 0; }")
    shown = []
    if spectators:
        for page in spectators:
            cards_at(page, games, 0)
        deadline = time.monotonic() + 60
        for page in spectators:
            while True:
                seen = page.evaluate("() => window.__rcSeen")
                first = {}
                for game, seq, at in seen:
                    first.setdefault((game, seq), at)
                missing = [(g, s) for g, taps_ in made.items() for s, _t in taps_ if not any(
                    k[0] == g and k[1] >= s for k in first)]
                if not missing or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            for game, taps_ in made.items():
                for seq, at in taps_:
                    when = min((w for (g, s), w in first.items() if g == game and s >= seq), default=None)
                    if when is not None:
                        shown.append(when - at)
    return {"drawn": drawn, "confirmed": confirmed, "shown": shown, "refused": refused, "cpu": cpu, "rss": peak,
            "taps": sum(len(v) for v in made.values()), "unshown": unshown, **done}


def run(root: Path, tablets: int, spectators: list[int], args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        held = venue(data, tablets)
        with served(root, data, Path(tmp) / "server.log") as (base, pid), chromium() as browser:
            time.sleep(2)
            alone = cpu_over(pid, args.idle / 2)
            counts = {"closed": 0}
            pages, signing, failed = [], [], 0
            for game, key in zip(held.games, held.keys):
                page = browser.new_context(viewport=TABLET).new_page()
                page.set_default_timeout(args.sign_in_timeout * 1000)
                closed_counter(page, counts)
                started = time.monotonic()
                try:
                    page.goto(record_url(base, game))
                    sign_in(page, key)
                    shows(page, game, 0, timeout=args.sign_in_timeout * 1000)
                    signing.append(time.monotonic() - started)
                    pages.append((page, game))
                except Exception:  # noqa: BLE001 - said in the figures
                    failed += 1
                    signing.append(float("inf"))
                    page.context.close()
            say = " ".join("—" if s == float("inf") else f"{s:.1f}" for s in signing)
            print(f"T={tablets}: sign-in times (s) {say}; the {tablets}th: "
                  f"{'did not sign in within ' + str(args.sign_in_timeout) + ' s' if signing[-1] == float('inf') else f'{signing[-1]:.1f} s'}"
                  f"{f'; {failed} never signed in' if failed else ''}", flush=True)
            idle = cpu_over(pid, args.idle)
            print(f"T={tablets}: idle server CPU {idle:.1f} % of a core with {len(pages)} Record pages open "
                  f"(none open: {alone:.1f} %), memory {rss_mb(pid):.0f} MB", flush=True)
            if not pages:
                return
            live: list = []
            for s in spectators:
                while len(live) < s:
                    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                    page.set_default_timeout(120_000)
                    closed_counter(page, counts)
                    page.goto(live_url(base))
                    live.append(page)
                for page in live:
                    cards_at(page, held.games, 0, timeout=180_000)
                    page.evaluate(WATCH_CARDS)
                idle_s = cpu_over(pid, args.idle)
                closed = counts["closed"]
                got = tapping([p for p, _g in pages], [g for _p, g in pages], live, args.taps, args.every, pid)
                print(f"T={tablets} S={s}: load {os.getloadavg()[0]:.1f} | idle {idle_s:.1f} % | {got['taps']} taps: drawn {ms(got['drawn'])}, "
                      f"confirmed {ms(got['confirmed'])} (median / p95) | event → spectators "
                      f"{ms(got['shown']) if s else '—'} | refused or lost {got['refused']}, still pending at a round "
                      f"{got['busy']}, nothing to tap {got['none']}, tablets not showing their last tap after 60 s {got['unshown']}, disconnects {counts['closed'] - closed} | server "
                      f"CPU {got['cpu']:.0f} %, memory {got['rss']:.0f} MB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tablets", default="4,8,16")
    parser.add_argument("--spectators", default="0,25")
    parser.add_argument("--taps", type=int, default=4)
    parser.add_argument("--every", type=float, default=3.0)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--sign-in-timeout", type=float, default=60.0)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} (the machine is shared: figures move with it)")
    print(f"dashboard of {args.root.resolve()} ({subprocess.run(['git', '-C', str(args.root), 'log', '--oneline', '-1'], capture_output=True, text=True).stdout.strip()})")
    for t in (int(x) for x in args.tablets.split(",")):
        run(args.root.resolve(), t, [int(x) for x in args.spectators.split(",")], args)


if __name__ == "__main__":
    main()
