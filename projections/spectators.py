"""What a spectator may see, made once per change: the broadcast's snapshots.

The follower (projections.follow) makes them after each publish of the read models, and again when an event a
broadcast delay holds back comes due with time alone (:attr:`Spectators.due`): every page a spectator opens —
the Live page, the stream overlay, a front end of ``rollcall broadcast`` on another machine — shows these and
nothing else, so the delay is applied here, where they are made (``visibility.seen`` at the moment of making),
and no spectator path can reach past it.

A snapshot is a small JSON object under a key, one per language (its words and pictures are in it):

- ``table/<lang>/<game>``: one table as the Live page's card shows it — the players with faction and score,
  where (table, turn, seq), whether it has ended, the pack's small card picture, the last roll of the game as
  ruled with its odds and luck, both game clocks, its round's time (:func:`table_view`);
- ``board/<lang>/<game>``: the pack's picture of the game now, for the overlay (:func:`board_view`);
- ``round/<lang>/<tournament>/<round>``: a round's tables in order, the delay note and the round's time once the
  organiser started it (``round_time``: its end, counted down by the page; :func:`round_view`);
- ``tournament/<lang>/<tournament>``: its rounds, and its latest (:func:`tournament_view`);
- ``index/<lang>``: every tournament with its rounds, and the games under way (:func:`index_view`).

A snapshot that lists others names them in ``follow`` (a round its tables): a page subscribes to one key and is
sent what it follows (broadcast.hub). Each carries ``v``, when it was made (µs): a newer one replaces an older.

Snapshots are made for the games **on air**: those under way, every game of a tournament with a game under
way, and any game that changed while the follower runs (a ruling on a game played earlier). Keys are ASCII:
ids and slugs are percent-encoded (:func:`key`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, unquote, urlencode

import duckdb
import orjson

from domain import clock as game_clock
from domain.round_time import round_time as round_time_of
from domain.systems.presentation import Names, Presentation, add_roll, dice_symbols, value_text
from i18n import LANGUAGES, _, ngettext, speaking
from projections.tournaments import round_matches
from projections.queries import rows, roll_odds, state_at
from projections.sqlfiles import sql_text
from projections.stats import ANALYTICS_QUERIES, Scope
from projections import visibility
from projections.visibility import Seen

KINDS = ("table", "board", "round", "tournament", "index")


def key(kind: str, lang: str, *parts: Any) -> str:
    """The key of a snapshot: ``table/en/<game>``, ``round/ru/<slug>/<round>`` (each part percent-encoded)."""
    return "/".join([kind, lang, *(quote(str(p), safe="") for p in parts)])


def parts(found: str) -> tuple[str, str, list[str]]:
    """(kind, language, parts) of a key made by :func:`key`."""
    kind, lang, *rest = found.split("/")
    return kind, lang, [unquote(p) for p in rest]


def presentation(system: str | None) -> Presentation:
    from domain.systems import system_for

    try:
        return system_for(system or "").presentation
    except Exception:  # noqa: BLE001 - a game of an unknown system is shown with the common presentation
        return Presentation()


# --- the views (pure over a read connection and what a spectator sees) ----------------------------

def last_roll(con: duckdb.DuckDBPyConnection, game: str, upto: int | None, names: Names, seen: Seen) -> dict | None:
    """The last roll of ``game`` as ruled, up to seq ``upto``: who rolled (``said``), its faces, its odds and luck
    as texts; None when no roll stands. A roll a ruling voided, or taken back or rewound, is never the last."""
    found = rows(con, sql_text("spectator_last_roll"), {"game": game, "upto": upto})
    if not found:
        return None
    rolls: dict[int, dict] = {}
    for row in found:
        add_roll(rolls, {"type": row["type"], "seq": row["seq"], "payload": row["payload"]})
    seq = max(rolls)
    roll = rolls[seq]
    odds = roll_odds(con, game, upto).get(seq)
    luck = next((x for x in ANALYTICS_QUERIES["luck_line"](con, Scope(game=game, seen=seen)) if x["seq"] == seq),
                None)
    return {
        "seq": seq,
        "said": (_("Last roll by {player} (seq {seq})").format(player=names.player(roll["player"]), seq=seq)
                 if roll.get("player") else _("Last roll (seq {seq})").format(seq=seq)),
        "dice": dice_symbols(roll.get("faces")),
        "odds": _("odds {odds}").format(odds=f"{odds:.1%}") if odds is not None else "",
        "luck": _("luck {luck} (expected {expected}, got {observed})").format(
            luck=f'{luck["luck"]:+.2f}', expected=f'{luck["expected"]:.2f}',
            observed=f'{luck["observed"]:.2f}') if luck else "",
    }


def clock_view(state: dict, names: Names, delay: int = 0) -> dict | None:
    """Both players' game clock as a spectator's page counts it down (None for a game without a clock, or one not
    started): each player's time in ms at ``since`` (ms since the epoch), whose runs, and the broadcast ``delay``
    (s) the page counts back by — the same figures at every make, so an unchanged game makes an unchanged
    snapshot; the page computes ``remaining - (now - delay - since)`` for the running player."""
    clock = state.get("clock")
    if not isinstance(clock, dict) or not clock.get("started"):
        return None
    since = game_clock.instant(clock["since"]) if clock.get("since") else None
    flagged = set(clock.get("flagged") or ())
    return {"since": since, "delay": delay, "paused": bool(clock.get("paused")), "stopped": bool(clock.get("stopped")),
            "faces": [{"player": pid, "name": names.player(pid), "remaining": ms, "running": clock.get("running") == pid,
                       "flagged": pid in flagged, "shown": game_clock.shown(ms if pid in flagged else max(ms, 0))}
                      for pid, ms in (clock.get("remaining") or {}).items()]}


def round_times(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, int], dict]:
    """The rounds whose time was started, of every tournament: (slug, round) -> round, seconds, at."""
    return {(r["slug"], r["round"]): r for r in rows(con, sql_text("tournament_round_times"), {"tournament": None})}


def round_timer(started: dict | None) -> dict | None:
    """A round's time as a spectator's page counts it down (domain.round_time: its start and end, the words of
    what is left and of time called, in the current language); None before it is started. The same at every
    make: the page counts from ``ends``."""
    return round_time_of(started).as_json() if started else None


def table_view(con: duckdb.DuckDBPyConnection, game: dict, seen: Seen, timers: dict | None = None) -> dict:
    """One table as a spectator sees it now (``game``: a row of spectator_games.sql with its header), in the
    current language; ``timers``: the rounds' times (:func:`round_times`)."""
    gid, upto = game["game"], game["last_seq"] or 0
    state = state_at(con, gid, upto, as_ruled=True, upto=upto)
    pres = presentation(game["system"])
    names = pres.names(game["header"])
    final = game["score"] if game["ended"] and isinstance(game["score"], dict) else {}
    players = [{"id": pid, "name": names.player(pid), "faction": names.faction(p.get("faction"))
                if p.get("faction") else "", "score": final.get(pid, p.get("score", 0))}
               for pid, p in (state.get("players") or {}).items()]
    turn = state.get("turn") or 0
    ended = _("ended") if game["ended"] else ""
    return {
        "kind": "table", "game": gid, "seq": upto, "tournament": game["tournament"], "round": game["round"],
        "table": game["table_no"], "ended": bool(game["ended"]), "players": players,
        "scores": " – ".join(f"{p['name']} {p['score']}" for p in players),
        "where": " · ".join(x for x in (_("table {number}").format(number=game["table_no"]) if game["table_no"]
                                         else "", _("turn {number}").format(number=turn),
                                         _("seq {seq}").format(seq=upto), ended) if x),
        "turn": " · ".join(x for x in (_("Turn {number}").format(number=turn),
                                        value_text(state.get("phase") or "-"), ended) if x),
        "status": ended,
        "roll": last_roll(con, gid, upto, names, seen),
        "clock": clock_view(state, names, seen.delay(gid) if seen.upto(gid) is not None else 0),
        "card": unsequenced(pres.card(state, names)),
        "round_time": round_timer((timers or {}).get((game["slug"], game["round"]))),
        "link": f"/replay?{urlencode({'game': gid, 'seq': upto})}",
    }


