"""The dashboard's parts in Russian (the dashboard catalog): a replay's captions and luck marks, a link's number
that is not one, a refusal's words about signing in, tables' heads, counts in their three Russian forms; and
the same parts in English when nobody chose a language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import i18n
from dashboard import dispute_ui, games_table, params, session, stepper, viewer
from dashboard.replay_component import texts
from domain.systems.presentation import Names
from projections.visibility import Seen


@pytest.fixture
def russian() -> Iterator[None]:
    token = i18n._language.set("ru")
    try:
        yield
    finally:
        i18n._language.reset(token)


ROW = {"seq": 4, "turn": 2, "type": "ModelMoved", "player": "Anna", "summary": "Anna moves Warden", "rules": "",
       "struck": False, "note": ""}
EVENT = {"seq": 4, "type": "ModelMoved", "phase": "activation", "violations": [{"rule": "R42", "message": "blocked"}]}


def test_a_replay_caption_reads_in_russian_with_its_rule_id_and_event_type_kept(russian) -> None:
    text = stepper.caption(ROW, EVENT, [], "g1")
    assert "№ 4" in text and "ход 2" in text and "игрок <b>Anna</b>" in text
    assert "ModelMoved" in text and "R42" in text  # the event type and the rule id stay as they are
    assert "Расстановка" in stepper.caption(None, None, [], "g1")
    mark = stepper.swing_marks([{"seq": 4, "player": "p1", "z_score": 2.5, "observed": 5, "expected": 2.0,
                                 "unit": "hits"}], Names())
    assert mark[4][0].startswith("Скачок удачи (p1): z = +2.50")


def test_a_struck_row_without_a_note_says_so_in_russian(russian) -> None:
    assert "вычеркнуто" in stepper.caption({**ROW, "struck": True}, EVENT, [], "g1")


def test_a_links_number_that_is_not_one_is_said_in_russian(russian) -> None:
    value, problem = params.whole("abc", i18n._("an event number"))
    assert value is None and problem == "`abc` — не номер события (целое число)."
    _value, problem = params.whole("99", i18n._("an event number"), 1, 10)
    assert problem == "Номер события 99 вне допустимого диапазона (от 1 до 10)."
    _seqs, problem = params.seq_list("x", 10)
    assert problem == "Не номера событий: x."


def test_signing_in_is_asked_in_russian_with_the_role_in_words(russian) -> None:
    said = session._sign_in_words("judge", i18n._("record a ruling"), None, None)
    assert said == "Войдите в боковой панели с ключом судьи, чтобы записать решение."
    said = session._sign_in_words("judge", i18n._("record a ruling"), "Sam", "scorekeeper")
    assert said.startswith("Вход выполнен как Sam (секретарь)") and "ключом судьи" in said


def test_counts_take_their_three_russian_forms_and_a_delay_is_said_in_russian(russian) -> None:
    assert [i18n.ngettext("registered {n} player", "registered {n} players", n).format(n=n) for n in (1, 3, 5)] == \
        ["зарегистрирован 1 игрок", "зарегистрировано 3 игрока", "зарегистрировано 5 игроков"]

    class Held(Seen):
        def upto(self, game):
            return 3

        def delay(self, game):
            return 60

    assert viewer.delay_note(Held(), ["g1"]).startswith("Трансляция с задержкой 60 с: эта игра показана")


def test_tables_and_controls_read_in_russian(russian) -> None:
    game = {"game": "g1", "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}], "ended": True}
    assert games_table.winner_text(game) == "ничья"
    frame, config = games_table.games_frame([game])
    assert list(frame["ended"]) == [i18n._("ended")] != ["ended"]  # the frame keeps its columns' names
    assert dispute_ui.ruling_missing("", "") == "Для решения нужны имя судьи и текст решения: ничего не записано."
    assert texts()["play"] == "Пуск" and texts()["side"] == "вид со стороны: {side}"


def test_english_is_unchanged_when_nobody_chose() -> None:
    assert i18n.current() == "en"
    assert "seq 4" in stepper.caption(ROW, EVENT, [], "g1") and "turn 2" in stepper.caption(ROW, EVENT, [], "g1")
    assert params.whole("abc", "an event number")[1] == "`abc` is not an event number (a whole number)."
    assert session._sign_in_words("judge", "record a ruling", None, None) == \
        "Sign in with a judge's key in the sidebar to record a ruling."
    assert dispute_ui.ruling_missing("", "") == "A ruling needs the judge's name and the ruling's text: nothing was " \
        "recorded."
