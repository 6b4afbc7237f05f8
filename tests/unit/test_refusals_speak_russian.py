"""The record format's and the shared rules pack's refusals speak the reader's language: Russian words once
someone chose Russian, with the rule id first and the field names in backticks as they are; English (the
source, word for word) when nobody chose."""

from __future__ import annotations

import re
from uuid import uuid4

import pytest

import i18n
from domain.errors import MalformedRecord, RuleViolation, StoreFault
from domain.game import Game
from domain.header import normalise_header
from domain.record import LocatedError, parse_line
from mutants import golden

GAME = "double-entry-resolved-once"  # a golden Tornscape record


@pytest.fixture
def russian():
    """Russian spoken for the test, the language put back after it."""
    token = i18n._language.set("en")
    i18n.use("ru")
    yield
    i18n._language.reset(token)


def header() -> dict:
    return golden(GAME)[0]


def refused_line(text: str) -> str:
    with pytest.raises(LocatedError) as info:
        parse_line(3, text)
    assert info.value.line == 3
    return str(info.value.error)


def header_refusal(**given) -> MalformedRecord:
    with pytest.raises(MalformedRecord) as info:
        normalise_header({**header(), **given})
    return info.value


def turn_refusal() -> RuleViolation:
    """A turn that skips one: F02, a rule every system shares (domain.systems.pack)."""
    game = Game.start(header(), id=uuid4())
    with pytest.raises(RuleViolation) as info:
        game.record({"type": "TurnStarted", "turn": 2})
    return info.value


def test_a_line_that_is_not_json_is_refused_in_russian(russian) -> None:
    message = refused_line('{"type": "TurnStarted", "turn": }')
    assert message == "неверный JSON: ожидалось значение в столбце 33"


def test_an_unknown_field_of_an_event_is_refused_in_russian_naming_the_field_and_the_near_miss(russian) -> None:
    game = Game.start(header(), id=uuid4())
    with pytest.raises(MalformedRecord) as info:
        game.record({"type": "TurnStarted", "turn": 1, "tunr": 1})
    refusal = info.value
    assert refusal.field == "tunr"
    assert str(refusal).startswith("неизвестное поле `tunr` (может быть, `turn`?)")
    assert "(расширения должны начинаться с `x_`)" in str(refusal)


def test_a_header_refusal_is_in_russian_and_keeps_the_field(russian) -> None:
    refusal = header_refusal(playres=[])
    assert refusal.field == "playres"
    assert str(refusal) == "неизвестное поле заголовка `playres` (может быть, `players`?)"
    typed = header_refusal(rollcall=2)
    assert str(typed) == "поле `rollcall` должно быть 1 (версия формата, целое число), а не 2"


def test_a_shared_rule_is_refused_in_russian_with_its_rule_id_first(russian) -> None:
    refusal = turn_refusal()
    assert refusal.rule == "F02"
    assert str(refusal) == "F02 ход 2 идёт после хода 0; ходы идут 1, 2, 3…"
    assert refusal.message == "ход 2 идёт после хода 0; ходы идут 1, 2, 3…"
    assert refusal.as_dict()["message"].endswith("1, 2, 3…") and not re.search("[а-яё]", refusal.as_dict()["message"])


def test_a_refusal_crosses_processes_in_the_words_it_was_made_in(russian) -> None:
    import pickle

    refusal = turn_refusal()
    assert str(pickle.loads(pickle.dumps(refusal))) == str(refusal)


def test_the_store_speaks_russian_too(russian) -> None:
    assert str(StoreFault(StoreFault.BUSY)) == ("хранилище событий занято: другой пишущий держал его слишком долго; "
                                                "ничего не сохранено")


def test_nobody_choosing_means_the_english_words_as_before() -> None:
    assert i18n.current() == "en"
    assert refused_line('{"type": "TurnStarted", "turn": }') == "not valid JSON: Expecting value at column 33"
    assert str(header_refusal(playres=[])) == "unknown header field `playres` (did you mean `players`?)"
    assert str(turn_refusal()) == "F02 turn 2 follows turn 0; turns count 1, 2, 3…"
    assert str(StoreFault(StoreFault.FULL)) == "the event store is full: its disk has no room left; nothing was stored"
    game = Game.start(header(), id=uuid4())
    with pytest.raises(MalformedRecord) as info:
        game.record({"type": "TurnStarted", "turn": 1, "tunr": 1})
    assert str(info.value) == "unknown field `tunr` (did you mean `turn`?) (extensions must start with `x_`)"


def test_a_lenient_record_keeps_its_violations_in_english_whoever_reads_russian(russian) -> None:
    game = Game.start(header(), id=uuid4())
    event = game.record({"type": "TurnStarted", "turn": 2}, strict=False)
    [kept] = event["violations"]
    assert kept["rule"] == "F02" and not re.search("[а-яё]", kept["message"], re.I)
    english_game = Game.start(header(), id=uuid4())
    i18n.use("en")
    assert english_game.record({"type": "TurnStarted", "turn": 2}, strict=False)["violations"] == [kept]
    i18n.use("ru")
    assert re.search("[а-яё]", turn_refusal().message)  # the person recording still reads Russian
