"""The one view of the standings both pages lay out (dashboard.standings_view, no Streamlit): a column per
tiebreak in the format's order, the format in a line, bonuses and penalties with their reasons."""

from __future__ import annotations

from dashboard.standings_view import format_from, standings_view
from domain.formats import shipped, shipped_format


def row(rank: int, player: str, score: int, tiebreaks: dict, bonuses=(), **more) -> dict:
    return {"rank": rank, "player": player, "faction": "dread_elves", "club": None, "games": 1, "wins": 1, "draws": 0,
            "losses": 0, "byes": 0, "score": score, "tournament_points": score,
            "bonus": sum(b["points"] for b in bonuses), "vp_for": 2000, "vp_against": 1550, "vp_diff": 450, "sos": 8,
            "esos": 0, "tiebreaks": [{"name": k, "value": v} for k, v in tiebreaks.items()], "bonuses": list(bonuses),
            "dropped_after_round": None, **more}


def test_the_standings_show_a_column_per_tiebreak_of_the_format_in_its_order() -> None:
    fmt = shipped_format("t9a-20-0")
    rows = [row(1, "Ann", 15, {"score": 15, "sos": 5, "vp_diff": 450, "head_to_head": 0},
                [{"round": 1, "points": 2, "reason": "painting"}]),
            row(2, "Bob", 5, {"score": 5, "sos": 15, "vp_diff": -450, "head_to_head": 0},
                [{"round": 1, "points": -1, "reason": "late to the table"}], dropped_after_round=1)]
    view = standings_view(rows, fmt)
    assert list(view.frame.columns) == ["#", "player", "faction", "W–D–L", "score", "SoS", "VP ±", "H2H", "bonus", "VP",
                                        "dropped"]
    assert list(view.frame["score"]) == [15, 5] and list(view.frame["bonus"]) == [2, -1]
    assert view.frame["faction"][0] == "Dread Elves" and view.frame["dropped"][1] == "after round 1"
    assert view.bonuses == ["Ann: +2 in round 1 (painting)", "Bob: -1 in round 1 (late to the table)"]
    assert "tiebreaks: score, strength of schedule, VP difference, head-to-head" in view.said
    assert view.head == ["#", "player", "W–D–L", "score", "SoS", "VP ±"]  # a phone: the score and two tiebreaks
    assert view.rows[0][3] == (15, "bonus +2") and view.rows[1][1] == ("Bob", "Dread Elves · dropped after round 1")


def test_without_bonuses_clubs_or_drops_those_columns_are_left_out() -> None:
    view = standings_view([row(1, "Ann", 3, {"score": 3, "vp_diff": 450, "vp_for": 2000, "sos": 0})],
                          format_from({"format": "wins", "data": shipped()["wins"]}))
    assert list(view.frame.columns) == ["#", "player", "faction", "W–D–L", "score", "VP ±", "VP for", "SoS", "VP"]
    assert view.bonuses == []
