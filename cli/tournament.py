"""Tournaments: create them, register players, pair rounds, enter results, publish standings and pairings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.options import (App, AsJson, DataDir, Key, ReadKey, echo_json, note_held, open_app, read, read_seen,
                         systems_help, table)
from domain.errors import MalformedRecord, RecordError, RollcallError
from domain.record import NotJSON, read_json
from domain.systems.presentation import title_words
from i18n import N_, _, ngettext

app = App(name="tournament", help=_("Tournaments: registration, pairings, results and standings."))

Name = Annotated[str, typer.Argument(help=_("Tournament name."))]
Player = Annotated[str, typer.Option(help=_("The player's name."))]
Round = Annotated[int, typer.Option("--round", help=_("Round number."))]
Csv = Annotated[bool, typer.Option("--csv", help=_("Print CSV (a header line, then a line per row)."))]

# (read model column, heading): the headings said in the language being spoken (options.table)
STANDING_COLUMNS = (("rank", "#"), ("player", N_("player")), ("faction", N_("faction")), ("games", N_("games")),
                    ("wins", N_("W")), ("draws", N_("D")), ("losses", N_("L")), ("byes", N_("byes")),
                    ("tournament_points", N_("TP")), ("vp_for", N_("VP+")), ("vp_against", N_("VP-")),
                    ("vp_diff", N_("VP±")), ("sos", N_("SoS")))
PAIRING_COLUMNS = (("table_no", N_("table")), ("player", N_("player (p1)")), ("faction", N_("faction")),
                   ("opponent", N_("opponent (p2)")), ("opponent_faction", N_("opp. faction")), ("score", N_("VP")),
                   ("opponent_score", N_("opp. VP")), ("result", N_("result")), ("game", N_("game")))
PLAYER_COLUMNS = (("registration", "#"), ("player", N_("player")), ("faction", N_("faction")), ("club", N_("club")),
                  ("checked_in", N_("checked in")), ("dropped_after_round", N_("dropped after round")))
RESULT_COLUMNS = (("round", N_("round")), ("table_no", N_("table")), ("player", N_("player")),
                  ("faction", N_("faction")), ("score", N_("VP")), ("opponent_score", N_("opp. VP")),
                  ("opponent", N_("opponent")), ("opponent_faction", N_("opp. faction")), ("result", N_("result")),
                  ("game", N_("game")))


@app.command("create", help=_("Create a tournament of one system; games whose header names it must be of that system."))
def create(name: Annotated[str, typer.Argument(help=_("Tournament name, e.g. 'Autumn Open 2026'."))],
           system: Annotated[str, typer.Option(help=systems_help())],
           rounds: Annotated[Optional[int], typer.Option(help=_("Rounds planned."))] = None,
           notes: Annotated[Optional[str], typer.Option(help=_("Free text."))] = None,
           win: Annotated[Optional[int], typer.Option(help=_("Tournament points for a win (default 3)."))] = None,
           draw: Annotated[Optional[int], typer.Option(help=_("Tournament points for a draw (default 1)."))] = None,
           loss: Annotated[Optional[int], typer.Option(help=_("Tournament points for a loss (default 0)."))] = None,
           bye: Annotated[Optional[int], typer.Option(help=_("Tournament points for a bye (default 3)."))] = None,
           data: DataDir = None, key: Key = None) -> None:
    """Create a tournament of one system; games whose header names it must be of that system."""
    points = {k: v for k, v in (("win", win), ("draw", draw), ("loss", loss), ("bye", bye)) if v is not None}
    created = open_app(data, key).create_tournament(name, system, rounds=rounds, notes=notes, points=points or None)
    typer.echo(_("created tournament {name} ({system})").format(name=created["name"], system=created["system"]))


@app.command("delay", help=_("Delay the broadcast of a created tournament's games: spectators without a key see each "
                             "game only up to its events older than SECONDS (the Live, Replay and Dispute pages); "
                             "judges and scorekeepers see it all."))
def delay(name: Annotated[str, typer.Argument(help=_("Tournament name."))],
          seconds: Annotated[int, typer.Argument(help=_("Seconds spectators are kept behind each game (0: live)."))],
          data: DataDir = None, key: Key = None) -> None:
    """Delay the broadcast of a created tournament's games: spectators without a key see each game only up to
    its events older than SECONDS (the Live, Replay and Dispute pages); judges and scorekeepers see it all."""
    open_app(data, key).set_broadcast_delay(name, seconds)
    typer.echo((_("{name}: spectators see each game {seconds} s behind") if seconds else _("{name}: broadcast live"))
               .format(name=name, seconds=seconds))


@app.command("bye", help=_("Record a bye (a round without a game, worth the points of a bye) in a created tournament."))
def bye(name: Annotated[str, typer.Argument(help=_("Tournament name."))],
        round_no: Annotated[int, typer.Option("--round", help=_("Round of the bye."))],
        player: Annotated[str, typer.Option(help=_("Name of the player who sits the round out."))],
        faction: Annotated[Optional[str], typer.Option(help=_("The player's faction."))] = None,
        data: DataDir = None, key: Key = None) -> None:
    """Record a bye (a round without a game, worth the points of a bye) in a created tournament."""
    open_app(data, key).award_bye(name, round_no, player, faction)
    typer.echo(_("{player} has a bye in round {round} of {name}").format(player=player, round=round_no, name=name))


@app.command("list", help=_("Every tournament: created ones and those only named by game headers."))
def list_(as_json: AsJson = False, data: DataDir = None, key: ReadKey = None) -> None:
    """Every tournament: created ones and those only named by game headers."""
    from projections.tournaments import list_tournaments

    rows = read_seen(data, key, lambda con, seen: list_tournaments(con, seen=seen))
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo(_("no tournaments yet: `rollcall tournament create NAME --system SYSTEM`"))
    for t in rows:
        origin = "" if t["created"] else _("  (named by games only)")
        played = t["rounds_played"] or 0
        rounds = (ngettext("{n} round of {planned}", "{n} rounds of {planned}", played) if t["planned_rounds"] else
                  ngettext("{n} round", "{n} rounds", played)).format(n=played, planned=t["planned_rounds"])
        games = ngettext("{n} game", "{n} games", t["games"]).format(n=t["games"])
        typer.echo(f"{t['tournament']}  {t['system']}  {games}, {rounds}{origin}")


@app.command("standings", help=_("Standings: tournament points (win 3, draw 1, loss 0, bye 3), then VP difference, VP "
                                 "for and strength of schedule (the sum of the tournament points of the opponents "
                                 "played). Without a key of the store, a game that ended within the tournament's "
                                 "broadcast delay is still being played."))
def standings(name: Name, as_json: AsJson = False, as_csv: Csv = False, data: DataDir = None,
              key: ReadKey = None) -> None:
    """Standings: tournament points (win 3, draw 1, loss 0, bye 3), then VP difference, VP for and
    strength of schedule (the sum of the tournament points of the opponents played). Without a key of the store,
    a game that ended within the tournament's broadcast delay is still being played."""
    from projections.tournaments import STANDINGS_CSV, csv_text, results, standings as query

    def standing(con, seen):
        note_held(seen, [r["game"] for r in results(con, name) if r["game"]])
        return query(con, name, seen=seen)

    rows = read_seen(data, key, standing)
    if as_json:
        echo_json(rows)
        return
    if as_csv:
        typer.echo(csv_text(rows, STANDINGS_CSV), nl=False)
        return
    players = ngettext("{n} player", "{n} players", len(rows)).format(n=len(rows))
    table(_("Standings of {name}: {players}").format(name=name, players=players), rows, STANDING_COLUMNS)


