"""The dashboard: served on this machine (localhost), or on the venue's network (``--host``), over HTTPS with a
certificate (``--tls-cert``, ``--tls-key``)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import ssl
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli import network
from cli.options import App, DataDir, data_dir, free_port
from domain import settings
from domain.errors import RollcallError
from i18n import _

app = App()

Port = Annotated[Optional[int], typer.Option(
    help=_("Port (default 8501; the next free one when it is taken). Without it, a dashboard that serves "
           "the data folder already is the one used: its URL is said."), show_default=False)]
Host = Annotated[Optional[str], typer.Option(
    "--host", envvar=settings.HOST_ENV, show_envvar=True, metavar="ADDRESS", show_default=False,
    help=_("The address to listen on: 0.0.0.0 for every interface (the venue's tablets and phones), one of this "
           "machine's addresses, or localhost (the default: this machine alone)."))]
BaseUrl = Annotated[Optional[str], typer.Option(
    "--base-url", envvar=settings.BASE_URL_ENV, show_envvar=True, metavar="URL", show_default=False,
    help=_("The dashboard's address as the devices reach it, when it is not this machine's (a proxy): the table "
           "cards and the join code link to it."))]
TlsCert = Annotated[Optional[Path], typer.Option(
    "--tls-cert", metavar="FILE", show_default=False, help=_("Serve HTTPS with this certificate (PEM), with --tls-key."))]
TlsKey = Annotated[Optional[Path], typer.Option(
    "--tls-key", metavar="FILE", show_default=False, help=_("The certificate's private key (PEM), with --tls-cert."))]
DEFAULT_PORT = 8501
Browser = Annotated[bool, typer.Option("--open/--no-open", help=_("Open a browser on the dashboard (only where a "
                                                                  "display exists, never under CI)."))]
IdleMinutes = Annotated[Optional[float], typer.Option(
    "--idle-minutes", envvar=settings.IDLE_ENV, show_envvar=True, metavar="MINUTES",
    help=_("A device signed in and left alone this long signs out."), show_default=f"{settings.DEFAULT_IDLE_MINUTES:g}")]
Feed = Annotated[Optional[str], typer.Option(
    "--feed", envvar=settings.FEED_ENV, show_envvar=True, metavar="URL", show_default=False,
    help=_("Also publish the broadcast to this pub/sub (redis://HOST:PORT or nats://HOST:PORT), for front ends "
           "on other machines (rollcall broadcast --feed URL)."))]
UP_SECONDS = 30  # how long to wait for the server before opening the browser
# how long the server may take to stop once told: it waits for its open connections to end, and a page left open
# (its stream of what changed never ends) or a device gone from the wifi (its connection never closed) would hold
# it for ever; then it is told a second time, which ends those connections (uvicorn's second SIGINT), and at last
# killed
STOP_SECONDS = 5.0


@dataclass(frozen=True)
class Venue:
    """Where the dashboard is served: the address it listens on, the address the devices reach it at when that
    is not this machine's (a proxy), and the certificate of HTTPS."""

    host: str | None = None
    base_url: str | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None

    def checked(self) -> Venue:
        """This venue, or a RollcallError naming the option that is wrong."""
        from projections.cards import base_url

        if (self.tls_cert is None) != (self.tls_key is None):
            raise RollcallError(_("--tls-cert and --tls-key go together: the certificate and its private key"))
        for option, path in (("--tls-cert", self.tls_cert), ("--tls-key", self.tls_key)):
            if path is not None and not path.is_file():
                raise RollcallError(_("{option}: {file} is not a file").format(option=option, file=path))
        if self.host is not None and not self.host.strip():
            raise RollcallError(_("--host: give an address (0.0.0.0 for every interface)"))
        if self.base_url is not None:
            base_url(self.base_url)
        return self

    @property
    def scheme(self) -> str:
        return "https" if self.tls_cert is not None else "http"

    @property
    def listen(self) -> str:
        return (self.host or "localhost").strip()

    def streamlit_args(self) -> list[str]:
        tls = (["--server.sslCertFile", str(self.tls_cert.resolve()), "--server.sslKeyFile", str(self.tls_key.resolve())]
               if self.tls_cert is not None else [])
        return ["--server.address", self.listen, *tls]


