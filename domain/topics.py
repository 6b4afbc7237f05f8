"""The topics rows are stored under, each written once: a game's events (``rollcall:<Type>``, its header
``rollcall:GameCreated``), and the rows never shown or projected (a digital game's secret seed, the keyring, the
players' seats). The aggregates take their topics from here (``Game.Created.TOPIC``, ``DiceSeed.TOPIC``, …)."""

from __future__ import annotations

GAME_PREFIX = "rollcall:"  # a game's events; and a digital game's secret seed (hidden)
GAME_CREATED = f"{GAME_PREFIX}GameCreated"
DICE_SEED = f"{GAME_PREFIX}DiceSeed"  # and its DiceSeedDrawn
ACCESS_PREFIX = "rollcall-access:"  # the keyring
SEAT_PREFIX = "rollcall-seat:"  # the players' seats in a round
HIDDEN = (DICE_SEED, ACCESS_PREFIX, SEAT_PREFIX)  # never projected nor listed: secrets, keys, seats


def is_game_topic(topic: str) -> bool:
    """Whether a row of ``topic`` is an event of a game (its header included)."""
    return topic.startswith(GAME_PREFIX) and not topic.startswith(HIDDEN)


def is_hidden(topic: str) -> bool:
    """Whether a row of ``topic`` is never projected nor listed (a secret seed, a key, a seat)."""
    return topic.startswith(HIDDEN)
