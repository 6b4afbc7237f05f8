"""An 8-team event of the 9th Age's team format (`t9a-teams-4`) over three rounds, from the command line, checked
against standings computed by hand: teams registered from a players' list's Team column, the teams paired Swiss by
the teams' standings, the captains' matchups entered table by table (creating the games), results entered, team match
points from the team totals (44 or more a win, 37-43 a draw), team and individual standings, `--json` with every
tiebreak.

Every match seats board i of the first team (as paired) against board i of the other ("Aachen 2" v "Cork 2"). The
tables give the first team's game scores, board 1-4 (the other team's are 20 minus them); a game scoring s for p1 is
played as 2000 + d against 2000 VP (s > 10; the reverse for s < 10; 2000-2000 for 10) with d = 225 × |s − 10| + 50,
in the middle of its 5 % band. Two games hold the secondary objective: round 1, Essen 4 v Cork 4 (12-8 by VP, Cork
4 holds it: 9-11), and round 3, Aachen 1 v Essen 1 (20-0 by VP, Aachen 1 holds it: still 20-0).

Round 1, drawn by seed 1 (all teams level):

| match | teams           | boards          | totals  | match points |
|-------|-----------------|-----------------|---------|--------------|
| 1     | Dover v Gent    | 12, 8, 10, 14   | 44–36   | 2–0          |
| 2     | Bergen v Fulda  | 10, 10, 10, 11  | 41–39   | 1–1          |
| 3     | Hull v Aachen   | 5, 6, 11, 15    | 37–43   | 1–1          |
| 4     | Essen v Cork    | 20, 15, 12, 9   | 56–24   | 2–0          |

After round 1: Essen 2 MP/56, Dover 2/44, Aachen 1/43, Bergen 1/41, Fulda 1/39, Hull 1/37, Gent 0/36, Cork 0/24.
Round 2 pairs them in that order (no two met):

| match | teams            | boards          | totals  | match points |
|-------|------------------|-----------------|---------|--------------|
| 1     | Essen v Dover    | 10, 10, 8, 10   | 38–42   | 1–1          |
| 2     | Aachen v Bergen  | 20, 20, 14, 6   | 60–20   | 2–0          |
| 3     | Fulda v Hull     | 7, 9, 11, 9     | 36–44   | 0–2          |
| 4     | Gent v Cork      | 13, 13, 12, 12  | 50–30   | 2–0          |

After round 2: Aachen 3/103, Essen 3/94, Dover 3/86, Hull 3/81, Gent 2/86, Fulda 1/75, Bergen 1/61, Cork 0/54.
Round 3: Aachen meets Essen; Dover (met Gent and Essen) Hull; Gent (met Dover and Cork) Fulda; Bergen Cork:

| match | teams            | boards          | totals  | match points |
|-------|------------------|-----------------|---------|--------------|
| 1     | Aachen v Essen   | 20, 0, 10, 12   | 42–38   | 1–1          |
| 2     | Dover v Hull     | 15, 15, 15, 0   | 45–35   | 2–0          |
| 3     | Gent v Fulda     | 5, 5, 4, 4      | 18–62   | 0–2          |
| 4     | Bergen v Cork    | 11, 11, 11, 10  | 43–37   | 1–1          |

Team standings (match points, then total game score, then strength of schedule: the opponents' match points):

| rank | team   | MP        | score          | SoS                        |
|------|--------|-----------|----------------|----------------------------|
| 1    | Dover  | 2+1+2 = 5 | 44+42+45 = 131 | Gent 2 + Essen 4 + Hull 3 = 9   |
| 2    | Aachen | 1+2+1 = 4 | 43+60+42 = 145 | Hull 3 + Bergen 2 + Essen 4 = 9 |
| 3    | Essen  | 2+1+1 = 4 | 56+38+38 = 132 | Cork 1 + Dover 5 + Aachen 4 = 10 |
| 4    | Fulda  | 1+0+2 = 3 | 39+36+62 = 137 | Bergen 2 + Hull 3 + Gent 2 = 7  |
| 5    | Hull   | 1+2+0 = 3 | 37+44+35 = 116 | Aachen 4 + Fulda 3 + Dover 5 = 12 |
| 6    | Gent   | 0+2+0 = 2 | 36+50+18 = 104 | Dover 5 + Cork 1 + Fulda 3 = 9  |
| 7    | Bergen | 1+0+1 = 2 | 41+20+43 = 104 | Fulda 3 + Aachen 4 + Cork 1 = 8 |
| 8    | Cork   | 0+0+1 = 1 | 24+30+37 = 91  | Essen 4 + Gent 2 + Bergen 2 = 8 |

(Gent and Bergen: 2 MP and 104 each, Gent ahead on strength of schedule.)

Individual standings: each player's score is the sum of their board's three games (the test sums them from the
tables and checks every player's); the best is Aachen 1, 15 (against Hull 1's 5) + 20 + 20 = 55."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

NAME = "Team Cup"
TEAMS = ("Aachen", "Bergen", "Cork", "Dover", "Essen", "Fulda", "Gent", "Hull")
# round -> matches in the order paired: (first team, other team, the first team's board scores)
ROUNDS = {
    1: [("Dover", "Gent", (12, 8, 10, 14)), ("Bergen", "Fulda", (10, 10, 10, 11)), ("Hull", "Aachen", (5, 6, 11, 15)),
        ("Essen", "Cork", (20, 15, 12, 9))],
    2: [("Essen", "Dover", (10, 10, 8, 10)), ("Aachen", "Bergen", (20, 20, 14, 6)), ("Fulda", "Hull", (7, 9, 11, 9)),
        ("Gent", "Cork", (13, 13, 12, 12))],
    3: [("Aachen", "Essen", (20, 0, 10, 12)), ("Dover", "Hull", (15, 15, 15, 0)), ("Gent", "Fulda", (5, 5, 4, 4)),
        ("Bergen", "Cork", (11, 11, 11, 10))],
}
# (round, first team's board player): the holder of the secondary objective and the score by VP before it
SECONDARY = {(1, "Essen 4"): ("Cork 4", 12), (3, "Aachen 1"): ("Aachen 1", 20)}
# the docstring's team standings: (team, match points, score, SoS), best first
TEAM_STANDINGS = [("Dover", 5, 131, 9), ("Aachen", 4, 145, 9), ("Essen", 4, 132, 10), ("Fulda", 3, 137, 7),
                  ("Hull", 3, 116, 12), ("Gent", 2, 104, 9), ("Bergen", 2, 104, 8), ("Cork", 1, 91, 8)]
MATCHES = {1: [(44, 36), (41, 39), (37, 43), (56, 24)], 2: [(38, 42), (60, 20), (36, 44), (50, 30)],
           3: [(42, 38), (45, 35), (18, 62), (43, 37)]}


@pytest.fixture
def run(tmp_data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(app, [*args, "--data", str(tmp_data)])
        if ok:
            assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        return result

    return invoke


def vp(score: int) -> tuple[int, int]:
    """Victory points (p1, p2) that score ``score`` for p1, in the middle of its band."""
    d = 225 * abs(score - 10) + 50 if score != 10 else 0
    return (2000 + d, 2000) if score >= 10 else (2000, 2000 + d)


def test_an_8_team_event_pairs_teams_takes_the_captains_matchups_and_ranks_teams_by_match_points(
        run, tmp_path: Path) -> None:
    said = run("tournament", "create", NAME, "--system", "t9a", "--format", "t9a-teams-4").output
    assert "teams of 4: a match won at 44 or more, drawn at 37 or more" in said
    listed = tmp_path / "teams.csv"
    listed.write_text("First Name,Last Name,Army,Team\n" + "".join(f"{t},{i},orcs,{t}\n" for t in TEAMS
                                                                  for i in range(1, 5)), encoding="utf-8")
    run("tournament", "register", NAME, "--csv", str(listed))
    players = json.loads(run("tournament", "players", NAME, "--json").stdout)
    assert len(players) == 32 and {p["club"] for p in players} == set(TEAMS)

    for round_no, matches in ROUNDS.items():
        printed = run("tournament", "pair", NAME, "--round", str(round_no), "--seed", "1").output
        for number, (first, other, _boards) in enumerate(matches, start=1):
            assert f"match {number}: {first} v {other}" in printed, printed
        for number, (first, other, boards) in enumerate(matches, start=1):
            run("tournament", "matchups", NAME, "--round", str(round_no), "--match", str(number),
                *[x for i in range(1, 5) for x in ("--pair", f"{first} {i}={other} {i}")])
        if round_no == 1:
            early = run("tournament", "pair", NAME, "--round", "2", ok=False)
            assert early.exit_code == 1 and "round 1 of Team Cup is not finished" in early.output
        for number, (first, other, boards) in enumerate(matches, start=1):
            for board, score in enumerate(boards, start=1):
                a, b = f"{first} {board}", f"{other} {board}"
                holder, by_vp = SECONDARY.get((round_no, a), (None, score))
                vp_a, vp_b = vp(by_vp)
                run("tournament", "result", NAME, "--round", str(round_no), "--table", str((number - 1) * 4 + board),
                    "--score", f"{a}={vp_a}", "--score", f"{b}={vp_b}", *(["--secondary", holder] if holder else []))
        shown = json.loads(run("tournament", "standings", NAME, "--teams", "--json").stdout)
        assert [(m["team"], m["opponent"], m["team_score"], m["opponent_score"]) for m in shown["matches"]
                if m["round"] == round_no] == [(f, o, *t) for (f, o, _b), t in zip(matches, MATCHES[round_no])]

    shown = json.loads(run("tournament", "standings", NAME, "--teams", "--json").stdout)
    assert [(t["team"], t["match_points"], t["score"], t["sos"]) for t in shown["teams"]] == TEAM_STANDINGS
    assert [t["rank"] for t in shown["teams"]] == list(range(1, 9))
    assert shown["teams"][0]["tiebreaks"] == [{"name": "match_points", "value": 5}, {"name": "score", "value": 131},
                                              {"name": "sos", "value": 9}]
    assert shown["teams"][0]["players"] == ["Dover 1", "Dover 2", "Dover 3", "Dover 4"]
    assert all(m["finished"] for m in shown["matches"]) and len(shown["matches"]) == 12
    printed = run("tournament", "standings", NAME, "--teams").output
    assert "round 3, match 3: Gent 18 – 62 Fulda" in printed
    tables = json.loads(run("tournament", "pairings", NAME, "--round", "3", "--json").stdout)
    assert {(t["team"], t["opponent_team"]) for t in tables[8:12]} == {("Gent", "Fulda")}
    cards = tmp_path / "cards.html"
    run("tournament", "cards", NAME, "--round", "3", "-o", str(cards), "--base-url", "http://venue.invalid:8501")
    assert '<span class="team">Gent</span>' in cards.read_text(encoding="utf-8")

    expected: dict[str, int] = {}
    for round_no, matches in ROUNDS.items():
        for first, other, boards in matches:
            for board, score in enumerate(boards, start=1):
                expected[f"{first} {board}"] = expected.get(f"{first} {board}", 0) + score
                expected[f"{other} {board}"] = expected.get(f"{other} {board}", 0) + 20 - score
    rows = json.loads(run("tournament", "standings", NAME, "--json").stdout)
    assert {r["player"]: r["score"] for r in rows} == expected
    assert (rows[0]["player"], rows[0]["score"]) == ("Aachen 1", 55)  # 15 + 20 + 20
    assert [t["name"] for t in rows[0]["tiebreaks"]] == ["score", "sos", "vp_diff", "head_to_head"]


def test_a_team_match_takes_one_player_of_each_team_per_table(run, tmp_path: Path) -> None:
    run("tournament", "create", NAME, "--system", "t9a", "--format", "t9a-teams-4")
    for team in ("Aachen", "Bergen"):
        for i in range(1, 5):
            run("tournament", "register", NAME, "--player", f"{team} {i}", "--team", team)
    run("tournament", "pair", NAME, "--round", "1", "--seed", "1")
    first = json.loads(run("tournament", "standings", NAME, "--teams", "--json").stdout)["matches"][0]["team"]
    other = "Bergen" if first == "Aachen" else "Aachen"

    def matchups(*pairs: str):
        return run("tournament", "matchups", NAME, "--round", "1", "--match", "1",
                   *[x for p in pairs for x in ("--pair", p)], ok=False)

    same = matchups(f"{first} 1={first} 2", f"{first} 3={other} 3", f"{first} 4={other} 4", f"{other} 1={other} 2")
    assert same.exit_code == 1 and f"{first} 1 v {first} 2 is no matchup of {first} v {other}" in same.output
    short = matchups(f"{first} 1={other} 1")
    assert short.exit_code == 1 and "is played at 4 tables: give 4 matchups" in short.output
    twice = matchups(f"{first} 1={other} 1", f"{first} 1={other} 2", f"{first} 3={other} 3", f"{first} 4={other} 4")
    assert twice.exit_code == 1 and f"{first} 1 is given two tables" in twice.output
    assert json.loads(run("games", "--json").stdout) == []  # nothing of a refused matchup is stored
    done = matchups(*(f"{other} {i}={first} {i}" for i in range(1, 5)))  # either team's player first
    assert done.exit_code == 0 and f"table 1: {first} 1" in done.output
    again = matchups(*(f"{first} {i}={other} {i}" for i in range(1, 5)))
    assert again.exit_code == 1 and "has its matchups already" in again.output


def test_a_format_cannot_be_changed_once_a_round_has_a_result(run) -> None:
    run("tournament", "create", NAME, "--system", "t9a", "--format", "t9a-20-0")
    for player in ("Ann", "Bob"):
        run("tournament", "register", NAME, "--player", player)
    run("tournament", "format", NAME, "t9a-teams-4")  # before any result: changed
    run("tournament", "format", NAME, "t9a-20-0")
    run("tournament", "pair", NAME, "--round", "1", "--seed", "1")
    run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", "Ann=2000", "--score", "Bob=1500")
    refused = run("tournament", "format", NAME, "wins", ok=False)
    assert refused.exit_code == 1
    assert "the format of Team Cup cannot be changed: round 1 has a result (game team-cup-r1-t1)" in refused.output
    assert "20-0" in run("tournament", "format", NAME).output


def test_a_bye_team_for_an_odd_count_scores_its_bye_and_its_players_each_a_bye(run, tmp_path: Path) -> None:
    run("tournament", "create", NAME, "--system", "t9a", "--format", "t9a-teams-4")
    listed = tmp_path / "teams.csv"
    listed.write_text("Name,Faction,Team\n" + "".join(f"{t} {i},orcs,{t}\n" for t in TEAMS[:3] for i in range(1, 5)),
                      encoding="utf-8")
    run("tournament", "register", NAME, "--csv", str(listed))
    printed = run("tournament", "pair", NAME, "--round", "1", "--seed", "1").output
    (bye,) = [line.split("bye: team ")[1] for line in printed.splitlines() if "bye: team " in line]
    first, other = [t for t in TEAMS[:3] if t != bye]
    shown = json.loads(run("tournament", "standings", NAME, "--teams", "--json").stdout)
    top = shown["teams"][0]
    assert (top["team"], top["byes"], top["match_points"], top["score"]) == (bye, 1, 2, 44)  # the bye: a 44 total
    rows = {r["player"]: r for r in json.loads(run("tournament", "standings", NAME, "--json").stdout)}
    assert {p: (r["byes"], r["score"]) for p, r in rows.items()} == {f"{bye} {i}": (1, 10) for i in range(1, 5)}
    assert {first, other} == {m["team"] for m in shown["matches"]} | {m["opponent"] for m in shown["matches"]}