@app.command("results", help=_("Results per round: each game (victory points and result of the player in seat 1) and "
                               "each bye, as a tournament's broadcast delay shows them without a key of the store."))
def results(name: Annotated[str, typer.Argument(help=_("Tournament name."))],
            round_no: Annotated[Optional[int], typer.Option("--round", help=_("Only this round."))] = None,
            as_json: AsJson = False, as_csv: Csv = False,
            data: DataDir = None, key: ReadKey = None) -> None:
    """Results per round: each game (victory points and result of the player in seat 1) and each bye, as a
    tournament's broadcast delay shows them without a key of the store."""
    from projections.tournaments import RESULTS_CSV, csv_text, results as query

    def shown(con, seen):
        found = query(con, name, round_no, seen=seen)
        note_held(seen, [r["game"] for r in found if r["game"]])
        return found

    rows = read_seen(data, key, shown)
    if as_json:
        echo_json(rows)
        return
    if as_csv:
        typer.echo(csv_text(rows, RESULTS_CSV), nl=False)
        return
    if not rows:
        typer.echo((_("no results of {name} in round {round}") if round_no else _("no results of {name}"))
                   .format(name=name, round=round_no))
        return
    table((_("Results of {name}, round {round}") if round_no else _("Results of {name}")).format(name=name, round=round_no),
          rows, RESULT_COLUMNS)



