"""Tournaments: named events of one game system that games link to by their header.

A tournament is created once (``create_tournament``) with its system; a game whose header names a
created tournament must be of that system. A header may also name a tournament that was never
created: it then exists implicitly (in the read models, not in the store). Byes, which are no game,
are recorded on the tournament (``award_bye``).

Standings rank players (by name, within a tournament) by tournament points (win 3, draw 1, loss 0,
bye 3 unless the tournament says otherwise), then victory-point difference, then victory points
scored, then strength of schedule (the sum of the tournament points of the opponents played).
Rounds are paired Swiss-style (:func:`swiss_pairings`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.errors import MalformedRecord, RollcallError
from domain.record import slug

NAMESPACE = uuid5(NAMESPACE_URL, "https://rollcall.invalid/tournaments")
CREATED = "rollcall-tournament:Created"
DEFAULT_POINTS = {"win": 3, "draw": 1, "loss": 0, "bye": 3}


class TournamentError(RollcallError):
    """A tournament command that cannot be done (the message says why)."""


class TournamentNotFound(TournamentError):
    pass


class TournamentAlreadyCreated(TournamentError):
    pass


def tournament_uuid(name: str) -> UUID:
    """The id of the tournament called ``name``: names differing only in case and punctuation are one."""
    return uuid5(NAMESPACE, slug(name))


def canonical_system(system: str) -> str:
    """The system's own alias (``tornscape``, ``t9a``, ``claustrophobia``) for any of its aliases."""
    from domain.systems import system_for

    try:
        return system_for(system).alias
    except MalformedRecord:
        from domain.systems.pack import GameSystem

        known = ", ".join(sorted({cls.alias for cls in GameSystem.registry.values()}))
        raise TournamentError(f"unknown system '{system}' (known: {known})") from None


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

    def __init__(self, data: dict) -> None:
        self.data = data
        self.byes: list[dict] = []

    @classmethod
    def create(cls, name: str, system: str, *, rounds: int | None = None, notes: str | None = None,
               points: dict | None = None) -> Tournament:
        if not isinstance(name, str) or not slug(name):
            raise TournamentError("a tournament needs a name with at least one letter or digit")
        if rounds is not None and (not isinstance(rounds, int) or rounds < 1):
            raise TournamentError(f"rounds must be a positive number, not {rounds!r}")
        data: dict = {"name": name, "system": canonical_system(system), "slug": slug(name)}
        if rounds is not None:
            data["rounds"] = rounds
        if notes:
            data["notes"] = notes
        if points is not None:
            unknown = set(points) - set(DEFAULT_POINTS)
            if unknown or not all(isinstance(v, int) and not isinstance(v, bool) for v in points.values()):
                raise TournamentError(f"points are whole numbers for {', '.join(DEFAULT_POINTS)}")
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

    def award_bye(self, round_no: int, player: str, faction: str | None = None) -> dict:
        """A player sits out a round and scores the points of a bye."""
        if not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1:
            raise TournamentError(f"a bye is for a round 1, 2, …, not {round_no!r}")
        if not isinstance(player, str) or not player.strip():
            raise TournamentError("a bye needs the player's name")
        if any(b["round"] == round_no and b["player"] == player for b in self.byes):
            raise TournamentError(f"{player} already has a bye in round {round_no} of {self.name}")
        data = {"tournament": self.name, "round": round_no, "player": player}
        if faction:
            data["faction"] = faction
        self.trigger_event(self.ByeAwarded, data=data)
        return data


class TournamentMixin:
    """The application service's tournament commands (mixed into :class:`domain.application.Rollcall`)."""

    def create_tournament(self, name: str, system: str, *, rounds: int | None = None, notes: str | None = None,
                          points: dict | None = None) -> dict:
        """Create a tournament of one system; a second tournament of the same name is refused."""
        from eventsourcing.persistence import IntegrityError

        tournament = Tournament.create(name, system, rounds=rounds, notes=notes, points=points)
        existing = self._find_tournament(name)
        if existing is not None:
            raise TournamentAlreadyCreated(f"tournament '{existing.name}' already exists ({existing.system}); "
                                           "nothing was changed")
        try:
            self.save(tournament)  # type: ignore[attr-defined]
        except IntegrityError:
            raise TournamentAlreadyCreated(f"tournament '{name}' already exists; nothing was changed") from None
        return tournament.data

    def tournaments(self) -> Iterator[dict]:
        """Every created tournament's data (name, system, slug, …), in the order they were created."""
        start = 1
        while True:
            batch = self.recorder.select_notifications(start, 500, topics=[CREATED])  # type: ignore[attr-defined]
            for notification in batch:
                yield self.mapper.to_domain_event(notification).data  # type: ignore[attr-defined]
            if len(batch) < 500:
                return
            start = batch[-1].id + 1

    def tournament(self, name: str) -> Tournament:
        found = self._find_tournament(name)
        if found is None:
            raise TournamentNotFound(f"no tournament '{name}' was created (create it with "
                                     f"`rollcall tournament create`)")
        return found

    def award_bye(self, name: str, round_no: int, player: str, faction: str | None = None) -> dict:
        """Record that ``player`` has a bye in round ``round_no`` of a created tournament."""
        tournament = self.tournament(name)
        data = tournament.award_bye(round_no, player, faction)
        self.save(tournament)  # type: ignore[attr-defined]
        return data

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
        game_system = canonical_system(str(header.get("system")))
        if game_system != system:
            raise MalformedRecord(f"field `tournament`: '{created}' is a {system} tournament, not {game_system}",
                                  field="tournament")

    def _find_tournament(self, name: str) -> Tournament | None:
        try:
            return self.repository.get(tournament_uuid(name))  # type: ignore[attr-defined]
        except AggregateNotFoundError:
            return None


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
                   had_bye: Collection[str] = (), *, budget: int = 20_000) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs for the next round of players in ``ranked`` order (best first), and the bye (None when even).

    The bye goes to the lowest-ranked player without one yet; each player meets the best-ranked
    player left that they have not played. When no pairing avoids every rematch (searched within
    ``budget`` steps), the fewest players possible meet again: each takes the best-ranked new
    opponent left, or else the best-ranked one."""
    players = list(ranked)
    if len(set(players)) != len(players):
        raise TournamentError("a player is listed twice for pairing")
    played = {frozenset(p) for p in played}
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


__all__ = ["Tournament", "TournamentMixin", "TournamentError", "TournamentNotFound", "TournamentAlreadyCreated",
           "GameResult", "Standing", "standings", "swiss_pairings", "tournament_uuid", "DEFAULT_POINTS"]
