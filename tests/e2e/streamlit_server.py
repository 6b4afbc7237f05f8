"""A Streamlit server of the dashboard and a chromium page for the browser tests (playwright, Debian's
chromium). Skipped only when /usr/bin/chromium is missing and CI is unset."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking"]
# The browser tests' screenshots: test-output/screenshots of the checkout, or ROLLCALL_SCREENSHOTS.
SCREENSHOTS = os.environ.get("ROLLCALL_SCREENSHOTS") or str(ROOT / "test-output" / "screenshots")
Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(data: Path, log: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """`streamlit run dashboard/server.py` (the pages and Rollcall's routes) over the data folder ``data`` on a free port (with the environment
    variables ``env`` besides): its base URL."""
    if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium); CI is unset")
    port = free_port()
    env = {**os.environ, "ROLLCALL_DATA": str(data), **(env or {})}
    env.pop("ROLLCALL_KEY", None)
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboard" / "server.py"),
             "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
             "--client.toolbarMode", "viewer"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        # as `rollcall dashboard` does: a projector follows the store beside the server
        follower = subprocess.Popen([sys.executable, "-m", "projections.follow", str(data)], cwd=ROOT, env=env,
                                    stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://localhost:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit did not come up:\n{log.read_text(errors='replace')}")
            time.sleep(0.2)
        yield base
    finally:
        for child in (follower, proc):
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


@contextmanager
def chromium() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def new_page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    try:
        yield pg
    finally:
        context.close()


# A page opened (page.goto) has run once: stApp's script state goes initial → running → notRunning, the page is
# connected, and every frame a component draws in has loaded (its links and text are there to be read).
RAN = """() => { const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.dataset.testScriptState === 'notRunning' && app.dataset.testConnectionState === 'CONNECTED'
    && [...document.querySelectorAll('iframe')].every((f) => {
      try { return !!f.contentDocument && f.contentDocument.readyState === 'complete'; } catch (e) { return true; } }); }"""


def opened(page, url: str) -> None:
    """Open ``url`` and wait until the page has run once and drawn what it shows (no fixed pause)."""
    page.goto(url)
    page.locator("[data-testid='stMainBlockContainer']").wait_for()
    page.wait_for_function(RAN)
