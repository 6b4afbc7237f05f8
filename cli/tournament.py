"""Tournaments: create them, register players, pair rounds, enter results, publish standings and pairings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cli.options import App, AsJson, DataDir, Key, ReadKey, echo_json, note_held, open_app, read, read_seen, table
from domain.errors import MalformedRecord, RecordError, RollcallError
from domain.record import NotJSON, read_json
from domain.systems import systems_in_words
from domain.systems.presentation import plural, title_words

app = App(name="tournament", help="Tournaments: registration, pairings, results and standings.")

Name = Annotated[str, typer.Argument(help="Tournament name.")]
Player = Annotated[str, typer.Option(help="The player's name.")]
Round = Annotated[int, typer.Option("--round", help="Round number.")]
Csv = Annotated[bool, typer.Option("--csv", help="Print CSV (a header line, then a line per row).")]

STANDING_COLUMNS = (("rank", "#"), ("player", "player"), ("faction", "faction"), ("games", "games"),
                    ("wins", "W"), ("draws", "D"), ("losses", "L"), ("byes", "byes"), ("tournament_points", "TP"),
                    ("vp_for", "VP+"), ("vp_against", "VP-"), ("vp_diff", "VP±"), ("sos", "SoS"))
PAIRING_COLUMNS = (("table_no", "table"), ("player", "player (p1)"), ("faction", "faction"),
                   ("opponent", "opponent (p2)"), ("opponent_faction", "opp. faction"), ("score", "VP"),
                   ("opponent_score", "opp. VP"), ("result", "result"), ("game", "game"))
PLAYER_COLUMNS = (("registration", "#"), ("player", "player"), ("faction", "faction"), ("club", "club"),
                  ("checked_in", "checked in"), ("dropped_after_round", "dropped after round"))
RESULT_COLUMNS = (("round", "round"), ("table_no", "table"), ("player", "player"), ("faction", "faction"),
                  ("score", "VP"), ("opponent_score", "opp. VP"), ("opponent", "opponent"),
                  ("opponent_faction", "opp. faction"), ("result", "result"), ("game", "game"))


@app.command("create")
def create(name: Annotated[str, typer.Argument(help="Tournament name, e.g. 'Autumn Open 2026'.")],
           system: Annotated[str, typer.Option(help=f"{systems_in_words()}.")],
           rounds: Annotated[Optional[int], typer.Option(help="Rounds planned.")] = None,
           notes: Annotated[Optional[str], typer.Option(help="Free text.")] = None,
           win: Annotated[Optional[int], typer.Option(help="Tournament points for a win (default 3).")] = None,
           draw: Annotated[Optional[int], typer.Option(help="Tournament points for a draw (default 1).")] = None,
           loss: Annotated[Optional[int], typer.Option(help="Tournament points for a loss (default 0).")] = None,
           bye: Annotated[Optional[int], typer.Option(help="Tournament points for a bye (default 3).")] = None,
           data: DataDir = None, key: Key = None) -> None:
    """Create a tournament of one system; games whose header names it must be of that system."""
    points = {k: v for k, v in (("win", win), ("draw", draw), ("loss", loss), ("bye", bye)) if v is not None}
    created = open_app(data, key).create_tournament(name, system, rounds=rounds, notes=notes, points=points or None)
    typer.echo(f"created tournament {created['name']} ({created['system']})")


@app.command("delay")
def delay(name: Annotated[str, typer.Argument(help="Tournament name.")],
          seconds: Annotated[int, typer.Argument(help="Seconds spectators are kept behind each game (0: live).")],
          data: DataDir = None, key: Key = None) -> None:
    """Delay the broadcast of a created tournament's games: spectators without a key see each game only up to
    its events older than SECONDS (the Live, Replay and Dispute pages); judges and scorekeepers see it all."""
    open_app(data, key).set_broadcast_delay(name, seconds)
    typer.echo(f"{name}: spectators see each game {seconds} s behind" if seconds else f"{name}: broadcast live")


@app.command("bye")
def bye(name: Annotated[str, typer.Argument(help="Tournament name.")],
        round_no: Annotated[int, typer.Option("--round", help="Round of the bye.")],
        player: Annotated[str, typer.Option(help="Name of the player who sits the round out.")],
        faction: Annotated[Optional[str], typer.Option(help="The player's faction.")] = None,
        data: DataDir = None, key: Key = None) -> None:
    """Record a bye (a round without a game, worth the points of a bye) in a created tournament."""
    open_app(data, key).award_bye(name, round_no, player, faction)
    typer.echo(f"{player} has a bye in round {round_no} of {name}")


@app.command("list")
def list_(as_json: AsJson = False, data: DataDir = None, key: ReadKey = None) -> None:
    """Every tournament: created ones and those only named by game headers."""
    from projections.tournaments import list_tournaments

    rows = read_seen(data, key, lambda con, seen: list_tournaments(con, seen=seen))
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo("no tournaments yet: `rollcall tournament create NAME --system SYSTEM`")
    for t in rows:
        origin = "" if t["created"] else "  (named by games only)"
        rounds = plural(t["rounds_played"] or 0, "round") + (f" of {t['planned_rounds']}" if t["planned_rounds"] else "")
        typer.echo(f"{t['tournament']}  {t['system']}  {plural(t['games'], 'game')}, {rounds}{origin}")


@app.command("standings")
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
    table(f"Standings of {name}", rows, STANDING_COLUMNS)


@app.command("results")
def results(name: Annotated[str, typer.Argument(help="Tournament name.")],
            round_no: Annotated[Optional[int], typer.Option("--round", help="Only this round.")] = None,
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
        typer.echo(f"no results of {name}" + (f" in round {round_no}" if round_no else ""))
        return
    table(f"Results of {name}" + (f", round {round_no}" if round_no else ""), rows, RESULT_COLUMNS)



@app.command("register")
def register(name: Name,
             player: Annotated[Optional[str], typer.Option(help="The player's name.")] = None,
             faction: Annotated[Optional[str], typer.Option(help="The player's faction.")] = None,
             club: Annotated[Optional[str], typer.Option(help="The player's club or team (kept apart in round 1).")] = None,
             from_csv: Annotated[Optional[Path], typer.Option(
                 "--csv", metavar="FILE", help="Register every player of a pairing tool's export: CSV with a header "
                                               "row naming name and faction (club optional, other columns "
                                               "ignored).")] = None,
             from_games: Annotated[bool, typer.Option(
                 "--from-games", help="Register everyone who played a game of the tournament, with their "
                                      "faction.")] = False,
             data: DataDir = None, key: Key = None) -> None:
    """Register a player (--player), the players of a CSV file (--csv) or of the tournament's games
    (--from-games) in a created tournament; players already registered are left as they are, so registering
    a list again adds nobody twice (an organiser's key once the store has keys)."""
    from domain.tournaments import registrations

    if sum((player is not None, from_csv is not None, from_games)) != 1:
        raise RollcallError("name one: --player NAME, --csv FILE or --from-games")
    if player is None and (faction or club):
        raise RollcallError("--faction and --club go with --player (a list gives each player's own)")
    store = open_app(data, key)
    if player is not None:
        entry = store.register_player(name, player, faction, club)
        typer.echo(f"registered {entry['player']} in {name}")
        return
    if from_csv is not None:
        try:
            raw = from_csv.read_bytes()
        except OSError as exc:
            raise RollcallError(f"{from_csv}: cannot be read ({exc.strerror})") from None
        done = store.register_players(name, registrations(raw, str(from_csv)))
    else:
        done = store.register_from_games(name)
    already = ", ".join(done.already[:10]) + (f" and {len(done.already) - 10} more" if len(done.already) > 10 else "")
    typer.echo(f"registered {plural(len(done.registered), 'player')} in {name}"
               + (f"; already registered: {already}" if done.already else ""))


@app.command("check-in")
def check_in(name: Name, player: Player, data: DataDir = None, key: Key = None) -> None:
    """A registered player is present. Once check-in has begun, only checked-in players are paired."""
    entry = open_app(data, key).check_in(name, player)
    typer.echo(f"{entry['player']} checked in")


@app.command("drop")
def drop(name: Name, player: Player, data: DataDir = None, key: Key = None) -> None:
    """A player leaves the tournament: never paired again; the games played stand."""
    entry = open_app(data, key).drop_player(name, player)
    typer.echo(f"{entry['player']} dropped out of {name} after round {entry['after_round']}")


@app.command("players")
def players(name: Name, as_json: AsJson = False, data: DataDir = None) -> None:
    """The registered players: faction, club, check-in and drop."""
    from projections.tournaments import players as query

    rows = read(data, query, name)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo(f"no players registered in {name}: `rollcall tournament register`")
        return
    shown = [{**row, "faction": title_words(row["faction"]) if row.get("faction") else None,
              "checked_in": "yes" if row.get("checked_in") else "no"} for row in rows]
    table(f"Players of {name}: {plural(len(rows), 'player')}", shown, PLAYER_COLUMNS)


@app.command("pair")
def pair(name: Name, round_no: Round,
         setup: Annotated[Optional[Path], typer.Option(metavar="FILE",
                                                       help="A JSON file holding the games' setup object.")] = None,
         scenario: Annotated[Optional[str], typer.Option(
             help="A scenario shipped with Rollcall (default: the system's first; see domain/scenarios).")] = None,
         seed: Annotated[Optional[int], typer.Option(
             help="Seed of the draw among players tied in the standings (default: random).")] = None,
         data: DataDir = None, key: Key = None) -> None:
    """Pair a round from the standings (Swiss: no rematch when avoidable, a bye to the lowest-ranked player
    without one, no two players of a club in round 1 when avoidable), assign tables and create the games,
    ready to be recorded. A round can be paired again until one of its games has an event."""
    paired = open_app(data, key).pair_round(name, round_no, setup=_setup(setup), scenario=scenario, seed=seed)
    again = f" (pairing {paired['pairing']})" if paired["pairing"] > 1 else ""
    typer.echo(f"round {round_no} of {name}{again}: {plural(len(paired['tables']), 'table')}"
               + (f", scenario {paired['scenario']}" if paired["scenario"] else ""))
    for t in paired["tables"]:
        (a, b) = t["players"]
        typer.echo(f"  table {t['table']}: {a['name']} ({a['faction'] or '-'}) vs {b['name']} ({b['faction'] or '-'})"
                   f"  game {t['game']}")
    if paired["bye"]:
        typer.echo(f"  bye: {paired['bye']}")


def _setup(path: Path | None) -> dict | None:
    if path is None:
        return None
    try:
        setup, _ = read_json(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise RecordError(str(path), 0, None, MalformedRecord(f"not UTF-8 text (byte {exc.start + 1})")) from None
    except MalformedRecord as exc:  # the file named whole (a message's excerpts are of what it holds)
        raise RecordError(str(path), exc.line if isinstance(exc, NotJSON) else 1, None, exc) from None
    if not isinstance(setup, dict):
        raise RecordError(str(path), 0, None, MalformedRecord("the setup must be a JSON object"))
    return setup


@app.command("result")
def result(name: Name, round_no: Round,
           table_no: Annotated[int, typer.Option("--table", help="Table number.")],
           score: Annotated[list[str], typer.Option(help="A player's victory points, as SEAT=VP or NAME=VP "
                                                         "(give both: --score p1=3 --score p2=1); seat:p2=VP or "
                                                         "name:P2=VP where a name reads as a seat id.")],
           data: DataDir = None, key: Key = None) -> None:
    """Enter a game's result alone (the game then holds its setup and GameEnded); it counts in the
    standings like any other game. The winner is the player with more victory points."""
    scores: dict[str, int] = {}
    for item in score:
        who, _, points = item.rpartition("=")
        if not who.strip() or not points.strip().lstrip("-").isdigit() or len(points.strip()) > 19:
            raise MalformedRecord(f"--score takes SEAT=VP or NAME=VP, e.g. p1=3, not {item!r}", field="score")
        scores[who.strip()] = int(points)
    from domain.tournaments import result_in_words

    store = open_app(data, key)
    ended = store.enter_result(name, round_no, table_no, scores)
    players = store.stored_lines(store.table_game(name, round_no, table_no))[0]["players"]
    typer.echo(f"round {round_no}, table {table_no}: {result_in_words(players, ended['score'], ended['winner'])}")


@app.command("pairings")
def pairings(name: Name,
             round_no: Annotated[Optional[int], typer.Option("--round", help="Round (default: the last paired).")] = None,
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
        typer.echo(f"no pairings of {name}" + (f" in round {round_no}" if round_no else "")
                   + ": `rollcall tournament pair`")
    else:
        shown = [{**r, "table_no": r["table_no"] or "bye", "result": r["result"] if r["game"] else None}
                 for r in rows]
        table(f"Pairings of {name}, round {rows[0]['round']}", shown, PAIRING_COLUMNS)


@app.command("cards")
def cards(name: Name,
          output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE.html", help="The HTML file to write.")],
          round_no: Annotated[Optional[int], typer.Option("--round", help="Round (default: the last).")] = None,
          base_url: Annotated[Optional[str], typer.Option(
              help="The dashboard's address as the tables' tablets and the spectators' phones reach it (default: "
                   "the dashboard on this machine).", show_default=False)] = None,
          data: DataDir = None) -> None:
    """Printable table cards of a round: per table its number, the players and their factions, and QR codes
    of the table's Record page (for the scorekeeper, who signs in there) and of the round's Live view (for
    spectators); two cards per A4 page."""
    from projections.cards import DEFAULT_BASE_URL, round_cards

    page, rows = read(data, round_cards, name, round_no, base_url or DEFAULT_BASE_URL)
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise RollcallError(f"{output}: cannot be written ({exc.strerror})") from None
    tables = sum(1 for r in rows if r["game"])
    typer.echo(f"wrote {output}: {plural(tables, 'table card')} of round {rows[0]['round']} of {name}")
