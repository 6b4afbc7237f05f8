"""The application service's tournament commands: create a tournament, register players (one by one, from a
pairing tool's CSV list, from the tournament's games), check in and drop out, award byes, pair a round from
the standings (the pairing and all its tables' games stored in one transaction), enter a result alone. The
tournament aggregate, Swiss pairing and standings are the pure domain's (domain.tournaments)."""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Iterable, Iterator

from eventsourcing.application import AggregateNotFoundError

from domain.errors import MalformedRecord
from domain.record import Line, LocatedError, read_lines, slug
from domain.tournament_record import TournamentRecordError, record_lines, restore
from domain.systems import main_alias, system_for
from domain.systems.fields import AT_TIME
from domain.formats import Format, standings
from domain.tournaments import (CREATED, Registered, Registration, Tournament, TournamentAlreadyCreated,
                                TournamentError, TournamentGame, TournamentNotFound, game_header, next_pairings,
                                round_setup, scored_seat, swiss_pairings, tournament_uuid)
from i18n import N_, _, ngettext


def _as_registered(game: TournamentGame, tournament: Tournament) -> TournamentGame:
    """``game`` with its players named as they registered (names compared without case)."""
    known = {p.casefold(): p for p in tournament.players}
    players = [{**p, "name": known.get(str(p.get("name") or p["id"]).casefold(), p.get("name") or p["id"])}
               for p in game.header["players"]]
    return TournamentGame({**game.header, "players": players}, game.ended)


