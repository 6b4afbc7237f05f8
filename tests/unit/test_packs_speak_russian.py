"""The rules packs refuse in the language chosen: a refusal of The 9th Age, Claustrophobia and Tornscape reads
Russian, in the rule texts' own terms, with its rule id kept first; in English (nobody chose) it is as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

import i18n
from domain.errors import RecordError, RuleViolation
from service.application import Rollcall

FILE = "game.rollcall.jsonl"
PLAYERS = [{"id": "p1", "name": "Anna", "faction": "a"}, {"id": "p2", "name": "Boris", "faction": "b"}]


@pytest.fixture
def russian():
    """Russian for one test, and English again after it."""
    token = i18n._language.set(i18n.SOURCE)
    i18n.use("ru")
    yield
    i18n._language.reset(token)


def record(system: str, setup: dict, *events: dict) -> list[str]:
    head = {"rollcall": 1, "system": system, "game": "g", "players": PLAYERS, "rules": {}, "setup": setup}
    return [json.dumps(line) for line in (head, *events)]


def refusal(app: Rollcall, lines: list[str]) -> RuleViolation:
    """The rule a strict import of ``lines`` breaks."""
    with pytest.raises(RecordError) as info:
        app.import_record(lines, FILE)
    assert isinstance(info.value.cause, RuleViolation), info.value
    return info.value.cause


def ev(kind: str, **fields: Any) -> dict:
    return {"type": kind, **fields}


def a_fleeing_wizard_casts() -> list[str]:
    """The 9th Age: fleeing w3 tries to cast (R91)."""
    setup = {"spells": [{"id": "heal", "name": "Heal", "path": "druidism", "kind": "normal", "casting_value": 6}],
             "wizards": [{"id": "w1", "player": "p1", "spells": ["heal"]},
                         {"id": "w3", "player": "p1", "spells": ["heal"], "fleeing": True}],
             "channel": {"p1": 0, "p2": 0}}
    return record("t9a", setup, ev("TurnStarted", turn=1), ev("MagicPhaseStarted", active="p1"),
                  ev("FluxCardDrawn", card="5"), ev("VeilSiphoned", converted_dice=3),
                  ev("DiceRolled", player="p1", purpose="casting", die="d6", faces=[3, 4]),
                  ev("CastingAttempted", wizard="w3", spell="heal", dice=2, roll=5))


def the_other_player_rolls_the_action_dice() -> list[str]:
    """Claustrophobia: p2 rolls the action dice of p1, the human player (R98)."""
    setup = {"human": "p1", "warriors": [{"id": "blade", "kind": "blade_for_hire",
                                          "lines": {"2": {"mvt": 1, "cbt": 2, "def": 4}}}]}
    return record("claustrophobia", setup, ev("TurnStarted", turn=1), ev("PhaseStarted", phase="initiative"),
                  ev("DiceRolled", player="p2", purpose="initiative", die="d6", faces=[2]))


def two_steps_in_one_activation() -> list[str]:
    """Tornscape: model a makes a second step action in its activation (R41)."""
    def infantry(mid: str, player: str, at: list[int]) -> dict:
        return {"id": mid, "player": player, "name": mid, "size": "infantry", "at": [at], "step": 3, "run": 5,
                "agility": 1}

    setup = {"board": {"width": 14, "height": 12}, "models": [infantry("a", "p1", [2, 2]),
                                                               infantry("b", "p2", [8, 8])]}
    return record("tornscape", setup, ev("TurnStarted", turn=1), ev("ActivationStarted", model="a"),
                  ev("ModelMoved", model="a", action="step", path=[[3, 2]]),
                  ev("ModelMoved", model="a", action="step", path=[[4, 2]]))


CASES = [
    ("t9a", a_fleeing_wizard_casts, "R91",
     "w3 is fleeing and may not cast", "маг w3 отступает и не может творить заклинания"),
    ("claustrophobia", the_other_player_rolls_the_action_dice, "R98",
     "the human player p1 rolls the action dice", "Кубики Действия бросает Игрок-Смертный p1"),
    ("tornscape", two_steps_in_one_activation, "R41",
     "a already made a step action in this activation", "a уже совершила Действие «Шаг» в эту Активацию"),
]


@pytest.mark.parametrize(("system", "lines", "rule", "english", "russian_text"), CASES, ids=[c[0] for c in CASES])
def test_a_refusal_reads_russian_with_its_rule_id_first(app: Rollcall, russian, system, lines, rule, english,
                                                        russian_text) -> None:
    refused = refusal(app, lines())
    assert refused.rule == rule
    assert str(refused) == f"{rule} {russian_text}"
    assert refused.message == russian_text


@pytest.mark.parametrize(("system", "lines", "rule", "english", "russian_text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_refusal_in_english_is_unchanged(app: Rollcall, system, lines, rule, english, russian_text) -> None:
    assert i18n.current() == "en"
    refused = refusal(app, lines())
    assert str(refused) == f"{rule} {english}"


def test_a_summary_and_an_action_label_read_russian_too(russian) -> None:
    from domain.systems import system_for

    pres = system_for("tornscape").presentation
    assert pres.summary({"type": "ModelMoved", "seq": 3, "model": "a", "action": "run", "path": [[3, 2], [4, 2]]}) \
        .startswith("a Бег → [4,2] (2 шага)")
    assert system_for("claustrophobia").presentation.summary(
        {"type": "LineLost", "seq": 4, "warrior": "blade", "line": 2}).endswith("теряет Линию 2")


@pytest.mark.parametrize(("system", "lines", "rule", "english", "russian_text"), CASES, ids=[c[0] for c in CASES])
def test_a_lenient_record_keeps_the_violation_in_english(app: Rollcall, russian, system, lines, rule, english,
                                                         russian_text) -> None:
    made = lines()
    imported = app.import_record(made, FILE, lenient=True)
    kept = [v for line in app.stored_lines(imported.game) for v in line.get("violations", [])]
    assert {"rule": rule, "message": english} in kept
