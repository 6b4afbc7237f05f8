"""What a viewer may see of the games: a tournament's broadcast delay, applied in one place.

A tournament may delay its broadcast (``rollcall tournament delay NAME SECONDS``): a spectator then sees each of
its games only up to its last event stored before now less the delay, and everything read from a game as it
stood after that event — its events, states, rolls, luck, disputes and rulings, its turn, its result (in the
games' list, the standings, the pairings) — while a game that ended within the delay is still being played.
A privileged viewer — one who presented a key of the store (the dashboard's sign-in, the command line's
``--key``) — sees everything.

:func:`seen` turns a viewer and a moment into a :class:`Seen`; every read a spectator can reach takes one: the
queries of one game take ``seen.upto(game)`` (``$upto`` in their SQL; NULL: everything), the queries of many
games ``seen.params()`` (``$held``: each game kept behind with the last seq shown, read through the macros
``games_seen`` and ``results_seen``), the statistics leave the games kept behind out
(``projections.stats``) until their delay has passed. What reads a game from the application instead of the
read models asks the same ``Seen``: the Record page whether the game's tournament is delayed for this viewer
(``tournament_delay``), the command line's ``export`` and ``dispute list`` how far to go (:func:`store_bound`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, NamedTuple

import duckdb

from domain.record import slug
from projections.sqlfiles import sql_text


class Held(NamedTuple):
    """A game a broadcast delay keeps behind: the last seq shown of it, and the delay in seconds."""

    game: str
    seq: int
    delay: int


@dataclass(frozen=True)
class Seen:
    """What one viewer may see at one moment: ``held``, the games kept behind (a game not named is shown
    whole), and ``delays``, the broadcast delay of every delayed tournament (by slug)."""

    privileged: bool = False
    held: tuple[Held, ...] = ()
    delays: tuple[tuple[str, int], ...] = ()
    _by_game: dict[str, Held] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_game", {h.game: h for h in self.held})

    def upto(self, game: str) -> int | None:
        """The last seq of ``game`` this viewer may see (None: all of it)."""
        found = self._by_game.get(game)
        return None if found is None else found.seq

    def delay(self, game: str) -> int:
        """The broadcast delay that keeps ``game`` behind for this viewer (0: it is shown whole)."""
        found = self._by_game.get(game)
        return 0 if found is None else found.delay

    def tournament_delay(self, tournament: str | None) -> int:
        """The broadcast delay of ``tournament`` (by name; 0: none, or no tournament)."""
        return dict(self.delays).get(slug(tournament), 0) if tournament else 0

    def live(self, tournament: str | None) -> bool:
        """Whether this viewer sees the games of ``tournament`` as they are recorded (no delay holds them)."""
        return self.privileged or self.tournament_delay(tournament) == 0

    def shown(self, games: list[str]) -> list[str]:
        """Those of ``games`` this viewer sees whole."""
        return [g for g in games if g not in self._by_game]

    def params(self) -> dict[str, Any]:
        """The games kept behind as the SQL of many games takes them (``$held``: a list of {game, seq})."""
        return {"held": [{"game": h.game, "seq": h.seq} for h in self.held]}

    def only(self, game: str) -> Seen:
        """What this viewer sees of ``game`` alone (a cache key that changes only when that game moves on)."""
        return Seen(self.privileged, tuple(h for h in self.held if h.game == game), self.delays)


EVERYTHING = Seen(privileged=True)


def current_time() -> datetime:
    """The present, which a broadcast delay counts back from."""
    return datetime.now(timezone.utc)


def seen(con: duckdb.DuckDBPyConnection, *, privileged: bool, now: datetime | str | None = None) -> Seen:
    """What a viewer sees at ``now`` (default: the present): everything when ``privileged``, else each game of
    a delayed tournament up to its last event stored at least the delay before ``now`` (broadcast.sql)."""
    if privileged:
        return EVERYTHING
    moment = (now or current_time()).isoformat() if not isinstance(now, str) else now
    delays = tuple((name, int(seconds)) for name, seconds in con.execute(
        "SELECT slug, broadcast_delay FROM dim_tournaments WHERE broadcast_delay > 0 ORDER BY slug").fetchall())
    if not delays:
        return Seen()
    found = con.execute(sql_text("broadcast"), {"now": moment}).fetchall()
    held = tuple(Held(game, int(shown), int(delay)) for game, delay, last, shown in found if shown < last)
    return Seen(held=held, delays=delays)


def store_bound(con: duckdb.DuckDBPyConnection, seen: Seen, game: str, tournament: str | None) -> int | None:
    """The last seq of ``game`` (of ``tournament``) a viewer may be shown when the game is read from the event
    store, not the read models (``rollcall export``, ``rollcall dispute list``): what ``seen`` shows of it, and of a
    game of a delayed tournament no more than the read models hold (the store may be ahead of them); None: all."""
    if seen.upto(game) is not None:
        return seen.upto(game)
    if seen.live(tournament):
        return None
    found = con.execute("SELECT last_seq FROM dim_games WHERE game = $game", {"game": game}).fetchall()
    return int(found[0][0]) if found else 0
