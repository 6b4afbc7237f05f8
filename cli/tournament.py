"""Tournaments: create them, register players, pair rounds, enter results, publish standings and pairings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.games import EDITED_HELP, import_records, record_files
from cli.options import (App, AsJson, DataDir, Key, ReadKey, echo_json, note_held, open_app, privileged, read,
                         read_seen, systems_help, table)
from domain import settings
from domain.errors import MalformedRecord, RecordError, RollcallError
from domain.record import NotJSON, read_json
from domain.systems.presentation import title_words
from i18n import N_, _, ngettext

app = App(name="tournament", help=_("Tournaments: registration, pairings, results and standings."))

Name = Annotated[str, typer.Argument(help=_("Tournament name."))]
Player = Annotated[str, typer.Option(help=_("The player's name."))]
Round = Annotated[int, typer.Option("--round", help=_("Round number."))]
Csv = Annotated[bool, typer.Option("--csv", help=_("Print CSV (a header line, then a line per row)."))]
FORMAT_HELP = _("The tournament's format: a shipped one (wins: 3/1/0, the default; chess: 1/½/0; t9a-20-0: the 9th "
                "Age's 0–20 by margin; t9a-teams-4: its teams of 4) or a format file (docs/organiser.md, \"Your tournament's format\").")

# (read model column, heading): the headings said in the language being spoken (options.table)
STANDING_COLUMNS = (("rank", "#"), ("player", N_("player")), ("faction", N_("faction")), ("games", N_("games")),
                    ("wins", N_("W")), ("draws", N_("D")), ("losses", N_("L")), ("byes", N_("byes")))
# each tiebreak of a format (domain.formats.TIEBREAKS) -> its column's heading; the bonuses' column after the score
TIEBREAK_COLUMNS = {"score": N_("score"), "sos": N_("SoS"), "esos": N_("ESoS"), "vp_diff": N_("VP±"),
                    "vp_for": N_("VP+"), "head_to_head": N_("H2H"), "random": N_("lot")}
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
           format_: Annotated[Optional[str], typer.Option("--format", help=FORMAT_HELP)] = None,
           data: DataDir = None, key: Key = None) -> None:
    """Create a tournament of one system; games whose header names it must be of that system."""
    points = {k: v for k, v in (("win", win), ("draw", draw), ("loss", loss), ("bye", bye)) if v is not None}
    chosen = chosen_format(format_) if format_ is not None else None
    created = open_app(data, key).create_tournament(name, system, rounds=rounds, notes=notes, points=points or None,
                                                    format=chosen)
    typer.echo(_("created tournament {name} ({system})").format(name=created["name"], system=created["system"]))
    if chosen is not None:
        typer.echo(chosen.said())


def chosen_format(given: str):
    """The format ``given`` names: a shipped one, else a format file (domain.formats)."""
    from domain.formats import read_format

    return read_format(given, lambda path: Path(path).read_text(encoding="utf-8"))


@app.command("format", help=_("Change a created tournament's format (how games score, bonuses, tiebreaks) before any "
                              "round has a result; without FORMAT, say the format."))
def format_(name: Name,
            given: Annotated[Optional[str], typer.Argument(metavar="FORMAT", help=FORMAT_HELP)] = None,
            data: DataDir = None, key: Key = None) -> None:
    """Change a created tournament's format (how games score, bonuses, tiebreaks) before any round has a result;
    without FORMAT, say the format."""
    store = open_app(data, key)
    if given is None:
        typer.echo(store.tournament(name).format.said())
        return
    chosen = chosen_format(given)
    store.change_format(name, chosen)
    typer.echo(_("{name} is scored by {format} from now on").format(name=name, format=chosen.said()))


@app.command("bonus", help=_("Give a player bonus points (painting, sportsmanship) or, negative, a penalty (late to the "
                             "table, a missing army list), with the reason; they count in the standings."))
def bonus(name: Name, player: Player,
          points: Annotated[int, typer.Option(help=_("Points: positive for a bonus, negative for a penalty."))],
          reason: Annotated[str, typer.Option(help=_("Why, as the Standings page shows it."))],
          round_no: Annotated[Optional[int], typer.Option("--round", help=_("Round (default: the last played)."))] = None,
          data: DataDir = None, key: Key = None) -> None:
    """Give a player bonus points (painting, sportsmanship) or, negative, a penalty (late to the table, a missing
    army list), with the reason; they count in the standings."""
    given = open_app(data, key).award_bonus(name, player, points, reason, round_no)
    said = _("{player}: {points:+d} in round {round} of {name} ({reason})")
    typer.echo(said.format(player=given["player"], points=given["points"], round=given["round"], name=name,
                           reason=given["reason"]))


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


@app.command("time", help=_("Start a round's time (the last round paired, or --round): it runs --minutes long (else the "
                            "format's round time) from now; the Live, Standings, Record and players' pages count it "
                            "down, and when it runs out time is called."))
def time_(name: Annotated[str, typer.Argument(help=_("Tournament name."))],
          round_no: Annotated[Optional[int], typer.Option("--round", help=_("Round number (default: the last paired)."))
                              ] = None,
          minutes: Annotated[Optional[int], typer.Option(help=_("The round's length in minutes (default: the "
                                                                "format's round time)."))] = None,
          data: DataDir = None, key: Key = None) -> None:
    """Start a round's time: it runs --minutes long from now; pages count it down; at its end time is called."""
    from datetime import datetime, timezone

    from domain.clock import iso

    at = iso(round(datetime.now(timezone.utc).timestamp()) * 1000)
    started = open_app(data, key).start_round(name, at, round_no=round_no,
                                              seconds=None if minutes is None else minutes * 60)
    typer.echo(_("{name}: round {round}'s time started at {at}, {minutes} min; time is called at {ends}").format(
        name=name, round=started["round"], at=started["at"], minutes=started["seconds"] // 60,
        ends=iso(round(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000) + started["seconds"] * 1000)))


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
    from domain.tournaments import rounds_said
    from projections.tournaments import list_tournaments

    rows = read_seen(data, key, lambda con, seen: list_tournaments(con, seen=seen))
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo(_("no tournaments yet: `rollcall tournament create NAME --system SYSTEM`"))
    for t in rows:
        origin = "" if t["created"] else _("  (named by games only)")
        games = ngettext("{n} game", "{n} games", t["games"]).format(n=t["games"])
        typer.echo(f"{t['tournament']}  {t['system']}  {games}, {rounds_said(t)}{origin}")


