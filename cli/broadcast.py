"""The broadcast's front end: ``rollcall broadcast``, one of N stateless processes serving spectators."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli.options import App, DataDir, data_dir
from domain import settings
from i18n import _

app = App()

Host = Annotated[str, typer.Option("--host", metavar="ADDRESS", help=_(
    "The address to listen on (0.0.0.0: every interface of this machine)."))]
Port = Annotated[int, typer.Option("--port", min=1, max=65535, help=_("The port to listen on."))]
Feed = Annotated[Optional[str], typer.Option(
    "--feed", envvar=settings.FEED_ENV, show_envvar=True, metavar="URL", show_default=False,
    help=_("The pub/sub the follower publishes to: redis://HOST:PORT or nats://HOST:PORT (add ?name=NAME when "
           "several broadcasts share one server). Without it, the data folder's own feed on this machine."))]


@app.command(help=_("Serve the broadcast to spectators: the Live page (/live) and the stream overlay (/overlay), "
                    "pushed as events arrive, fed by the follower's pub/sub. Start as many as the viewers need, "
                    "on as many machines."))
def broadcast(host: Host = "127.0.0.1", port: Port = 8600, feed: Feed = None, data: DataDir = None) -> None:
    """Serve the broadcast to spectators."""
    from broadcast.serve import serve
    from projections.feeds import FolderFeed, feed_for

    url = settings.feed_url(feed)
    source = feed_for(url) if url else FolderFeed(data_dir(data).resolve() / settings.BROADCAST_FOLDER)
    typer.echo(_("broadcast on http://{host}:{port}/live, fed by {feed}").format(host=host, port=port,
                                                                                 feed=source.url))
    serve(source, host, port)
