"""Time called, from the command line on a real store: `tournament result` on a game under way (here by a judge)
ends it at time in whatever phase it stands, the results, standings and games say so, and the next round pairs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from service.application import Rollcall

NAME = "Late Night"
PLAYERS = ("Anna Lind", "Boris Brandt", "Chiara Costa", "Dmitri Dietz")


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


def key_of(result) -> str:
    return result.output.strip().splitlines()[-1]


@pytest.fixture
def round_one(run, tmp_data: Path) -> dict[str, str]:
    """Round 1 paired; table 1 recorded by a scorekeeper into turn 1's activation phase, a model activated."""
    organiser = key_of(run("keys", "add", "organiser", "Olga"))
    keys = {"organiser": organiser, "judge": key_of(run("keys", "add", "judge", "Jules", key=organiser)),
            "scorekeeper": key_of(run("keys", "add", "scorekeeper", "Sam", key=organiser))}
    run("tournament", "create", NAME, "--system", "tornscape", "--rounds", "2", key=organiser)
    for player in PLAYERS:
        run("tournament", "register", NAME, "--player", player, "--faction", "engeln", key=organiser)
    run("tournament", "pair", NAME, "--round", "1", "--seed", "3", key=organiser)
    game = "late-night-r1-t1"
    for event in ({"type": "TurnStarted", "turn": 1}, {"type": "PhaseStarted", "phase": "activation"}):
        run("record", game, json.dumps(event), key=keys["scorekeeper"])
    store = Rollcall.open(tmp_data)
    try:
        played = store.get_game(game)
        model = next(a.event["model"] for a in played.system.legal_actions(played.state)
                     if a.event["type"] == "ActivationStarted")
    finally:
        store.close()
    run("record", game, json.dumps({"type": "ActivationStarted", "model": model}), key=keys["scorekeeper"])
    return keys


def test_a_judge_ends_a_game_under_way_at_time_and_the_results_say_so(run, round_one, tmp_data: Path) -> None:
    header = json.loads(run("export", "late-night-r1-t1").output.splitlines()[0])
    first, second = (p["name"] for p in header["players"])
    said = run("tournament", "result", NAME, "--round", "1", "--table", "1", "--score", f"{first}=12",
               "--score", f"{second}=8", key=round_one["judge"]).output
    assert said.strip() == f"round 1, table 1: {first} 12 – 8 {second}; {first} wins, ended at time"
    last = json.loads(run("export", "late-night-r1-t1").output.splitlines()[-1])
    assert (last["type"], last["seq"], last["reason"], last["winner"]) == ("GameEnded", 4, "time", "p1")
    run("tournament", "result", NAME, "--round", "1", "--table", "2", "--score", "p1=3", "--score", "p2=5",
        key=round_one["organiser"])

    results = json.loads(run("tournament", "results", NAME, "--json").output)
    assert [(r["table_no"], r["result"], r["ended_at_time"]) for r in results] == [(1, "W", True), (2, "L", False)]
    printed = run("tournament", "results", NAME, "--round", "1").output
    table_1 = next(line for line in printed.splitlines() if first in line and "late-night-r1-t1" in line)
    assert "W, at time" in table_1
    assert "ended_at_time" in run("tournament", "results", NAME, "--csv").output.splitlines()[0]
    standings = {s["player"]: s for s in json.loads(run("tournament", "standings", NAME, "--json").output)}
    assert (standings[first]["wins"], standings[first]["vp_for"], standings[second]["losses"]) == (1, 12, 1)

    paired = run("tournament", "pair", NAME, "--round", "2", key=round_one["organiser"]).output
    assert "round 2 of Late Night: 2 tables" in paired


def test_a_game_played_out_refused_mid_turn_says_how_a_game_ends_at_time(run, round_one) -> None:
    ended = {"type": "GameEnded", "score": {"p1": 1, "p2": 0}, "winner": "p1", "reason": "turn limit"}
    refused = run("record", "late-night-r1-t1", json.dumps(ended), key=round_one["scorekeeper"], ok=False)
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "R31" in refused.output and "when time is called it ends at time, reason `time`" in refused.output
