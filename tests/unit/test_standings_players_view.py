"""The Standings page's players as view models (dashboard.registration, no Streamlit): a list's preview against
the tournament, the registered players, the rounds played against those paired, and the round the Pair button
offers."""

from __future__ import annotations

from dashboard.registration import list_preview, next_round, players_rows, players_said
from domain.player_lists import read_player_list
from domain.tournaments import Tournament, rounds_said


def tournament() -> Tournament:
    t = Tournament.create("Spring Open", "t9a", rounds=3)
    t.register_list(read_player_list(b"name,faction\nAnna Lind,orcs\nBoris Brandt,dread_elves\n", "a.csv").entries)
    return t


def test_a_preview_says_per_row_what_registering_would_do_and_offers_the_button_for_the_new_players() -> None:
    listed = read_player_list("name,faction,club,checked in\nanna lind,orcs,,yes\nBoris Brandt,dread_elves,,no\n"
                              "Chiara Costa,Orcs and Goblins,North,no\nDana\u202eDorn,orcs,,no\n".encode(), "b.csv")
    preview = list_preview(listed, tournament().plan(listed.entries))
    assert [(r["line"], r["player"], r["faction"], r["outcome"]) for r in preview.rows] == [
        (2, "anna lind", "Orcs", "already registered, checks in now"),
        (3, "Boris Brandt", "Dread Elves", "already registered"),
        (4, "Chiara Costa", "Orcs and Goblins", "new"),
        (5, "Dana\\u202eDorn, orcs, , no", "",
         "refused: field `name` holds a text-direction control (U+202E), which no name may hold")]
    assert preview.summary == ("1 new player; 2 already registered (left as they are); 1 of them checks in; "
                               "1 row refused (not registered).")
    assert preview.button == "Register 1 player" and preview.refused == 1


def test_a_list_that_only_checks_players_in_offers_to_check_them_in_and_one_that_changes_nothing_offers_nothing():
    checking = read_player_list(b"name,faction,checked in\nAnna Lind,orcs,x\n", "c.csv")
    assert list_preview(checking, tournament().plan(checking.entries)).button == "Check in 1 player"
    same = read_player_list(b"name,faction\nAnna Lind,orcs\n", "d.csv")
    assert list_preview(same, tournament().plan(same.entries)).button is None


def test_the_registered_players_are_listed_with_check_in_and_drops() -> None:
    rows = [{"registration": 1, "player": "Anna Lind", "faction": "orcs", "club": "North", "checked_in": True,
             "dropped_after_round": None},
            {"registration": 2, "player": "Boris Brandt", "faction": None, "club": None, "checked_in": False,
             "dropped_after_round": 2}]
    assert players_rows(rows) == [
        {"registration": 1, "player": "Anna Lind", "faction": "Orcs", "club": "North", "checked_in": "yes",
         "dropped": ""},
        {"registration": 2, "player": "Boris Brandt", "faction": "", "club": "", "checked_in": "no",
         "dropped": "after round 2"}]
    assert players_said(rows) == "2 players registered, 1 still in. 1 checked in (only they are paired)."


def test_rounds_played_count_rounds_with_every_result_not_rounds_paired() -> None:
    paired = {"rounds_played": 1, "planned_rounds": 3, "last_round": 2, "last_round_games": 4,
              "last_round_results": 0}
    assert rounds_said(paired) == "1 of 3 rounds played; round 2: 0 of 4 results"
    assert next_round(paired) == 2, "round 2 is paired, not played: the box stays on it"
    done = {**paired, "rounds_played": 2, "last_round_results": 4}
    assert rounds_said(done) == "2 of 3 rounds played" and next_round(done) == 3
    fresh = {"rounds_played": 0, "planned_rounds": None, "last_round": None, "last_round_games": 0,
             "last_round_results": 0}
    assert rounds_said(fresh) == "0 rounds played" and next_round(fresh) == 1
