"""The dashboard in Russian under AppTest (the whole app, over a real store), a tab whose language is Russian
(``rc_lang``): the sidebar's sign-in and what it says of who is signed in, the Record page's take-back asked,
confirmed and stored, its other roll's form; the same tab in English says it all as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import record_table
from streamlit.testing.v1 import AppTest

from projections.projector import Projector
from service.application import Rollcall

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboard" / "app.py")
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"


def lines_of(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


def store_at(folder: Path, monkeypatch: pytest.MonkeyPatch, keys: bool) -> dict[str, str]:
    store = Rollcall.open(folder)
    held = {}
    if keys:
        held["organiser"] = store.add_key("organiser", "Olga")
        store.key = held["organiser"]
        held["scorekeeper"] = store.add_key("scorekeeper", "Sam")
    store.import_record(lines_of(EX1), str(EX1))
    store.close()
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    monkeypatch.delenv("ROLLCALL_IDLE_MINUTES", raising=False)
    monkeypatch.delenv("ROLLCALL_LANG", raising=False)
    return held


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A store with keys (Olga organises, Sam keeps score) holding seed 004's first example, projected."""
    return store_at(tmp_path / "data", monkeypatch, keys=True)


@pytest.fixture
def open_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store without keys (anyone records) holding seed 004's first example (seq 1 to 7), projected."""
    store_at(tmp_path / "data", monkeypatch, keys=False)
    return tmp_path / "data"


def ran(at: AppTest, lang: str | None = None) -> AppTest:
    """Run the tab again in its language (the picker's choice for this tab; AppTest does not send the sidebar
    picker's value back, so the test holds it)."""
    lang = lang or getattr(at, "rc_test_lang", None)
    if lang:
        at.rc_test_lang = lang
        at.session_state["rc_lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def tab(page: str, lang: str, **params: str) -> AppTest:
    """A new tab of the dashboard on ``views/<page>.py`` speaking ``lang``."""
    at = AppTest.from_file(APP, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.switch_page(f"views/{page}.py")
    return ran(at, lang)


tap = record_table.tap_any


def test_the_sidebar_signs_in_and_out_in_russian(keys: dict[str, str]) -> None:
    at = tab("games", "ru")
    field = at.sidebar.text_input(key="rc_key_typed")
    assert field.label == "Ваш ключ" and "Выдаётся организатором" in field.help
    at.sidebar.text_input(key="rc_key_typed").input("not a key")
    at = tap(at, "Войти", at.sidebar)
    assert [e.value for e in at.sidebar.error] == ["Это не ключ этого хранилища."]
    at.sidebar.text_input(key="rc_key_typed").input(keys["scorekeeper"])
    at = tap(at, "Войти", at.sidebar)
    assert [m.value for m in at.sidebar.markdown if m.value.startswith("Вход выполнен")] == \
        ["Вход выполнен: **Sam** (секретарь)"]
    at = tap(at, "Выйти", at.sidebar)
    assert "Выход выполнен." in [s.value for s in at.sidebar.success]


def test_a_take_back_is_asked_confirmed_and_stored_in_russian(open_store: Path) -> None:
    at = tab("record", "ru", game=GAME)
    assert record_table.seq_field(at, "rc-take-from").label == "Отменить все события начиная с №"
    assert any("Отменяется (1 событие):" in m.value for m in at.markdown)
    at = tap(at, "Отменить")
    assert [w.value for w in at.warning if "Пока ничего не сохранено" in w.value] == \
        ["Пока ничего не сохранено: подтвердите отмену 1 события."]
    assert "Оставить" in record_table.offered(at)
    at = tap(at, "Подтвердить отмену")
    assert "Записано № 8: отменено 1 событие начиная с № 7" in [s.value for s in at.success]
    taken = [line for line in Rollcall.open(open_store).stored_lines(GAME) if line.get("type") == "TakenBack"]
    assert [line["from"] for line in taken] == [7]  # the event type and its fields are the record's, untranslated


def test_the_other_roll_form_reads_in_russian(open_store: Path) -> None:
    at = tab("record", "ru", game=GAME)
    assert at.radio(key="rc-other:player").label == "Кто бросает"
    assert at.selectbox(key="rc-other:die").label == "Кубик"
    assert at.button(key="rc-other:record").label == "Записать бросок"


def test_the_same_tab_in_english_says_it_as_before(keys: dict[str, str]) -> None:
    at = tab("games", "en")
    assert at.sidebar.text_input(key="rc_key_typed").label == "Your key"
    at.sidebar.text_input(key="rc_key_typed").input(keys["scorekeeper"])
    at = tap(at, "Sign in", at.sidebar)
    assert [m.value for m in at.sidebar.markdown if m.value.startswith("Signed in as")] == \
        ["Signed in as **Sam** (scorekeeper)"]
    assert json.dumps(at.session_state["rc_lang"]) == '"en"'


def test_the_replay_sends_its_controls_words_and_its_captions_in_the_tabs_language(open_store: Path) -> None:
    from replay_payload import decode

    def stepper(at: AppTest) -> tuple[dict, dict]:
        found = [c for c in at.get("bidi_component") if getattr(c.proto, "bytes", b"")[:1] == b"{"]
        assert len(found) == 1, "expected one replay component"
        return decode(found[0].proto.bytes)

    head, game = stepper(tab("replay", "ru", game=GAME, seq="3"))
    assert head["texts"]["play"] == "Пуск" and head["texts"]["turn"] == "ход"
    assert "Расстановка" in game["captions"][0] and "№ 3" in game["captions"][3]
    english, game_en = stepper(tab("replay", "en", game=GAME, seq="3"))
    assert english["texts"]["play"] == "Play" and "seq 3" in game_en["captions"][3]
    assert english["token"] != head["token"]  # a browser holding the game in one language is sent it in the other
