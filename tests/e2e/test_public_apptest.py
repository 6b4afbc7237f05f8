"""The players' page (/public) and the Standings page's pair button, under streamlit.testing.v1.AppTest, over a
tournament run in Rollcall: players registered, round 1 paired with results entered, round 2 paired."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = str(ROOT / "dashboard" / "views" / "public.py")
STANDINGS = str(ROOT / "dashboard" / "views" / "standings.py")
NAME = "Open Day"
PLAYERS = ("Anna Lind", "Boris Brandt", "Chiara Costa", "Dmitri Dietz", "Elif Eriksen")


def run_tournament(data: Path, rounds_paired: int) -> None:
    """Register PLAYERS, pair and finish round 1, pair round 2 when ``rounds_paired`` is 2; then project."""
    from service.application import Rollcall
    from projections.projector import Projector

    store = Rollcall.open(data)
    store.create_tournament(NAME, "t9a")
    for number, player in enumerate(PLAYERS):
        store.register_player(NAME, player, "orcs" if number % 2 else "sylvan", "North" if number < 2 else None)
    store.pair_round(NAME, 1, seed=1)
    for table in (1, 2):
        store.enter_result(NAME, 1, table, {"p1": 4, "p2": table})
    if rounds_paired == 2:
        store.pair_round(NAME, 2, seed=1)
    store.close()
    Projector(data).run()


@pytest.fixture(scope="module")
def paired_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("public") / "data"
    run_tournament(data, 2)
    return data


def expected(data: Path, query: str, *args) -> list[dict]:
    from projections import tournaments
    from projections.queries import connect_read

    con = connect_read(data)
    try:
        return getattr(tournaments, query)(con, *args)
    finally:
        con.close()


def open_page(page: str, data: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(page, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def press(at: AppTest, label: str) -> AppTest:
    """Press the button labelled ``label`` and run the page again."""
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_players_page_shows_the_last_rounds_pairings_and_the_standings(paired_data, monkeypatch) -> None:
    at = open_page(PUBLIC, paired_data, monkeypatch, tournament=NAME)
    pairing, standing = at.dataframe[0].value, at.dataframe[1].value
    rows = expected(paired_data, "pairings", NAME, 2)
    assert list(pairing["player"]) == [r["player"] for r in rows]
    assert list(pairing["table"]) == ["1", "2", "bye"] and list(pairing["result"]) == ["playing", "playing", "bye"]
    assert list(standing["player"]) == [r["player"] for r in expected(paired_data, "standings", NAME)]
    assert not at.text_input and not at.button, "the players' page writes nothing"


def test_a_linked_round_shows_that_rounds_pairings_with_results(paired_data, monkeypatch) -> None:
    at = open_page(PUBLIC, paired_data, monkeypatch, tournament=NAME, round="1")
    assert at.selectbox(key="round").value == 1
    assert list(at.dataframe[0].value["result"]) == ["won", "won", "bye"]


def test_the_downloads_are_the_csv_of_the_pairings_and_standings(paired_data, monkeypatch) -> None:
    at = open_page(PUBLIC, paired_data, monkeypatch, tournament=NAME)
    downloads = {d.proto.label: d for d in at.get("download_button")}
    assert set(downloads) == {"Pairings (CSV)", "Standings (CSV)"}
    standings_csv = downloads["Standings (CSV)"]
    # AppTest exposes the button, not the file: the page builds it from the same rows as `tournament standings --csv`
    from projections.tournaments import STANDINGS_CSV, csv_text

    text = csv_text(expected(paired_data, "standings", NAME), STANDINGS_CSV)
    assert [r["player"] for r in csv.DictReader(io.StringIO(text))] == list(at.dataframe[1].value["player"])
    assert standings_csv.proto.label == "Standings (CSV)"


def test_the_pair_button_pairs_the_next_round_from_the_standings(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "data"
    run_tournament(data, 1)
    at = open_page(STANDINGS, data, monkeypatch, tournament=NAME)
    assert at.number_input(key="pair_round_no").value == 2
    press(at, "Pair round")
    assert any("round 2 paired: 2 tables, bye" in s.value for s in at.success)
    Projector(data).run()  # the dashboard's projector follows the store (projections.follow)
    paired = expected(data, "pairings", NAME, 2)
    assert [r["table_no"] for r in paired] == [1, 2, None]
    met = {frozenset((r["player"], r["opponent"])) for r in expected(data, "pairings", NAME, 1) if r["game"]}
    assert not met & {frozenset((r["player"], r["opponent"])) for r in paired if r["game"]}


def test_the_pair_button_reports_a_refusal(paired_data, monkeypatch) -> None:
    at = open_page(STANDINGS, paired_data, monkeypatch, tournament=NAME)
    at.number_input(key="pair_round_no").set_value(1)
    press(at, "Pair round")
    assert any("round 1 cannot be paired: the next round of Open Day is 3" in e.value for e in at.error)
