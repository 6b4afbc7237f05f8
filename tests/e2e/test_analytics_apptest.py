"""The Analytics page and the Replay page's "next big swing" button under AppTest, over a projected data
folder of simulated tournaments of the three systems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from replay_payload import decode
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
ANALYTICS = str(ROOT / "dashboard" / "views" / "analytics.py")
REPLAY = str(ROOT / "dashboard" / "views" / "replay.py")
TOURNAMENTS = {"tornscape": "Chart Open", "t9a": "Chart Magic", "claustrophobia": "Chart Descent"}
VERDICTS = {"no evidence of bias", "worth a look", "too few to tell"}


@pytest.fixture(scope="module")
def analytics_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A projected data folder: a small simulated Swiss tournament of each system."""
    from service.application import Rollcall
    from simulation.tournaments import simulate_tournament
    from projections.projector import Projector

    data = tmp_path_factory.mktemp("analytics") / "data"
    store = Rollcall.open(data)
    for seed, (system, name) in enumerate(TOURNAMENTS.items(), start=3):
        for game in simulate_tournament(system, name, 4, 2, seed=seed):
            store.import_record(game.lines, f"simulated {game.game}")
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(autouse=True)
def data_env(analytics_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROLLCALL_DATA", str(analytics_data))
    return analytics_data


def analytics(**params: str) -> AppTest:
    at = AppTest.from_file(ANALYTICS, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart_titles(at: AppTest) -> list[str]:
    titles = []
    for chart in at.get("plotly_chart"):
        title = json.loads(chart.proto.spec)["layout"].get("title") or {}
        titles.append(title.get("text", "") if isinstance(title, dict) else str(title))
    return titles


def games_of(data: Path, tournament: str) -> list[str]:
    from projections.queries import connect_read
    from projections.stats import Scope, scope_games

    con = connect_read(data)
    try:
        return scope_games(con, Scope(tournament=tournament))
    finally:
        con.close()


@pytest.mark.parametrize("system", list(TOURNAMENTS))
def test_a_tournament_link_opens_its_analytics_with_the_systems_charts(system: str, analytics_data: Path) -> None:
    at = analytics(tournament=TOURNAMENTS[system])
    assert at.selectbox(key="tournament").value == TOURNAMENTS[system]
    titles = chart_titles(at)
    assert any(t.startswith("Luck per player") for t in titles)
    assert any(t.startswith("Cumulative luck through") for t in titles)
    assert any(t.startswith("Faces of the") for t in titles)
    assert any(t.startswith("Faction win rates") for t in titles)
    own = {"tornscape": "Vortex stabilisation outcomes", "t9a": "Casting passes by number of dice",
           "claustrophobia": "Action dice that exhausted the warrior"}[system]
    assert any(t.startswith(own) for t in titles), titles
    verdicts = {v for frame in (d.value for d in at.dataframe) if "verdict" in frame.columns for v in frame["verdict"]}
    assert verdicts and verdicts <= VERDICTS | {"about as expected", "luckier than expected", "unluckier than expected",
                                                 "no clear advantage", "the first player is favoured",
                                                 "the second player is favoured"}


def test_the_luck_line_follows_the_game_in_the_url(analytics_data: Path) -> None:
    games = games_of(analytics_data, TOURNAMENTS["t9a"])
    at = analytics(tournament=TOURNAMENTS["t9a"], luck_game=games[-1])
    assert at.selectbox(key="luck_game").value == games[-1]
    assert f"Cumulative luck through {games[-1]}" in chart_titles(at)


def test_narrowing_to_some_games_counts_only_those(analytics_data: Path) -> None:
    games = games_of(analytics_data, TOURNAMENTS["tornscape"])
    at = analytics(tournament=TOURNAMENTS["tornscape"])
    at.multiselect(key="games").set_value(games[:1]).run()
    assert not at.exception
    assert any(c.value.startswith("1 game ·") for c in at.caption)
    assert at.selectbox(key="luck_game").options == games[:1]


def test_the_replay_jumps_to_each_big_swing_and_shows_its_z(analytics_data: Path) -> None:
    from projections.queries import connect_read
    from projections.stats import swings

    con = connect_read(analytics_data)
    try:
        games = [g for t in TOURNAMENTS.values() for g in games_of(analytics_data, t)]
        game, seqs = next((g, s) for g in games if len(s := [int(x["seq"]) for x in swings(con, g)]) >= 2)
    finally:
        con.close()
    at = AppTest.from_file(REPLAY, default_timeout=60)
    at.query_params["game"] = game
    at.query_params["seq"] = "0"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    head, body = decode(at.get("bidi_component")[0].proto.bytes)
    assert body["jumps"]["swing"] == seqs  # the replay jumps to each big swing in turn
    for target in seqs:
        assert "Big luck swing" in body["captions"][target] and "z = " in body["captions"][target]
    assert body["luck"]["svg"] and 'data-seq="%d"' % seqs[0] in body["luck"]["svg"]
