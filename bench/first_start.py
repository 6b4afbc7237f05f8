"""Benchmark: the README's first start — a fresh clone's `python3 dev.py demo` until the dashboard answers.

Clones this checkout's HEAD twice into a temporary folder and times, in each, `python3 dev.py setup` (the
environment) and then `python3 dev.py demo --no-open --port P` until /_stcore/health answers: once as shipped
(every package's bytecode compiled at install) and once against it with the bytecode left to each module's first
import (ROLLCALL_COMPILE_BYTECODE=0). uv's package cache is whatever this machine has (warm
after one run; `--cold` points both at an empty cache of their own, downloading every package).

    python3 bench/first_start.py [--cold]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def served(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def first_start(where: Path, env: dict[str, str]) -> tuple[float, float]:
    """(setup seconds, seconds until the demo's dashboard answered) of a fresh clone at ``where``."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(where)], check=True)
    began = time.monotonic()
    subprocess.run([sys.executable, "dev.py", "setup"], cwd=where, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    installed = time.monotonic()
    port = free_port()
    demo = subprocess.Popen([sys.executable, "dev.py", "demo", "--no-open", "--port", str(port)], cwd=where, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while not served(port):
            if demo.poll() is not None:
                raise SystemExit(f"{where}: the demo stopped (exit {demo.returncode}) before serving")
            time.sleep(0.25)
        return installed - began, time.monotonic() - began
    finally:
        os.killpg(demo.pid, 15)
        demo.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="an empty uv cache for each clone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rollcall-first-start-") as tmp:
        rows = []
        for label, compile_now in (("shipped: compiled at install", "1"), ("against it: compiled on first import", "0")):
            where = Path(tmp) / compile_now
            env = {**os.environ, "ROLLCALL_COMPILE_BYTECODE": compile_now, "CI": ""}
            env.pop("VIRTUAL_ENV", None)
            if args.cold:
                env["UV_CACHE_DIR"] = str(Path(tmp) / f"uv-cache-{compile_now}")
            setup, total = first_start(where, env)
            rows.append((label, setup, total))
            print(f"{label:36} setup {setup:6.1f} s   dashboard answered after {total:6.1f} s", flush=True)
        print(f"ratio shipped / against it: {rows[0][2] / rows[1][2]:.2f}   (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
