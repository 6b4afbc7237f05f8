"""Running a tournament from the command line (CliRunner): registration, check-in and drops, pairing, results
entered alone, standings and pairings as JSON and CSV, and who may do what once the store has keys."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

NAME = "Club Night"
PLAYERS = (("Anna Lind", "engeln", "Red"), ("Boris Brandt", "castilla", "Red"), ("Chiara Costa", "engeln", "Blue"),
           ("Dmitri Dietz", "castilla", "Blue"), ("Elif Eriksen", "engeln", None))


@pytest.fixture
def run(tmp_data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def invoke(*args: str, key: str | None = None, ok: bool = True):
        result = runner.invoke(app, [*args, "--data", str(tmp_data), *(["--key", key] if key else [])])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return invoke


@pytest.fixture
def registered(run) -> str:
    run("tournament", "create", NAME, "--system", "tornscape")
    for player, faction, club in PLAYERS:
        run("tournament", "register", NAME, "--player", player, "--faction", faction, *(["--club", club] if club else []))
    return NAME


def as_json(result) -> list[dict]:
    return json.loads(result.stdout)


def test_players_are_listed_with_faction_club_check_in_and_drop(run, registered) -> None:
    run("tournament", "check-in", NAME, "--player", "Anna Lind")
    assert "Boris Brandt dropped out of Club Night after round 0" in run("tournament", "drop", NAME, "--player",
                                                                          "boris brandt").output
    players = as_json(run("tournament", "players", NAME, "--json"))
    assert [(p["player"], p["faction"], p["club"], p["checked_in"], p["dropped_after_round"]) for p in players] == [
        ("Anna Lind", "engeln", "Red", True, None), ("Boris Brandt", "castilla", "Red", False, 0),
        ("Chiara Costa", "engeln", "Blue", False, None), ("Dmitri Dietz", "castilla", "Blue", False, None),
        ("Elif Eriksen", "engeln", None, False, None)]
    printed = run("tournament", "players", NAME).output
    assert "5 players" in printed
    anna = next(line for line in printed.splitlines() if "Anna Lind" in line)
    assert "Engeln" in anna and "yes" in anna and "engeln" not in anna and "True" not in anna  # in words


def test_a_paired_round_prints_its_tables_and_creates_its_games(run, registered) -> None:
    printed = run("tournament", "pair", NAME, "--round", "1", "--seed", "1").output
    assert "round 1 of Club Night: 2 tables, scenario ash-crossing" in printed and "bye:" in printed
    headers = [h for h in as_json(run("games", "--json")) if h.get("tournament") == NAME]
    assert sorted((h["round"], h["table"]) for h in headers) == [(1, 1), (1, 2)]
    pairing = as_json(run("tournament", "pairings", NAME, "--json"))
    assert [r["table_no"] for r in pairing] == [1, 2, None] and pairing[-1]["result"] == "B"
    clubs = {p: c for p, _, c in PLAYERS}
    assert all(clubs[r["player"]] is None or clubs[r["player"]] != clubs[r["opponent"]] for r in pairing[:2])


def test_results_entered_alone_count_in_the_standings(run, registered) -> None:
    run("tournament", "pair", NAME, "--round", "1", "--seed", "2")
    tables = as_json(run("tournament", "pairings", NAME, "--round", "1", "--json"))
    run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", "p1=3", "--score", "p2=1")
    second = tables[1]
    run("tournament", "result", NAME, "--round", "1", "--table", "2", "--score", f"{second['player']}=2",
        "--score", f"{second['opponent']}=2")
    standing = {s["player"]: s for s in as_json(run("tournament", "standings", NAME, "--json"))}
    assert (standing[tables[0]["player"]]["wins"], standing[tables[0]["player"]]["tournament_points"]) == (1, 3)
    assert (standing[tables[0]["opponent"]]["losses"], standing[tables[0]["opponent"]]["vp_against"]) == (1, 3)
    assert standing[second["player"]]["draws"] == standing[second["opponent"]]["draws"] == 1
    assert standing[tables[2]["player"]]["byes"] == 1
    assert "2 games, 1 round played" in run("tournament", "list").output


def test_a_result_is_said_with_the_players_names_not_their_seats(run, registered) -> None:
    run("tournament", "pair", NAME, "--round", "1", "--seed", "2")
    tables = as_json(run("tournament", "pairings", NAME, "--round", "1", "--json"))
    first, second = tables[0], tables[1]
    won = run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", "p1=3", "--score", "p2=1").output
    assert won.strip() == f"round 1, table 1: {first['player']} 3 – 1 {first['opponent']}; {first['player']} wins"
    drawn = run("tournament", "result", NAME, "--round", "1", "--table", "2", "--score", f"{second['opponent']}=2",
                "--score", f"{second['player']}=2").output
    assert drawn.strip() == f"round 1, table 2: {second['player']} 2 – 2 {second['opponent']}; a draw"
    assert not any(f" {seat} " in won + drawn for seat in ("p1", "p2"))
    run("tournament", "pair", NAME, "--round", "2", "--seed", "2")
    table = as_json(run("tournament", "pairings", NAME, "--round", "2", "--json"))[0]
    half = run("tournament", "result", NAME, "--round", "2", "--table", "1", "--score", "p1=3", ok=False).output
    assert half.startswith(f"error: a result at table 1 of round 2 gives both players' victory points, "
                           f"{table['player']}'s and {table['opponent']}'s")
    assert f'--score "{table["player"]}=3"' in half.replace("\n", " ") and "p1=3" not in half


def test_a_round_is_refused_a_new_pairing_after_its_first_event(run, registered) -> None:
    run("tournament", "pair", NAME, "--round", "1", "--seed", "3")
    again = run("tournament", "pair", NAME, "--round", "1", "--seed", "4").output
    assert "(pairing 2)" in again
    run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", "p1=1", "--score", "p2=0")
    refused = run("tournament", "pair", NAME, "--round", "1", ok=False)
    assert refused.exit_code == 1 and "cannot be paired again" in refused.output and "Traceback" not in refused.output
    assert "2 games, 0 rounds played; round 1: 1 of 2 results" in run("tournament", "list").output, "the withdrawn games count nowhere"


def test_standings_and_pairings_are_published_as_csv(run, registered) -> None:
    run("tournament", "pair", NAME, "--round", "1", "--seed", "5")
    run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", "p1=2", "--score", "p2=0")
    pairing = list(csv.DictReader(io.StringIO(run("tournament", "pairings", NAME, "--round", "1", "--csv").stdout)))
    assert [(r["table_no"], r["result"]) for r in pairing] == [("1", "W"), ("2", ""), ("", "B")]
    standing = list(csv.DictReader(io.StringIO(run("tournament", "standings", NAME, "--csv").stdout)))
    assert standing[0]["rank"] == "1" and standing[0]["tournament_points"] == "3"
    assert {r["player"] for r in standing} >= {pairing[0]["player"], pairing[0]["opponent"], pairing[2]["player"]}


def test_a_setup_file_goes_into_every_game_of_the_round(run, registered, tmp_path: Path) -> None:
    setup = {"board": {"width": 12, "height": 10}, "models": []}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    run("tournament", "pair", NAME, "--round", "1", "--setup", str(tmp_path / "setup.json"))
    assert {json.dumps(h["setup"]) for h in as_json(run("games", "--json"))} == {json.dumps(setup)}
    (tmp_path / "bad.json").write_text("[1, 2")
    refused = run("tournament", "pair", NAME, "--round", "1", "--setup", str(tmp_path / "bad.json"), ok=False)
    assert refused.exit_code == 1 and "bad.json:1: not valid JSON" in refused.output


def test_pairing_needs_an_organisers_key_and_a_result_any_key(run, registered) -> None:
    organiser = run("keys", "add", "organiser", "Olga").output.strip().splitlines()[-1]
    scorekeeper = run("keys", "add", "scorekeeper", "Sam", key=organiser).output.strip().splitlines()[-1]
    refused = run("tournament", "pair", NAME, "--round", "1", key=scorekeeper, ok=False)
    assert refused.exit_code == 1 and "needs an organiser key" in refused.output
    refused = run("tournament", "register", NAME, "--player", "Farid", key=scorekeeper, ok=False)
    assert refused.exit_code == 1 and "organiser" in refused.output
    run("tournament", "pair", NAME, "--round", "1", key=organiser)
    run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", "p1=1", "--score", "p2=0",
        key=scorekeeper)


HOSTILE_JSON = [
    ('{"board": {"width": NaN}}', "not valid JSON: NaN is not a finite JSON number"),
    ('{"board": ' + "[" * 1000 + "]" * 1000 + "}", "nested deeper than a record can be"),
    ('{"board": ' + "9" * 5000 + "}", "a number with thousands of digits"),
    ('{"name": "\\ud800"}', "holds a lone surrogate"),
    ('{"board":\n  {"width": 8,}\n}', ":2: not valid JSON: Expecting property name enclosed in double quotes"),
]


@pytest.mark.parametrize("text, says", HOSTILE_JSON)
def test_a_hostile_setup_file_is_refused_as_a_record_line_would_be(run, registered, tmp_path: Path, text: str,
                                                                   says: str) -> None:
    path = tmp_path / "setup.json"
    path.write_text(text)
    refused = run("tournament", "pair", NAME, "--round", "1", "--setup", str(path), ok=False)
    assert refused.exit_code == 1 and refused.output.startswith(f"error: {path}:") and says in refused.output
    assert "Traceback" not in refused.output and as_json(run("games", "--json")) == []


@pytest.mark.parametrize("score", ["p1=" + "9" * 5000, "p1=1000000000000000000000000", "p1=NaN"])
def test_a_hostile_score_is_refused_in_one_line(run, registered, score: str) -> None:
    run("tournament", "pair", NAME, "--round", "1", "--seed", "1")
    refused = run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", score, "--score", "p2=1",
                  ok=False)
    assert refused.exit_code == 1 and refused.output.startswith("error: --score takes SEAT=VP")
    assert len(refused.output.strip().splitlines()) == 1
