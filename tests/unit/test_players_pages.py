"""The view models of the players' own pages: the confirmation panel of the Record page (dashboard.confirm_ui) and
the player's page (dashboard.me_view), as pure functions of the record and the read models' rows."""

from __future__ import annotations

from dashboard.confirm_ui import confirm_view
from dashboard.me_view import my_page
from domain.confirmation import AWAITING, CONFIRMED, DISPUTED, PLAYING, table_status

HEADER = {"game": "g", "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}]}
ENDED = {"seq": 2, "type": "GameEnded", "score": {"p1": 3, "p2": 1}, "winner": "p1", "reason": "turn limit"}
TURN = {"seq": 1, "type": "TurnStarted", "turn": 1}


def confirmed(seq: int, seat: str, **extra) -> dict:
    return {"seq": seq, "type": "ResultConfirmed", "seat": seat, "score": {"p1": 3, "p2": 1}, "winner": "p1", **extra}


def test_a_table_is_playing_until_its_game_ends() -> None:
    assert table_status([HEADER, TURN]).status == PLAYING
    assert confirm_view(HEADER, [TURN], "p1", False) is None


def test_an_ended_game_awaits_both_confirmations() -> None:
    status = table_status([TURN, ENDED, confirmed(3, "p1")])
    assert (status.status, status.confirmed) == (AWAITING, ("p1",))


def test_a_sealed_game_is_confirmed_and_a_left_players_confirmation_is_said() -> None:
    lines = [TURN, ENDED, confirmed(3, "p1"), confirmed(4, "p2", absent=True),
             {"seq": 5, "type": "GameSealed", "confirmed_by": ["p1", "p2"]}]
    status = table_status(lines)
    assert (status.status, status.absent) == (CONFIRMED, ("p2",))
    view = confirm_view(HEADER, lines, "p1", True)
    assert view.mine is None and view.for_absent == ()


def test_a_dispute_after_the_end_marks_the_table_disputed_until_a_ruling() -> None:
    dispute = {"seq": 3, "type": "DisputeOpened", "by": "p2", "about": [2], "claim": "the result was p1 1 – 3 p2"}
    assert table_status([TURN, ENDED, dispute]).status == DISPUTED
    ruling = {"seq": 4, "type": "RulingMade", "judge": "J", "about": [2], "decision": "stands", "text": "as recorded"}
    assert table_status([TURN, ENDED, dispute, ruling]).status == AWAITING


def test_the_panel_offers_a_player_their_own_confirmation_once() -> None:
    view = confirm_view(HEADER, [TURN, ENDED], "p2", False)
    assert view.mine == "p2" and view.score == {"p1": 3, "p2": 1} and "Anna 3 – 1 Boris" in view.result_text
    assert confirm_view(HEADER, [TURN, ENDED, confirmed(3, "p2")], "p2", False).mine is None


def test_the_panel_offers_the_organiser_the_seats_not_confirmed() -> None:
    assert confirm_view(HEADER, [TURN, ENDED, confirmed(3, "p1")], None, True).for_absent == ("p2",)
    assert confirm_view(HEADER, [TURN, ENDED, confirmed(3, "p1")], None, False).for_absent == ()


PAIRINGS = [{"round": 2, "table_no": 1, "game": "t-r2-t1", "player": "Clara", "faction": "orcs",
             "opponent": "Anna", "opponent_faction": "dread_elves", "result": None}]
RESULTS = [{"round": 1, "table_no": 2, "game": "t-r1-t2", "player": "Boris", "opponent": "Anna", "score": 1,
            "opponent_score": 3, "result": "L"},
           {"round": 2, "table_no": 1, "game": "t-r2-t1", "player": "Clara", "opponent": "Anna", "score": None,
            "opponent_score": None, "result": None}]
STANDINGS = [{"player": "Anna", "rank": 1, "tournament_points": 3, "wins": 1, "draws": 0, "losses": 0}]


def test_my_page_shows_my_table_from_either_seat_with_a_link_to_record() -> None:
    page = my_page("anna", "T", PAIRINGS, RESULTS, STANDINGS)
    assert (page.now.round, page.now.table, page.now.opponent) == (2, 1, "Clara")
    assert page.now.faction == "Dread Elves" and page.now.record_link == "/record?game=t-r2-t1"


def test_my_page_shows_my_games_with_my_score_first_and_my_standing() -> None:
    page = my_page("Anna", "T", PAIRINGS, RESULTS, STANDINGS)
    assert [(g.round, g.opponent, g.score, g.result) for g in page.games] == [(1, "Boris", "3–1", "won"),
                                                                            (2, "Clara", "", "playing")]
    assert (page.rank, page.points, page.record) == (1, 3, "1–0–0")


def test_my_page_before_any_pairing_has_no_table() -> None:
    assert my_page("Dmitri", "T", PAIRINGS, RESULTS, []).now is None