def board_view(con: duckdb.DuckDBPyConnection, game: dict) -> dict:
    """The pack's picture of one game now, as a spectator sees it (the overlay's board)."""
    gid, upto = game["game"], game["last_seq"] or 0
    state = state_at(con, gid, upto, as_ruled=True, upto=upto)
    pres = presentation(game["system"])
    return {"kind": "board", "game": gid, "seq": upto,
            "picture": unsequenced(pres.picture(state, names=pres.names(game["header"]), mark={}))}


_SVG_SEQ = re.compile(r'(<svg\b[^>]*?) data-seq="\d+"')


def unsequenced(picture: str) -> str:
    """A pack's picture without the seq its root names (the snapshot says it): a board an event left as it was
    is the same picture, which a front end then sends no more (broadcast.hub.KEPT)."""
    return _SVG_SEQ.sub(r"\1", picture, count=1)


def delay_note(seen: Seen, games: list[str]) -> str | None:
    """A line saying which of ``games`` a spectator sees behind and by how much; None when none is."""
    held = [g for g in games if seen.upto(g) is not None]
    if not held:
        return None
    delay = max(seen.delay(g) for g in held)
    if len(games) == 1:
        return _("Broadcast with a delay of {delay} s: this game is shown as it stood {delay} s ago. Judges and "
                 "scorekeepers signed in see it as it is recorded.").format(delay=delay)
    if len(held) < len(games):
        return ngettext("Broadcast with a delay of {delay} s: {n} of these {count} games are shown as they stood "
                        "{delay} s ago. Judges and scorekeepers signed in see them as they are recorded.",
                        "Broadcast with a delay of {delay} s: {n} of these {count} games are shown as they stood "
                        "{delay} s ago. Judges and scorekeepers signed in see them as they are recorded.",
                        len(held)).format(delay=delay, n=len(held), count=len(games))
    return _("Broadcast with a delay of {delay} s: these games are shown as they stood {delay} s ago. Judges and "
             "scorekeepers signed in see them as they are recorded.").format(delay=delay)


