"""Digital dice and card draws from a committed seed (the record format's "Randomness").

The seed is 32 secret bytes drawn when a digital game is created; the header carries
``commit = sha256(seed)``; ``GameEnded`` reveals the seed so anyone can recompute every roll.
The event at ``seq`` takes bytes in turn from HMAC-SHA256(seed, "<game>/<seq>/<block>"),
block = 0, 1, …; a byte ``b`` picks among ``n`` outcomes unless ``b >= 256 - 256 % n``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain import topics


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commit_of(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def stream(seed: bytes, game: str, seq: int) -> Iterator[int]:
    """The bytes of the event at ``seq``, block after block."""
    block = 0
    while True:
        yield from hmac.new(seed, f"{game}/{seq}/{block}".encode(), hashlib.sha256).digest()
        block += 1


def pick(source: Iterator[int], options: Sequence[Any]) -> Any:
    """One of ``options`` chosen uniformly by rejection sampling on the byte stream."""
    n = len(options)
    limit = 256 - 256 % n
    for b in source:
        if b < limit:
            return options[b % n]
    raise AssertionError("the stream is endless")  # untranslated: it cannot happen (the stream never ends)


def face_list(faces: dict[str, int]) -> list:
    """Each face listed as often as the die shows it, in the order of the die's data."""
    return [int(face) if face.isdigit() else face for face, count in faces.items() for _ in range(count)]


def roll(seed: bytes, game: str, seq: int, faces: dict[str, int], count: int) -> list:
    source = stream(seed, game, seq)
    options = face_list(faces)
    return [pick(source, options) for _ in range(count)]


def draw(seed: bytes, game: str, seq: int, deck_left: Sequence[str]) -> str:
    return pick(stream(seed, game, seq), list(deck_left))


class DiceSeed(Aggregate):
    """The secret seed of a digital game, kept apart from the game's own events (never projected)."""

    TOPIC = topics.DICE_SEED

    class Created(Aggregate.Created):
        TOPIC = "rollcall:DiceSeedDrawn"
        seed: str

    def __init__(self, seed: str) -> None:
        self.seed = seed

    @classmethod
    def draw(cls, id: UUID, seed: bytes) -> DiceSeed:
        return cls._create(cls.Created, id=id, seed=seed.hex())