@app.command("standings", help=_("Standings as the tournament's format ranks them (the default: 3 points a win, 1 a "
                                 "draw, 0 a loss, 3 a bye, then VP difference, VP for and strength of schedule), "
                                 "with the bonuses and penalties given; --json gives each player's score and every "
                                 "tiebreak's value in the format's order. Without a key of the store, a game that "
                                 "ended within the tournament's broadcast delay is still being played."))
def standings(name: Name, as_json: AsJson = False, as_csv: Csv = False,
              teams: Annotated[bool, typer.Option("--teams", help=_("A team tournament's teams' standings (match "
                                                                    "points, total game score, strength of schedule) "
                                                                    "and its team matches."))] = False,
              data: DataDir = None, key: ReadKey = None) -> None:
    """Standings as the tournament's format ranks them (the default: 3 points a win, 1 a draw, 0 a loss, 3 a bye,
    then VP difference, VP for and strength of schedule), with the bonuses and penalties given; --json gives each
    player's score and every tiebreak's value in the format's order. Without a key of the store, a game that ended
    within the tournament's broadcast delay is still being played."""
    from projections.tournaments import STANDINGS_CSV, csv_text, results, standings as query, tournament_format

    if teams:
        _team_standings(name, as_json, as_csv, data, key)
        return

    def standing(con, seen):
        note_held(seen, [r["game"] for r in results(con, name) if r["game"]])
        return query(con, name, seen=seen), tournament_format(con, name)

    rows, fmt = read_seen(data, key, standing)
    if as_json:
        echo_json(rows)
        return
    if as_csv:
        typer.echo(csv_text(rows, STANDINGS_CSV), nl=False)
        return
    players = ngettext("{n} player", "{n} players", len(rows)).format(n=len(rows))
    shown = [{**r, **{f"tb_{t['name']}": t["value"] for t in r["tiebreaks"]}} for r in rows]
    columns = STANDING_COLUMNS + tuple((f"tb_{t}", TIEBREAK_COLUMNS[t]) for t in fmt.tiebreaks)
    if any(r["bonuses"] for r in rows):
        columns += (("bonus", N_("bonus")),)
    table(_("Standings of {name}: {players}").format(name=name, players=players), shown, columns)
    typer.echo(fmt.said())
    for r in rows:
        for b in r["bonuses"]:
            typer.echo(_("{player}: {points:+d} in round {round} ({reason})").format(player=r["player"], **b))