@app.command("register", help=_("Register a player (--player), the players of a CSV file (--csv) or of the tournament's "
                                "games (--from-games) in a created tournament; players already registered are left as "
                                "they are, so registering a list again adds nobody twice (an organiser's key once the "
                                "store has keys)."))
def register(name: Name,
             player: Annotated[Optional[str], typer.Option(help=_("The player's name."))] = None,
             faction: Annotated[Optional[str], typer.Option(help=_("The player's faction."))] = None,
             club: Annotated[Optional[str], typer.Option(help=_("The player's club or team (kept apart in round 1)."))] = None,
             from_csv: Annotated[Optional[Path], typer.Option(
                 "--csv", metavar="FILE", help=_("Register every player of a pairing tool's export: CSV with a header "
                                                 "row naming name and faction (club optional, other columns "
                                                 "ignored)."))] = None,
             from_games: Annotated[bool, typer.Option(
                 "--from-games", help=_("Register everyone who played a game of the tournament, with their "
                                        "faction."))] = False,
             data: DataDir = None, key: Key = None) -> None:
    """Register a player (--player), the players of a CSV file (--csv) or of the tournament's games
    (--from-games) in a created tournament; players already registered are left as they are, so registering
    a list again adds nobody twice (an organiser's key once the store has keys)."""
    from domain.tournaments import registrations

    if sum((player is not None, from_csv is not None, from_games)) != 1:
        raise RollcallError(_("name one: --player NAME, --csv FILE or --from-games"))
    if player is None and (faction or club):
        raise RollcallError(_("--faction and --club go with --player (a list gives each player's own)"))
    store = open_app(data, key)
    if player is not None:
        entry = store.register_player(name, player, faction, club)
        typer.echo(_("registered {player} in {name}").format(player=entry["player"], name=name))
        return
    if from_csv is not None:
        try:
            raw = from_csv.read_bytes()
        except OSError as exc:
            raise RollcallError(_("{file}: cannot be read ({why})").format(file=from_csv, why=exc.strerror)) from None
        done = store.register_players(name, registrations(raw, str(from_csv)))
    else:
        done = store.register_from_games(name)
    already = ", ".join(done.already[:10]) + (_(" and {n} more").format(n=len(done.already) - 10)
                                             if len(done.already) > 10 else "")
    registered = ngettext("registered {n} player in {name}", "registered {n} players in {name}",
                          len(done.registered)).format(n=len(done.registered), name=name)
    typer.echo(registered + (_("; already registered: {players}").format(players=already) if done.already else ""))


@app.command("check-in", help=_("A registered player is present. Once check-in has begun, only checked-in players are paired."))
def check_in(name: Name, player: Player, data: DataDir = None, key: Key = None) -> None:
    """A registered player is present. Once check-in has begun, only checked-in players are paired."""
    entry = open_app(data, key).check_in(name, player)
    typer.echo(_("{player} checked in").format(player=entry["player"]))


@app.command("drop", help=_("A player leaves the tournament: never paired again; the games played stand."))
def drop(name: Name, player: Player, data: DataDir = None, key: Key = None) -> None:
    """A player leaves the tournament: never paired again; the games played stand."""
    entry = open_app(data, key).drop_player(name, player)
    typer.echo(_("{player} dropped out of {name} after round {round}").format(player=entry["player"], name=name,
                                                                              round=entry["after_round"]))