@app.command(help=_("Open the dashboard on this machine, or on the venue's network with --host 0.0.0.0 (or say the "
                    "URL of the one that serves the data folder already)."))
def dashboard(port: Port = None, browser: Browser = True, data: DataDir = None,
              idle_minutes: IdleMinutes = None, host: Host = None, base_url: BaseUrl = None, tls_cert: TlsCert = None,
              tls_key: TlsKey = None, feed: Feed = None) -> None:
    """Open the dashboard on this machine, or on the venue's network with --host 0.0.0.0 (or say the URL of the
    one that serves the data folder already)."""
    venue = Venue(host, base_url, tls_cert, tls_key).checked()
    if port is None and said_running(data):
        return
    serve(port or DEFAULT_PORT, data, browser, idle_minutes, venue, settings.feed_url(feed))


def said_running(data) -> bool:
    """Whether a dashboard serves the data folder already (its URL answers): then its URL is said."""
    url = running(data)
    if url is not None:
        typer.echo(_("a dashboard serves {folder} already: {url}").format(folder=data_dir(data).resolve(), url=url))
    return url is not None


def running(data) -> str | None:
    """The URL of the dashboard serving the data folder (recorded in its DASHBOARD_FILE), if it answers."""
    url = _recorded(data).get("url")
    return url if isinstance(url, str) and _answers(url) else None


def devices_url(data) -> str | None:
    """The address the venue's devices reach the dashboard serving the data folder at (None: no dashboard answers,
    or it serves this machine alone)."""
    recorded = _recorded(data)
    devices = recorded.get("devices")
    return devices if isinstance(devices, str) and running(data) else None


def _recorded(data) -> dict:
    try:
        found = json.loads((data_dir(data) / settings.DASHBOARD_FILE).read_bytes())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def serve(port: int, data, browser: bool = False, idle_minutes: float | None = None, venue: Venue = Venue(),
          feed: str | None = None) -> None:
    """Run the dashboard on ``port`` (or the next free one) until interrupted, with its supervised follower
    (projections.follow); its exit status. A device signed in and left alone ``idle_minutes`` (default: the
    setting's) signs out. ``venue``: where it listens, the address the devices reach, HTTPS. ``feed``: the pub/sub
    the follower also publishes the broadcast to."""
    import dashboard as dashboard_package
    from projections.follow import Supervisor

    folder = data_dir(data).resolve()
    entry = Path(dashboard_package.__file__).parent / "server.py"  # the pages and Rollcall's routes
    chosen = free_port(port, "" if network.listens_everywhere(venue.listen) else venue.listen)
    if chosen != port:
        typer.echo(_("port {port} is busy; using {chosen}").format(port=port, chosen=chosen))
    url = f"{venue.scheme}://localhost:{chosen}"
    devices = network.device_urls(venue.host, chosen, venue.scheme)
    base = venue.base_url.strip().rstrip("/") if venue.base_url else (devices[0] if devices else url)
    env = {**os.environ, settings.DATA_ENV: str(folder),
           settings.IDLE_ENV: f"{settings.idle_minutes(idle_minutes, '--idle-minutes'):g}",
           settings.BASE_URL_ENV: base, settings.URLS_ENV: " ".join(devices or [url]),
           **({settings.FEED_ENV: feed} if feed else {})}
    said(url, devices, base, venue)
    previous = signal.signal(signal.SIGTERM, _interrupted)  # stopped like Ctrl-C: the children stop too
    follower = server = None
    try:
        with _held_interrupts():  # a stop while the children start waits until they are known, and so stopped
            # the follower waits while another dashboard's follows the folder, and takes over when it stops
            follower = Supervisor(folder, env).start()
            server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(entry), "--server.port",
                                       str(chosen), *venue.streamlit_args(), "--server.headless",
                                       "true", "--browser.gatherUsageStats", "false", "--client.toolbarMode",
                                       "viewer", "--logger.hideWelcomeMessage", "true"], env=env)
        _record(folder, url, None if base == url else base)
        if browser and can_open_browser() and _up(url, server):
            import webbrowser

            webbrowser.open(url)
        status = server.wait()
    except KeyboardInterrupt:
        status = 0
    finally:
        if server is not None and server.poll() is None:
            server.terminate()
        if follower is not None:
            follower.stop()  # the follower stops on SIGTERM once its open batch is projected
        if server is not None:
            stop(server)
        _forget(folder, url)
        signal.signal(signal.SIGTERM, previous)
    raise typer.Exit(status)