TEAM_COLUMNS = (("rank", "#"), ("team", N_("team")), ("matches", N_("matches")), ("wins", N_("W")),
                ("draws", N_("D")), ("losses", N_("L")), ("byes", N_("byes")))
TEAM_TIEBREAK_COLUMNS = {"match_points": N_("MP"), "score": N_("score"), "sos": N_("SoS")}
TEAM_STANDINGS_CSV = ("rank", "team", "matches", "wins", "draws", "losses", "byes", "match_points", "score", "sos")


def _team_standings(name: str, as_json: bool, as_csv: bool, data, key) -> None:
    """The teams' standings and the team matches (tournament standings --teams)."""
    from domain.errors import RollcallError as Refused
    from projections.tournaments import csv_text, results, team_matches, team_standings, tournament_format

    def standing(con, seen):
        note_held(seen, [r["game"] for r in results(con, name) if r["game"]])
        return team_standings(con, name, seen=seen), team_matches(con, name, seen=seen), tournament_format(con, name)

    rows, matches, fmt = read_seen(data, key, standing)
    if fmt.teams is None:
        raise Refused(_("{name} is no team tournament (its format {format} has no teams)").format(
            name=name, format=fmt.name))
    if as_json:
        echo_json({"teams": rows, "matches": matches})
        return
    if as_csv:
        typer.echo(csv_text(rows, TEAM_STANDINGS_CSV), nl=False)
        return
    shown = [{**r, **{f"tb_{t['name']}": t["value"] for t in r["tiebreaks"]}} for r in rows]
    columns = TEAM_COLUMNS + tuple((f"tb_{t}", TEAM_TIEBREAK_COLUMNS[t]) for t in fmt.teams.tiebreaks)
    table(_("Teams of {name}: {teams}").format(name=name, teams=ngettext("{n} team", "{n} teams", len(rows)).format(
        n=len(rows))), shown, columns)
    typer.echo(fmt.said())
    for m in matches:
        said = _("round {round}, match {match}: {team} {score} – {opponent_score} {opponent}").format(
            round=m["round"], match=m["match"], team=m["team"], score=m["team_score"], opponent_score=m["opponent_score"],
            opponent=m["opponent"])
        if not m["finished"]:
            said += "  " + _("(under way: {ended} of {games} games ended)").format(
                ended=m["games_ended"], games=m["games_ended"] + m["games_on"])
        typer.echo(said)


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
    shown = [{**r, "result": _("{result}, at time").format(result=r["result"]) if r["ended_at_time"] else r["result"]}
             for r in rows]
    table((_("Results of {name}, round {round}") if round_no else _("Results of {name}")).format(name=name, round=round_no),
          shown, RESULT_COLUMNS)



@app.command("register", help=_("Register a player (--player), the players of a pairing tool's export (--csv) or of the "
                                "tournament's games (--from-games) in a created tournament; players already registered "
                                "are left as they are, so registering a list again adds nobody twice, but checks in "
                                "those it says checked in (an organiser's key once the store has keys)."))
