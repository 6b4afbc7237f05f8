"""Simulated tournaments, and the demo."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Optional

import typer

from cli.options import App, DataDir, Key, data_dir, open_app, project, systems_help
from cli.serve import DEFAULT_PORT, BaseUrl, Browser, Host, Port, TlsCert, TlsKey, Venue, said_running, serve
from service.application import Rollcall
from domain.errors import RollcallError
from domain.systems import PACKS, main_alias
from i18n import _, ngettext

app = App()


@app.command(help=_("Simulate a whole Swiss tournament of legal games and record it (round 1 paired at random, later "
                    "rounds by the standings, no rematches when avoidable, a bye for an odd player count)."))
def simulate(tournament: Annotated[str, typer.Option(help=_("Tournament name (created if missing)."))],
             system: Annotated[str, typer.Option(help=systems_help())] = PACKS[0].alias,
             players: Annotated[int, typer.Option(help=_("Number of players (an odd number gives a bye a round)."))] = 8,
             rounds: Annotated[int, typer.Option(help=_("Swiss rounds."))] = 3,
             seed: Annotated[int, typer.Option(help=_("Seed: the same seed gives the same tournament."))] = 1,
             turns: Annotated[Optional[int], typer.Option(help=_("Turns per game (default: the system's)."))] = None,
             models: Annotated[Optional[int], typer.Option(help=_("Models per player, where the system's games have models on a board (default 6)."))] = None,
             workers: Annotated[Optional[int], typer.Option(help=_("Processes playing the games of a round "
                                                                    "(default: one per core for big rounds)."))] = None,
             data: DataDir = None, key: Key = None) -> None:
    """Simulate a whole Swiss tournament of legal games and record it (round 1 paired at random, later
    rounds by the standings, no rematches when avoidable, a bye for an odd player count)."""
    options = {name: value for name, value in (("turns", turns), ("models_per_player", models)) if value is not None}
    if models is not None and not takes_models(main_alias(system)):
        raise RollcallError(_("--models is for systems whose games have models on a board, not {system}").format(system=system))
    games, events = _simulate(open_app(data, key), system, tournament, players, rounds, seed, workers, **options)
    typer.echo(ngettext("recorded {n} simulated {system} game ({events}) of {tournament}",
                        "recorded {n} simulated {system} games ({events}) of {tournament}", games).format(
        n=games, system=system, tournament=tournament,
        events=ngettext("{n} event", "{n} events", events).format(n=events)))


def takes_models(system: str) -> bool:
    """Whether the simulator of ``system`` sets up a number of models per player."""
    import inspect

    from simulation.games import SIMULATORS

    return "models_per_player" in inspect.signature(SIMULATORS[system].make_header).parameters


def _simulate(store: Rollcall, system: str, tournament: str, players: int, rounds: int, seed: int,
              workers: int | None = None, **game_options) -> tuple[int, int]:
    """Play and record a tournament (creating it if missing); games already recorded are kept, so an
    interrupted run with the same options can be run again. Returns (games, events) recorded."""
    from simulation.tournaments import simulate_tournament
    from domain.tournaments import TournamentNotFound

    system = main_alias(system)
    try:
        existing = store.tournament(tournament)
    except TournamentNotFound:
        existing = None
        store.create_tournament(tournament, system, rounds=rounds)
    if existing is not None and existing.system != system:
        raise RollcallError(_("'{name}' is a {system} tournament, not {other}").format(
            name=existing.name, system=existing.system, other=system))
    byes = {(b["round"], b["player"]) for b in existing.byes} if existing is not None else set()

    def bye(round_no: int, player: str, faction: str) -> None:
        if (round_no, player) not in byes:
            store.award_bye(tournament, round_no, player, faction)

    per_round = players // 2
    if workers is None:
        workers = min(os.cpu_count() or 1, 4) if per_round >= 8 else 1
    recorded = events = 0
    games = simulate_tournament(system, tournament, players, rounds, seed, workers=workers, on_bye=bye,
                                **game_options)
    with typer.progressbar(games, length=per_round * rounds, label=_("simulating {tournament}").format(tournament=tournament),
                           file=sys.stderr) as bar:
        for game in bar:
            if store.exists(game.game):
                continue
            store.import_record(game.lines, _("simulated {game}").format(game=game.game))
            recorded += 1
            events += game.events
    return recorded, events


@app.command(help=_("Build a simulated tournament of each system, project them and open the dashboard (or say the "
                    "URL of the one that serves the data folder already: its follower projects the demo)."))
def demo(port: Port = None,
         serving: Annotated[bool, typer.Option("--serve/--no-serve",
                                               help=_("Serve the dashboard after building the demo."))] = True,
         browser: Browser = True, data: DataDir = None, key: Key = None, host: Host = None, base_url: BaseUrl = None,
         tls_cert: TlsCert = None, tls_key: TlsKey = None) -> None:
    """Build a simulated tournament of each system, project them and open the dashboard (or say the URL of the
    one that serves the data folder already: its follower projects the demo)."""
    from projections.follow import followed

    venue = Venue(host, base_url, tls_cert, tls_key).checked()  # a wrong option is said before the demo is built
    store = open_app(data, key)
    from simulation.games import SIMULATORS

    for seed, (system, simulator) in enumerate(SIMULATORS.items(), start=1):
        tournament, players, rounds = simulator.demo  # each built in well under a minute
        _simulate(store, system, tournament, players, rounds, seed)
    count = sum(1 for _header in store.headers())
    games = ngettext("{n} game", "{n} games", count).format(n=count)
    if followed(data_dir(data)):  # a dashboard's follower projects them
        typer.echo(_("demo ready in {folder}: {games}, projected by the dashboard that follows it").format(
            folder=data_dir(data), games=games))
    else:
        events = project(data)
        typer.echo(ngettext("demo ready in {folder}: {games}, {n} event projected",
                            "demo ready in {folder}: {games}, {n} events projected", events).format(
            folder=data_dir(data), games=games, n=events))
    if serving and not (port is None and said_running(data)):
        serve(port or DEFAULT_PORT, data, browser, venue=venue)
