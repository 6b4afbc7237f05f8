"""A tournament's format as data (domain.formats): the shipped formats, how a game scores under each, the
secondary objective kept within the cap, and format files refused naming the field."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from domain.formats import (FormatError, GameResult, Bonus, parse, read_format, shipped, shipped_format, standings,
                            wins_format)

T9A = shipped_format("t9a-20-0")


def test_the_shipped_formats_are_wins_chess_t9a_20_0_and_t9a_teams_4() -> None:
    assert {"wins", "chess", "t9a-20-0", "t9a-teams-4"} <= set(shipped())
    teams = shipped_format("t9a-teams-4")
    assert teams.teams.size == 4 and teams.teams.tiebreaks == ("match_points", "score", "sos")
    assert teams.game_scores(2000, 1550, 0, secondary=0) == T9A.game_scores(2000, 1550, 0, secondary=0)
    assert T9A.points == 4500 and T9A.cap == 20 and T9A.secondary == 3
    assert T9A.tiebreaks == ("score", "sos", "vp_diff", "head_to_head")


@pytest.mark.parametrize("margin_vp, scores", [
    (0, (10, 10)), (224, (10, 10)),          # m < 5 %: 10–10 (224 / 4500 = 4.98 %)
    (225, (11, 9)), (449, (11, 9)),          # 5 % ≤ m < 10 %
    (450, (12, 8)), (900, (14, 6)),          # 10 %, 20 %
    (2249, (19, 1)), (2250, (20, 0)),        # 49.98 %, 50 %
    (4500, (20, 0)),
])
def test_t9a_20_0_scores_a_game_by_its_margin_in_bands_of_5_percent(margin_vp: int, scores: tuple) -> None:
    assert T9A.game_scores(1000 + margin_vp, 1000, None) == scores
    assert T9A.game_scores(1000, 1000 + margin_vp, None) == scores[::-1]


def test_the_secondary_objective_moves_3_points_kept_within_0_and_20() -> None:
    assert T9A.game_scores(2000, 1550, 0, secondary=0) == (15, 5)     # 10 % margin: 12–8, +3/−3
    assert T9A.game_scores(2000, 1550, 0, secondary=1) == (9, 11)
    assert T9A.game_scores(4000, 1000, 0, secondary=0) == (20, 0)     # 20–0 stays 20–0
    assert T9A.game_scores(4000, 1000, 0, secondary=1) == (17, 3)


def test_wins_scores_3_1_0_and_chess_1_half_0() -> None:
    wins, chess = shipped_format("wins"), shipped_format("chess")
    assert wins.game_scores(5, 1, 0) == (3, 0) and wins.game_scores(2, 2, None) == (1, 1)
    assert chess.game_scores(2, 2, None) == (Fraction(1, 2), Fraction(1, 2)) and chess.bye == 1
    assert wins_format({"win": 2, "bye": 1}).game_scores(3, 0, 0) == (2, 0) and wins_format({"bye": 1}).bye == 1


def test_bands_may_be_listed_one_by_one() -> None:
    fmt = parse({"format": "club", "scoring": {"type": "margin", "points": 2000, "cap": 10, "bands": [
        {"from": 0, "to": 10, "winner": 5, "loser": 5}, {"from": 10, "to": 30, "winner": 7, "loser": 3},
        {"from": 30, "winner": 10, "loser": 0}]}, "tiebreaks": ["score", "vp_for"]}, "club.json")
    assert fmt.game_scores(1199, 1000, 0) == (5, 5)   # 9.95 %
    assert fmt.game_scores(1200, 1000, 0) == (7, 3)   # 10 %
    assert fmt.game_scores(1000, 1600, 1) == (0, 10)  # 30 %


def bad(**changes) -> dict:
    data = json.loads(json.dumps(shipped()["t9a-20-0"]))
    for path, value in changes.items():
        *parents, last = path.split("__")
        target = data
        for p in parents:
            target = target[p]
        target[last] = value
    return data


@pytest.mark.parametrize("data, field, says", [
    (bad(scoring={"type": "margin", "points": 4500, "cap": 20, "bands": [
        {"from": 0, "to": 10, "winner": 10, "loser": 10}, {"from": 5, "winner": 20, "loser": 0}]}),
     "scoring.bands[1].from", "overlapping bands: band 1 begins at 5 %, before band 0 ends at 10 %"),
    (bad(scoring__cap=-20), "scoring.cap", "must not be negative"),
    (bad(secondary={"points": -3}), "secondary.points", "must not be negative"),
    (bad(tiebreaks=["score", "sos", "buchholz"]), "tiebreaks[2]", "unknown tiebreak \"buchholz\""),
    (bad(scoring__type="elo"), "scoring.type", "one of wins, chess, margin"),
    (bad(scoring={"type": "margin", "points": 4500, "cap": 20, "bands": [
        {"from": 0, "to": 5, "winner": 10, "loser": 10}, {"from": 6, "winner": 20, "loser": 0}]}),
     "scoring.bands[1].from", "a gap between bands"),
    (bad(scoring__points=0), "scoring.points", "from 1"),
    (bad(colour="red"), "colour", "not a field of a format"),
    (bad(teams={"size": 4, "win": 37, "draw": 44}), "teams.draw", "a draw needs at most what a win does (37)"),
    (bad(teams={"size": 4, "win": 81}), "teams.win", "at most what 4 games score, 80"),
    (bad(teams={"size": 4, "win": 44, "tiebreaks": ["match_points", "vp_for"]}), "teams.tiebreaks[1]",
     "unknown tiebreak \"vp_for\""),
    (bad(teams={"size": 0, "win": 44}), "teams.size", "from 1"),
    (bad(teams={"size": 4, "win": 44, "captains": 2}), "teams.captains", "not a field of `teams`"),
])
def test_a_bad_format_file_is_refused_naming_the_field(data: dict, field: str, says: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse(data, "pack.json")
    assert caught.value.field == field
    assert f"pack.json: field `{field}`" in str(caught.value) and says in str(caught.value)


def test_a_format_is_a_shipped_name_or_a_file(tmp_path) -> None:
    path = tmp_path / "club.json"
    path.write_text(json.dumps({**shipped()["chess"], "format": "club"}), encoding="utf-8")
    assert read_format(str(path), lambda p: open(p, encoding="utf-8").read()).name == "club"
    assert read_format("chess", lambda p: open(p, encoding="utf-8").read()).name == "chess"
    with pytest.raises(FormatError, match="nope.json' is shipped and there is no such file"):
        read_format(str(tmp_path / "nope.json"), lambda p: open(p, encoding="utf-8").read())


def test_head_to_head_breaks_a_tie_the_earlier_tiebreaks_leave() -> None:
    fmt = parse({"format": "h2h", "scoring": {"type": "wins"}, "tiebreaks": ["score", "head_to_head", "vp_for"]},
                "h2h")
    cycle = [GameResult("Ann", "Bob", 5, 4, "Ann"), GameResult("Bob", "Cid", 9, 0, "Bob"),
             GameResult("Cid", "Ann", 8, 0, "Cid")]  # 3 points each; each beat one of the others
    ranked = standings(cycle, format=fmt)
    assert [s.head_to_head for s in ranked] == [3, 3, 3]
    assert [(s.player, s.rank) for s in ranked] == [("Bob", 1), ("Cid", 2), ("Ann", 3)]  # then VP for 13, 8, 5
    pair = [GameResult("Ann", "Bob", 5, 4, "Ann"), GameResult("Bob", "Cid", 9, 0, "Bob"),
            GameResult("Ann", "Cid", 0, 20, "Cid")]
    ranked = standings(pair + [GameResult("Ann", "Dan", 9, 0, "Ann")], format=fmt)  # Ann 6, Bob 3, Cid 3, Dan 0
    assert [(s.player, s.score, s.head_to_head) for s in ranked[1:3]] == [("Bob", 3, 3), ("Cid", 3, 0)]
    assert (ranked[1].vp_for, ranked[2].vp_for) == (13, 20)  # Bob beat Cid: head-to-head before Cid's VP for


def test_bonuses_and_penalties_add_to_the_score_and_to_the_opponents_strength() -> None:
    table = {s.player: s for s in standings([GameResult("Ann", "Bob", 3000, 1000, "Ann")],
                                            format=T9A, bonuses=[Bonus("Bob", 2, "painting", 1),
                                                                 Bonus("Ann", -1, "late", 1)])}
    # a margin of 2000 VP is 44.4 %: 18–2; Ann 18 − 1 late, Bob 2 + 2 painting
    assert table["Ann"].score == 17 and table["Bob"].score == 4
    assert table["Ann"].sos == 4 and table["Bob"].sos == 17 and table["Bob"].bonus == 2


def test_a_seeded_random_draw_breaks_every_tie_the_same_way_each_time() -> None:
    fmt = parse({"format": "r", "tiebreaks": ["score", "random"]}, "r")
    first = [s.player for s in standings([], players=["A", "B", "C", "D"], format=fmt, seed="cup")]
    assert first == [s.player for s in standings([], players=["D", "C", "B", "A"], format=fmt, seed="cup")]
    assert sorted(s.rank for s in standings([], players=["A", "B", "C", "D"], format=fmt, seed="cup")) == [1, 2, 3, 4]


def test_a_team_match_is_won_drawn_or_lost_by_the_sum_of_its_games() -> None:
    from domain.teams import team_matches, team_standings

    fmt = shipped_format("t9a-teams-4")
    rules = fmt.teams
    assert [rules.match(t) for t in (44, 43, 37, 36)] == [("win", 2), ("draw", 1), ("draw", 1), ("loss", 0)]
    team_of = {"A1": "A", "A2": "A", "B1": "B", "B2": "B", "C1": "C"}
    games = [GameResult("A1", "B1", 3000, 1000, "A1", None, 1), GameResult("B2", "A2", 2000, 2000, None, "B2", 1)]
    (match,) = team_matches(games, [], team_of, fmt)
    assert match.teams == ("A", "B") and match.totals == [18 + 7, 2 + 13] and match.finished  # 44.4 %: 18-2
    under_way = team_matches(games[:1], [(1, "B2", "A2")], team_of, fmt)[0]
    assert not under_way.finished and under_way.on == 1
    ranked = team_standings([match], rules, ["A", "B", "C"], byes=["C"])
    assert [(s.team, s.match_points, s.score, s.rank) for s in ranked] == [("C", 2, 44, 1), ("A", 0, 25, 2),
                                                                           ("B", 0, 15, 3)]