def register(name: Name,
             player: Annotated[Optional[str], typer.Option(help=_("The player's name."))] = None,
             faction: Annotated[Optional[str], typer.Option(help=_("The player's faction."))] = None,
             club: Annotated[Optional[str], typer.Option(help=_("The player's club or team (kept apart in round 1)."))] = None,
             team: Annotated[Optional[str], typer.Option(help=_("The player's team (a team tournament pairs teams; "
                                                                "the same as --club)."))] = None,
             from_csv: Annotated[Optional[Path], typer.Option(
                 "--csv", metavar="FILE", help=_("Register every player of a pairing tool's export (Best Coast "
                                                 "Pairings, Longshanks or plain CSV): a name column (or first and "
                                                 "last names), a faction or army, a club or team, check-in where "
                                                 "given; other columns are ignored and named."))] = None,
             preview: Annotated[bool, typer.Option(
                 "--preview", help=_("With --csv: say how the list reads and what registering it would do, and "
                                     "register nobody."))] = False,
             from_games: Annotated[bool, typer.Option(
                 "--from-games", help=_("Register everyone who played a game of the tournament, with their "
                                        "faction."))] = False,
             data: DataDir = None, key: Key = None) -> None:
    """Register a player (--player), the players of a pairing tool's export (--csv) or of the tournament's games
    (--from-games) in a created tournament; players already registered are left as they are, so registering
    a list again adds nobody twice, but checks in those it says checked in (an organiser's key once the store
    has keys)."""
    from domain.player_lists import columns_said, quoted, read_player_list

    if team is not None and club is not None and team != club:
        raise RollcallError(_("--team and --club name one thing (a player's team is their club): give one"))
    club = club if club is not None else team
    if sum((player is not None, from_csv is not None, from_games)) != 1:
        raise RollcallError(_("name one: --player NAME, --csv FILE or --from-games"))
    if player is None and (faction or club):
        raise RollcallError(_("--faction and --club go with --player (a list gives each player's own)"))
    if preview and from_csv is None:
        raise RollcallError(_("--preview goes with --csv"))
    store = open_app(data, key)
    if player is not None:
        entry = store.register_player(name, player, faction, club)
        typer.echo(_("registered {player} in {name}").format(player=entry["player"], name=name))
        return
    listed = None
    if from_csv is not None:
        try:
            raw = from_csv.read_bytes()
        except OSError as exc:
            raise RollcallError(_("{file}: cannot be read ({why})").format(file=from_csv, why=exc.strerror)) from None
        listed = read_player_list(raw, str(from_csv))
        typer.echo(columns_said(listed))
        done = store.preview_players(name, listed.entries) if preview else \
            store.register_players(name, listed.entries)
    else:
        done = store.register_from_games(name)
    said = (ngettext("would register {n} player in {name}", "would register {n} players in {name}",
                     len(done.registered)) if preview else
            ngettext("registered {n} player in {name}", "registered {n} players in {name}",
                     len(done.registered))).format(n=len(done.registered), name=name)
    if done.checked_in:
        said += "; " + ngettext("{n} checked in: {players}", "{n} checked in: {players}", len(done.checked_in)).format(
            n=len(done.checked_in), players=quoted(done.checked_in))
    if done.already:
        said += "; " + ngettext("{n} already registered: {players}", "{n} already registered: {players}",
                                len(done.already)).format(n=len(done.already), players=quoted(done.already))
    typer.echo(said)
    if listed is not None and listed.refused:
        typer.echo(ngettext("refused {n} row (its player is not registered):",
                            "refused {n} rows (their players are not registered):", len(listed.refused)).format(
            n=len(listed.refused)), err=True)
        for row in listed.refused[:20]:
            typer.echo(f"  {row}", err=True)
        if len(listed.refused) > 20:
            typer.echo("  " + _("and {n} more").format(n=len(listed.refused) - 20), err=True)
        raise typer.Exit(1)


