"""Tournaments: named events of one game system that games link to by their header.

A tournament is created once (``create_tournament``) with its system; a game whose header names a
created tournament must be of that system. A header may also name a tournament that was never
created: it then exists implicitly (in the read models, not in the store). Byes, which are no game,
are recorded on the tournament (``award_bye``).

A created tournament can be run whole in Rollcall: players register (name, faction, club; one by one, from
a pairing tool's CSV list in one event: domain.player_lists, or from the tournament's games), check in and drop out (a
dropped player is never paired again; their games stand); each round is paired from the standings
(the service's ``pair_round``: :func:`next_pairings`), which creates the round's games, header only, ready to be recorded
or to take a result alone (``enter_result``: a ``GameEnded`` right after the header); the pairing and its
games are stored in one transaction. A round can be paired again until one of its games has an event. A
tournament begun elsewhere goes on here: the next round follows the rounds played, however their games came
in (``rounds_played``). Every tournament event needs an organiser's key where the store has keys.

Standings rank players (by name, within a tournament) by the tournament's format (domain.formats: chosen at
creation, changed only before any round has a result; the default ``wins``: win 3, draw 1, loss 0, bye 3 unless
the tournament says otherwise, then VP difference, VP for, strength of schedule), with the bonuses and penalties
the organiser gives players (``award_bonus``, with a reason).
Rounds are paired Swiss-style (:func:`swiss_pairings`).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import MalformedRecord, RollcallError
from domain.formats import DEFAULT_POINTS, Bonus, Format, GameResult, Standing, standings, wins_format
from domain.names import name_problem
from domain.player_lists import MAX_NAME, Registration
from domain.record import slug
from domain.round_time import RoundTime, check_start, round_time
from domain.systems import main_alias, unknown_system
from i18n import _, ngettext

NAMESPACE = uuid5(NAMESPACE_URL, "https://rollcall.invalid/tournaments")
CREATED = "rollcall-tournament:Created"


MAX_DELAY = 24 * 3600  # the longest broadcast delay: a day
MAX_BONUS = 1000  # the most points one bonus or penalty gives or takes


class TournamentError(RollcallError):
    """A tournament command that cannot be done (the message says why)."""


class TournamentNotFound(TournamentError):
    pass


class TournamentAlreadyCreated(TournamentError):
    pass


def tournament_uuid(name: str) -> UUID:
    """The id of the tournament called ``name``: names differing only in case and punctuation are one."""
    return uuid5(NAMESPACE, slug(name))


def format_of(created: dict | None, changed: dict | None = None) -> Format:
    """The format of a tournament created with ``created`` (Created's data; None: a tournament only named by games)
    whose format was last changed to ``changed`` (FormatChanged's format): the one chosen, else ``wins`` with the
    tournament's points per result."""
    from domain.formats import parse

    created = created or {}
    chosen, points = changed or created.get("format"), created.get("points")
    if chosen is None:
        return wins_format(points)
    if points and chosen.get("scoring", {}).get("type", "wins") == "wins":
        chosen = {**chosen, "scoring": {**chosen.get("scoring", {}), **{k: v for k, v in points.items() if k != "bye"}},
                  **({"bye": points["bye"]} if "bye" in points else {})}
    return parse(chosen, created.get("name", "format"))


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
            aggregate.enter(self.data)

    class PlayerListRegistered(Aggregate.Event):
        """The players of a list registered at once (``players``: each as PlayerRegistered's data, with
        ``checked_in`` where the list says so) and those of it registered already who checked in since
        (``checked_in``: their names)."""

        TOPIC = "rollcall-tournament:PlayerListRegistered"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            for entry in self.data["players"]:
                aggregate.enter({**entry, "tournament": self.data["tournament"]})
            for player in self.data.get("checked_in", ()):
                aggregate.players[player]["checked_in"] = True

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

    class MatchupsEntered(Aggregate.Event):
        """The captains' table-by-table pairing of one team match (``match``, between ``teams``) in the round's
        pairing ``pairing``: its ``tables`` (as RoundPaired's), each game created with the event."""

        TOPIC = "rollcall-tournament:MatchupsEntered"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            paired = aggregate.rounds[self.data["round"]]
            aggregate.rounds[self.data["round"]] = {**paired, "tables": [*paired["tables"], *self.data["tables"]],
                                                    "entered": [*paired.get("entered", ()), self.data["match"]]}

    class FormatChanged(Aggregate.Event):
        """The tournament's format (``format``: the format's JSON object, domain.formats) from now on."""

        TOPIC = "rollcall-tournament:FormatChanged"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.data = {**aggregate.data, "format": self.data["format"]}

    class BonusAwarded(Aggregate.Event):
        """Points given to a player in a round (``points``; negative: a penalty), with the ``reason``."""

        TOPIC = "rollcall-tournament:BonusAwarded"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.bonuses.append(self.data)

    class RoundStarted(Aggregate.Event):
        """The organiser started a round's time: ``round``, its length ``seconds``, the instant ``at``
        (domain.round_time)."""

        TOPIC = "rollcall-tournament:RoundStarted"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.round_times[self.data["round"]] = self.data

    class BroadcastDelaySet(Aggregate.Event):
        TOPIC = "rollcall-tournament:BroadcastDelaySet"
        data: dict

        def apply(self, aggregate: Tournament) -> None:
            aggregate.broadcast_delay = self.data["seconds"]

    def __init__(self, data: dict) -> None:
        self.data = data
        self.broadcast_delay = 0  # seconds spectators without a key are kept behind each game (0: live)
        self.byes: list[dict] = []
        self.bonuses: list[dict] = []        # BonusAwarded's data, in the order given
        self.players: dict[str, dict] = {}   # name -> registration (faction, club, checked_in, dropped_after)
        self.folded: dict[str, str] = {}     # a name without case -> the name registered (two may not differ in case)
        self.rounds: dict[int, dict] = {}    # round -> its latest pairing (RoundPaired's data)
        self.withdrawn: set[str] = set()     # games of a pairing that a later pairing of the round replaced
        self.round_times: dict[int, dict] = {}  # round -> its RoundStarted's data (its time started)

    @classmethod
    def create(cls, name: str, system: str, *, rounds: int | None = None, notes: str | None = None,
               points: dict | None = None, format: Format | None = None) -> Tournament:
        if not isinstance(name, str) or not slug(name):
            raise TournamentError(_("a tournament needs a name with at least one letter or digit"))
        if name_problem(name, "name"):
            raise TournamentError(name_problem(name, "name"))
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
        if format is not None:
            if points is not None and format.scoring != "wins":
                raise TournamentError(_("points per result are the `wins` format's; the format {name} scores its "
                                        "own way").format(name=format.name))
            data["format"] = format.data
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

    @property
    def format(self) -> Format:
        """The tournament's format (domain.formats): the one chosen, else ``wins`` with the tournament's points."""
        return format_of(self.data)

    def change_format(self, format: Format, first_result: tuple[int, str] | None) -> dict:
        """Score and rank by ``format`` from now on: refused once a round has a result (``first_result``: the
        first round with one and the game, as the service finds it)."""
        if first_result is not None:
            round_no, game = first_result
            raise TournamentError(_("the format of {tournament} cannot be changed: round {round} has a result (game "
                                    "{game}); a format holds for the whole tournament").format(
                tournament=self.name, round=round_no, game=game))
        data = {"tournament": self.name, "format": format.data}
        self.trigger_event(self.FormatChanged, data=data)
        return data

    def award_bonus(self, player: str, points: int, reason: str, round_no: int) -> dict:
        """Give ``points`` to a registered player in round ``round_no`` (negative: a penalty), for ``reason``."""
        if type(points) is not int or points == 0 or abs(points) > MAX_BONUS:
            raise TournamentError(_("a bonus is a whole number of points from -{most} to {most} other than 0 (negative: a "
                                    "penalty), not {value}").format(most=MAX_BONUS, value=repr(points)))
        if not isinstance(reason, str) or not reason.strip():
            raise TournamentError(_("a bonus or a penalty needs its reason (--reason), e.g. \"painting\" or \"late "
                                    "to the table\""))
        if name_problem(reason.strip(), "reason") or len(reason.strip()) > MAX_NAME:
            raise TournamentError(name_problem(reason.strip(), "reason") or _(
                "field `{field}`: longer than {most} characters").format(field="reason", most=MAX_NAME))
        if type(round_no) is not int or round_no < 1:
            raise TournamentError(_("a bonus is for a round 1, 2, …, not {value}").format(value=repr(round_no)))
        entry = self.registered(player)
        data = {"tournament": self.name, "player": entry["player"], "points": points, "reason": reason.strip(),
                "round": round_no}
        self.trigger_event(self.BonusAwarded, data=data)
        return data

    def bonus_list(self) -> list[Bonus]:
        return [Bonus(b["player"], b["points"], b["reason"], b.get("round")) for b in self.bonuses]

    def set_broadcast_delay(self, seconds: int) -> dict:
        """Spectators without a key see each game of the tournament only up to the events older than
        ``seconds`` (as chess broadcasts are delayed against cheating); 0 shows them live."""
        if type(seconds) is not int or not 0 <= seconds <= MAX_DELAY:
            raise TournamentError(_("a broadcast delay is a whole number of seconds from 0 to {most}, not {value}")
                                  .format(most=MAX_DELAY, value=repr(seconds)))
        data = {"seconds": seconds}
        self.trigger_event(self.BroadcastDelaySet, data=data)
        return data

    def start_round(self, round_no: int, seconds: int, at: str) -> dict:
        """Start the time of paired round ``round_no``: ``seconds`` long from instant ``at`` (C09–C10)."""
        try:
            check_start(round_no, seconds, at, paired=round_no in self.rounds, started=self.round_times.get(round_no))
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
        data = {"tournament": self.name, "round": round_no, "seconds": seconds, "at": at}
        self.trigger_event(self.RoundStarted, data=data)
        return data

    def round_time(self, round_no: int | None = None) -> RoundTime | None:
        """The time of round ``round_no`` (None: the last round paired), if it was started."""
        started = self.round_times.get(self.last_round if round_no is None else round_no)
        return round_time(started) if started else None

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

    def enter(self, data: dict) -> None:
        """Apply a registration: the player's entry (``data``, as PlayerRegistered's), not checked in unless it says
        so, not dropped."""
        self.players[data["player"]] = {"checked_in": False, **data, "dropped_after": None}
        self.folded[data["player"].casefold()] = data["player"]

    def register(self, player: str, faction: str | None = None, club: str | None = None) -> dict:
        """A player enters the tournament (names are the players' keys: two may not differ only in case)."""
        data = self._entry(Registration(player, faction, club))
        taken = self.folded.get(data["player"].casefold())
        if taken is not None:
            raise TournamentError(_("{player} is already registered in {tournament}").format(
                player=taken, tournament=self.name))
        self.trigger_event(self.PlayerRegistered, data=data)
        return data

    def _entry(self, entry: Registration) -> dict:
        """The registration data of ``entry`` (names trimmed), or a TournamentError naming what cannot be a name."""
        if not isinstance(entry.player, str) or not entry.player.strip():
            raise TournamentError(_("a player needs a name"))
        data = {"tournament": self.name, "player": entry.player.strip()}
        data.update({k: v.strip() for k, v in (("faction", entry.faction), ("club", entry.club)) if v and v.strip()})
        for name in ("player", "faction", "club"):
            problem = name_problem(data.get(name, ""), name) or (
                _("field `{field}`: longer than {most} characters").format(field=name, most=MAX_NAME)
                if len(data.get(name, "")) > MAX_NAME else None)
            if problem:
                raise TournamentError(problem)
        return data

    def plan(self, entries: Iterable[Registration]) -> Registered:
        """What registering ``entries`` would do (nothing changes): the players new to the tournament (the first
        of names listed twice), those registered already (left as they are), and those of them the list says
        checked in who had not (and have not dropped out)."""
        done, new = Registered([], [], []), set()
        for entry in entries:
            key = entry.player.strip().casefold()
            taken = self.folded.get(key)
            if taken is None and key not in new:
                new.add(key)
                done.registered.append({**self._entry(entry), **({"checked_in": True} if entry.checked_in else {})})
            elif taken is not None:
                done.already.append(taken)
                known = self.players[taken]
                if entry.checked_in and not known["checked_in"] and known["dropped_after"] is None:
                    done.checked_in.append(taken)
        return done

    def register_list(self, entries: Iterable[Registration]) -> Registered:
        """Register every player of a list not registered yet, in one event (a megabyte of names costs one
        event, not one per name), and check in those the list says checked in (:meth:`plan`)."""
        done = self.plan(entries)
        if done.registered or done.checked_in:
            players = [{k: v for k, v in entry.items() if k != "tournament"} for entry in done.registered]
            self.trigger_event(self.PlayerListRegistered, data={"tournament": self.name, "players": players,
                                                                **({"checked_in": done.checked_in}
                                                                   if done.checked_in else {})})
        return done

    def registered(self, player: str) -> dict:
        found = self.players.get(player) or self.players.get(self.folded.get(str(player).strip().casefold(), ""))
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

    def team_of(self) -> dict[str, str | None]:
        """Each registered player's team (the club or team they registered with)."""
        return {p: entry.get("club") for p, entry in self.players.items()}

    def entrant_teams(self) -> dict[str, list[str]]:
        """The teams to pair (the entrants' teams, in registration order), each with its entrants; a TournamentError
        names the entrants without a team."""
        teams: dict[str, list[str]] = {}
        missing = []
        for player in self.entrants():
            team = self.players[player].get("club")
            if team:
                teams.setdefault(team, []).append(player)
            else:
                missing.append(player)
        if missing:
            raise TournamentError(_("a team tournament pairs teams: {players} registered without a team (register "
                                    "with --team, or a list's Team column)").format(players=", ".join(missing)))
        return teams

    def team_match(self, round_no: int, match_no: int) -> dict:
        """The team match ``match_no`` of round ``round_no`` as paired here, or a TournamentError saying why not."""
        paired = self.rounds.get(round_no)
        matches = (paired or {}).get("matches") or []
        found = next((m for m in matches if m["match"] == match_no), None)
        if found is None:
            raise TournamentError(_("round {round} of {tournament} has no team match {match} (matches: {known})").format(
                round=round_no, tournament=self.name, match=match_no,
                known=", ".join(str(m["match"]) for m in matches) or _("none: pair the round first")))
        return found

    def check_matchups(self, round_no: int, match_no: int, pairs: Sequence[tuple[str, str]], size: int
                       ) -> list[tuple[str, str]]:
        """The captains' matchups ``pairs`` (player, player) of a team match, each with the first team's player
        first: every pair a player of each team, nobody twice, as many tables as the smaller team fields (at most
        ``size``); a TournamentError naming what is wrong."""
        match = self.team_match(round_no, match_no)
        first, second = match["teams"]
        if match_no in self.rounds[round_no].get("entered", ()):
            raise TournamentError(_("match {match} of round {round} ({first} v {second}) has its matchups already")
                                  .format(match=match_no, round=round_no, first=first, second=second))
        members = {team: [p for p in self.entrants() if self.players[p].get("club") == team] for team in (first, second)}
        tables = min(size, len(members[first]), len(members[second]))
        if len(pairs) != tables:
            raise TournamentError(ngettext(
                "match {match} of round {round} ({first} v {second}) is played at {n} table: give {n} matchup",
                "match {match} of round {round} ({first} v {second}) is played at {n} tables: give {n} matchups",
                tables).format(match=match_no, round=round_no, first=first, second=second, n=tables))
        oriented, seen = [], set()
        for a, b in pairs:
            a, b = (self.registered(p)["player"] for p in (a, b))
            if a in members[second] and b in members[first]:
                a, b = b, a
            if a not in members[first] or b not in members[second]:
                raise TournamentError(_("{a} v {b} is no matchup of {first} v {second}: each table seats a player of "
                                        "{first} ({these}) against one of {second} ({those})").format(
                    a=a, b=b, first=first, second=second, these=", ".join(members[first]),
                    those=", ".join(members[second])))
            for player in (a, b):
                if player in seen:
                    raise TournamentError(_("{player} is given two tables in match {match} of round {round}").format(
                        player=player, match=match_no, round=round_no))
                seen.add(player)
            oriented.append((a, b))
        return oriented

    def enter_matchups(self, round_no: int, match_no: int, tables: list[dict], scenario: str | None = None) -> dict:
        """Record a team match's matchups (:meth:`check_matchups` first): ``tables`` as RoundPaired's, their games
        stored with the event."""
        match = self.team_match(round_no, match_no)
        data = {"tournament": self.name, "round": round_no, "match": match_no, "teams": match["teams"],
                "pairing": self.rounds[round_no]["pairing"], "tables": tables,
                **({"scenario": scenario} if scenario else {})}
        self.trigger_event(self.MatchupsEntered, data=data)
        return data

    def team_byes_before(self, round_no: int) -> list[str]:
        """The teams that had a bye in a round before ``round_no`` (one entry per bye)."""
        return [p["bye_team"] for r, p in sorted(self.rounds.items()) if r < round_no and p.get("bye_team")]

    def team_pairs_before(self, round_no: int) -> set[frozenset[str]]:
        """The pairs of teams that met in a round before ``round_no``, as paired here."""
        return {frozenset(m["teams"]) for r, p in self.rounds.items() if r < round_no for m in p.get("matches") or ()}

    def table_game(self, round_no: int, table: int) -> str | None:
        """The game at ``table`` in the latest pairing of ``round_no`` (None: not paired here)."""
        tables = self.rounds.get(round_no, {}).get("tables", ())
        return next((t["game"] for t in tables if t["table"] == table), None)

    def byes_before(self, round_no: int) -> list[str]:
        """The players who had a bye (awarded, or by a pairing) in a round before ``round_no``."""
        awarded = [b["player"] for b in self.byes if b["round"] < round_no]
        paired = [p for r, p in sorted(self.rounds.items()) if r < round_no]
        return awarded + [p["bye"] for p in paired if p.get("bye")] + [
            player for p in paired for player in p.get("bye_players") or ()]  # a bye team's players


@dataclass
class Registered:
    """What registering a list did (or would do): the registrations stored, the names already registered (left as
    they were) and those of them checked in by the list."""

    registered: list[dict]
    already: list[str]
    checked_in: list[str] = field(default_factory=list)


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
        secondary = {id_a: a, id_b: b}.get(self.ended.get("secondary"))
        return GameResult(a, b, int(score.get(id_a) or 0), int(score.get(id_b) or 0), winner, secondary, self.round)


def rounds_said(tournament: dict) -> str:
    """A tournament's rounds in words (a row of projections.tournaments.list_tournaments: rounds_played,
    planned_rounds, last_round, last_round_games, last_round_results): the rounds played, of those planned,
    and the round under way with its results so far ("1 of 3 rounds played; round 2: 1 of 4 results")."""
    played, planned = tournament["rounds_played"] or 0, tournament["planned_rounds"]
    said = (ngettext("{n} of {planned} round played", "{n} of {planned} rounds played", planned) if planned else
            ngettext("{n} round played", "{n} rounds played", played)).format(n=played, planned=planned)
    last, games = tournament.get("last_round"), tournament.get("last_round_games") or 0
    if last and (tournament.get("last_round_results") or 0) < games:
        said += "; " + ngettext("round {round}: {n} of {games} result", "round {round}: {n} of {games} results",
                                games).format(round=last, n=tournament["last_round_results"], games=games)
    return said


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

# GameResult, Standing and standings: domain.formats (the tournament's format ranks).


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
                  played: Collection[frozenset[str]] = (), format: Format | None = None,
                  bonuses: Iterable[Bonus] = (), draw: str = "") -> tuple[list[tuple[str, str]], str | None]:
    """The pairs (better-ranked first) and the bye of round ``round_no`` among ``entrants``.

    Players are ranked by the standings of ``results`` (and byes, and the ``bonuses`` given before the round) under
    the tournament's ``format`` (its tiebreaks; ``draw``: the seed of its random draw), ties in a draw from ``seed`` (round 1:
    the whole order); then :func:`swiss_pairings`: no rematch of ``played`` or any result when avoidable,
    the bye to the lowest-ranked player without one, and in round 1 no two players of one club when
    avoidable."""
    order = list(entrants)
    random.Random(seed).shuffle(order)
    rank = {s.player: s.rank for s in standings(results, had_bye, order, points, format=format, bonuses=bonuses,
                                                 seed=draw)}
    ranked = sorted(order, key=lambda p: rank[p])  # players sharing a rank stay in the order drawn
    met = {frozenset(p) for p in played} | {frozenset((g.a, g.b)) for g in results}
    avoid = same_club(order, clubs or {}) if round_no == 1 else set()
    return swiss_pairings(ranked, met, had_bye, avoid=avoid)


def game_header(tournament: Tournament, round_no: int, table: int, pair: tuple[tuple, tuple], setup: dict,
                pairing: int = 1) -> dict:
    """The format-1 header of a paired game: tournament, round, table, the players (p1, p2), the setup and the
    clock the tournament's format sets (none without).
    Its id is ``<tournament>-r<round>-t<table>``, with ``-p<n>`` when the round's n-th pairing made it."""
    players = [{"id": seat, "name": name, **({"faction": faction} if faction else {})}
               for seat, (name, faction) in zip(("p1", "p2"), pair)]
    game = f"{tournament.data['slug']}-r{round_no}-t{table}" + (f"-p{pairing}" if pairing > 1 else "")
    clock = tournament.format.clock  # the format's game clock, if it sets one
    return {"rollcall": 1, "system": tournament.system, "game": game, "tournament": tournament.name,
            "round": round_no, "table": table, "players": players, "setup": setup, **({"clock": clock} if clock else {})}


__all__ = ["Tournament", "Registration", "Registered", "TournamentGame",
           "round_setup", "TournamentError", "TournamentNotFound", "TournamentAlreadyCreated", "GameResult", "Standing",
           "scored_seat", "standings", "swiss_pairings", "next_pairings", "same_club", "tournament_system",
           "game_header", "tournament_uuid", "rounds_said", "DEFAULT_POINTS", "format_of", "Bonus", "Format"]