@app.command("players", help=_("The registered players: faction, club, check-in and drop."))
def players(name: Name, as_json: AsJson = False, data: DataDir = None) -> None:
    """The registered players: faction, club, check-in and drop."""
    from projections.tournaments import players as query

    rows = read(data, query, name)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo(_("no players registered in {name}: `rollcall tournament register`").format(name=name))
        return
    shown = [{**row, "faction": title_words(row["faction"]) if row.get("faction") else None,
              "checked_in": _("yes") if row.get("checked_in") else _("no")} for row in rows]
    players = ngettext("{n} player", "{n} players", len(rows)).format(n=len(rows))
    table(_("Players of {name}: {players}").format(name=name, players=players), shown, PLAYER_COLUMNS)


@app.command("pair", help=_("Pair a round from the standings (Swiss: no rematch when avoidable, a bye to the "
                            "lowest-ranked player without one, no two players of a club in round 1 when avoidable), "
                            "assign tables and create the games, ready to be recorded. A round can be paired again "
                            "until one of its games has an event."))
def pair(name: Name, round_no: Round,
         setup: Annotated[Optional[Path], typer.Option(metavar="FILE",
                                                       help=_("A JSON file holding the games' setup object."))] = None,
         scenario: Annotated[Optional[str], typer.Option(
             help=_("A scenario shipped with Rollcall (default: the system's first; see domain/scenarios)."))] = None,
         seed: Annotated[Optional[int], typer.Option(
             help=_("Seed of the draw among players tied in the standings (default: random)."))] = None,
         data: DataDir = None, key: Key = None) -> None:
    """Pair a round from the standings (Swiss: no rematch when avoidable, a bye to the lowest-ranked player
    without one, no two players of a club in round 1 when avoidable), assign tables and create the games,
    ready to be recorded. A round can be paired again until one of its games has an event."""
    paired = open_app(data, key).pair_round(name, round_no, setup=_setup(setup), scenario=scenario, seed=seed)
    said = _("round {round} of {name} (pairing {pairing})") if paired["pairing"] > 1 else _("round {round} of {name}")
    tables = ngettext("{n} table", "{n} tables", len(paired["tables"])).format(n=len(paired["tables"]))
    typer.echo(said.format(round=round_no, name=name, pairing=paired["pairing"]) + f": {tables}"
               + (_(", scenario {scenario}").format(scenario=paired["scenario"]) if paired["scenario"] else ""))
    for t in paired["tables"]:
        (a, b) = t["players"]
        typer.echo(_("  table {table}: {player} ({faction}) vs {opponent} ({opponent_faction})  game {game}").format(
            table=t["table"], player=a["name"], faction=a["faction"] or "-", opponent=b["name"],
            opponent_faction=b["faction"] or "-", game=t["game"]))
    if paired["bye"]:
        typer.echo(_("  bye: {player}").format(player=paired["bye"]))