@app.command("check-in", help=_("A registered player is present. Once check-in has begun, only checked-in players are paired."))
def check_in(name: Name, player: Player, data: DataDir = None, key: Key = None) -> None:
    """A registered player is present. Once check-in has begun, only checked-in players are paired."""
    entry = open_app(data, key).check_in(name, player)
    typer.echo(_("{player} checked in").format(player=entry["player"]))


@app.command("signin", help=_("Issue a player's own sign-in for the tournament (at check-in): a short code to type "
                              "and a QR code of the sign-in link, for the player's phone. It writes the games where "
                              "the player is seated, in the round being played. Issuing it again revokes the one "
                              "before; only its hash is stored."))
def signin(name: Name, player: Player,
           qr: Annotated[Optional[Path], typer.Option("--qr", metavar="FILE.png",
                                                     help=_("Write the QR code as a PNG (else it is printed here)."))] = None,
           revoke: Annotated[bool, typer.Option("--revoke", help=_("Revoke the player's sign-in instead."))] = False,
           base_url: Annotated[Optional[str], typer.Option(
               "--base-url", envvar=settings.BASE_URL_ENV, show_envvar=True, metavar="URL", show_default=False,
               help=_("The dashboard's address as the players' phones reach it (default: the network address of the "
                      "dashboard serving the data folder, else of this machine)."))] = None,
           data: DataDir = None, key: Key = None) -> None:
    """Issue a player's own sign-in for the tournament (at check-in): a short code to type and a QR code of the
    sign-in link, for the player's phone."""
    import segno

    from projections.cards import base_url as checked_base, signin_link

    app_ = open_app(data, key)
    if revoke:
        app_.revoke_player_signin(name, player)
        typer.echo(_("revoked the sign-in of {player} for {name}").format(player=player, name=name))
        return
    link_base = checked_base(base_url or devices_base(data))
    code = app_.issue_player_signin(name, player)
    link = signin_link(link_base, code)
    typer.echo(_("sign-in of {player} for {name} (shown only now; issuing it again revokes it):").format(
        player=player, name=name))
    typer.echo(_("code: {code}").format(code=code))
    typer.echo(_("link: {link}").format(link=link))
    made = segno.make(link, error="m")
    if qr is None:
        made.terminal(compact=True)
        return
    try:
        made.save(str(qr), kind="png", scale=8, border=4)
    except OSError as exc:
        raise RollcallError(_("{file}: cannot be written ({why})").format(file=qr, why=exc.strerror)) from None
    typer.echo(_("wrote {file}").format(file=qr))


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
         unconfirmed: Annotated[bool, typer.Option(
             "--unconfirmed", help=_("Pair the round although results of the round before wait for the players' "
                                     "confirmations (the pairing says which tables)."))] = False,
         data: DataDir = None, key: Key = None) -> None:
    """Pair a round from the standings (Swiss: no rematch when avoidable, a bye to the lowest-ranked player
    without one, no two players of a club in round 1 when avoidable), assign tables and create the games,
    ready to be recorded. A round can be paired again until one of its games has an event."""
    paired = open_app(data, key).pair_round(name, round_no, setup=_setup(setup), scenario=scenario, seed=seed,
                                              unconfirmed=unconfirmed)
    said = _("round {round} of {name} (pairing {pairing})") if paired["pairing"] > 1 else _("round {round} of {name}")
    tables = ngettext("{n} table", "{n} tables", len(paired["tables"])).format(n=len(paired["tables"])) \
        if not paired.get("matches") else ngettext("{n} team match", "{n} team matches", len(paired["matches"])).format(
            n=len(paired["matches"]))
    typer.echo(said.format(round=round_no, name=name, pairing=paired["pairing"]) + f": {tables}"
               + (_(", scenario {scenario}").format(scenario=paired["scenario"]) if paired["scenario"] else ""))
    for t in paired["tables"]:
        (a, b) = t["players"]
        typer.echo(_("  table {table}: {player} ({faction}) vs {opponent} ({opponent_faction})  game {game}").format(
            table=t["table"], player=a["name"], faction=a["faction"] or "-", opponent=b["name"],
            opponent_faction=b["faction"] or "-", game=t["game"]))
    if paired["bye"]:
        typer.echo(_("  bye: {player}").format(player=paired["bye"]))
    for m in paired.get("matches") or ():
        typer.echo(_("  match {match}: {team} v {opponent}").format(match=m["match"], team=m["teams"][0],
                                                                    opponent=m["teams"][1]))
    if paired.get("bye_team"):
        typer.echo(_("  bye: team {team}").format(team=paired["bye_team"]))
    if paired.get("matches"):
        typer.echo(_("the captains' matchups of each match next: `rollcall tournament matchups {name} --round {round} "
                     "--match N --pair A=B …`").format(name=name, round=round_no))


