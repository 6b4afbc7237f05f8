"""Tournaments: named events of one game system that games link to by their header.

A tournament is created once (``create_tournament``) with its system; a game whose header names a
created tournament must be of that system. A header may also name a tournament that was never
created: it then exists implicitly (in the read models, not in the store). Byes, which are no game,
are recorded on the tournament (``award_bye``).

A created tournament can be run whole in Rollcall: players register (name, faction, club; one by one, from
a pairing tool's CSV list: :func:`registrations`, or from the tournament's games), check in and drop out (a
dropped player is never paired again; their games stand); each round is paired from the standings
(the service's ``pair_round``: :func:`next_pairings`), which creates the round's games, header only, ready to be recorded
or to take a result alone (``enter_result``: a ``GameEnded`` right after the header); the pairing and its
games are stored in one transaction. A round can be paired again until one of its games has an event. A
tournament begun elsewhere goes on here: the next round follows the rounds played, however their games came
in (``rounds_played``). Every tournament event needs an organiser's key where the store has keys.

Standings rank players (by name, within a tournament) by tournament points (win 3, draw 1, loss 0,
bye 3 unless the tournament says otherwise), then victory-point difference, then victory points
scored, then strength of schedule (the sum of the tournament points of the opponents played).
Rounds are paired Swiss-style (:func:`swiss_pairings`).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import MalformedRecord, RollcallError
from domain.record import slug
from domain.systems import main_alias, unknown_system
from i18n import _

NAMESPACE = uuid5(NAMESPACE_URL, "https://rollcall.invalid/tournaments")
CREATED = "rollcall-tournament:Created"
DEFAULT_POINTS = {"win": 3, "draw": 1, "loss": 0, "bye": 3}


MAX_DELAY = 24 * 3600  # the longest broadcast delay: a day


class TournamentError(RollcallError):
    """A tournament command that cannot be done (the message says why)."""


class TournamentNotFound(TournamentError):
    pass


class TournamentAlreadyCreated(TournamentError):
    pass


def tournament_uuid(name: str) -> UUID:
    """The id of the tournament called ``name``: names differing only in case and punctuation are one."""
    return uuid5(NAMESPACE, slug(name))


def tournament_system(system: str) -> str:
    """The main alias of the pack of ``system`` (domain.systems.main_alias), or why a tournament cannot be of it."""
    try:
        return main_alias(system)
    except MalformedRecord:
        raise TournamentError(unknown_system(system)) from None


class Tournament(Aggregate):
    """A created tournament. Its events carry one attribute, ``data`` (what the read models project)."""

    TOPIC = "rollcall-tournament:Tournament"

    class Created(Aggregate.Created):
        TOPIC = CREATED
        data: dict

    class ByeAwarded(Aggregate.Event):
        TOPIC = "rollcall-tournament:ByeAwarded"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.byes.append(self.data)

    class PlayerRegistered(Aggregate.Event):
        TOPIC = "rollcall-tournament:PlayerRegistered"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.players[self.data["player"]] = {**self.data, "checked_in": False, "dropped_after": None}

    class PlayerCheckedIn(Aggregate.Event):
        TOPIC = "rollcall-tournament:PlayerCheckedIn"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.players[self.data["player"]]["checked_in"] = True

    class PlayerDropped(Aggregate.Event):
        TOPIC = "rollcall-tournament:PlayerDropped"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.players[self.data["player"]]["dropped_after"] = self.data["after_round"]

    class RoundPaired(Aggregate.Event):
        TOPIC = "rollcall-tournament:RoundPaired"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.rounds[self.data["round"]] = self.data
            aggregate.withdrawn.update(self.data.get("withdrawn", ()))

    class BroadcastDelaySet(Aggregate.Event):
        TOPIC = "rollcall-tournament:BroadcastDelaySet"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.broadcast_delay = self.data["seconds"]

    def __init__(self, data: dict) -> None:
        self.data = data
        self.broadcast_delay = 0  # seconds spectators without a key are kept behind each game (0: live)
        self.byes: list[dict] = []
        self.players: dict[str, dict] = {}   # name -> registration (faction, club, checked_in, dropped_after)
        self.rounds: dict[int, dict] = {}    # round -> its latest pairing (RoundPaired's data)
        self.withdrawn: set[str] = set()     # games of a pairing that a later pairing of the round replaced

    @classmethod
    def create(cls, name: str, system: str, *, rounds: int | None = None, notes: str | None = None,
               points: dict | None = None) -> Tournament:
        if not isinstance(name, str) or not slug(name):
            raise TournamentError(_("a tournament needs a name with at least one letter or digit"))
        if rounds is not None and (not isinstance(rounds, int) or rounds < 1):
            raise TournamentError(_("rounds must be a positive number, not {value}").format(value=repr(rounds)))
        data: dict = {"name": name, "system": tournament_system(system), "slug": slug(name)}
        if rounds is not None:
            data["rounds"] = rounds
        if notes:
            data["notes"] = notes
        if points is not None:
            unknown = set(points) - set(DEFAULT_POINTS)
            if unknown or not all(isinstance(v, int) and not isinstance(v, bool) for v in points.values()):
                raise TournamentError(_("points are whole numbers for {results}").format(
                    results=", ".join(DEFAULT_POINTS)))
            data["points"] = {**DEFAULT_POINTS, **points}
        return cls._create(cls.Created, id=tournament_uuid(name), data=data)

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def system(self) -> str:
        return self.data["system"]

    @property
    def points(self) -> dict:
        return {**DEFAULT_POINTS, **self.data.get("points", {})}

    def set_broadcast_delay(self, seconds: int) -> dict:
        """Spectators without a key see each game of the tournament only up to the events older than
        ``seconds`` (as chess broadcasts are delayed against cheating); 0 shows them live."""
        if type(seconds) is not int or not 0 <= seconds <= MAX_DELAY:
            raise TournamentError(_("a broadcast delay is a whole number of seconds from 0 to {most}, not {value}")
                                  .format(most=MAX_DELAY, value=repr(seconds)))
        data = {"seconds": seconds}
        self.trigger_event(self.BroadcastDelaySet, data=data)
        return data

    def award_bye(self, round_no: int, player: str, faction: str | None = None) -> dict:
        """A player sits out a round and scores the points of a bye."""
        if not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1:
            raise TournamentError(_("a bye is for a round 1, 2, …, not {value}").format(value=repr(round_no)))
        if not isinstance(player, str) or not player.strip():
            raise TournamentError(_("a bye needs the player's name"))
        if any(b["round"] == round_no and b["player"] == player for b in self.byes):
            raise TournamentError(_("{player} already has a bye in round {round} of {tournament}").format(
                player=player, round=round_no, tournament=self.name))
        data = {"tournament": self.name, "round": round_no, "player": player}
        if faction:
            data["faction"] = faction
        self.trigger_event(self.ByeAwarded, data=data)
        return data

    @property
    def last_round(self) -> int:
        """The last round paired (0 before the first)."""
        return max(self.rounds, default=0)

    def register(self, player: str, faction: str | None = None, club: str | None = None) -> dict:
        """A player enters the tournament (names are the players' keys: two may not differ only in case)."""
        if not isinstance(player, str) or not player.strip():
            raise TournamentError(_("a player needs a name"))
        player = player.strip()
        taken = next((p for p in self.players if p.casefold() == player.casefold()), None)
        if taken is not None:
            raise TournamentError(_("{player} is already registered in {tournament}").format(
                player=taken, tournament=self.name))
        data = {"tournament": self.name, "player": player}
        data.update({k: v.strip() for k, v in (("faction", faction), ("club", club)) if v and v.strip()})
        self.trigger_event(self.PlayerRegistered, data=data)
        return data

    def registered(self, player: str) -> dict:
        found = self.players.get(player) or next((p for n, p in self.players.items()
                                                  if n.casefold() == str(player).strip().casefold()), None)
        if found is None:
            raise TournamentError(_("{player} is not registered in {tournament} (`rollcall tournament register`)")
                                  .format(player=player, tournament=self.name))
        return found

    def check_in(self, player: str) -> dict:
        """A registered player is present; once anyone has checked in, only checked-in players are paired."""
        entry = self.registered(player)
        if entry["dropped_after"] is not None:
            raise TournamentError(_("{player} dropped out of {tournament}").format(
                player=entry["player"], tournament=self.name))
        if entry["checked_in"]:
            raise TournamentError(_("{player} has already checked in").format(player=entry["player"]))
        data = {"tournament": self.name, "player": entry["player"]}
        self.trigger_event(self.PlayerCheckedIn, data=data)
        return data

    def drop(self, player: str, played: int = 0) -> dict:
        """A player leaves after the last round (paired here, or ``played``): never paired again; their games
        stand."""
        entry = self.registered(player)
        if entry["dropped_after"] is not None:
            raise TournamentError(_("{player} already dropped out after round {round}").format(
                player=entry["player"], round=entry["dropped_after"]))
        data = {"tournament": self.name, "player": entry["player"], "after_round": max(self.last_round, played)}
        self.trigger_event(self.PlayerDropped, data=data)
        return data

    def entrants(self) -> list[str]:
        """The players to pair, in registration order: not dropped, and checked in once check-in has begun."""
        active = [p for p in self.players.values() if p["dropped_after"] is None]
        if any(p["checked_in"] for p in active):
            active = [p for p in active if p["checked_in"]]
        return [p["player"] for p in active]

    def pair(self, data: dict, played: int = 0) -> dict:
        """Record the pairing of a round: the next after the rounds paired here and the last round ``played``
        (whatever brought its games: imported records, results alone, games recorded elsewhere), or the last
        one paired here again (``pair_round`` checks that none of its games has begun)."""
        round_no, last = data["round"], max(self.last_round, played)
        if round_no not in (last + 1, self.last_round if self.last_round == last else None) or round_no < 1:
            raise TournamentError(_("round {round} cannot be paired: the next round of {tournament} is {next}").format(
                round=round_no, tournament=self.name, next=last + 1))
        previous = self.rounds.get(round_no)
        data = {"tournament": self.name, **data, "pairing": previous["pairing"] + 1 if previous else 1}
        if previous:
            kept = {t["game"] for t in data["tables"]}
            data["withdrawn"] = [t["game"] for t in previous["tables"] if t["game"] not in kept]
        self.trigger_event(self.RoundPaired, data=data)
        return data

    def table_game(self, round_no: int, table: int) -> str | None:
        """The game at ``table`` in the latest pairing of ``round_no`` (None: not paired here)."""
        tables = self.rounds.get(round_no, {}).get("tables", ())
        return next((t["game"] for t in tables if t["table"] == table), None)

    def byes_before(self, round_no: int) -> list[str]:
        """The players who had a bye (awarded, or by a pairing) in a round before ``round_no``."""
        awarded = [b["player"] for b in self.byes if b["round"] < round_no]
        return awarded + [p["bye"] for r, p in sorted(self.rounds.items()) if r < round_no and p.get("bye")]


@dataclass(frozen=True)
class Registration:
    """A player to register: name, faction, club (or team)."""

    player: str
    faction: str | None = None
    club: str | None = None


@dataclass
class Registered:
    """What registering a list did: the registrations stored, and the names already registered (left as they were)."""

    registered: list[dict]
    already: list[str]


MAX_REGISTRATION_BYTES = 1_000_000  # a player list: thousands of players in a megabyte
MAX_NAME = 120  # characters of a player's, faction's or club's name
REGISTRATION_COLUMNS = ("name", "faction")  # a player list's header names at least these; "club" is optional


def registrations(data: bytes, source: str) -> list[Registration]:
    """The players of a pairing tool's export: CSV (comma, semicolon or tab) whose header row names at least
    ``name`` and ``faction`` (any case; ``club`` optional; other columns ignored), UTF-8 with or without a byte
    order mark. A TournamentError names ``source``, the line and the field of what is wrong."""
    if len(data) > MAX_REGISTRATION_BYTES:
        raise TournamentError(_("{source}: a player list is at most {most} kB, not {size} kB").format(
            source=source, most=MAX_REGISTRATION_BYTES // 1000, size=len(data) // 1000))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise TournamentError(_("{where}: not UTF-8 text (byte {byte}); save the list as UTF-8 CSV").format(
            where=f"{source}:{line}", byte=exc.start + 1)) from None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = [h.strip().casefold() for h in next(reader, [])]
    except csv.Error as exc:
        raise TournamentError(_("{where}: the header row is not CSV ({why})").format(where=f"{source}:1", why=exc)) \
            from None
    missing = [c for c in REGISTRATION_COLUMNS if c not in header]
    if missing:
        raise TournamentError(_("{where}: the header row names no `{column}` column (it needs {needed}, optionally "
                                "club; it has {has})").format(
            where=f"{source}:1", column=missing[0], needed=_("{these} and {that}").format(
                these=REGISTRATION_COLUMNS[0], that=REGISTRATION_COLUMNS[1]),
            has=", ".join(h for h in header if h) or _("nothing")))
    column = {c: header.index(c) for c in (*REGISTRATION_COLUMNS, "club") if c in header}
    found: list[Registration] = []
    seen: dict[str, int] = {}
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return found
        except csv.Error as exc:
            raise TournamentError(_("{where}: not CSV ({why})").format(where=f"{source}:{start}", why=exc)) from None
        if not any(cell.strip() for cell in row):
            continue
        cells = {c: (row[i].strip() if i < len(row) else "") for c, i in column.items()}
        for name in ("name", "faction", "club"):
            if len(cells.get(name, "")) > MAX_NAME:
                raise TournamentError(_("{where}: field `{field}`: longer than {most} characters").format(
                    where=f"{source}:{start}", field=name, most=MAX_NAME))
        for name in REGISTRATION_COLUMNS:
            if not cells[name]:
                raise TournamentError(_("{where}: field `{field}` is empty").format(where=f"{source}:{start}",
                                                                                   field=name))
        twice = seen.setdefault(cells["name"].casefold(), start)
        if twice != start:
            raise TournamentError(_("{where}: field `name`: {player} is listed on line {line} already").format(
                where=f"{source}:{start}", player=cells["name"], line=twice))
        found.append(Registration(cells["name"], cells["faction"], cells.get("club") or None))


@dataclass(frozen=True)
class TournamentGame:
    """A game of a tournament: its header, and its ``GameEnded`` once it has ended."""

    header: dict
    ended: dict | None

    @property
    def round(self) -> int | None:
        return self.header.get("round")

    @property
    def table(self) -> int | None:
        return self.header.get("table")

    @property
    def names(self) -> tuple[str, str]:
        a, b = (p.get("name") or p["id"] for p in self.header["players"])
        return a, b

    @property
    def result(self) -> GameResult | None:
        if self.ended is None:
            return None
        (id_a, id_b), (a, b) = (p["id"] for p in self.header["players"]), self.names
        score = self.ended.get("score") or {}
        winner = {id_a: a, id_b: b}.get(self.ended.get("winner"))
        return GameResult(a, b, int(score.get(id_a) or 0), int(score.get(id_b) or 0), winner)


SEAT_PREFIX, NAME_PREFIX = "seat:", "name:"  # say which reading of a --score key is meant


def result_in_words(players: list[dict], score: dict[str, int], winner: str | None) -> str:
    """A game's result as people read it, by name, seat p1 first: "Anna 3 – 1 Boris; Anna wins" (or "a draw")."""
    names = {p["id"]: p.get("name") or p["id"] for p in players}
    seats = [p["id"] for p in players if p["id"] in score] + sorted(set(score) - set(names))
    (a, b) = seats[:2]
    said = f"{names.get(a, a)} {score[a]} – {score[b]} {names.get(b, b)}"
    return _("{result}; {player} wins").format(result=said, player=names.get(winner, winner)) if winner else \
        _("{result}; a draw").format(result=said)


def scored_seat(players: list[dict], who: str, where: str) -> str:
    """The seat id of the player ``who`` names at ``where``: a seat id (``p1``) or a player's name, in any
    case, or explicitly ``seat:p1`` / ``name:Anna``. A key that reads as one seat's id and as the other
    player's name is refused, naming both readings."""
    def label(p: dict) -> str:
        return f"{p.get('name') or p['id']} ({p['id']})"

    text = who.strip()
    explicit = next((x for x in (SEAT_PREFIX, NAME_PREFIX) if text.casefold().startswith(x)), None)
    key = text[len(explicit):].strip().casefold() if explicit else text.casefold()
    by_seat = [p for p in players if explicit != NAME_PREFIX and p["id"].casefold() == key]
    by_name = [p for p in players if explicit != SEAT_PREFIX and str(p.get("name") or "").casefold() == key]
    if by_seat and by_name and by_seat[0] is not by_name[0]:
        seat, named = by_seat[0], by_name[0]
        raise TournamentError(_("{given} at {where} reads two ways: seat {seat}, who is {seated}, or the player named "
                                "{named}, who sits as {other}; write {by_seat}=VP or {by_name}=VP").format(
            given=repr(text), where=where, seat=seat["id"], seated=seat.get("name") or seat["id"],
            named=named.get("name"), other=named["id"], by_seat=f"{SEAT_PREFIX}{seat['id']}",
            by_name=f"{NAME_PREFIX}{named.get('name')}"))
    found = by_seat or by_name
    if not found:
        raise TournamentError(_("{given} does not play at {where} ({players} do)").format(
            given=text, where=where, players=_("{these} and {that}").format(
                these=", ".join(map(label, players[:-1])), that=label(players[-1])) if len(players) > 1
            else ", ".join(map(label, players))))
    return found[0]["id"]


def round_setup(system: str, setup: dict | None, scenario: str | None) -> tuple[dict, str | None]:
    """The setup of a round's games and the scenario's name: ``setup`` as given, else the shipped scenario
    ``scenario``, else the system's first (domain.scenarios); an empty setup if it ships none."""
    from domain.scenarios import scenarios

    if setup is not None:
        if not isinstance(setup, dict):
            raise MalformedRecord(_("a setup is a JSON object"), field="setup")
        return setup, None
    shipped = scenarios(system)
    if scenario is not None and scenario not in shipped:
        raise TournamentError(_("no scenario '{scenario}' for {system} (scenarios: {known})").format(
            scenario=scenario, system=system, known=", ".join(shipped) or _("none")))
    name = scenario or next(iter(shipped), None)
    return (shipped[name], name) if name else ({}, None)


# --- standings ------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameResult:
    """One finished game between two players (names): their victory points and the winner (None: a draw)."""

    a: str
    b: str
    score_a: int
    score_b: int
    winner: str | None


@dataclass
class Standing:
    player: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    vp_for: int = 0
    vp_against: int = 0
    sos: int = 0
    rank: int = 0
    opponents: list[str] = field(default_factory=list)

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against

    @property
    def key(self) -> tuple[int, int, int, int]:
        """The tie-breaks in order: tournament points, VP difference, VP for, strength of schedule."""
        return (self.points, self.vp_diff, self.vp_for, self.sos)


def standings(games: Iterable[GameResult], byes: Iterable[str] = (), players: Iterable[str] = (),
              points: dict | None = None) -> list[Standing]:
    """Every player's standing, best first; players tied on every tie-break share a rank (then by name)."""
    pts = {**DEFAULT_POINTS, **(points or {})}
    table: dict[str, Standing] = {}

    def of(name: str) -> Standing:
        return table.setdefault(name, Standing(name))

    for name in players:
        of(name)
    for g in games:
        for me, them, mine, theirs in ((g.a, g.b, g.score_a, g.score_b), (g.b, g.a, g.score_b, g.score_a)):
            s = of(me)
            outcome = "draw" if g.winner is None else "win" if g.winner == me else "loss"
            s.games += 1
            s.wins += outcome == "win"
            s.draws += outcome == "draw"
            s.losses += outcome == "loss"
            s.points += pts[outcome]
            s.vp_for += mine
            s.vp_against += theirs
            s.opponents.append(them)
    for name in byes:
        s = of(name)
        s.byes += 1
        s.points += pts["bye"]
    for s in table.values():
        s.sos = sum(table[o].points for o in s.opponents)
    ordered = sorted(table.values(), key=lambda s: (tuple(-k for k in s.key), s.player))
    for i, s in enumerate(ordered):
        s.rank = ordered[i - 1].rank if i and ordered[i - 1].key == s.key else i + 1
    return ordered


# --- Swiss pairing --------------------------------------------------------------------------

def swiss_pairings(ranked: Sequence[str], played: Collection[frozenset[str]] = (),
                   had_bye: Collection[str] = (), *, avoid: Collection[frozenset[str]] = (),
                   budget: int = 20_000) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs for the next round of players in ``ranked`` order (best first), and the bye (None when even).

    The bye goes to the lowest-ranked player without one yet; each player meets the best-ranked
    player left that they have not played. When no pairing avoids every rematch (searched within
    ``budget`` steps), the fewest players possible meet again: each takes the best-ranked new
    opponent left, or else the best-ranked one. Pairs in ``avoid`` (players of one club in round 1)
    are kept apart like rematches."""
    players = list(ranked)
    if len(set(players)) != len(players):
        raise TournamentError(_("a player is listed twice for pairing"))
    played = {frozenset(p) for p in played} | {frozenset(p) for p in avoid}
    candidates: list[str | None] = [None]
    if len(players) % 2:
        fresh = [p for p in reversed(players) if p not in had_bye]
        candidates = fresh + [p for p in reversed(players) if p in had_bye]
    steps = [budget]
    for bye in candidates:
        rest = [p for p in players if p != bye]
        pairs = _pair(rest, played, steps)
        if pairs is not None:
            return pairs, bye
        if steps[0] <= 0:
            break
    bye = candidates[0]
    rest = [p for p in players if p != bye]
    pairs = []
    while rest:
        first = rest.pop(0)
        other = next((p for p in rest if frozenset((first, p)) not in played), rest[0])
        rest.remove(other)
        pairs.append((first, other))
    return pairs, bye


def _pair(rest: list[str], played: set[frozenset[str]], steps: list[int]) -> list[tuple[str, str]] | None:
    """Pairs of ``rest`` without a rematch, best-ranked first (depth-first, within ``steps``)."""
    stack: list[tuple[list[str], int]] = []
    pairs: list[tuple[str, str]] = []
    remaining, i = rest, 0
    while remaining:
        first, others = remaining[0], remaining[1:]
        while i < len(others) and frozenset((first, others[i])) in played:
            i += 1
        if i < len(others):
            steps[0] -= 1
            if steps[0] <= 0:
                return None
            stack.append((remaining, i))
            pairs.append((first, others[i]))
            remaining, i = others[:i] + others[i + 1:], 0
        elif stack:
            remaining, i = stack.pop()
            pairs.pop()
            i += 1
        else:
            return None
    return pairs


def same_club(players: Iterable[str], clubs: dict[str, str | None]) -> set[frozenset[str]]:
    """Every pair of ``players`` of one club (clubs compared without case)."""
    by_club: dict[str, list[str]] = {}
    for player in players:
        if clubs.get(player):
            by_club.setdefault(clubs[player].casefold(), []).append(player)
    return {frozenset((a, b)) for members in by_club.values() for i, a in enumerate(members) for b in members[i + 1:]}


def next_pairings(entrants: Sequence[str], results: Sequence[GameResult], had_bye: Collection[str], round_no: int,
                  seed: int, *, clubs: dict[str, str | None] | None = None, points: dict | None = None,
                  played: Collection[frozenset[str]] = ()) -> tuple[list[tuple[str, str]], str | None]:
    """The pairs (better-ranked first) and the bye of round ``round_no`` among ``entrants``.

    Players are ranked by the standings of ``results`` (and byes), ties in a draw from ``seed`` (round 1:
    the whole order); then :func:`swiss_pairings`: no rematch of ``played`` or any result when avoidable,
    the bye to the lowest-ranked player without one, and in round 1 no two players of one club when
    avoidable."""
    order = list(entrants)
    random.Random(seed).shuffle(order)
    table = {s.player: s for s in standings(results, had_bye, order, points)}
    ranked = sorted(order, key=lambda p: tuple(-k for k in table[p].key))
    met = {frozenset(p) for p in played} | {frozenset((g.a, g.b)) for g in results}
    avoid = same_club(order, clubs or {}) if round_no == 1 else set()
    return swiss_pairings(ranked, met, had_bye, avoid=avoid)


def game_header(tournament: Tournament, round_no: int, table: int, pair: tuple[tuple, tuple], setup: dict,
                pairing: int = 1) -> dict:
    """The format-1 header of a paired game: tournament, round, table, the players (p1, p2) and the setup.
    Its id is ``<tournament>-r<round>-t<table>``, with ``-p<n>`` when the round's n-th pairing made it."""
    players = [{"id": seat, "name": name, **({"faction": faction} if faction else {})}
               for seat, (name, faction) in zip(("p1", "p2"), pair)]
    game = f"{tournament.data['slug']}-r{round_no}-t{table}" + (f"-p{pairing}" if pairing > 1 else "")
    return {"rollcall": 1, "system": tournament.system, "game": game, "tournament": tournament.name,
            "round": round_no, "table": table, "players": players, "setup": setup}


__all__ = ["Tournament", "Registration", "Registered", "registrations", "TournamentGame",
           "round_setup", "TournamentError", "TournamentNotFound", "TournamentAlreadyCreated", "GameResult", "Standing",
           "scored_seat", "standings", "swiss_pairings", "next_pairings", "same_club", "tournament_system",
           "game_header", "tournament_uuid", "DEFAULT_POINTS"]
