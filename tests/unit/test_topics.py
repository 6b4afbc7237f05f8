"""Which stored rows are a game's events and which are never shown: one answer (domain.topics), the topics of
the aggregates themselves."""

from __future__ import annotations

from domain.access import Keyring
from domain.game import Game
from domain.randomness import DiceSeed
from domain.seats import Seat
from domain.topics import GAME_CREATED, is_game_topic, is_hidden


def test_a_games_header_and_events_are_game_topics_and_shown() -> None:
    assert Game.Created.TOPIC == GAME_CREATED
    for topic in (GAME_CREATED, "rollcall:ModelMoved", "rollcall:GameEnded"):
        assert is_game_topic(topic) and not is_hidden(topic)


def test_a_secret_seed_a_key_and_a_seat_are_hidden_and_no_game_topics() -> None:
    for kind in (DiceSeed, Keyring, Seat):
        for topic in (kind.TOPIC, kind.Created.TOPIC):
            assert is_hidden(topic) and not is_game_topic(topic), topic


def test_a_tournaments_rows_are_neither_a_game_nor_hidden() -> None:
    from domain.tournaments import Tournament

    assert not is_game_topic(Tournament.TOPIC) and not is_hidden(Tournament.TOPIC)