def in_order(games: Iterable[dict]) -> list[dict]:
    """Games by table (games without a table last), then id: the order of the Live page's grid."""
    return sorted(games, key=lambda g: (g["table_no"] is None, g["table_no"] or 0, g["game"]))


def round_view(lang: str, tournament: str, slug: str, round_no: int, games: list[dict], seen: Seen,
               timers: dict | None = None, matches: list[str] = ()) -> dict:
    """A round of a tournament: its tables in order (``follow``: their snapshots), the delay note, the round's
    time once started (``timers``: :func:`round_times`) and, in a team tournament, its team matches in words with
    their totals so far (``matches``: projections.tournaments.round_matches)."""
    ids = [g["game"] for g in in_order(games)]
    return {"kind": "round", "tournament": tournament, "slug": slug, "round": round_no, "tables": ids,
            "matches": list(matches), "round_time": round_timer((timers or {}).get((slug, round_no))),
            "follow": [key("table", lang, g) for g in ids], "note": delay_note(seen, ids) or "",
            "empty": _("No games of {tournament} yet.").format(tournament=tournament)}


def tournament_view(lang: str, tournament: str, slug: str, rounds: list[int]) -> dict:
    """A tournament's rounds; it follows its latest round (a page showing "the latest round" moves on with it)."""
    latest = rounds[-1] if rounds else None
    return {"kind": "tournament", "tournament": tournament, "slug": slug, "rounds": rounds, "latest": latest,
            "follow": [key("round", lang, slug, latest)] if latest is not None else [],
            "empty": _("No games of {tournament} yet.").format(tournament=tournament)}


def index_view(lang: str, tournaments: list[dict], under_way: list[dict], seen: Seen) -> dict:
    """Every tournament with its rounds, and the games under way (every table of every tournament), in order."""
    ids = [g["game"] for g in in_order(under_way)]
    return {"kind": "index", "tournaments": tournaments, "under_way": ids,
            "follow": [key("table", lang, g) for g in ids], "note": delay_note(seen, ids) or "",
            "empty": _("No game under way here.")}