def _setup(path: Path | None) -> dict | None:
    if path is None:
        return None
    try:
        setup, _rest = read_json(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise RecordError(str(path), 0, None, MalformedRecord(_("not UTF-8 text (byte {n})").format(n=exc.start + 1))) from None
    except MalformedRecord as exc:  # the file named whole (a message's excerpts are of what it holds)
        raise RecordError(str(path), exc.line if isinstance(exc, NotJSON) else 1, None, exc) from None
    if not isinstance(setup, dict):
        raise RecordError(str(path), 0, None, MalformedRecord(_("the setup must be a JSON object")))
    return setup


@app.command("result", help=_("Enter a game's result alone (the game then holds its setup and GameEnded); it counts in "
                              "the standings like any other game. The winner is the player with more victory points."))
def result(name: Name, round_no: Round,
           table_no: Annotated[int, typer.Option("--table", help=_("Table number."))],
           score: Annotated[list[str], typer.Option(help=_("A player's victory points, as SEAT=VP or NAME=VP "
                                                           "(give both: --score p1=3 --score p2=1); seat:p2=VP or "
                                                           "name:P2=VP where a name reads as a seat id."))],
           data: DataDir = None, key: Key = None) -> None:
    """Enter a game's result alone (the game then holds its setup and GameEnded); it counts in the
    standings like any other game. The winner is the player with more victory points."""
    scores: dict[str, int] = {}
    for item in score:
        who, _sign, points = item.rpartition("=")
        if not who.strip() or not points.strip().lstrip("-").isdigit() or len(points.strip()) > 19:
            raise MalformedRecord(_("--score takes SEAT=VP or NAME=VP, e.g. p1=3, not {given}").format(given=repr(item)),
                                  field="score")
        scores[who.strip()] = int(points)
    from domain.tournaments import result_in_words

    store = open_app(data, key)
    ended = store.enter_result(name, round_no, table_no, scores)
    players = store.stored_lines(store.table_game(name, round_no, table_no))[0]["players"]
    typer.echo(_("round {round}, table {table}: {result}").format(
        round=round_no, table=table_no, result=result_in_words(players, ended["score"], ended["winner"])))


@app.command("pairings", help=_("A round's tables (players, factions, results so far, as a tournament's broadcast "
                                "delay shows them without a key of the store) and its bye."))
def pairings(name: Name,
             round_no: Annotated[Optional[int], typer.Option("--round", help=_("Round (default: the last paired)."))] = None,
             as_json: AsJson = False, as_csv: Csv = False, data: DataDir = None, key: ReadKey = None) -> None:
    """A round's tables (players, factions, results so far, as a tournament's broadcast delay shows them without a
    key of the store) and its bye."""
    from projections.tournaments import PAIRINGS_CSV, csv_text, pairings as query

    def shown(con, seen):
        found = query(con, name, round_no, seen=seen)
        note_held(seen, [r["game"] for r in found if r["game"]])
        return found

    rows = read_seen(data, key, shown)
    if as_json:
        echo_json(rows)
    elif as_csv:
        typer.echo(csv_text(rows, PAIRINGS_CSV), nl=False)
    elif not rows:
        typer.echo((_("no pairings of {name} in round {round}: `rollcall tournament pair`") if round_no else
                    _("no pairings of {name}: `rollcall tournament pair`")).format(name=name, round=round_no))
    else:
        shown = [{**r, "table_no": r["table_no"] or _("bye"), "result": r["result"] if r["game"] else None}
                 for r in rows]
        table(_("Pairings of {name}, round {round}").format(name=name, round=rows[0]["round"]), shown, PAIRING_COLUMNS)


@app.command("cards", help=_("Printable table cards of a round: per table its number, the players and their "
                             "factions, and QR codes of the table's Record page (for the scorekeeper, who signs in "
                             "there) and of the round's Live view (for spectators); two cards per A4 page."))
def cards(name: Name,
          output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE.html", help=_("The HTML file to write."))],
          round_no: Annotated[Optional[int], typer.Option("--round", help=_("Round (default: the last)."))] = None,
          base_url: Annotated[Optional[str], typer.Option(
              help=_("The dashboard's address as the tables' tablets and the spectators' phones reach it (default: "
                     "the dashboard on this machine)."), show_default=False)] = None,
          data: DataDir = None) -> None:
    """Printable table cards of a round: per table its number, the players and their factions, and QR codes
    of the table's Record page (for the scorekeeper, who signs in there) and of the round's Live view (for
    spectators); two cards per A4 page."""
    from projections.cards import DEFAULT_BASE_URL, round_cards

    page, rows = read(data, round_cards, name, round_no, base_url or DEFAULT_BASE_URL)
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise RollcallError(_("{file}: cannot be written ({why})").format(file=output, why=exc.strerror)) from None
    tables = sum(1 for r in rows if r["game"])
    typer.echo(ngettext("wrote {file}: {n} table card of round {round} of {name}",
                        "wrote {file}: {n} table cards of round {round} of {name}", tables).format(
        file=output, n=tables, round=rows[0]["round"], name=name))
