"""The Games page's table: winners by name, draws said, filters."""

from __future__ import annotations

from dashboard.games_table import filter_games, games_frame, score_text, winner_text

PLAYERS = [{"id": "p1", "name": "Anna", "faction": "dread_elves"}, {"id": "p2", "name": "Boris", "faction": "orcs"}]


def game(game_id: str, **over) -> dict:
    return {"game": game_id, "system": "t9a", "tournament": "Cup", "round": 1, "players": PLAYERS,
            "ended": True, "winner": "p1", "score": {"p1": 3, "p2": 1}, **over}


def test_winner_by_name_and_a_draw_said_so() -> None:
    assert winner_text(game("a")) == "Anna"
    assert winner_text(game("b", winner=None)) == "draw"
    assert winner_text(game("c", winner=None, ended=False)) == ""
    assert score_text(game("a")) == "Anna 3 – Boris 1"


def test_players_with_factions_in_words() -> None:
    frame, _ = games_frame([game("a")])
    assert frame.loc[0, "players"] == "Anna (Dread Elves) vs Boris (Orcs)"
    assert frame.loc[0, "winner"] == "Anna"


def test_filters_by_tournament_round_player_and_system() -> None:
    games = [game("a"), game("b", round=2), game("c", tournament=None, system="tornscape",
                                                  players=[{"id": "p1", "name": "Cleo"}, {"id": "p2", "name": "Dan"}])]
    assert [g["game"] for g in filter_games(games, tournaments=["Cup"])] == ["a", "b"]
    assert [g["game"] for g in filter_games(games, tournaments=["—"])] == ["c"]
    assert [g["game"] for g in filter_games(games, rounds=[2])] == ["b"]
    assert [g["game"] for g in filter_games(games, players=["Dan"])] == ["c"]
    assert [g["game"] for g in filter_games(games, systems=["t9a"], players=["Anna"])] == ["a", "b"]
    assert len(filter_games(games)) == 3