@app.command("matchups", help=_("Enter the captains' table-by-table matchups of a team match (a team tournament's round "
                                "pairs teams; the captains then pair their players): each --pair seats a player of "
                                "one team against one of the other at the match's next table, and creates its game."))
def matchups(name: Name, round_no: Round,
             match_no: Annotated[int, typer.Option("--match", help=_("The team match, as `tournament pair` numbered "
                                                                     "it."))],
             pairs: Annotated[list[str], typer.Option("--pair", help=_("A table's players, as NAME=NAME (one of each "
                                                                       "team), once per table."))],
             setup: Annotated[Optional[Path], typer.Option(metavar="FILE",
                                                           help=_("A JSON file holding the games' setup object."))]
             = None,
             scenario: Annotated[Optional[str], typer.Option(
                 help=_("A scenario shipped with Rollcall (default: the system's first)."))] = None,
             data: DataDir = None, key: Key = None) -> None:
    """Enter the captains' table-by-table matchups of a team match (a team tournament's round pairs teams; the
    captains then pair their players): each --pair seats a player of one team against one of the other at the
    match's next table, and creates its game."""
    split = []
    for item in pairs:
        a, sign, b = item.partition("=")
        if not sign or not a.strip() or not b.strip():
            raise MalformedRecord(_("--pair takes NAME=NAME, a player of each team, not {given}").format(
                given=repr(item)), field="pair")
        split.append((a.strip(), b.strip()))
    entered = open_app(data, key).enter_matchups(name, round_no, match_no, split, setup=_setup(setup),
                                                 scenario=scenario)
    typer.echo(_("round {round}, match {match}: {team} v {opponent}").format(
        round=round_no, match=match_no, team=entered["teams"][0], opponent=entered["teams"][1]))
    for t in entered["tables"]:
        (a, b) = t["players"]
        typer.echo(_("  table {table}: {player} ({faction}) vs {opponent} ({opponent_faction})  game {game}").format(
            table=t["table"], player=a["name"], faction=a["faction"] or "-", opponent=b["name"],
            opponent_faction=b["faction"] or "-", game=t["game"]))


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
                              "the standings like any other game. The winner is the player with more victory points. "
                              "A game under way (events recorded) ends at time, in whatever phase it stands."))
def result(name: Name, round_no: Round,
           table_no: Annotated[int, typer.Option("--table", help=_("Table number."))],
           score: Annotated[list[str], typer.Option(help=_("A player's victory points, as SEAT=VP or NAME=VP "
                                                           "(give both: --score p1=3 --score p2=1); seat:p2=VP or "
                                                           "name:P2=VP where a name reads as a seat id."))],
           secondary: Annotated[Optional[str], typer.Option(help=_("The player (name or seat) who holds the "
                                                                   "secondary objective, where the format has one."))]
           = None,
           data: DataDir = None, key: Key = None) -> None:
    """Enter a game's result alone (the game then holds its setup and GameEnded); it counts in the
    standings like any other game. The winner is the player with more victory points. A game under way (events
    recorded) ends at time, in whatever phase it stands."""
    scores: dict[str, int] = {}
    for item in score:
        who, _sign, points = item.rpartition("=")
        if not who.strip() or not points.strip().lstrip("-").isdigit() or len(points.strip()) > 19:
            raise MalformedRecord(_("--score takes SEAT=VP or NAME=VP, e.g. p1=3, not {given}").format(given=repr(item)),
                                  field="score")
        scores[who.strip()] = int(points)
    from domain.systems.fields import AT_TIME
    from domain.tournaments import result_in_words

    store = open_app(data, key)
    ended = store.enter_result(name, round_no, table_no, scores, secondary=secondary)
    players = store.stored_lines(store.table_game(name, round_no, table_no))[0]["players"]
    said = _("round {round}, table {table}: {result}, ended at time") if ended["reason"] == AT_TIME else \
        _("round {round}, table {table}: {result}")
    typer.echo(said.format(round=round_no, table=table_no,
                           result=result_in_words(players, ended["score"], ended["winner"])))


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
        columns = PAIRING_COLUMNS + ((("team", N_("team")), ("opponent_team", N_("opp. team")))
                                     if "team" in rows[0] else ())  # a team tournament's teams
        table(_("Pairings of {name}, round {round}").format(name=name, round=rows[0]["round"]), shown, columns)


