"""The dashboard, served on localhost."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.options import App, DataDir, data_dir, free_port
from domain import settings
from i18n import _

app = App()

Port = Annotated[Optional[int], typer.Option(
    help=_("Port on localhost (default 8501; the next free one when it is taken). Without it, a dashboard that serves "
           "the data folder already is the one used: its URL is said."), show_default=False)]
DEFAULT_PORT = 8501
Browser = Annotated[bool, typer.Option("--open/--no-open", help=_("Open a browser on the dashboard (only where a "
                                                                  "display exists, never under CI)."))]
IdleMinutes = Annotated[Optional[float], typer.Option(
    "--idle-minutes", envvar=settings.IDLE_ENV, show_envvar=True, metavar="MINUTES",
    help=_("A device signed in and left alone this long signs out."), show_default=f"{settings.DEFAULT_IDLE_MINUTES:g}")]
UP_SECONDS = 30  # how long to wait for the server before opening the browser


@app.command(help=_("Open the dashboard on localhost (or say the URL of the one that serves the data folder "
                    "already)."))
def dashboard(port: Port = None, browser: Browser = True, data: DataDir = None,
              idle_minutes: IdleMinutes = None) -> None:
    """Open the dashboard on localhost (or say the URL of the one that serves the data folder already)."""
    if port is None and said_running(data):
        return
    serve(port or DEFAULT_PORT, data, browser, idle_minutes)


def said_running(data) -> bool:
    """Whether a dashboard serves the data folder already (its URL answers): then its URL is said."""
    url = running(data)
    if url is not None:
        typer.echo(_("a dashboard serves {folder} already: {url}").format(folder=data_dir(data).resolve(), url=url))
    return url is not None


def running(data) -> str | None:
    """The URL of the dashboard serving the data folder (recorded in its DASHBOARD_FILE), if it answers."""
    try:
        url = json.loads((data_dir(data) / settings.DASHBOARD_FILE).read_bytes())["url"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return url if isinstance(url, str) and _answers(url) else None


def serve(port: int, data, browser: bool = False, idle_minutes: float | None = None) -> None:
    """Run the dashboard on ``port`` (or the next free one) until interrupted, with its supervised follower
    (projections.follow); its exit status. A device signed in and left alone ``idle_minutes`` (default: the
    setting's) signs out."""
    import dashboard as dashboard_package
    from projections.follow import Supervisor

    folder = data_dir(data).resolve()
    entry = Path(dashboard_package.__file__).parent / "app.py"
    env = {**os.environ, settings.DATA_ENV: str(folder),
           settings.IDLE_ENV: f"{settings.idle_minutes(idle_minutes, '--idle-minutes'):g}"}
    chosen = free_port(port)
    if chosen != port:
        typer.echo(_("port {port} is busy; using {chosen}").format(port=port, chosen=chosen))
    url = f"http://localhost:{chosen}"
    typer.echo(_("dashboard on {url}").format(url=url))
    previous = signal.signal(signal.SIGTERM, _interrupted)  # stopped like Ctrl-C: the children stop too
    follower = server = None
    try:
        with _held_interrupts():  # a stop while the children start waits until they are known, and so stopped
            # the follower waits while another dashboard's follows the folder, and takes over when it stops
            follower = Supervisor(folder, env).start()
            server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(entry), "--server.port",
                                       str(chosen), "--server.address", "localhost", "--server.headless",
                                       "true", "--browser.gatherUsageStats", "false", "--client.toolbarMode",
                                       "viewer"], env=env)
        _record(folder, url)
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
            server.wait()
        _forget(folder, url)
        signal.signal(signal.SIGTERM, previous)
    raise typer.Exit(status)


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


def _record(folder: Path, url: str) -> None:
    """The dashboard's URL where a second ``rollcall dashboard`` or ``demo`` of the folder finds it."""
    with contextlib.suppress(OSError):
        (folder / settings.DASHBOARD_FILE).write_text(json.dumps({"url": url, "pid": os.getpid()}))


def _forget(folder: Path, url: str) -> None:
    path = folder / settings.DASHBOARD_FILE
    with contextlib.suppress(OSError, ValueError, TypeError):
        if json.loads(path.read_bytes()) == {"url": url, "pid": os.getpid()}:
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
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
            return answer.status == 200
    except (OSError, ValueError):
        return False