# --- made once per change ---------------------------------------------------------------------------

def games_seen(con: duckdb.DuckDBPyConnection, seen: Seen, headers: Iterable[str] = ()) -> list[dict]:
    """Every game as a spectator sees it (spectator_games.sql), with the headers of the games ``headers``."""
    return rows(con, sql_text("spectator_games"), seen.params() | {"games": list(headers)})


def tournament_list(con: duckdb.DuckDBPyConnection, games: list[dict]) -> list[dict]:
    """Every tournament (name, slug) with the rounds of its ``games``."""
    rounds: dict[str, set[int]] = {}
    for g in games:
        if g["tournament"] and g["round"] is not None:
            rounds.setdefault(g["slug"], set()).add(g["round"])
    return [{"name": t["tournament"], "slug": t["slug"], "rounds": sorted(rounds.get(t["slug"], ()))}
            for t in rows(con, sql_text("spectator_tournaments"))]


def due(con: duckdb.DuckDBPyConnection, seen: Seen) -> datetime | None:
    """When the next event a broadcast delay holds back comes due (None: nothing is held)."""
    if not seen.held:
        return None
    return con.execute(sql_text("broadcast_due"), seen.params()).fetchall()[0][0]


def encoded(found: str, body: dict, made: int) -> bytes:
    """A snapshot as it is sent: its body with its key and ``v``, when it was made (µs)."""
    return orjson.dumps({"key": found, "v": made, **body})