def devices_base(data) -> str:
    """The address the cards link to when none is given: that of the dashboard serving the data folder to the venue's
    devices, else this machine's network address on the dashboard's default port (said on stderr), else localhost."""
    from cli.network import interface_addresses
    from cli.serve import DEFAULT_PORT, devices_url
    from projections.cards import DEFAULT_BASE_URL

    served = devices_url(data)
    if served:
        return served
    found = interface_addresses()
    if not found:
        return DEFAULT_BASE_URL
    guessed = f"http://{found[0]}:{DEFAULT_PORT}"
    typer.echo(_("note: no dashboard serves the venue's devices from this data folder; the cards link to {url}, where "
                 "`rollcall dashboard --host 0.0.0.0` serves them (--base-url names another address)").format(
        url=guessed), err=True)
    return guessed


@app.command("cards", help=_("Printable table cards of a round: per table its number, the players and their "
                             "factions, and QR codes of the table's Record page (for the scorekeeper, who signs in "
                             "there) and of the round's Live view (for spectators); two cards per A4 page."))
def cards(name: Name,
          output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE.html", help=_("The HTML file to write."))],
          round_no: Annotated[Optional[int], typer.Option("--round", help=_("Round (default: the last)."))] = None,
          base_url: Annotated[Optional[str], typer.Option(
              "--base-url", envvar=settings.BASE_URL_ENV, show_envvar=True, metavar="URL", show_default=False,
              help=_("The dashboard's address as the tables' tablets and the spectators' phones reach it (default: the "
                     "network address of the dashboard serving the data folder, else of this machine)."))] = None,
          data: DataDir = None, key: ReadKey = None) -> None:
    """Printable table cards of a round: per table its number, the players and their factions, and QR codes
    of the table's Record page (for the scorekeeper, who signs in there) and of the round's Live view (for
    spectators); two cards per A4 page."""
    from projections.cards import round_cards

    privileged(data, key)  # a key given is a key of the store (the cards name only who plays where)
    page, rows = read(data, round_cards, name, round_no, base_url or devices_base(data))
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise RollcallError(_("{file}: cannot be written ({why})").format(file=output, why=exc.strerror)) from None
    tables = sum(1 for r in rows if r["game"])
    typer.echo(ngettext("wrote {file}: {n} table card of round {round} of {name}",
                        "wrote {file}: {n} table cards of round {round} of {name}", tables).format(
        file=output, n=tables, round=rows[0]["round"], name=name))


@app.command("export", help=_("Write a whole tournament into a folder: its own events (NAME.tournament.jsonl) and every "
                              "game's record (GAME.rollcall.jsonl), ready for `rollcall tournament import` into another "
                              "store. A game its tournament broadcasts with a delay is written up to its events older "
                              "than the delay, unless a key of the store is given."))
