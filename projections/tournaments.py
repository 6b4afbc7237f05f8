"""Read-only queries of tournaments over the published read models (the CLI's ``tournament`` commands and
the dashboard's Standings page): dim_tournaments, fct_results, fct_standings. Each takes what the viewer may see
(``seen``, projections.visibility): a game a broadcast delay keeps behind is as it stood after its last seq shown,
so one that ended within the delay is still being played."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import duckdb

from domain.formats import Format, GameResult
from domain.round_time import RoundTime, round_time as round_time_of
from domain.tournaments import TournamentNotFound, format_of
from i18n import _
from projections.csvcells import as_text
from projections.queries import rows
from projections.sqlfiles import sql_text
from projections.visibility import EVERYTHING, Seen


def list_tournaments(con: duckdb.DuckDBPyConnection, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """Every tournament: tournament, slug, system, created (False: only named by game headers), planned_rounds,
    notes, games, ended_games, rounds_played (rounds every game of which ended), last_round (the highest with
    games), last_round_games, last_round_results, win_points, draw_points, loss_points, bye_points,
    broadcast_delay."""
    return rows(con, sql_text("list_tournaments"), seen.params())


def find_tournament(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, Any]:
    """The tournament called ``name`` (in any case); TournamentNotFound if it has neither been created nor
    named by a projected game."""
    from domain.record import slug

    found = [t for t in list_tournaments(con) if t["slug"] == slug(name)]
    if not found:
        raise TournamentNotFound(f"no tournament '{name}' (neither created nor named by a projected game)")
    return found[0]


def tournament_format(con: duckdb.DuckDBPyConnection, name: str) -> Format:
    """The format of the tournament called ``name`` (domain.tournaments.format_of: the default for a tournament only
    named by games)."""
    import json

    found = rows(con, sql_text("tournament_format"), {"tournament": name})
    if not found:
        return format_of(None)
    loaded = [json.loads(v) if isinstance(v, str) else v for v in (found[0]["created"], found[0]["changed"])]
    return format_of(*loaded)


def format_rows(con: duckdb.DuckDBPyConnection, name: str) -> list[dict[str, Any]]:
    """The tournament's format as one row (what a cache keeps; domain.formats.parse makes it a Format again):
    format (its name), data (its JSON object)."""
    fmt = tournament_format(con, name)
    return [{"format": fmt.name, "data": fmt_data(fmt)}]


def fmt_data(fmt: Format) -> dict:
    """A format's JSON object as it ranks (a wins format with a tournament's points: those points)."""
    from domain.formats import number

    data = dict(fmt.data)
    if fmt.scoring == "wins":
        data["scoring"] = {"type": "wins", "win": number(fmt.win), "draw": number(fmt.draw), "loss": number(fmt.loss)}
        data["bye"] = number(fmt.bye)
    return data


def bonuses(con: duckdb.DuckDBPyConnection, name: str, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """The bonuses and penalties of a tournament as the viewer sees them: round, player, points, reason. Under a
    broadcast delay, a round's bonuses show with its results: once no game of the round is kept behind."""
    given = rows(con, sql_text("tournament_bonuses"), {"tournament": name})
    held = {h.game for h in seen.held}
    if not held:
        return given
    rounds = {r["round"] for r in rows(con, sql_text("tournament_results"), {"tournament": name, "round": None,
                                                                             **EVERYTHING.params()})
              if r["game"] in held}
    return [b for b in given if b["round"] not in rounds]


def round_times(con: duckdb.DuckDBPyConnection, name: str) -> list[dict[str, Any]]:
    """The rounds of a tournament whose time was started: round, seconds, at (ISO), in round order (what every
    viewer sees: a round's time is no secret of its games)."""
    return rows(con, sql_text("tournament_round_times"), {"tournament": name})


def round_time(con: duckdb.DuckDBPyConnection, name: str, round_no: int | None = None) -> RoundTime | None:
    """The time of round ``round_no`` of a tournament (None: the last round whose time was started), if started."""
    started = [r for r in round_times(con, name) if round_no is None or r["round"] == round_no]
    return round_time_of(started[-1]) if started else None