class TournamentMixin:
    """The application service's tournament commands (mixed into :class:`service.application.Rollcall`)."""

    def create_tournament(self, name: str, system: str, *, rounds: int | None = None, notes: str | None = None,
                          points: dict | None = None, format: Format | None = None) -> dict:
        """Create a tournament of one system, scored and ranked by ``format`` (domain.formats; the default
        ``wins``); a second tournament of the same name is refused."""
        from eventsourcing.persistence import IntegrityError

        self.author("organise", N_("creating a tournament"))  # type: ignore[attr-defined]  (the key before all else)
        tournament = Tournament.create(name, system, rounds=rounds, notes=notes, points=points, format=format)
        existing = self._find_tournament(name)
        if existing is not None:
            raise TournamentAlreadyCreated(_("tournament '{name}' already exists ({system}); nothing was changed")
                                           .format(name=existing.name, system=existing.system))
        try:
            self.save(tournament)  # type: ignore[attr-defined]
        except IntegrityError:
            raise TournamentAlreadyCreated(_("tournament '{name}' already exists; nothing was changed").format(
                name=name)) from None
        return tournament.data

    def tournaments(self) -> Iterator[dict]:
        """Every created tournament's data (name, system, slug, …), in the order they were created."""
        for event in self._rows.events([CREATED]):  # type: ignore[attr-defined]
            yield event.data

    def tournament(self, name: str) -> Tournament:
        found = self._find_tournament(name)
        if found is None:
            raise TournamentNotFound(_("no tournament '{name}' was created (create it with `rollcall tournament "
                                       "create`)").format(name=name))
        return found

    def award_bye(self, name: str, round_no: int, player: str, faction: str | None = None) -> dict:
        """Record that ``player`` has a bye in round ``round_no`` of a created tournament."""
        return self._organise(name, lambda t: t.award_bye(round_no, player, faction))

    def change_format(self, name: str, format: Format) -> dict:
        """Score and rank the tournament by ``format`` from now on: refused once a round has a result."""
        self.author("organise", N_("writing a tournament"))  # type: ignore[attr-defined]  (the key before all else)
        tournament = self.tournament(name)
        return self._organise(name, lambda t: t.change_format(format, self.first_result(tournament)))

    def first_result(self, tournament: Tournament) -> tuple[int, str] | None:
        """The first round with a result and its game (by round and table), or None."""
        ended = sorted((g.round or 0, g.table or 0, g.header["game"]) for g in self.tournament_games(tournament)
                       if g.result is not None)
        return (ended[0][0], ended[0][2]) if ended else None

    def award_bonus(self, name: str, player: str, points: int, reason: str, round_no: int | None = None) -> dict:
        """Give a registered player ``points`` (negative: a penalty) for ``reason`` in round ``round_no`` (None: the
        last round, or round 1 before any)."""
        self.author("organise", N_("writing a tournament"))  # type: ignore[attr-defined]  (the key before all else)
        tournament = self.tournament(name)
        round_no = round_no if round_no is not None else max(self.rounds_played(tournament), 1)
        return self._organise(name, lambda t: t.award_bonus(player, points, reason, round_no))

    def format_standings(self, name: str) -> list:
        """The standings of a created tournament as its format ranks them, from the games in the store (every
        result, no broadcast delay: the organiser's view; domain.formats.Standing)."""
        tournament = self.tournament(name)
        games = [_as_registered(g, tournament) for g in self.tournament_games(tournament)]
        byes = tournament.byes_before(self.rounds_played(tournament, games) + 1)
        return standings([g.result for g in games if g.result], byes, list(tournament.players),
                         format=tournament.format, bonuses=tournament.bonus_list(), seed=tournament.data["slug"])

    def set_broadcast_delay(self, name: str, seconds: int) -> dict:
        """Keep spectators without a key ``seconds`` behind every game of a created tournament."""
        return self._organise(name, lambda t: t.set_broadcast_delay(seconds))

    def start_round(self, name: str, at: str, *, round_no: int | None = None, seconds: int | None = None) -> dict:
        """Start the time of round ``round_no`` (None: the last paired) of a created tournament at instant ``at``,
        ``seconds`` long (None: the format's round time), C09–C10."""
        def start(tournament: Tournament) -> dict:
            length = seconds if seconds is not None else tournament.format.round_seconds
            if length is None:
                raise TournamentError(_("C10 the format of {tournament} sets no round time: give the round's length")
                                      .format(tournament=tournament.name))
            return tournament.start_round(tournament.last_round if round_no is None else round_no, length, at)
        return self._organise(name, start)

    def register_player(self, name: str, player: str, faction: str | None = None, club: str | None = None) -> dict:
        """Register a player (name, faction, club or team) in a created tournament."""
        return self._organise(name, lambda t: t.register(player, faction, club))

    def check_in(self, name: str, player: str) -> dict:
        return self._organise(name, lambda t: t.check_in(player))

    def drop_player(self, name: str, player: str) -> dict:
        self.author("organise", N_("writing a tournament"))  # type: ignore[attr-defined]  (the key before all else)
        tournament = self.tournament(name)
        return self._organise(name, lambda t: t.drop(player, self.rounds_played(tournament)))

    def register_players(self, name: str, entries: Iterable[Registration]) -> Registered:
        """Register every player of ``entries`` not registered yet (names compared without case) in one event;
        those already registered are left as they are (registering a list again adds nobody), but checked in
        when the list says they have (domain.tournaments.Tournament.register_list)."""
        self.author("organise", N_("registering players"))  # type: ignore[attr-defined]  # even for nobody new; first
        tournament = self.tournament(name)
        done = tournament.register_list(entries)
        if done.registered or done.checked_in:
            self.save(tournament)  # type: ignore[attr-defined]
        return done

    def preview_players(self, name: str, entries: Iterable[Registration]) -> Registered:
        """What ``register_players`` would do with ``entries`` now; nothing is stored, no key is asked."""
        return self.tournament(name).plan(entries)

    def tournament_record(self, name: str) -> list[dict]:
        """The record of a created tournament's own events, line by line with their hashes
        (domain.tournament_record); its games' records are each game's own (``export_lines``)."""
        tournament = self.tournament(name)
        created, *events = self.events.get(tournament.id)  # type: ignore[attr-defined]
        return record_lines(created.data, [(type(e).__name__, e.data) for e in events])

    def tournament_game_ids(self, name: str) -> list[str]:
        """Every game whose header names the tournament, those a re-pairing withdrew too, in the order they were
        recorded (what a whole tournament's records hold: the withdrawn games' seats are the store's too)."""
        key = self.tournament(name).data["slug"]
        return [h["game"] for h in self.headers()  # type: ignore[attr-defined]
                if isinstance(h.get("tournament"), str) and slug(h["tournament"]) == key]

    def paired_games(self, name: str) -> list[str]:
        """The games the tournament's pairings made here, in the order they were made (a withdrawn game before the
        one that took its seats): the order its games' records come back in."""
        tournament = self.tournament(name)
        made = [e.data for e in self.events.get(tournament.id) if isinstance(e, Tournament.RoundPaired)]  # type: ignore
        return list(dict.fromkeys(t["game"] for pairing in made for t in pairing["tables"]))

    def import_tournament(self, lines: Iterable[str | bytes], source: str, *, edited: bool = False) -> Tournament:
        """Bring in a tournament's record (domain.tournament_record.restore: every event replayed by its command,
        its hashes verified unless ``edited``: a record edited by hand, taken as written); its games come in as
        records of their own afterwards. A tournament of that name already here is refused; an organiser's key."""
        self.author("organise", N_("bringing in a tournament"))  # type: ignore[attr-defined]  (the key first)
        try:
            parsed = [Line(line.number, {k: v for k, v in line.obj.items() if not (edited and k == "hash")},
                           line.plain) for line in read_lines(lines)]
        except LocatedError as exc:
            raise TournamentRecordError(f"{source}:{exc.line}: {exc.error}") from None
        tournament = restore(parsed, source)
        existing = self._find_tournament(tournament.name)
        if existing is not None:
            raise TournamentAlreadyCreated(_("{source}: tournament '{name}' already exists here ({system}); nothing was "
                                             "brought in").format(source=source, name=existing.name,
                                                                  system=existing.system))
        self.save(tournament)  # type: ignore[attr-defined]
        return tournament

    def register_from_games(self, name: str) -> Registered:
        """Register everyone who played a game of the tournament (however the game came in), with the faction
        of their latest game, in the order they first played."""
        tournament = self.tournament(name)
        played: dict[str, Registration] = {}
        for game in sorted(self.tournament_games(tournament), key=lambda g: (g.round or 0, g.table or 0)):
            for player in game.header["players"]:
                who = str(player.get("name") or player["id"])
                first = played.setdefault(who.casefold(), Registration(who, player.get("faction")))
                played[who.casefold()] = Registration(first.player, player.get("faction") or first.faction)
        return self.register_players(name, played.values())

    def rounds_played(self, tournament: Tournament, games: Iterable[TournamentGame] | None = None) -> int:
        """The last round of ``tournament``: the last paired here, or the last a game of it names, however the
        game came in (imported, recorded, a result alone, simulated); 0 before the first."""
        games = self.tournament_games(tournament) if games is None else games
        return max([tournament.last_round, *(g.round for g in games if isinstance(g.round, int))])

    def _organise(self, name: str, command) -> dict:
        self.author("organise", N_("writing a tournament"))  # type: ignore[attr-defined]  (the key before all else)
        tournament = self.tournament(name)
        data = command(tournament)
        self.save(tournament)  # type: ignore[attr-defined]
        return data

    def pair_round(self, name: str, round_no: int, *, setup: dict | None = None, scenario: str | None = None,
                   seed: int | None = None, unconfirmed: bool = False) -> dict:
        """Pair round ``round_no`` (the next after the rounds played, or the last one paired here again until
        one of its games has an event) from the standings, and create its games (header only): the pairing
        and every game are stored in one transaction, or nothing is.

        The games' setup is ``setup``, else the shipped scenario ``scenario``, else the system's first
        scenario (domain.scenarios). ``seed`` draws the order of players tied in the standings (random
        when None); it is kept in the ``RoundPaired`` event. Where the players hold their own sign-ins, the round
        waits for both players' confirmations of every result of the round before (P09), unless ``unconfirmed``:
        the organiser pairs it anyway, and the ``RoundPaired`` event says which tables were unconfirmed. Returns
        the event's data."""
        self.author("organise", N_("pairing a round"))  # type: ignore[attr-defined]  (the key before all else)
        tournament = self.tournament(name)
        games = self.tournament_games(tournament)
        played = self.rounds_played(tournament, games)
        self._check_pairable(tournament, round_no, games, played)
        waiting = self._unconfirmed(tournament, round_no - 1, games)
        if waiting and not unconfirmed:
            raise TournamentError("P09 " + ngettext(
                "round {round} of {name} waits for both players' confirmations at table(s) {tables} (the organiser "
                "may pair it anyway: `--unconfirmed`)",
                "round {round} of {name} waits for both players' confirmations at table(s) {tables} (the organiser "
                "may pair it anyway: `--unconfirmed`)", len(waiting)).format(
                round=round_no, name=tournament.name, tables=", ".join(map(str, waiting))))
        if tournament.format.teams is not None:
            return self._pair_teams(tournament, round_no, games, played, seed, waiting)
        entrants = tournament.entrants()
        if len(entrants) < 2:
            raise TournamentError(ngettext("{name} has {n} player(s) to pair: {why}", "{name} has {n} player(s) to pair: {why}",
                                           len(entrants)).format(name=name, n=len(entrants),
                                                                 why=self._why_unpaired(tournament, games)))
        earlier = [_as_registered(g, tournament) for g in games if (g.round or 0) < round_no]
        seed = secrets.randbelow(2 ** 32) if seed is None else seed
        clubs = {p: entry.get("club") for p, entry in tournament.players.items()}
        bonuses = [b for b in tournament.bonus_list() if (b.round or 0) < round_no]
        pairs, bye = next_pairings(entrants, [g.result for g in earlier if g.result], tournament.byes_before(round_no),
                                   round_no, seed, clubs=clubs, points=tournament.points,
                                   played=[frozenset(g.names) for g in earlier], format=tournament.format,
                                   bonuses=bonuses, draw=tournament.data["slug"])
        setup, scenario = round_setup(tournament.system, setup, scenario)
        previous = tournament.rounds.get(round_no)
        pairing = previous["pairing"] + 1 if previous else 1
        tables, new = [], []
        for number, (a, b) in enumerate(pairs, start=1):
            faction = {p: tournament.players[p].get("faction") for p in (a, b)}
            pair = system_for(tournament.system).seats((a, faction[a]), (b, faction[b]))
            header = game_header(tournament, round_no, number, pair, setup)
            kept = self._same_game(tournament.table_game(round_no, number), header) if previous else None
            if kept is None:
                header = game_header(tournament, round_no, number, pair, setup, pairing)
                new.append(header)
            tables.append({"table": number, "game": kept or header["game"],
                           "players": [{"name": n, "faction": f} for n, f in pair]})
        stated = {"unconfirmed": {"round": round_no - 1, "tables": waiting}} if waiting else {}
        data = tournament.pair({"round": round_no, "tables": tables, "bye": bye, "seed": seed, "scenario": scenario,
                                **stated}, played)
        with self._unsaved(tournament):  # the games' seats see the games this pairing withdraws
            checked = [self.check(header=header, source=_("round {round} table {table}").format(  # type: ignore
                                      round=round_no, table=header["table"]))
                       for header in new]
        self.commit(*checked, also=(tournament,))  # type: ignore[attr-defined]
        return data

    def _pair_teams(self, tournament: Tournament, round_no: int, games: list[TournamentGame], played: int,
                    seed: int | None, waiting: list[int]) -> dict:
        """Pair round ``round_no`` of a team tournament: the teams, Swiss by the teams' standings (no rematch when
        avoidable, a bye team for an odd count); the captains then enter each match's matchups
        (:meth:`enter_matchups`), which create its games."""
        from domain.teams import team_matches, team_standings

        teams = tournament.entrant_teams()
        if len(teams) < 2:
            raise TournamentError(ngettext("{name} has {n} team to pair: register the players of two teams or more",
                                           "{name} has {n} teams to pair: register the players of two teams or more",
                                           len(teams)).format(name=tournament.name, n=len(teams)))
        seed = secrets.randbelow(2 ** 32) if seed is None else seed
        order = list(teams)
        random.Random(seed).shuffle(order)
        earlier = [_as_registered(g, tournament) for g in games if (g.round or 0) < round_no]
        matches = team_matches([g.result for g in earlier if g.result], [], tournament.team_of(), tournament.format)
        byes = tournament.team_byes_before(round_no)
        rank = {s.team: s.rank for s in team_standings(matches, tournament.format.teams, order, byes)}
        ranked = sorted(order, key=lambda t: rank[t])
        met = tournament.team_pairs_before(round_no) | {frozenset(m.teams) for m in matches}
        pairs, bye = swiss_pairings(ranked, met, byes)
        stated = {"unconfirmed": {"round": round_no - 1, "tables": waiting}} if waiting else {}
        data = tournament.pair({"round": round_no, "tables": [], "bye": None, "seed": seed, "scenario": None,
                                "matches": [{"match": n, "teams": [a, b]} for n, (a, b) in enumerate(pairs, start=1)],
                                "bye_team": bye, **({"bye_players": teams[bye]} if bye else {}), **stated}, played)
        self.save(tournament)  # type: ignore[attr-defined]
        return data

    def enter_matchups(self, name: str, round_no: int, match_no: int, pairs: list[tuple[str, str]], *,
                       setup: dict | None = None, scenario: str | None = None) -> dict:
        """Record the captains' matchups of team match ``match_no`` of round ``round_no``: each pair (a player of
        each team) gets a table of the match, (match − 1) × the team size + 1 on, and its game (header only), stored
        with the ``MatchupsEntered`` event in one transaction. Returns the event's data."""
        self.author("organise", N_("entering matchups"))  # type: ignore[attr-defined]  (the key before all else)
        tournament = self.tournament(name)
        rules = tournament.format.teams
        if rules is None:
            raise TournamentError(_("{name} is no team tournament (its format {format} has no teams)").format(
                name=tournament.name, format=tournament.format.name))
        oriented = tournament.check_matchups(round_no, match_no, pairs, rules.size)
        setup, scenario = round_setup(tournament.system, setup, scenario)
        pairing = tournament.rounds[round_no]["pairing"]
        tables, headers = [], []
        for number, (a, b) in enumerate(oriented, start=(match_no - 1) * rules.size + 1):
            faction = {p: tournament.players[p].get("faction") for p in (a, b)}
            pair = system_for(tournament.system).seats((a, faction[a]), (b, faction[b]))
            header = game_header(tournament, round_no, number, pair, setup, pairing)
            headers.append(header)
            tables.append({"table": number, "game": header["game"],
                           "players": [{"name": n, "faction": f} for n, f in pair]})
        data = tournament.enter_matchups(round_no, match_no, tables, scenario)
        checked = [self.check(header=header, source=_("round {round} table {table}").format(  # type: ignore
                       round=round_no, table=header["table"])) for header in headers]
        self.commit(*checked, also=(tournament,))  # type: ignore[attr-defined]
        return data

    def team_standings(self, name: str) -> list:
        """The teams' standings of a created team tournament, from the games in the store (domain.teams)."""
        from domain.teams import team_matches, team_standings

        tournament = self.tournament(name)
        rules = tournament.format.teams
        if rules is None:
            raise TournamentError(_("{name} is no team tournament (its format {format} has no teams)").format(
                name=tournament.name, format=tournament.format.name))
        games = [_as_registered(g, tournament) for g in self.tournament_games(tournament)]
        matches = team_matches([g.result for g in games if g.result],
                               [(g.round, *g.names) for g in games if g.result is None], tournament.team_of(),
                               tournament.format)
        teams = list(dict.fromkeys(t for t in tournament.team_of().values() if t))
        return team_standings(matches, rules, teams, tournament.team_byes_before(tournament.last_round + 1))

    def _why_unpaired(self, tournament: Tournament, games: list[TournamentGame]) -> str:
        if any(p["checked_in"] for p in tournament.players.values()):
            return _("once check-in has begun only checked-in players are paired (`rollcall tournament check-in`)")
        players = {str(p.get("name") or p["id"]).casefold() for g in games for p in g.header["players"]}
        if players and not tournament.players:
            return ngettext("register players first (`rollcall tournament register {name} --from-games` registers "
                            "the {n} player of its games)",
                            "register players first (`rollcall tournament register {name} --from-games` registers "
                            "the {n} players of its games)", len(players)).format(name=tournament.name, n=len(players))
        return _("register players first (`rollcall tournament register`)")

    @contextlib.contextmanager
    def _unsaved(self, tournament: Tournament) -> Iterator[None]:
        """Within: ``tournament`` as changed in memory is the one this service finds (its pending pairing's
        withdrawn games free their players' seats for the games checked with it)."""
        self.__dict__["_unsaved_tournament"] = tournament
        try:
            yield
        finally:
            self.__dict__.pop("_unsaved_tournament", None)

    def _check_pairable(self, tournament: Tournament, round_no: int, games: list[TournamentGame],
                        played: int) -> None:
        """Refuse to pair a round that is neither the next after the rounds played nor the last paired here
        (or whose games have begun), or the next while the last has games without a result."""
        last = tournament.last_round
        if round_no == last == played and last:
            for table in tournament.rounds[last]["tables"]:
                if self._events(table["game"]):
                    raise TournamentError(_("round {round} of {name} cannot be paired again: game {game} (table "
                                            "{table}) has recorded events").format(
                        round=last, name=tournament.name, game=table["game"], table=table["table"]))
        elif round_no != played + 1:
            has = sum(g.round == round_no for g in games)
            said = ngettext("round {round} cannot be paired: the next round of {name} is {next} (round {round} has "
                            "{n} game(s) already)",
                            "round {round} cannot be paired: the next round of {name} is {next} (round {round} has "
                            "{n} game(s) already)", has) if has else \
                _("round {round} cannot be paired: the next round of {name} is {next}")
            raise TournamentError(said.format(round=round_no, name=tournament.name, next=played + 1, n=has))
        waiting = [m for m in tournament.rounds.get(round_no - 1, {}).get("matches") or ()
                   if m["match"] not in tournament.rounds[round_no - 1].get("entered", ())]
        if round_no > 1 and waiting:
            raise TournamentError(ngettext(
                "round {round} of {name} is not finished: team match {matches} has no matchups yet "
                "(`rollcall tournament matchups`)",
                "round {round} of {name} is not finished: team matches {matches} have no matchups yet "
                "(`rollcall tournament matchups`)", len(waiting)).format(
                round=round_no - 1, name=tournament.name,
                matches=", ".join(f"{m['match']} ({m['teams'][0]} v {m['teams'][1]})" for m in waiting)))
        unfinished = sorted(g.table or 0 for g in games if g.round == round_no - 1 and g.result is None)
        if round_no > 1 and unfinished:
            raise TournamentError(ngettext("round {round} of {name} is not finished: table(s) {tables} have no result "
                                           "yet",
                                           "round {round} of {name} is not finished: table(s) {tables} have no result "
                                           "yet",
                                           len(unfinished)).format(round=round_no - 1, name=tournament.name,
                                                                   tables=", ".join(map(str, unfinished))))

    def _unconfirmed(self, tournament: Tournament, round_no: int, games: list[TournamentGame]) -> list[int]:
        """The tables of round ``round_no`` whose result both players have not confirmed yet, in a tournament whose
        players hold their own sign-ins (none otherwise: the results stand as entered)."""
        from domain.confirmation import CONFIRMED, table_status

        if round_no < 1 or not self.player_signins(tournament.name):  # type: ignore[attr-defined]
            return []
        return sorted(g.table or 0 for g in games if g.round == round_no and g.result is not None
                      and table_status(self.stored_lines(g.header["game"])).status != CONFIRMED)  # type: ignore

    def _events(self, game_id: str) -> int:
        """The number of events a game has after its header (its last seq)."""
        return self.heads([game_id])[0]["seq"]  # type: ignore[attr-defined]

    def _same_game(self, game_id: str | None, header: dict) -> str | None:
        """``game_id`` when that game has the players and setup of ``header`` (a re-pairing keeps it)."""
        if game_id is None:
            return None
        stored = self.stored_lines(game_id)[0]  # type: ignore[attr-defined]
        same = all(stored.get(k) == header[k] for k in ("players", "setup"))
        return game_id if same else None

    def tournament_games(self, tournament: Tournament) -> list[TournamentGame]:
        """The games of a tournament (every game whose header names it, less those a re-pairing withdrew),
        each with its result once it has ended."""
        games = []
        for header in self.headers():  # type: ignore[attr-defined]
            named = header.get("tournament")
            if isinstance(named, str) and slug(named) == tournament.data["slug"] \
                    and header["game"] not in tournament.withdrawn:
                lines = self.stored_lines(header["game"])  # type: ignore[attr-defined]
                ended = next((e for e in reversed(lines[1:]) if e.get("type") == "GameEnded"), None)
                games.append(TournamentGame(header, ended))
        return games

    def enter_result(self, name: str, round_no: int, table: int, score: dict[str, int],
                     reason: str = "result entered", secondary: str | None = None) -> dict:  # (reason: a record's)
        """End the game at ``table`` of round ``round_no`` with ``score`` (by seat id or player name:
        :func:`scored_seat`); the winner is the player with more victory points (equal: a draw). A game under
        way (events recorded) ends at time, in whatever phase it stands (``GameEnded`` reason ``time``): the
        round's result was called. Needs a key of any role."""
        self.author("record", N_("entering a result"))  # type: ignore[attr-defined]  (the key before all else)
        game_id = self.table_game(name, round_no, table)
        header = self.stored_lines(game_id)[0]  # type: ignore[attr-defined]
        where = _("table {table} of round {round}").format(table=table, round=round_no)
        scored: dict[str, int] = {}
        for who, points in score.items():
            scored[scored_seat(header["players"], who, where)] = points
        if len(scored) != 2:
            named = [p.get("name") or p["id"] for p in header["players"]]
            raise TournamentError(_("a result at {where} gives both players' victory points, {first}'s and {second}'s, "
                                    "e.g. {example}").format(
                where=where, first=named[0], second=named[1],
                example=" ".join(f'--score "{n}={vp}"' for n, vp in zip(named, (3, 1)))))
        (a, score_a), (b, score_b) = sorted(scored.items())
        winner = None if score_a == score_b else a if score_a > score_b else b
        holder = self._secondary(name, header, secondary, where)
        if self._events(game_id):
            reason = AT_TIME
        return self.record(game_id, {"type": "GameEnded", "score": dict(sorted(scored.items())),  # type: ignore
                                     "winner": winner, "reason": reason, **({"secondary": holder} if holder else {})})

    def _secondary(self, name: str, header: dict, secondary: str | None, where: str) -> str | None:
        """The seat of the player ``secondary`` names as the holder of the secondary objective (None: nobody);
        refused when the tournament's format has none."""
        if secondary is None or not secondary.strip():
            return None
        fmt = self.tournament(name).format
        if not fmt.secondary:
            raise TournamentError(_("the format {format} of {name} has no secondary objective: leave --secondary "
                                    "out").format(format=fmt.name, name=name))
        return scored_seat(header["players"], secondary, where)

    def table_game(self, name: str, round_no: int, table: int) -> str:
        """The game at ``table`` of round ``round_no``: as paired here, else the game whose header seats it there."""
        tournament = self.tournament(name)
        return tournament.table_game(round_no, table) or self._named_game(tournament, round_no, table)

    def _named_game(self, tournament: Tournament, round_no: int, table: int) -> str:
        found = [g.header["game"] for g in self.tournament_games(tournament)
                 if g.round == round_no and g.table == table]
        if not found:
            raise TournamentError(_("no game at table {table} of round {round} of {name}").format(
                table=table, round=round_no, name=tournament.name))
        return found[0]

    def check_tournament(self, header: dict) -> None:
        """Refuse a game header naming a created tournament of another system."""
        name = header.get("tournament")
        if not isinstance(name, str) or not slug(name):
            return
        systems: dict = self.__dict__.setdefault("_tournament_systems", {})  # a created system never changes
        key = slug(name)
        if key not in systems:
            found = self._find_tournament(name)
            if found is None:
                return  # a tournament named only by its games
            systems[key] = (found.name, found.system)
        created, system = systems[key]
        game_system = main_alias(str(header.get("system")))
        if game_system != system:
            raise MalformedRecord(_("field `tournament`: '{name}' is a {system} tournament, not {other}").format(
                name=created, system=system, other=game_system), field="tournament")

    def withdrawn(self, game: str, header: dict) -> bool:
        """Whether ``game`` is one the tournament of ``header`` withdrew (its round paired again before it
        began): its players' seats in the round are free again (domain.seats)."""
        name = header.get("tournament")
        found = self._find_tournament(name) if isinstance(name, str) and slug(name) else None
        return found is not None and game in found.withdrawn

    def _find_tournament(self, name: str) -> Tournament | None:
        unsaved = self.__dict__.get("_unsaved_tournament")
        if unsaved is not None and unsaved.id == tournament_uuid(name):
            return unsaved
        try:
            return self.repository.get(tournament_uuid(name))  # type: ignore[attr-defined]
        except AggregateNotFoundError:
            return None