def export(name: Name,
           output: Annotated[Path, typer.Option("-o", "--output", metavar="DIR", help=_("The folder to write into."))],
           data: DataDir = None, key: ReadKey = None) -> None:
    """Write a whole tournament into a folder: its own events (NAME.tournament.jsonl) and every game's record
    (GAME.rollcall.jsonl), ready for `rollcall tournament import` into another store. A game its tournament
    broadcasts with a delay is written up to its events older than the delay, unless a key of the store is given."""
    from domain.record import export_line
    from domain.tournament_record import SUFFIX
    from projections.visibility import store_bound

    store = open_app(data)
    record = store.tournament_record(name)
    games = store.tournament_game_ids(name)
    bounds = read_seen(data, key, lambda con, seen: {g: store_bound(con, seen, g, name) for g in games}) if games \
        else {}
    try:
        output.mkdir(parents=True, exist_ok=True)
        (output / f"{store.tournament(name).data['slug']}{SUFFIX}").write_text(
            "".join(export_line(line) + "\n" for line in record), encoding="utf-8")
        for game in games:
            header, *events = store.stored_lines(game)
            if bounds.get(game) is not None:
                events = [e for e in events if int(e.get("seq") or 0) <= bounds[game]]
            (output / f"{game}.rollcall.jsonl").write_text(
                "".join(export_line(line) + "\n" for line in (header, *events)), encoding="utf-8")
    except OSError as exc:
        raise RollcallError(_("{file}: cannot be written ({why})").format(file=exc.filename or output,
                                                                           why=exc.strerror)) from None
    held = sorted(g for g, bound in bounds.items() if bound is not None)
    if held:
        typer.echo(ngettext("note: {n} game is broadcast with a delay: written up to its events older than the delay "
                            "(a key of the store, --key, writes it all)",
                            "note: {n} games are broadcast with a delay: written up to their events older than the "
                            "delay (a key of the store, --key, writes them all)", len(held)).format(n=len(held)),
                   err=True)
    events = ngettext("{n} event", "{n} events", len(record) - 1).format(n=len(record) - 1)
    typer.echo(ngettext("wrote {folder}: {name} ({events}) and {n} game", "wrote {folder}: {name} ({events}) and {n} "
                        "games", len(games)).format(folder=output, name=record[0]["tournament"], events=events, n=len(games)))


@app.command("import", help=_("Bring a whole tournament into this store from a folder `rollcall tournament export` "
                              "wrote (or one edited by hand, with --edited): the tournament's own events first, then "
                              "every game's record. A tournament of that name here already is refused (an "
                              "organiser's key once the store has keys)."))
def import_(folder: Annotated[Path, typer.Argument(help=_("The folder holding NAME.tournament.jsonl and the games' "
                                                          "*.rollcall.jsonl."))],
            edited: Annotated[bool, typer.Option("--edited", help=_(EDITED_HELP))] = False,
            data: DataDir = None, key: Key = None) -> None:
    """Bring a whole tournament into this store from a folder `rollcall tournament export` wrote (or one edited by
    hand, with --edited): the tournament's own events first, then every game's record. A tournament of that name
    here already is refused (an organiser's key once the store has keys)."""
    from domain.tournament_record import SUFFIX

    found = sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []
    if len(found) != 1:
        raise RollcallError(_("{folder}: a tournament's folder holds one *{suffix} file (it holds {n})").format(
            folder=folder, suffix=SUFFIX, n=len(found)))
    store = open_app(data, key)
    try:
        with found[0].open("rb") as handle:
            tournament = store.import_tournament(handle, str(found[0]), edited=edited)
    except OSError as exc:
        raise RollcallError(_("{file}: cannot be read ({why})").format(file=found[0], why=exc.strerror)) from None
    typer.echo(_("brought in tournament {name} ({system}): {n} events").format(
        name=tournament.name, system=tournament.system, n=tournament.version - 1))
    files = {path.name.removesuffix(".rollcall.jsonl"): path for path in record_files([folder])}
    paired = [files.pop(game) for game in store.paired_games(tournament.name) if game in files]
    if import_records(store, paired + sorted(files.values()), edited=edited):  # in the order the pairings made them
        raise typer.Exit(1)
