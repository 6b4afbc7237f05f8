"""A tournament's broadcast delay holds on the command line too (CliRunner over a real store): without a key of
the store, `replay`, `stats`, `tournament list/standings/results/pairings` (and their CSV), `dispute list` and
`export` show each game of a delayed tournament as it stood at its last event older than the delay, and `dump`
is refused while games are held back; with a key (`--key`, ROLLCALL_KEY) everything is shown; a wrong key is
refused."""

from __future__ import annotations

import csv
import io
import json

import pytest
from delayed import ENDED, NAME, PAIRED, PLAYING, SPLIT, Delayed, delayed_data
from typer.testing import CliRunner

from cli.main import app


@pytest.fixture(scope="module")
def delayed(tmp_path_factory) -> Delayed:
    return delayed_data(tmp_path_factory.mktemp("delay-cli") / "data")


@pytest.fixture
def run(delayed: Delayed, monkeypatch: pytest.MonkeyPatch):
    """``rollcall ARGS --data …`` at ``delayed.now``, as a spectator or (``key``) with a key of the store."""
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    monkeypatch.setattr("projections.visibility.current_time", lambda: delayed.now)
    runner = CliRunner()

    def invoke(*args: str, key: str | None = None, ok: bool = True):
        result = runner.invoke(app, [*args, "--data", str(delayed.data), *(["--key", key] if key else [])])
        assert (result.exit_code == 0) == ok, result.output
        return result

    return invoke


def test_replay_shows_a_spectator_the_game_up_to_its_last_event_older_than_the_delay(run, delayed) -> None:
    spectator = run("replay", ENDED, "--json")
    assert json.loads(spectator.stdout)["seq"] == SPLIT[ENDED] and "broadcast with a delay of 900 s" in spectator.stderr
    assert json.loads(run("replay", ENDED, "--json", key=delayed.key).stdout)["seq"] == delayed.last[ENDED]
    refused = run("replay", ENDED, "--seq", "300", ok=False)
    assert f"has events 0 to {SPLIT[ENDED]}" in refused.stderr
    assert f"seq {SPLIT[ENDED]}:" in run("replay", ENDED).stdout


def test_stats_leave_out_the_games_held_back_and_say_so(run, delayed) -> None:
    spectator = run("stats", "--tournament", NAME, "--json")
    assert json.loads(spectator.stdout)["luck_by_player"] == [] and "left out of these figures" in spectator.stderr
    assert max(r["seq"] for r in json.loads(spectator.stdout)["luck_line"]) <= SPLIT[ENDED]
    assert json.loads(run("stats", "--tournament", NAME, "--json", key=delayed.key).stdout)["luck_by_player"]


def test_standings_results_and_pairings_show_a_game_that_ended_within_the_delay_as_playing(run, delayed) -> None:
    def result_of(rows: list[dict]) -> str | None:
        return next(r["result"] for r in rows if r["game"] == ENDED)

    assert result_of(json.loads(run("tournament", "results", NAME, "--json").stdout)) is None
    assert result_of(json.loads(run("tournament", "results", NAME, "--json", key=delayed.key).stdout)) is not None
    standings = list(csv.DictReader(io.StringIO(run("tournament", "standings", NAME, "--csv").stdout)))
    assert {r["games"] for r in standings} == {"0"}
    pairings = list(csv.DictReader(io.StringIO(run("tournament", "pairings", PAIRED, "--csv").stdout)))
    assert [(r["result"], r["score"]) for r in pairings] == [("", "")]
    signed = list(csv.DictReader(io.StringIO(run("tournament", "pairings", PAIRED, "--csv", key=delayed.key).stdout)))
    assert [(r["result"], r["score"]) for r in signed] == [("W", "5")]
    listed = {t["tournament"]: t for t in json.loads(run("tournament", "list", "--json").stdout)}
    assert listed[NAME]["ended_games"] == 0


def test_dispute_list_and_export_stop_at_the_last_event_older_than_the_delay(run, delayed) -> None:
    assert json.loads(run("dispute", "list", PLAYING, "--json").stdout)["disputes"] == []
    assert len(json.loads(run("dispute", "list", PLAYING, "--json", key=delayed.key).stdout)["disputes"]) == 1
    exported = run("export", ENDED).stdout.splitlines()
    assert len(exported) == 1 + SPLIT[ENDED] and json.loads(exported[-1])["seq"] == SPLIT[ENDED]
    assert len(run("export", ENDED, key=delayed.key).stdout.splitlines()) == 1 + delayed.last[ENDED]
    assert len(run("export", "friendly").stdout.splitlines()) == 1 + delayed.last["friendly"]  # no tournament


def test_a_dump_needs_a_key_while_games_are_held_back(run, delayed, tmp_path) -> None:
    refused = run("dump", "--csv", str(tmp_path / "out"), ok=False)
    assert "broadcast with a delay" in refused.stderr and "--key" in refused.stderr
    assert not (tmp_path / "out").exists()
    run("dump", "--csv", str(tmp_path / "out"), key=delayed.key)


def test_a_wrong_key_is_refused_rather_than_read_as_a_spectator(run) -> None:
    refused = run("replay", ENDED, "--json", key="not-a-key", ok=False)
    assert "not a key of this store" in refused.stderr
