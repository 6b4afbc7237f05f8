"""Team tournaments (a format with ``teams``, domain.formats.TeamRules): the team matches a round's games make, and
the teams' standings.

A player's team is the club or team they registered with. In a team round the teams are paired (Swiss, by the teams'
standings: domain.tournaments.swiss_pairings on team names), then the captains pair their players table by table
(``Tournament.enter_matchups``). Every game between a player of one team and a player of the other in that round
belongs to their match; the team's total is the sum of its players' game scores under the format, and the match is
won, drawn or lost by that total (``TeamRules.match``). A match counts in the standings once all its games have
ended; until then it is *under way*, its totals so far shown.

Pure: the standard library only."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from domain.formats import Format, GameResult, TeamRules


@dataclass
class TeamMatch:
    """One team match of a round: the two teams (the first as the pairing lists them), their totals so far, the games
    ended and those still on."""

    round: int
    teams: tuple[str, str]
    totals: list[Fraction] = field(default_factory=lambda: [Fraction(0), Fraction(0)])
    ended: int = 0
    on: int = 0

    @property
    def finished(self) -> bool:
        return self.ended > 0 and self.on == 0


@dataclass
class TeamStanding:
    team: str
    rank: int = 0
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    match_points: int = 0
    score: Fraction = Fraction(0)   # the team's match totals summed (a bye's total too)
    sos: int = 0                    # the opponent teams' match points
    opponents: list[str] = field(default_factory=list)
    order: tuple[str, ...] = ("match_points", "score", "sos")

    def value(self, tiebreak: str) -> Fraction | int:
        return {"match_points": self.match_points, "score": self.score, "sos": self.sos}[tiebreak]

    @property
    def tiebreaks(self) -> list[tuple[str, Fraction | int]]:
        return [(t, self.value(t)) for t in self.order]

    @property
    def key(self) -> tuple:
        return tuple(self.value(t) for t in self.order)


def team_matches(results: Iterable[GameResult], on: Iterable[tuple[int, str, str]], team_of: dict[str, str | None],
                 fmt: Format, paired: Iterable[tuple[int, str, str]] = ()) -> list[TeamMatch]:
    """The team matches of the games ``results`` (ended, each with its round) and ``on`` (round, player, player: the
    games not ended yet), by round, in the order ``paired`` lists them (round, team, team; then as the games come).
    A game between two players of one team, or of a player without a team, belongs to no match."""
    matches: dict[tuple[int, frozenset[str]], TeamMatch] = {}
    for round_no, a, b in paired:
        matches.setdefault((round_no, frozenset((a, b))), TeamMatch(round_no, (a, b)))

    def match(round_no: int | None, a: str, b: str) -> tuple[TeamMatch, int] | None:
        ta, tb = team_of.get(a), team_of.get(b)
        if round_no is None or not ta or not tb or ta == tb:
            return None
        found = matches.setdefault((round_no, frozenset((ta, tb))), TeamMatch(round_no, (ta, tb)))
        return found, found.teams.index(ta)

    for g in results:
        found = match(g.round, g.a, g.b)
        if found is None:
            continue
        m, side = found
        winner = None if g.winner is None else 0 if g.winner == g.a else 1
        holder = None if g.secondary is None else 0 if g.secondary == g.a else 1 if g.secondary == g.b else None
        scores = fmt.game_scores(g.score_a, g.score_b, winner, holder)
        m.totals[side] += scores[0]
        m.totals[1 - side] += scores[1]
        m.ended += 1
    for round_no, a, b in on:
        found = match(round_no, a, b)
        if found is not None:
            found[0].on += 1
    return sorted(matches.values(), key=lambda m: m.round)


def team_standings(matches: Iterable[TeamMatch], rules: TeamRules, teams: Iterable[str] = (),
                   byes: Iterable[str] = ()) -> list[TeamStanding]:
    """Every team's standing from its finished ``matches`` and ``byes`` (a team for each bye it had), best first by
    the rules' tiebreaks; teams equal on every one share a rank (then by name)."""
    table: dict[str, TeamStanding] = {}

    def of(name: str) -> TeamStanding:
        return table.setdefault(name, TeamStanding(name, order=rules.tiebreaks))

    for name in teams:
        of(name)
    for m in matches:
        if not m.finished:
            for name in m.teams:
                of(name)
            continue
        for side, name in enumerate(m.teams):
            s = of(name)
            outcome, points = rules.match(m.totals[side])
            s.matches += 1
            s.wins += outcome == "win"
            s.draws += outcome == "draw"
            s.losses += outcome == "loss"
            s.match_points += points
            s.score += m.totals[side]
            s.opponents.append(m.teams[1 - side])
    for name in byes:
        s = of(name)
        s.byes += 1
        s.match_points += rules.match(rules.bye)[1]
        s.score += rules.bye
    for s in table.values():
        s.sos = sum(table[o].match_points for o in s.opponents)
    ranked: list[TeamStanding] = []
    ordered = sorted(table.values(), key=lambda s: (tuple(-v for v in s.key), s.team))
    for s in ordered:
        s.rank = ranked[-1].rank if ranked and ranked[-1].key == s.key else len(ranked) + 1
        ranked.append(s)
    return ranked
