"""The Standings page under streamlit.testing.v1.AppTest, over two small simulated tournaments."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
STANDINGS = str(ROOT / "dashboard" / "views" / "standings.py")
TOURNAMENTS = (("tornscape", "Test Open", 5, 2), ("t9a", "Test Magic Cup", 4, 2))


@pytest.fixture(scope="session")
def tournament_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A projected data folder holding a simulated tournament of each of TOURNAMENTS (byes included)."""
    from service.application import Rollcall
    from simulation.tournaments import simulate_tournament
    from projections.projector import Projector

    data = tmp_path_factory.mktemp("standings") / "data"
    store = Rollcall.open(data)
    for system, name, players, rounds in TOURNAMENTS:
        store.create_tournament(name, system)
        for game in simulate_tournament(system, name, players, rounds, 3, turns=2,
                                        on_bye=lambda r, p, f, name=name: store.award_bye(name, r, p, f)):
            store.import_record(game.lines, game.game)
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(autouse=True)
def data_env(tournament_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROLLCALL_DATA", str(tournament_data))
    return tournament_data


def open_page(tournament: str | None = None) -> AppTest:
    at = AppTest.from_file(STANDINGS, default_timeout=30)
    if tournament is not None:
        at.query_params["tournament"] = tournament
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def standings_table(at: AppTest):
    """The first table of the page: the standings (each round's results are in its tab)."""
    return at.dataframe[0].value


def expected(tournament_data: Path, query: str, *args) -> list[dict]:
    from projections import tournaments
    from projections.queries import connect_read

    con = connect_read(tournament_data)
    try:
        return getattr(tournaments, query)(con, *args)
    finally:
        con.close()


def test_the_deep_link_opens_that_tournaments_standings(data_env: Path) -> None:
    at = open_page("Test Magic Cup")
    assert at.selectbox(key="tournament").value == "Test Magic Cup"
    table = standings_table(at)
    rows = expected(data_env, "standings", "Test Magic Cup")
    assert list(table["player"]) == [r["player"] for r in rows]
    assert list(table["score"]) == [r["score"] for r in rows]  # the format's total, a column per tiebreak after it
    assert [c for c in table.columns if c in ("score", "VP ±", "VP for", "SoS")] == ["score", "VP ±", "VP for", "SoS"]
    assert list(table["#"]) == sorted(table["#"])
    assert any("t9a" in c.value for c in at.caption)
    assert any("Wins:" in c.value and "tiebreaks: score, VP difference, VP for, strength of schedule" in c.value
               for c in at.caption)  # the format in a line


def test_without_a_link_the_first_tournament_is_shown(data_env: Path) -> None:
    at = open_page()
    assert at.selectbox(key="tournament").value == "Test Open"
    assert len(standings_table(at)) == 5


def test_picking_another_tournament_shows_its_standings(data_env: Path) -> None:
    at = open_page("Test Open")
    at.selectbox(key="tournament").select("Test Magic Cup").run()
    assert not at.exception
    assert set(standings_table(at)["player"]) == {
        r["player"] for r in expected(data_env, "standings", "Test Magic Cup")}


def test_results_per_round_link_each_game_to_its_replay_and_show_the_bye(data_env: Path) -> None:
    at = open_page("Test Open")
    assert [t.label for t in at.tabs] == ["Round 1", "Round 2"]
    for number in (1, 2):
        frame = at.tabs[number - 1].dataframe[0].value
        games = [r for r in expected(data_env, "results", "Test Open", number) if r["game"]]
        links = [link for link in frame["replay"] if isinstance(link, str)]
        assert [parse_qs(urlparse(link).query)["game"][0] for link in links] == [g["game"] for g in games]
        assert all(urlparse(link).path == "replay" for link in links)
        assert list(frame["result"]).count("bye") == 1  # five players: one sits out each round


def test_the_points_race_charts_the_leaders(data_env: Path) -> None:
    at = open_page("Test Open")
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    import json

    figure = json.loads(charts[0].proto.spec)
    assert {trace["name"] for trace in figure["data"]} == {
        r["player"] for r in expected(data_env, "standings", "Test Open")}


def test_each_player_of_the_points_race_has_a_colour_of_their_own(data_env: Path) -> None:
    import json

    figure = json.loads(open_page("Test Open").get("plotly_chart")[0].proto.spec)
    colours = [trace["line"]["color"] for trace in figure["data"]]
    assert len(colours) == len(set(colours)) == len(figure["data"])
