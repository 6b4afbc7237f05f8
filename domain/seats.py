"""Seats: a player plays one game per round of a tournament.

A game whose header names a tournament and a round takes a seat for each of its two players (by name),
an aggregate whose id is derived from the tournament, the round and the player. The store keeps one
aggregate per id, so two games seating one player in one round cannot both be stored, even when two
scorekeepers create them at the same moment: the second is refused (rule F11). Imported leniently, the
second game is kept with the violation marked on its header, and takes no seat. A game the tournament
withdrew (its round paired again before it began) frees its seats: the next game retakes them.
"""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.record import slug

NAMESPACE = uuid5(NAMESPACE_URL, "https://rollcall.invalid/seats")
SEAT_RULE = "F11"


def seat_uuid(tournament: str, round_no: int, player: str) -> UUID:
    """The seat of ``player`` in round ``round_no`` of ``tournament`` (names compared as slugs)."""
    return uuid5(NAMESPACE, f"{slug(tournament)}/{round_no}/{slug(player)}")


def seats_of(header: dict) -> list[tuple[str, UUID]]:
    """(player name, seat id) of each player a header seats, if it names a tournament and a round."""
    tournament, round_no = header.get("tournament"), header.get("round")
    if not isinstance(tournament, str) or not slug(tournament) or type(round_no) is not int:
        return []
    names = [p.get("name") or p.get("id") for p in header.get("players", ()) if isinstance(p, dict)]
    return [(name, seat_uuid(tournament, round_no, name)) for name in names if isinstance(name, str) and slug(name)]


class Seat(Aggregate):
    """A player's seat in one round of a tournament: the game that took it."""

    TOPIC = "rollcall-seat:Seat"

    class Created(Aggregate.Created):
        TOPIC = "rollcall-seat:Taken"
        game: str

    class Retaken(Aggregate.Event):
        TOPIC = "rollcall-seat:Retaken"
        game: str

        def apply(self, seat: Seat) -> None:
            seat.game = self.game

    def __init__(self, game: str) -> None:
        self.game = game

    @classmethod
    def take(cls, id: UUID, game: str) -> Seat:
        return cls._create(cls.Created, id=id, game=game)

    def retake(self, game: str) -> None:
        """The seat passes to ``game`` (the game holding it was withdrawn)."""
        self.trigger_event(self.Retaken, game=game)