@dataclass
class Spectators:
    """The broadcast's snapshots kept up to date: :meth:`look` makes those that changed since the last look.

    ``made``: key -> the body last made (compared without ``v``); ``signatures``: game -> what, when it
    changes, makes its snapshots again; ``awaiting``: games whose luck the next statistics publish brings;
    ``due``: when an event held back comes due (a look is needed then even if nothing is published)."""

    languages: tuple[str, ...] = tuple(LANGUAGES)
    made: dict[str, bytes] = field(default_factory=dict)
    signatures: dict[str, tuple] = field(default_factory=dict)
    on_air: set[str] = field(default_factory=set)
    awaiting: set[str] = field(default_factory=set)
    due: datetime | None = None
    looked: bool = False

    def is_due(self, now: datetime | None = None) -> bool:
        return self.due is not None and (now or visibility.current_time()) >= self.due

    def look(self, con: duckdb.DuckDBPyConnection, now: datetime | None = None,
             statistics: bool = True) -> list[tuple[str, bytes]]:
        """The snapshots (key, JSON) that changed, as a spectator sees the read models ``con`` at ``now``
        (default: the present). ``statistics``: the read models hold the statistics of every game (the luck of
        the last rolls); otherwise the games changed now are made again when they do."""
        now = now or visibility.current_time()
        seen = visibility.seen(con, privileged=False, now=now)
        games = games_seen(con, seen)
        timers = round_times(con)
        live_slugs = {g["slug"] for g in games if not g["ended"] and g["tournament"]}
        changed = []
        for game in games:
            gid = game["game"]
            timer = timers.get((game["slug"], game["round"]))
            signature = (game["last_seq"], game["ended"], orjson.dumps(game["score"]), game["tournament"],
                         game["round"], game["table_no"], timer and timer["at"])
            before = self.signatures.get(gid)
            self.signatures[gid] = signature
            on_air = gid in self.on_air or not game["ended"] or game["slug"] in live_slugs or (
                self.looked and before != signature)
            if on_air and (before != signature or gid not in self.on_air or (statistics and gid in self.awaiting)):
                changed.append(gid)
            if on_air:
                self.on_air.add(gid)
        self.looked = True
        self.awaiting = set() if statistics else self.awaiting | set(changed)
        out = []
        if changed:
            with_headers = {g["game"]: g for g in games_seen(con, seen, changed) if g["header"] is not None}
            for gid in changed:
                for lang in self.languages:
                    with speaking(lang):
                        out += self._changed(key("table", lang, gid), table_view(con, with_headers[gid], seen,
                                                                                 timers))
                        out += self._changed(key("board", lang, gid), board_view(con, with_headers[gid]))
        out += self._lists(con, games, seen, timers)
        self.due = due(con, seen)
        return out

    def _lists(self, con: duckdb.DuckDBPyConnection, games: list[dict], seen: Seen,
               timers: dict) -> list[tuple[str, bytes]]:
        """The rounds, tournaments and the index that changed."""
        aired = [g for g in games if g["game"] in self.on_air]
        by_round: dict[tuple[str, int], list[dict]] = {}
        names = {g["slug"]: g["tournament"] for g in reversed(games) if g["tournament"]}
        for g in aired:
            if g["tournament"] and g["round"] is not None:
                by_round.setdefault((g["slug"], g["round"]), [])
        for g in games:
            if (g["slug"], g["round"]) in by_round:
                by_round[(g["slug"], g["round"])].append(g)
        tournaments = tournament_list(con, games)
        under_way = [g for g in games if not g["ended"]]
        out = []
        for lang in self.languages:
            with speaking(lang):
                for (slug, number), members in by_round.items():
                    out += self._changed(key("round", lang, slug, number),
                                         round_view(lang, names[slug], slug, number, members, seen, timers,
                                                    round_matches(con, names[slug], number, seen=seen)))
                for t in tournaments:
                    if t["slug"] in {slug for slug, _number in by_round}:
                        out += self._changed(key("tournament", lang, t["slug"]),
                                             tournament_view(lang, t["name"], t["slug"], t["rounds"]))
                out += self._changed(key("index", lang), index_view(lang, tournaments, under_way, seen))
        return out

    def _changed(self, found: str, body: dict) -> list[tuple[str, bytes]]:
        content = orjson.dumps(body)
        if self.made.get(found) == content:
            return []
        self.made[found] = content
        return [(found, encoded(found, body, time.time_ns() // 1000))]


def made_now(con: duckdb.DuckDBPyConnection, wanted: str, seen: Seen | None = None) -> bytes | None:
    """The snapshot ``wanted`` (a key) made now from the read models ``con`` as ``seen`` sees them (default: a
    spectator now), for a page that asks for one the follower has not made (a game played before it started) or
    for a signed-in viewer's page, who sees everything; None: no such game, round or tournament."""
    try:
        kind, lang, found = parts(wanted)
    except ValueError:
        return None
    if kind not in KINDS or lang not in LANGUAGES:
        return None
    seen = seen if seen is not None else visibility.seen(con, privileged=False, now=visibility.current_time())
    with speaking(lang):
        if kind in ("table", "board") and len(found) == 1:
            games = [g for g in games_seen(con, seen, found) if g["game"] == found[0]]
            if not games:
                return None
            body = table_view(con, games[0], seen, round_times(con)) if kind == "table" else board_view(con, games[0])
        elif kind in ("round", "tournament") and found:
            games = [g for g in games_seen(con, seen) if g["slug"] == found[0] and g["tournament"]]
            if not games:
                return None
            rounds = sorted({g["round"] for g in games if g["round"] is not None})
            if kind == "tournament":
                body = tournament_view(lang, games[0]["tournament"], found[0], rounds)
            else:
                number = int(found[1]) if len(found) == 2 and found[1].isdigit() else None
                members = [g for g in games if g["round"] == number]
                if not members:
                    return None
                body = round_view(lang, games[0]["tournament"], found[0], number, members, seen, round_times(con),
                                  round_matches(con, games[0]["tournament"], number, seen=seen))
        elif kind == "index" and not found:
            games = games_seen(con, seen)
            body = index_view(lang, tournament_list(con, games), [g for g in games if not g["ended"]], seen)
        else:
            return None
    return encoded(wanted, body, time.time_ns() // 1000)


def bundle(con: duckdb.DuckDBPyConnection, wanted: str, seen: Seen) -> list[bytes]:
    """The snapshot ``wanted`` and those it follows (a round and its tables), made now as ``seen`` sees them."""
    out, queue, done = [], [wanted], set()
    for _depth in range(4):
        layer = []
        for found in queue:
            if found in done:
                continue
            done.add(found)
            body = made_now(con, found, seen)
            if body is not None:
                out.append(body)
                layer += orjson.loads(body).get("follow") or []
        queue = layer
    return out
