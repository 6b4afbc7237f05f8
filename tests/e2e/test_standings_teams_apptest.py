"""A team tournament on the Standings page under streamlit.testing.v1.AppTest: the organiser pairs the teams, enters
each match's matchups (for each player of the first team, the other team's player across the table), and the teams'
standings and each round's matches show with their totals, under way and finished."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
STANDINGS = str(ROOT / "dashboard" / "views" / "standings.py")
PUBLIC = str(ROOT / "dashboard" / "views" / "public.py")
NAME = "Team Cup"
TEAMS = ("Aachen", "Bergen", "Cork", "Dover")


def created(data: Path) -> None:
    from domain.formats import shipped_format
    from domain.player_lists import Registration
    from service.application import Rollcall

    store = Rollcall.open(data)
    store.create_tournament(NAME, "t9a", format=shipped_format("t9a-teams-4"))
    store.register_players(NAME, [Registration(f"{t} {i}", "orcs", t) for t in TEAMS for i in range(1, 5)])
    store.close()
    Projector(data).run()


def open_page(data: Path, monkeypatch: pytest.MonkeyPatch, page: str = STANDINGS) -> AppTest:
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(page, default_timeout=30)
    at.query_params["tournament"] = NAME
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def press(at: AppTest, label: str, nth: int = 0) -> AppTest:
    [b for b in at.button if b.label == label][nth].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def again(at: AppTest, data: Path) -> AppTest:
    Projector(data).run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def teams_table(at: AppTest):
    return next(d.value for d in at.dataframe if "team" in d.value.columns)


def test_an_organiser_pairs_teams_enters_matchups_and_sees_the_team_standings(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    created(data)
    at = open_page(data, monkeypatch)
    assert any("teams of 4" in c.value for c in at.caption)
    press(at, "Pair round")
    assert any("round 1 paired: 2 team matches" in s.value for s in at.success), [e.value for e in at.error]
    at = again(at, data)
    matches = [m.value for m in at.markdown if m.value.startswith("Match ")]
    assert len(matches) == 4 and all(m.endswith("(matchups to enter)") for m in matches[:2]), matches
    first, other = next(m.value for m in at.markdown if m.value.startswith("Match 1:") and " v " in m.value
                        ).removeprefix("Match 1: ").split(" v ")  # the matchups form's heading
    assert [s.label for s in at.selectbox if s.key.startswith("matchup_1_1_")] == [
        f"{first} {i} plays" for i in range(1, 5)]
    assert [s.value for s in at.selectbox if s.key.startswith("matchup_1_1_")] == [f"{other} {i}" for i in range(1, 5)]
    next(s for s in at.selectbox if s.key == "matchup_1_1_0").set_value(f"{other} 2")
    next(s for s in at.selectbox if s.key == "matchup_1_1_1").set_value(f"{other} 1")
    press(at, "Enter matchups")
    assert any("match 1 of round 1: 4 tables" in s.value for s in at.success), [e.value for e in at.error]
    at = again(at, data)
    assert len([b for b in at.button if b.label == "Enter matchups"]) == 1, "match 2 waits; match 1 is entered"

    from service.application import Rollcall

    store = Rollcall.open(data)
    try:
        tables = store.tournament(NAME).rounds[1]["tables"]
        assert [(t["players"][0]["name"], t["players"][1]["name"]) for t in tables[:2]] == [
            (f"{first} 1", f"{other} 2"), (f"{first} 2", f"{other} 1")]
        for t, (a, b) in zip(tables, ((3000, 1000), (2000, 2000), (2000, 2000))):  # 18-2, 10-10, 10-10
            store.enter_result(NAME, 1, t["table"], {"p1": a, "p2": b})
    finally:
        store.close()
    at = again(at, data)
    lines = [m.value for m in at.markdown if m.value.startswith("Match 1:")]
    assert lines == [f"Match 1: {first} 38 – 22 {other} (so far: 3 of 4 games ended)"], lines
    store = Rollcall.open(data)
    try:
        store.enter_result(NAME, 1, tables[3]["table"], {"p1": 2500, "p2": 2000})  # 11.1 %: 12-8
    finally:
        store.close()
    at = again(at, data)
    lines = [m.value for m in at.markdown if m.value.startswith("Match 1:")]
    assert lines == [f"Match 1: {first} 50 – 30 {other} ({first} wins)"], lines
    shown = teams_table(at)
    assert list(shown["team"])[:1] == [first] and list(shown["MP"])[:1] == [2] and list(shown["score"])[:1] == [50]
    loser = shown[shown["team"] == other].iloc[0]
    assert (loser["#"], loser["MP"], loser["score"], loser["W–D–L"]) == (2, 0, 30, "0–0–1")  # the others: no match yet

    public = open_page(data, monkeypatch, PUBLIC)  # the players' page: the round's matches over its tables
    assert [m.value for m in public.markdown if m.value.startswith("Match 1:")] == lines
    assert list(teams_table(public)["team"])[:1] == [first]
