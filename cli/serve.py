"""The dashboard, served on localhost."""

from __future__ import annotations

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

app = App()

Port = Annotated[int, typer.Option(help="Port on localhost (the next free one when it is taken).")]
Browser = Annotated[bool, typer.Option("--open/--no-open", help="Open a browser on the dashboard (only where a "
                                                                "display exists, never under CI).")]
IdleMinutes = Annotated[Optional[float], typer.Option(
    "--idle-minutes", envvar=settings.IDLE_ENV, show_envvar=True, metavar="MINUTES",
    help="A device signed in and left alone this long signs out.", show_default=f"{settings.DEFAULT_IDLE_MINUTES:g}")]
UP_SECONDS = 30  # how long to wait for the server before opening the browser


@app.command()
def dashboard(port: Port = 8501, browser: Browser = True, data: DataDir = None,
              idle_minutes: IdleMinutes = None) -> None:
    """Open the dashboard on localhost."""
    serve(port, data, browser, idle_minutes)


def serve(port: int, data, browser: bool = False, idle_minutes: float | None = None) -> None:
    """Run the dashboard on ``port`` (or the next free one) until interrupted; its exit status. A device signed
    in and left alone ``idle_minutes`` (default: the setting's) signs out."""
    import dashboard as dashboard_package

    entry = Path(dashboard_package.__file__).parent / "app.py"
    env = {**os.environ, settings.DATA_ENV: str(data_dir(data).resolve()),
           settings.IDLE_ENV: f"{settings.idle_minutes(idle_minutes, '--idle-minutes'):g}"}
    chosen = free_port(port)
    if chosen != port:
        typer.echo(f"port {port} is busy; using {chosen}")
    url = f"http://localhost:{chosen}"
    typer.echo(f"dashboard on {url}")
    previous = signal.signal(signal.SIGTERM, _interrupted)  # stopped like Ctrl-C: the children stop too
    follower = server = None
    try:
        follower = _follower(data, env)
        server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(entry), "--server.port",
                                   str(chosen), "--server.address", "localhost", "--server.headless", "true",
                                   "--browser.gatherUsageStats", "false", "--client.toolbarMode", "viewer"], env=env)
        if browser and can_open_browser() and _up(url, server):
            import webbrowser

            webbrowser.open(url)
        status = server.wait()
    except KeyboardInterrupt:
        status = 0
    finally:
        for child in (server, follower):  # the follower stops on SIGTERM once its open batch is projected
            if child is not None and child.poll() is None:
                child.terminate()
        for child in (server, follower):
            if child is not None:
                child.wait()
        signal.signal(signal.SIGTERM, previous)
    raise typer.Exit(status)


def _interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


def _follower(data, env: dict) -> subprocess.Popen | None:
    """The projector that keeps the read models current while the dashboard runs (projections.follow), or
    None where one follows the store already (another dashboard on this data folder)."""
    from projections.follow import followed

    if followed(data_dir(data)):
        typer.echo("the read models are kept current by the projector already following this data folder")
        return None
    return subprocess.Popen([sys.executable, "-m", "projections.follow", str(data_dir(data).resolve())], env=env)


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
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False
