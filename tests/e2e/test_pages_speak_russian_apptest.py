"""The pages speak the browser's language: a tab that chose Russian (the sidebar picker's ``rc_lang``) reads the
Games, Standings, Analytics, New game and Record pages in Russian — headings, labels, tabs, table headers, chart
titles — while the values the pages compare and the links carry stay as they are; a tab that chose English reads
them as before."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboard" / "app.py")
TOURNAMENT = "Test Open"
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


@pytest.fixture(scope="module")
def tournament_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A projected data folder holding a small created tournament of two rounds (a bye included)."""
    from projections.projector import Projector
    from service.application import Rollcall
    from simulation.tournaments import simulate_tournament

    data = tmp_path_factory.mktemp("russian-pages") / "data"
    store = Rollcall.open(data)
    store.create_tournament(TOURNAMENT, "tornscape")
    for game in simulate_tournament("tornscape", TOURNAMENT, 5, 2, 3, turns=2,
                                    on_bye=lambda r, p, f: store.award_bye(TOURNAMENT, r, p, f)):
        store.import_record(game.lines, game.game)
    store.close()
    Projector(data).run()
    return data


@pytest.fixture(autouse=True)
def data_env(tournament_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROLLCALL_DATA", str(tournament_data))
    monkeypatch.delenv("ROLLCALL_LANG", raising=False)
    return tournament_data


def opened(page: str, lang: str, **params: str) -> AppTest:
    """The app in a tab that chose ``lang``, on ``page`` (its file in dashboard/views)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.session_state["rc_lang"] = lang  # the tab's choice (AppTest keeps no value of the picker's widget: each run)
    at.run()
    if page != "games":
        at.session_state["rc_lang"] = lang
        at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def headings(at: AppTest) -> list[str]:
    """The page's own title and subheaders (the sidebar's are not the page's)."""
    return [t.value for t in at.main.title] + [s.value for s in at.main.subheader]


def labels(elements) -> list[str]:
    return [e.label for e in elements]


def chart_titles(at: AppTest) -> list[str]:
    titles = []
    for chart in at.get("plotly_chart"):
        title = json.loads(chart.proto.spec)["layout"].get("title") or {}
        titles.append(title.get("text", "") if isinstance(title, dict) else str(title))
    return [t for t in titles if t]


def all_russian(texts: list[str]) -> bool:
    return bool(texts) and all(CYRILLIC.search(t) for t in texts)


def test_the_games_page_in_russian() -> None:
    at = opened("games", "ru")
    assert headings(at) == ["Игры"]
    assert labels(at.multiselect) == ["Турнир", "Тур", "Игрок", "Система"]
    assert any(" из " in c.value and "повтор" in c.value for c in at.main.caption)
    assert TOURNAMENT in at.multiselect[0].options  # a tournament's name is its own


def test_the_standings_page_in_russian() -> None:
    at = opened("standings", "ru", tournament=TOURNAMENT)
    said = headings(at)
    assert said[0] == "Турнирная таблица" and all_russian(said), said
    assert {"Гонка очков", "Результаты", "Игроки", "Следующий тур"} <= set(said)
    assert [t.label for t in at.tabs] == ["Тур 1", "Тур 2"]
    assert any("3 за победу" in c.value and "сила соперников" in c.value for c in at.main.caption)  # the format
    assert "Составить пары" in labels(at.button)
    assert at.selectbox(key="tournament").value == TOURNAMENT  # the link's tournament, by its own name


def test_the_analytics_page_in_russian() -> None:
    at = opened("analytics", "ru", tournament=TOURNAMENT)
    said = headings(at)
    assert said[0] == "Аналитика" and all_russian(said), said
    assert [t.label for t in at.tabs] == ["Удача", "Честность кубиков", "Игры", "Результаты"]
    titles = chart_titles(at)
    assert titles and all_russian(titles), titles
    headers = {str(c) for frame in (d.value for d in at.dataframe) for c in frame.columns}
    assert {"вывод", "игрок"} <= headers and "verdict" not in headers
    verdicts = {v for frame in (d.value for d in at.dataframe) if "вывод" in frame.columns for v in frame["вывод"]}
    assert verdicts and all(CYRILLIC.search(str(v)) for v in verdicts), verdicts
    assert at.selectbox(key="tournament").value == TOURNAMENT


def test_the_new_game_page_in_russian_keeps_the_values_it_compares() -> None:
    at = opened("new_game", "ru")
    assert headings(at) == ["Новая игра"]
    tournament = at.selectbox(key=next(s.key for s in at.selectbox if s.label == "Турнир"))
    assert tournament.options[0] == "(вне турнира)" and tournament.value == "(no tournament)"
    assert "Начать игру" in labels(at.button)
    assert any(c.value.startswith("Ещё нужно:") and "имя игрока 1" in c.value for c in at.main.caption)
    setup = next(s for s in at.selectbox if s.label == "Расстановка")
    assert setup.options and all("(из поставки)" in o for o in setup.options)


def test_the_record_page_in_russian() -> None:
    at = opened("record", "ru")
    assert headings(at) == ["Запись игры"]
    game = next(s for s in at.selectbox if s.label == "Игра")
    assert game.value is None and any("Новая игра" in i.value for i in at.main.info)


@pytest.mark.parametrize(("page", "title"), [("games", "Games"), ("standings", "Standings"),
                                             ("analytics", "Analytics"), ("new_game", "New game"),
                                             ("record", "Record a game")])
def test_in_english_the_pages_read_as_before(page: str, title: str) -> None:
    at = opened(page, "en", tournament=TOURNAMENT) if page in ("standings", "analytics") else opened(page, "en")
    said = headings(at)
    assert said[0] == title and not any(CYRILLIC.search(t) for t in said), said
    if page == "standings":
        assert [t.label for t in at.tabs] == ["Round 1", "Round 2"]
    if page == "analytics":
        assert [t.label for t in at.tabs] == ["Luck", "Fairness", "The games", "Results"]
        assert not any(CYRILLIC.search(t) for t in chart_titles(at))
