"""A game ended at time is shown so (streamlit.testing.v1.AppTest): in a round's results on the Standings page,
on the Pairings page and in the Games list."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "dashboard" / "views"


@pytest.fixture(scope="module")
def late_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Round 1 of a Tornscape tournament: table 1 recorded into turn 1 and its result entered (at time), table 2
    still playing."""
    from projections.projector import Projector
    from service.application import Rollcall

    data = tmp_path_factory.mktemp("late") / "data"
    store = Rollcall.open(data)
    store.create_tournament("Late Night", "tornscape", rounds=3)
    for player in ("Anna Lind", "Boris Brandt", "Chiara Costa", "Dmitri Dietz"):
        store.register_player("Late Night", player, "engeln")
    game = store.pair_round("Late Night", 1, seed=3)["tables"][0]["game"]
    store.record(game, {"type": "TurnStarted", "turn": 1})
    store.record(game, {"type": "PhaseStarted", "phase": "activation"})
    store.enter_result("Late Night", 1, 1, {"p1": 12, "p2": 8})
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(autouse=True)
def data_env(late_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROLLCALL_DATA", str(late_data))


def opened(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(str(VIEWS / f"{page}.py"), default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_rounds_results_say_which_game_ended_at_time() -> None:
    at = opened("standings", tournament="Late Night")
    results = next(d.value for d in at.dataframe if "result" in d.value.columns)
    assert results[["table", "result", "VP"]].values.tolist() == [[1, "W, at time", "12–8"], [2, "playing", ""]]


def test_the_pairings_page_says_a_table_ended_at_time() -> None:
    at = opened("public", tournament="Late Night")
    pairings = next(d.value for d in at.dataframe if "result" in d.value.columns)
    assert pairings["result"].tolist() == ["won, at time", "playing"]


def test_the_games_list_says_a_game_ended_at_time() -> None:
    at = opened("games")
    games = next(d.value for d in at.dataframe if "ended" in d.value.columns)
    assert sorted(games["ended"].tolist()) == ["ended at time", "in play"]
