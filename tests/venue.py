"""The dashboard as a venue runs it, for the tests: `rollcall dashboard --host …` in a process of its own (its
output kept as it comes), a self-signed certificate for HTTPS, and a QR code printed in a terminal read back."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROLLCALL = Path(sys.executable).parent / "rollcall"  # the program the package installs


@dataclass
class Served:
    """A running `rollcall dashboard`: its process, its port and what it printed so far."""

    process: subprocess.Popen
    port: int
    lines: list[str] = field(default_factory=list)

    @property
    def output(self) -> str:
        return "".join(self.lines)


def answers(url: str, timeout: float = 2.0) -> bool:
    """Whether ``url``'s health check answers (any certificate: the test's own)."""
    own = ssl.create_default_context()
    own.check_hostname, own.verify_mode = False, ssl.CERT_NONE
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=timeout, context=own) as answer:
            return answer.status == 200
    except (OSError, ValueError):
        return False


def free_port() -> int:
    """A port no server of this machine listens on, chosen by the system among its ephemeral ports: two tests
    running at once (pytest -n 2) never start their dashboards on the same port, as a first free port from a fixed
    one could give both (then one test's browser would talk to the other's dashboard, of another store)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("", 0))
        return probe.getsockname()[1]


@contextmanager
def dashboard(data: Path, *args: str, env: dict[str, str] | None = None, at: str = "localhost") -> Iterator[Served]:
    """`rollcall dashboard --no-open --port P --data DATA ARGS…` until the block ends (SIGTERM, as a service
    manager stops it); the block runs once its health check answers at the address ``at``."""
    port = free_port()
    clean = {k: v for k, v in os.environ.items()
             if k not in ("PERSISTENCE_MODULE", "ROLLCALL_KEY", "ROLLCALL_HOST", "ROLLCALL_BASE_URL", "ROLLCALL_LANG")}
    process = subprocess.Popen([str(ROLLCALL), "dashboard", "--no-open", "--port", str(port), "--data", str(data), *args],
                               cwd=ROOT, env={**clean, "COLUMNS": "200", **(env or {})}, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    served = Served(process, port)
    reader = threading.Thread(target=lambda: [served.lines.append(line) for line in process.stdout], daemon=True)
    reader.start()
    try:
        probe = f"{'https' if '--tls-cert' in args else 'http'}://{at}:{port}"
        deadline = time.monotonic() + 90
        while not answers(probe):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the dashboard did not answer at {probe}:\n{served.output}")
            time.sleep(0.3)
        said = time.monotonic() + 30  # what it printed before it started its server, read by the thread
        while f":{port}" not in served.output and process.poll() is None and time.monotonic() < said:
            time.sleep(0.1)
        if process.poll() is not None or f":{port}" not in served.output or "not available" in served.output:
            pytest.fail(f"another server answers at {probe}, not this dashboard:\n{served.output}")
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(timeout=10)


def certificate(folder: Path, *addresses: str) -> tuple[Path, Path]:
    """A self-signed certificate (and its key) for ``addresses`` (IP addresses), as docs/venue.md makes one."""
    cert, key = folder / "venue.crt", folder / "venue.key"
    names = ",".join([f"IP:{a}" for a in addresses] + ["DNS:localhost"])
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=rollcall",
                    "-keyout", str(key), "-out", str(cert), "-addext", f"subjectAltName={names}"],
                   check=True, capture_output=True)
    return cert, key


# segno's compact terminal code: two rows of modules a character, light modules drawn (for a dark terminal)
_HALVES = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}


def terminal_qr(text: str) -> list[str]:
    """What the QR codes printed in ``text`` (block characters) say, read with a real QR reader (zxing-cpp)."""
    import zxingcpp
    from PIL import Image

    block = [line.rstrip("\n") for line in text.splitlines() if line and set(line.rstrip()) <= set(_HALVES)
             and "█" in line]
    if not block:
        return []
    width = max(len(line) for line in block)
    scale = 8
    image = Image.new("L", (width * scale, len(block) * 2 * scale), 255)
    for y, line in enumerate(block):
        for x, char in enumerate(line.ljust(width)):
            for half, light in enumerate(_HALVES[char]):
                if not light:
                    image.paste(0, (x * scale, (2 * y + half) * scale, (x + 1) * scale, (2 * y + half + 1) * scale))
    return [found.text for found in zxingcpp.read_barcodes(image)]


def read_codes(png: Path) -> list[str]:
    """What the QR codes of a PNG say, read by zbarimg (Debian's zbar-tools): one line each."""
    if not shutil.which("zbarimg"):
        pytest.fail("zbarimg is missing (Debian's zbar-tools)")
    done = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True)
    return [line for line in done.stdout.splitlines() if line.strip()]


def card_codes(page, cards: str, folder: Path) -> dict[int, list[str]]:
    """Table -> what the QR codes of its card say: the printed cards (``cards``, the Standings page's download)
    shown in ``page``, each card's screenshot read as a phone's camera would."""
    page.set_content(cards)
    read = {}
    for card in page.locator("section.card").all():
        table = int(card.get_attribute("data-table"))
        png = folder / f"card-{table}.png"
        card.screenshot(path=str(png))
        read[table] = read_codes(png)
    return read