def standings(con: duckdb.DuckDBPyConnection, name: str, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """The standings as the tournament's format ranks them (domain.formats), best first: rank, player, faction,
    club, games, wins, draws, losses, byes, score (the format's total: games, byes, bonuses and penalties; also as
    tournament_points), bonus (of which bonuses and penalties), vp_for, vp_against, vp_diff, sos, esos,
    tiebreaks ([{name, value}] in the format's order), bonuses ([{round, points, reason}]), dropped_after_round."""
    find_tournament(con, name)
    return ranked_rows(con, name, tournament_format(con, name), seen)


def ranked_rows(con: duckdb.DuckDBPyConnection, name: str, fmt: Format, seen: Seen,
                scored: list[dict] | None = None, given: list[dict] | None = None) -> list[dict[str, Any]]:
    """The standings rows of ``scored`` (tournament_scored_games.sql's rows) and ``given`` (the bonuses), read
    when None."""
    from domain.formats import Bonus, number, standings as rank
    from domain.record import slug

    if scored is None:
        scored = rows(con, sql_text("tournament_scored_games"), {"tournament": name, **seen.params()})
    if given is None:
        given = bonuses(con, name, seen=seen)
    games = [GameResult(r["player"], r["opponent"], r["score"] or 0, r["opponent_score"] or 0, r["winner"],
                        r["secondary"], r["round"]) for r in scored if r["result"] in ("W", "D", "L")]
    byes = [r["player"] for r in scored if r["result"] == "B"]
    paired = [n for r in scored for n in (r["player"], r["opponent"]) if n is not None]
    factions: dict[str, str | None] = {}
    for r in scored:  # each player's faction in their latest round
        factions[r["player"]] = r["faction"] or factions.get(r["player"])
        if r["game"] is not None:
            factions[r["opponent"]] = r["opponent_faction"] or factions.get(r["opponent"])
    registered = {p["player"]: p for p in rows(con, sql_text("tournament_players"), {"tournament": name})}
    table = rank(games, byes, paired, format=fmt, bonuses=[Bonus(b["player"], b["points"], b["reason"], b["round"])
                                                       for b in given], seed=slug(name))
    out = []
    for s in table:
        entry = registered.get(s.player, {})
        out.append({"rank": s.rank, "player": s.player, "faction": factions.get(s.player) or entry.get("faction"),
                    "club": entry.get("club"), "games": s.games, "wins": s.wins, "draws": s.draws,
                    "losses": s.losses, "byes": s.byes, "score": number(s.score),
                    "tournament_points": number(s.score), "bonus": number(s.bonus), "vp_for": s.vp_for,
                    "vp_against": s.vp_against, "vp_diff": s.vp_diff, "sos": number(s.sos), "esos": number(s.esos),
                    "tiebreaks": [{"name": t, "value": number(v)} for t, v in s.tiebreaks],
                    "bonuses": [{"round": b["round"], "points": b["points"], "reason": b["reason"]}
                                for b in given if b["player"] == s.player],
                    "dropped_after_round": entry.get("dropped_after_round")})
    return out


def team_rounds(con: duckdb.DuckDBPyConnection, name: str) -> list[dict[str, Any]]:
    """A team tournament's matches and bye teams as paired: round, match (None: a bye), team, opponent, entered."""
    return rows(con, sql_text("tournament_team_rounds"), {"tournament": name})


def team_matches(con: duckdb.DuckDBPyConnection, name: str, *, seen: Seen = EVERYTHING,
                 fmt: Format | None = None) -> list[dict[str, Any]]:
    """Every team match of a team tournament as the viewer sees it, by round and match: round, match, team,
    opponent, team_score, opponent_score (the totals so far), games_ended, games_on, finished, result (W/D/L of
    ``team`` once finished), match_points, opponent_match_points."""
    from domain.formats import number
    from domain.teams import team_matches as matches_of

    fmt = fmt or tournament_format(con, name)
    if fmt.teams is None:
        return []
    scored = rows(con, sql_text("tournament_scored_games"), {"tournament": name, **seen.params()})
    team_of = {p["player"]: p["club"] for p in rows(con, sql_text("tournament_players"), {"tournament": name})}
    paired = [r for r in team_rounds(con, name) if r["match"] is not None]
    order = {(r["round"], frozenset((r["team"], r["opponent"]))): r["match"] for r in paired}
    made = matches_of(_results_of(scored), [(r["round"], r["player"], r["opponent"]) for r in scored
                                            if r["game"] is not None and r["result"] is None], team_of, fmt,
                      [(r["round"], r["team"], r["opponent"]) for r in paired])
    out = []
    for m in made:
        said = {}
        if m.finished:
            (mine, points), (theirs, other) = (fmt.teams.match(t) for t in m.totals)
            said = {"result": {"win": "W", "draw": "D", "loss": "L"}[mine], "match_points": points,
                    "opponent_match_points": other}
        out.append({"round": m.round, "match": order.get((m.round, frozenset(m.teams))), "team": m.teams[0],
                    "opponent": m.teams[1], "team_score": number(m.totals[0]), "opponent_score": number(m.totals[1]),
                    "games_ended": m.ended, "games_on": m.on, "finished": m.finished, "result": None,
                    "match_points": None, "opponent_match_points": None, **said})
    return sorted(out, key=lambda r: (r["round"], r["match"] or 0))


def match_in_words(m: dict) -> str:
    """A team match (a row of :func:`team_matches`) in words: "Match 2: Aachen 43 – 37 Bergen (draw)", or with the games still on."""
    said = _("Match {match}: {team} {score} – {opponent_score} {opponent}").format(
        match=m["match"] or "–", team=m["team"], score=m["team_score"], opponent_score=m["opponent_score"],
        opponent=m["opponent"])
    if m["finished"]:
        outcome = {"W": _("{team} wins"), "L": _("{team} wins"), "D": _("a draw")}[m["result"]]
        return f"{said} ({outcome.format(team=m['team'] if m['result'] == 'W' else m['opponent'])})"
    if not m["games_ended"] and not m["games_on"]:
        return _("{match} (matchups to enter)").format(match=said)
    return _("{match} (so far: {ended} of {games} games ended)").format(
        match=said, ended=m["games_ended"], games=m["games_ended"] + m["games_on"])


def round_matches(con: duckdb.DuckDBPyConnection, name: str, round_no: int, *, seen: Seen = EVERYTHING) -> list[str]:
    """The team matches of round ``round_no`` in words (:func:`match_in_words`), as the viewer sees them; none
    for a tournament without teams."""
    return [match_in_words(m) for m in team_matches(con, name, seen=seen) if m["round"] == round_no]


def team_standings(con: duckdb.DuckDBPyConnection, name: str, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """The teams' standings of a team tournament (domain.teams), best first: rank, team, players (in registration
    order), matches, wins, draws, losses, byes, match_points, score (the team totals summed), sos (the opponent
    teams' match points), tiebreaks ([{name, value}] in the format's team order). Empty for a tournament without
    teams."""
    from domain.formats import number
    from domain.teams import TeamMatch, team_standings as rank

    find_tournament(con, name)
    fmt = tournament_format(con, name)
    if fmt.teams is None:
        return []
    registered = rows(con, sql_text("tournament_players"), {"tournament": name})
    members: dict[str, list[str]] = {}
    for p in registered:
        if p["club"]:
            members.setdefault(p["club"], []).append(p["player"])
    made = [TeamMatch(r["round"], (r["team"], r["opponent"]),
                      [Fraction(r["team_score"]).limit_denominator(1000),
                       Fraction(r["opponent_score"]).limit_denominator(1000)],
                      r["games_ended"], r["games_on"]) for r in team_matches(con, name, seen=seen, fmt=fmt)]
    byes = [r["team"] for r in team_rounds(con, name) if r["match"] is None]
    return [{"rank": s.rank, "team": s.team, "players": members.get(s.team, []), "matches": s.matches,
             "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes, "match_points": s.match_points,
             "score": number(s.score), "sos": s.sos,
             "tiebreaks": [{"name": t, "value": number(v)} for t, v in s.tiebreaks]}
            for s in rank(made, fmt.teams, members, byes)]


def _results_of(scored: list[dict]) -> list[GameResult]:
    return [GameResult(r["player"], r["opponent"], r["score"] or 0, r["opponent_score"] or 0, r["winner"],
                       r["secondary"], r["round"]) for r in scored if r["result"] in ("W", "D", "L")]


def results(con: duckdb.DuckDBPyConnection, name: str, round_no: int | None = None, *,
            seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """One row per game (seen from the player in seat 1) and per bye, by round and table: round, table_no, game,
    player, faction, opponent, opponent_faction, score, opponent_score, result (W/D/L/B; None while the game is
    on), tournament_points."""
    find_tournament(con, name)
    return rows(con, sql_text("tournament_results"), {"tournament": name, "round": round_no, **seen.params()})


def progress(con: duckdb.DuckDBPyConnection, name: str, *, seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """Each player's score (the format's total, as tournament_points) after each round they played a game of or
    had a bye in: round, player, tournament_points."""
    fmt = tournament_format(con, name)
    scored = [r for r in rows(con, sql_text("tournament_scored_games"), {"tournament": name, **seen.params()})
              if r["result"] is not None]
    given = bonuses(con, name, seen=seen)
    out = []
    for number in sorted({r["round"] for r in scored if r["round"] is not None}):
        played = {n for r in scored if r["round"] == number for n in (r["player"], r["opponent"]) if n}
        upto = ranked_rows(con, name, fmt, seen, [r for r in scored if (r["round"] or 0) <= number],
                           [b for b in given if (b["round"] or 0) <= number])
        out += [{"round": number, "player": r["player"], "tournament_points": r["score"]}
                for r in sorted(upto, key=lambda r: r["player"]) if r["player"] in played]
    return out


def pairings(con: duckdb.DuckDBPyConnection, name: str, round_no: int | None = None, *,
             seen: Seen = EVERYTHING) -> list[dict[str, Any]]:
    """The current pairing of round ``round_no`` (None: the last round paired), tables first, then the bye: round,
    table_no, game, player, faction, opponent, opponent_faction (p1 then p2 as seated), score, opponent_score,
    result (W/D/L of p1, B for the bye, None while the game is on), scenario; in a team tournament also team and
    opponent_team (the players' teams)."""
    find_tournament(con, name)
    found = rows(con, sql_text("tournament_pairings"), {"tournament": name, "round": round_no, **seen.params()})
    if tournament_format(con, name).teams is None:
        return found
    team_of = {p["player"]: p["club"] for p in rows(con, sql_text("tournament_players"), {"tournament": name})}
    return [{**r, "team": team_of.get(r["player"]), "opponent_team": team_of.get(r["opponent"])} for r in found]


def players(con: duckdb.DuckDBPyConnection, name: str) -> list[dict[str, Any]]:
    """The registered players in the order they registered: registration, player, faction, club, checked_in,
    dropped_after_round (None: still in)."""
    find_tournament(con, name)
    return rows(con, sql_text("tournament_players"), {"tournament": name})


FORMAT_STANDINGS_DOCS = {
    "slug": "The tournament's key: its name in lower case, other characters runs of one hyphen.",
    "tournament": "Tournament name.", "format": "The tournament's format (docs/organiser.md).",
    "rank": "Rank by the format's tiebreaks (players equal on every one share it).", "player": "The player's name.",
    "faction": "The player's faction (in their latest game).", "club": "The player's club or team.",
    "games": "Games finished (a bye is not a game).", "wins": "Games won.", "draws": "Games drawn.",
    "losses": "Games lost.", "byes": "Byes: rounds without a game.",
    "score": "The format's total: the games' scores, byes, bonuses and penalties.",
    "bonus": "Of the score, the bonuses and penalties.", "vp_for": "Victory points scored.",
    "vp_against": "Victory points scored against the player.", "vp_diff": "Victory points for minus against.",
    "sos": "Strength of schedule: the opponents' scores, once per game.",
    "esos": "Extended strength of schedule: the opponents' strengths of schedule.",
    "tiebreaks": "The format's tiebreaks in its order, each with this player's value (JSON: [{name, value}]).",
    "dropped_after_round": "The round after which the player dropped out (empty: still in).",
}


def format_standings_table(con: duckdb.DuckDBPyConnection):
    """Every tournament's standings as its format ranks them (:func:`standings`), as one Arrow table (the dump's
    tournament_standings, FORMAT_STANDINGS_DOCS)."""
    import json

    import pyarrow as pa

    from domain.record import slug

    whole = ("rank", "games", "wins", "draws", "losses", "byes", "vp_for", "vp_against", "vp_diff",
             "dropped_after_round")
    columns: dict[str, list] = {k: [] for k in FORMAT_STANDINGS_DOCS}
    for t in list_tournaments(con):
        fmt = tournament_format(con, t["tournament"])
        for r in ranked_rows(con, t["tournament"], fmt, EVERYTHING):
            row = {**r, "slug": slug(t["tournament"]), "tournament": t["tournament"], "format": fmt.name,
                   "tiebreaks": json.dumps(r["tiebreaks"])}
            for k in columns:
                columns[k].append(row.get(k))
    types = {k: pa.int64() if k in whole else pa.string() if k in ("slug", "tournament", "format", "player",
                                                                   "faction", "club", "tiebreaks") else pa.float64()
             for k in columns}
    return pa.table({k: pa.array(v, types[k]) for k, v in columns.items()},
                    schema=pa.schema([pa.field(k, types[k]) for k in columns]))


# The columns of the published CSV files (the command line's --csv and the dashboard's downloads).
STANDINGS_CSV = ("rank", "player", "faction", "club", "games", "wins", "draws", "losses", "byes", "tournament_points",
                 "bonus", "vp_for", "vp_against", "vp_diff", "sos", "esos", "dropped_after_round")
PAIRINGS_CSV = ("round", "table_no", "player", "faction", "opponent", "opponent_faction", "score", "opponent_score",
                "result", "ended_at_time", "game")


RESULTS_CSV = ("round", "table_no", "game", "player", "faction", "opponent", "opponent_faction", "score",
               "opponent_score", "result", "ended_at_time", "tournament_points")


def csv_text(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> str:
    """``rows`` as CSV with a header line (empty cells for None); a name a spreadsheet would run as a formula
    is written as text (projections.csvcells)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: as_text(v) for k, v in row.items()} for row in rows)
    return out.getvalue()