def stop(server: subprocess.Popen, patience: float = STOP_SECONDS) -> None:
    """Wait for ``server`` (told to stop) to end: told once more after ``patience`` s (its open connections cut), killed
    after as long again."""
    for last in (signal.SIGINT, signal.SIGKILL):
        try:
            server.wait(timeout=patience)
            return
        except subprocess.TimeoutExpired:
            server.send_signal(last)
    server.wait()


def said(url: str, devices: list[str], base: str, venue: Venue) -> None:
    """The addresses the dashboard is served at, and a QR code of the one the venue's devices join."""
    if not devices and base == url:
        typer.echo(_("dashboard on {url}").format(url=url))
        if network.listens_everywhere(venue.listen):
            typer.echo(_("no network interface of this machine has an address: only this machine reaches the "
                         "dashboard"))
        else:
            typer.echo(_("only this machine reaches it: --host 0.0.0.0 serves the venue's tablets and phones too"))
        return
    typer.echo(_("dashboard on {url} for the venue's tablets and phones (on this machine: {local})").format(
        url=base, local=url))
    for other in [d for d in devices if d != base]:
        typer.echo(_("  also on {url}").format(url=other))
    typer.echo(_("scan to join:"))
    network.terminal_qr(base)


def _interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _held_interrupts():
    """SIGINT and SIGTERM held while the block runs, then raised as KeyboardInterrupt: a stop that arrived while
    a child was being started (its process running, Popen not yet returned) would leave it running, unowned."""
    held = []
    previous = {signum: signal.signal(signum, lambda signum, frame: held.append(signum))
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if held:
            raise KeyboardInterrupt


def _record(folder: Path, url: str, devices: str | None) -> None:
    """The dashboard's URL where a second ``rollcall dashboard`` or ``demo`` of the folder finds it (and the
    address the devices reach it at, for ``rollcall tournament cards``)."""
    with contextlib.suppress(OSError):
        (folder / settings.DASHBOARD_FILE).write_text(json.dumps({"url": url, "pid": os.getpid(), "devices": devices}))


def _forget(folder: Path, url: str) -> None:
    path = folder / settings.DASHBOARD_FILE
    with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
        found = json.loads(path.read_bytes())
        if found.get("url") == url and found.get("pid") == os.getpid():
            path.unlink()


def can_open_browser() -> bool:
    """A graphical browser can be opened: not under CI, and on Linux a display exists (without one Python's
    webbrowser would start a text browser in this terminal)."""
    if os.environ.get("CI"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _up(url: str, server: subprocess.Popen) -> bool:
    """Whether the server answers its health check within UP_SECONDS."""
    deadline = time.monotonic() + UP_SECONDS
    while time.monotonic() < deadline and server.poll() is None:
        if _answers(url):
            return True
        time.sleep(0.2)
    return False


def _answers(url: str) -> bool:
    """Whether a dashboard at ``url`` answers its health check now."""
    own = None
    if url.startswith("https:"):  # our own server, whose certificate may be one made for the venue (self-signed)
        own = ssl.create_default_context()
        own.check_hostname, own.verify_mode = False, ssl.CERT_NONE
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2, context=own) as answer:
            return answer.status == 200
    except (OSError, ValueError):
        return False
