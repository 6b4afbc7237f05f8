"""Checks every record meets whatever its system: the end of a game (F09, F10), closed vocabularies with
their near misses, header field types, and the bounds of numbers (docs/format.md, Numbers; domain.limits).

A rule broken (F09, F10) is refused by a strict import and marked by a lenient one (rulecheck); a malformed
line (a typo, a wrong type, a number out of bounds, NaN) is refused in both modes, naming the line and the
field, and nothing is stored.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain import limits
from service.application import Rollcall
from domain.errors import MalformedRecord, RecordError
from rulecheck import refused_and_marked

FILE = "game.rollcall.jsonl"
GAME = "g"
PLAYERS = [{"id": "p1", "name": "Anna", "faction": "engeln"}, {"id": "p2", "name": "Boris", "faction": "castilla"}]


def model(mid: str, player: str, at: list, **extra: Any) -> dict:
    return {"id": mid, "player": player, "name": mid, "size": "infantry", "at": [at], "step": 3, "run": 5,
            "agility": 1, "explore": 1, "domains": ["creation"], **extra}


def tornscape(**setup: Any) -> dict:
    """Two infantry models on a 14×12 board, no vortex (a turn needs no Phase V)."""
    return {"rollcall": 1, "system": "tornscape", "game": GAME, "players": PLAYERS,
            "setup": {"board": {"width": 14, "height": 12},
                      "models": [model("a", "p1", [2, 2]), model("b", "p2", [8, 9])], **setup}}


def t9a(**spell: Any) -> dict:
    fireball = {"id": "fireball", "name": "Fireball", "path": "pyromancy", "kind": "normal", "casting_value": 7,
                **spell}
    return {"rollcall": 1, "system": "t9a", "game": GAME, "players": PLAYERS,
            "setup": {"spells": [fireball], "wizards": [{"id": "w1", "player": "p1", "spells": ["fireball"]}]}}


def ev(event_type: str, **fields: Any) -> dict:
    return {"type": event_type, **fields}


def lines_of(head: dict, *events: dict) -> list[str]:
    return [json.dumps(head)] + [json.dumps(e) for e in events]


def the_end(p1: int, p2: int, winner: str | None) -> dict:
    return ev("GameEnded", score={"p1": p1, "p2": p2}, winner=winner, reason="time")


def broken(app: Rollcall, lines: list[str], *, line: int, event: str | None, rule: str, names: tuple = ()) -> str:
    return refused_and_marked(app, lines, file=FILE, game=GAME, line=line, event=event, rule=rule, names=names)


def accepted(app: Rollcall, lines: list[str]):
    imported = app.import_record(lines, FILE)
    assert imported.violations == 0
    return app.get_game(imported.game)


def refused(app: Rollcall, lines: list[str], *, line: int, event: str | None, says: tuple) -> str:
    """Malformed: refused in strict AND lenient mode, at ``line``, saying each of ``says``; nothing stored."""
    for lenient in (False, True):
        with pytest.raises(RecordError) as info:
            app.import_record(lines, FILE, lenient=lenient)
        message = str(info.value)
        where = f"{FILE}:{line} ({event}): " if event else f"{FILE}:{line}: "
        assert message.startswith(where), message
        for text in says:
            assert text in message, f"{text!r} not in: {message}"
        assert app.exists(GAME) is False
    return message


# --- F09: the winner agrees with the score --------------------------------------------------------------

def test_the_higher_score_wins_F09(app: Rollcall) -> None:
    broken(app, lines_of(tornscape(), the_end(3, 7, "p1")), line=2, event="GameEnded", rule="F09",
           names=("p1 3, p2 7", "the winner is p2", "not p1"))


def test_equal_scores_are_a_draw_without_a_winner_F09(app: Rollcall) -> None:
    broken(app, lines_of(tornscape(), the_end(5, 5, "p2")), line=2, event="GameEnded", rule="F09",
           names=("draw", "not p2"))


def test_a_winner_is_named_when_the_scores_differ_F09(app: Rollcall) -> None:
    broken(app, lines_of(tornscape(), the_end(5, 4, None)), line=2, event="GameEnded", rule="F09",
           names=("the winner is p1", "not null"))


@pytest.mark.parametrize(("p1", "p2", "winner"), [(7, 3, "p1"), (0, 2, "p2"), (4, 4, None), (-1, -3, "p1")])
def test_the_winner_of_the_score_is_accepted_F09(app: Rollcall, p1: int, p2: int, winner: str | None) -> None:
    assert accepted(app, lines_of(tornscape(), the_end(p1, p2, winner))).state.ended


# --- F10: after the end, only judges and the seal ------------------------------------------------------

@pytest.mark.parametrize("after", [ev("TurnStarted", turn=1), ev("ActivationStarted", model="a"),
                                   ev("PointsScored", player="p1", points=1, reason="late")])
def test_play_after_the_end_is_refused_F10(app: Rollcall, after: dict) -> None:
    broken(app, lines_of(tornscape(), the_end(0, 0, None), after), line=3, event=after["type"], rule="F10",
           names=("the game has ended", after["type"]))


def test_judges_and_the_seal_follow_the_end_F10(app: Rollcall) -> None:
    game = accepted(app, lines_of(tornscape(), the_end(0, 0, None), ev("Noted", text="well played"),
                                  ev("DisputeOpened", by="p2", about=[1], claim="the score"),
                                  ev("RulingMade", judge="J", about=[1], decision="stands", text="it stands"),
                                  ev("GameSealed", confirmed_by=["p1", "p2"])))
    assert game.state.sealed


def test_a_second_end_is_still_F04(app: Rollcall) -> None:
    broken(app, lines_of(tornscape(), the_end(0, 0, None), the_end(0, 0, None)), line=3, event="GameEnded",
           rule="F04", names=("already ended",))


# --- phases: any name, but no near miss of the system's own ---------------------------------------------

def test_a_near_miss_of_a_phase_is_refused_with_the_phase_meant(app: Rollcall) -> None:
    lines = lines_of(tornscape(), ev("TurnStarted", turn=1), ev("PhaseStarted", phase="vortex_movment"))
    refused(app, lines, line=3, event="PhaseStarted", says=("vortex_movment", "did you mean `vortex_movement`?"))


def test_a_phase_of_another_name_carries_no_rules(app: Rollcall) -> None:
    game = accepted(app, lines_of(tornscape(), ev("TurnStarted", turn=1), ev("PhaseStarted", phase="shooting"),
                                  ev("PhaseStarted", phase="action")))
    assert game.state.phase == "action"


def test_a_near_miss_of_a_claustrophobia_phase_is_refused(app: Rollcall) -> None:
    head = {"rollcall": 1, "system": "claustrophobia", "game": GAME, "players": PLAYERS,
            "setup": {"human": "p1", "warriors": [{"id": "redeemer", "lines": {"5": {"mvt": 1, "cbt": 1, "def": 5}}}]}}
    refused(app, lines_of(head, ev("TurnStarted", turn=1), ev("PhaseStarted", phase="Initative")), line=3,
            event="PhaseStarted", says=("did you mean `initiative`?",))


# --- closed vocabularies: the list and the near miss -----------------------------------------------------

@pytest.mark.parametrize(("event", "says"), [
    (ev("DiceRolled", player="p1", purpose="stabilization", die="attack", faces=["crit"]),
     ("field `purpose` must be one of", "dodge, stabilisation", "did you mean `stabilisation`?")),
    (ev("DiceRolled", player="p1", purpose="attack", die="atack", faces=["crit"]),
     ("unknown die 'atack'", "did you mean `attack`?")),
    (ev("RulingMade", judge="J", about=[1], decision="viod", text="x"), ("stands, void", "did you mean `void`?")),
    (ev("DomainChosen", model="a", domain="creaton"), ("creation, destruction", "did you mean `creation`?")),
    (ev("EtherConverted", player="p1", amount=1, domain="lfe"), ("did you mean `life`?",)),
    (ev("ModelMoved", model="a", action="stp", path=[[3, 2]]), ("did you mean `step`?",)),
    (ev("ActivationStarted", model="A"), ("no model 'A'", "did you mean `a`?")),
])
def test_a_value_outside_a_closed_vocabulary_names_the_list_and_the_near_miss(app: Rollcall, event: dict,
                                                                                says: tuple) -> None:
    refused(app, lines_of(tornscape(), ev("TurnStarted", turn=1), event), line=3, event=event["type"], says=says)


def test_an_effect_outside_its_vocabulary_names_the_near_miss(app: Rollcall) -> None:
    lines = lines_of(tornscape(), ev("PhenomenonDrawn", card="air_vortex", effect="postive"))
    refused(app, lines, line=2, event="PhenomenonDrawn", says=("positive, negative", "did you mean `positive`?"))


@pytest.mark.parametrize(("setup", "says"), [
    ({"terrain": [{"id": "r", "kind": "sold", "hexes": [[5, 5]]}]}, ("setup.terrain[0].kind", "did you mean `solid`?")),
    ({"markers": [{"id": "k", "kind": "portabel", "at": [5, 5]}]}, ("did you mean `portable`?",)),
    ({"models": [model("a", "p1", [2, 2], size="infantri")]}, ("setup.models[0].size", "did you mean `infantry`?")),
    ({"models": [model("a", "p1", [2, 2], domains=["lfe"])]}, ("setup.models[0].domains", "did you mean `life`?")),
])
def test_a_setup_value_outside_its_vocabulary_is_refused(app: Rollcall, setup: dict, says: tuple) -> None:
    refused(app, lines_of(tornscape(**setup)), line=1, event=None, says=says)


def test_a_spell_kind_outside_its_vocabulary_is_refused(app: Rollcall) -> None:
    refused(app, lines_of(t9a(kind="bund")), line=1, event=None,
            says=("setup.spells[0].kind", "normal, bound", "did you mean `bound`?"))


@pytest.mark.parametrize(("head", "says"), [
    ({"system": "tornscap"}, ("unknown system", "did you mean `tornscape`?")),
    ({"dice_mode": "digitl"}, ("physical, digital", "did you mean `digital`?")),
])
def test_a_header_value_outside_its_vocabulary_is_refused(app: Rollcall, head: dict, says: tuple) -> None:
    refused(app, [json.dumps({**tornscape(), **head})], line=1, event=None, says=says)


# --- unknown fields: refused, with the field meant when it is a near miss -------------------------------

def test_an_unknown_event_field_names_the_field_meant(app: Rollcall) -> None:
    lines = lines_of(tornscape(), ev("TurnStarted", turn=1), ev("ActivationStarted", modle="a", model="a"))
    refused(app, lines, line=3, event="ActivationStarted", says=("unknown field `modle`", "did you mean `model`?"))


def test_an_unknown_header_field_names_the_field_meant(app: Rollcall) -> None:
    refused(app, [json.dumps({**tornscape(), "tournamnet": "Open"})], line=1, event=None,
            says=("unknown header field `tournamnet`", "did you mean `tournament`?"))


@pytest.mark.parametrize(("setup", "says"), [
    ({"models": [model("a", "p1", [2, 2], agilty=2)]}, ("setup.models[0].agilty", "did you mean `agility`?")),
    ({"vortice": []}, ("setup.vortice", "did you mean `vortices`?")),
    ({"board": {"width": 14, "height": 12}, "terrain": [{"id": "r", "kind": "solid", "hexs": [[5, 5]]}]},
     ("setup.terrain[0].hexs", "did you mean `hexes`?")),
])
def test_a_near_miss_of_a_setup_field_is_refused(app: Rollcall, setup: dict, says: tuple) -> None:
    refused(app, lines_of(tornscape(**setup)), line=1, event=None, says=says)


def test_extensions_keep_their_prefix_and_pass(app: Rollcall) -> None:
    head = {**tornscape(), "x_venue": "Hall B"}
    head["setup"]["models"][0]["x_paint"] = "blue"
    game = accepted(app, lines_of(head, ev("TurnStarted", turn=1, x_clock=12.5)))
    assert game.header["x_venue"] == "Hall B"


# --- header fields have their types --------------------------------------------------------------------

@pytest.mark.parametrize("version", [True, 1.0, "1", 2])
def test_the_format_version_is_the_integer_1(app: Rollcall, version: Any) -> None:
    refused(app, [json.dumps({**tornscape(), "rollcall": version})], line=1, event=None,
            says=("field `rollcall` must be 1",))


@pytest.mark.parametrize(("name", "value", "says"), [
    ("round", 0, "field `round` must be an integer from 1"), ("round", "2", "field `round` must be an integer"),
    ("table", -1, "field `table` must be an integer from 1"), ("table", True, "field `table` must be an integer"),
    ("tournament", 5, "field `tournament` must be a string"), ("game", ["g"], "field `game` must be a string"),
    ("started", 20261128, "field `started` must be a string"),
])
def test_header_fields_have_their_types(app: Rollcall, name: str, value: Any, says: str) -> None:
    refused(app, [json.dumps({**tornscape(), name: value})], line=1, event=None, says=(says,))


@pytest.mark.parametrize(("name", "value"), [("name", 7), ("faction", ["engeln"])])
def test_a_players_name_and_faction_are_strings(app: Rollcall, name: str, value: Any) -> None:
    head = tornscape()
    head["players"] = [{**PLAYERS[0], name: value}, PLAYERS[1]]
    refused(app, [json.dumps(head)], line=1, event=None, says=(f"field `players[0].{name}` must be a string",))


# --- numbers: finite, within their bounds ---------------------------------------------------------------

@pytest.mark.parametrize(("number", "token"), [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"),
                                               ("1e999", "1e999")])
def test_nan_and_infinity_are_refused_in_an_event(app: Rollcall, number: str, token: str) -> None:
    lines = lines_of(tornscape(), ev("TurnStarted", turn=1))
    lines[1] = lines[1].replace('"turn"', f'"x_clock": {number}, "turn"')
    refused(app, lines, line=2, event=None, says=("not valid JSON", f"{token} is not a finite JSON number"))


def test_nan_is_refused_in_the_header(app: Rollcall) -> None:
    lines = lines_of(tornscape())
    lines[0] = lines[0].replace('"rollcall": 1', '"rollcall": 1, "x_ratio": NaN')
    refused(app, lines, line=1, event=None, says=("NaN is not a finite JSON number",))


def test_nan_given_to_the_aggregate_is_refused_naming_the_field(app: Rollcall) -> None:
    game = app.check(header=tornscape()).game
    with pytest.raises(MalformedRecord, match="field `x_clock` must be a finite number"):
        game.record(ev("TurnStarted", turn=1, x_clock=float("nan")))
    with pytest.raises(RecordError, match=r"field `x_ratio` must be a finite number"):
        app.check(header={**tornscape(), "game": "h", "x_ratio": float("inf")})


@pytest.mark.parametrize(("head", "says"), [
    (t9a(casting_value=10**24), "field `setup.spells[0].casting_value` must be an integer from -2^53 to 2^53"),
    (t9a(casting_value=101), "field `setup.spells[0].casting_value` must be an integer from 0 to 100"),
    (t9a(boosted_value=-1), "field `setup.spells[0].boosted_value` must be an integer from 0 to 100"),
    (tornscape(board={"width": 10**9, "height": 12}), "field `setup.board.width` must be an integer from 1 to 200"),
    (tornscape(vortices=[{"id": "v1", "at": [5, 6], "facing": 0, "ether": -5}]),
     "field `setup.vortices[0].ether` must be an integer from 0 to 1000000"),
    (tornscape(models=[model("a", "p1", [2, 2], agility=31)]),
     "field `setup.models[0].agility` must be an integer from 0 to 30"),
    (tornscape(models=[model("a", "p1", [2, 2], run=2**40)]),
     "field `setup.models[0].run` must be an integer from 0 to 100"),
    ({**tornscape(), "round": 2**60}, "field `round` must be an integer from 1 to 2^53"),
    ({**tornscape(), "x_big": 2**63}, "field `x_big` must be an integer from -2^53 to 2^53"),
    ({**tornscape(), "rules": {"dice": {"attack": {"crit": 10**6, "success": 3, "blank": 2}}}},
     "field `rules.dice.attack.crit` must be an integer from -1000 to 1000"),
    ({**tornscape(), "rules": {"dice": {"attack": {"crit": 0, "success": 3, "blank": 2}}}},
     "field `rules.dice.attack.crit` must be an integer from 1 to 100"),
    ({**tornscape(), "rules": {"dice": {"attack": {f"f{i}": 100 for i in range(3)}}}},
     "a die has at most 256 faces"),
])
def test_a_number_out_of_its_bounds_is_refused_on_the_header_naming_it(app: Rollcall, head: dict, says: str) -> None:
    refused(app, [json.dumps(head)], line=1, event=None, says=(says,))


@pytest.mark.parametrize(("event", "says"), [
    (the_end(2**63, 0, "p1"), "field `score.p1` must be an integer from -1000000000 to 1000000000"),
    (ev("PointsScored", player="p1", points=2**60, reason="x"), "field `points` must be an integer from -1000000"),
    (ev("TurnStarted", turn=2**53 + 1), "field `turn` must be an integer from -2^53 to 2^53"),
    (ev("DiceRolled", player="p1", purpose="attack", die="attack", faces=["crit"] * (limits.DICE + 1)),
     f"field `faces` must list from 1 to {limits.DICE} faces"),
    (ev("EtherConverted", player="p1", amount=10**7, domain="life"), "field `amount` must be an integer"),
])
def test_a_number_out_of_its_bounds_is_refused_on_an_event_naming_it(app: Rollcall, event: dict, says: str) -> None:
    refused(app, lines_of(tornscape(), event), line=2, event=event["type"], says=(says,))


@pytest.mark.parametrize(("event", "says"), [
    (ev("CastingAttempted", wizard="w1", spell="fireball", dice=10**24, roll=3),
     "field `dice` must be an integer from 0 to 30"),
    (ev("CastingAttempted", wizard="w1", spell="fireball", dice=2, roll=3, modifier=2**31),
     "field `modifier` must be an integer from -100 to 100"),
    (ev("VeilSiphoned", converted_dice=40), "field `converted_dice` must be an integer from 0 to 30"),
])
def test_a_number_out_of_its_bounds_is_refused_on_a_magic_event(app: Rollcall, event: dict, says: str) -> None:
    refused(app, lines_of(t9a(), ev("TurnStarted", turn=1), event), line=3, event=event["type"], says=(says,))


def test_numbers_at_their_bounds_are_accepted(app: Rollcall) -> None:
    head = tornscape(board={"width": limits.BOARD_SIDE, "height": limits.BOARD_SIDE})
    head["setup"]["models"][0].update(agility=limits.DICE, run=limits.STAT)
    game = accepted(app, lines_of(head, ev("PointsScored", player="p1", points=limits.COUNT, reason="max"),
                                  ev("DiceRolled", player="p1", purpose="attack", die="attack",
                                     faces=["blank"] * limits.DICE),
                                  the_end(limits.SCORE, -limits.SCORE, "p1")))
    assert game.state.scores["p1"] == limits.COUNT


@pytest.mark.parametrize("event", [{"type": "Noted", "text": "x" * 10_001},
                                   {"type": "TurnStarted", "turn": 1, "note": "x" * 20_000_000}])
def test_a_text_longer_than_ten_thousand_characters_is_refused_naming_its_field(app, event) -> None:
    from domain.errors import RecordError

    header = {"rollcall": 1, "system": "tornscape", "game": "long-text", "players": [{"id": "p1"}, {"id": "p2"}],
              "setup": {"board": {"width": 6, "height": 6}}}
    with pytest.raises(RecordError) as refused:
        app.import_record([json.dumps(header), json.dumps(event)], "long.rollcall.jsonl")
    name = "text" if "text" in event else "note"
    assert f"field `{name}` holds" in str(refused.value) and "at most 10,000" in str(refused.value)
    assert len(str(refused.value)) < 300 and not app.exists("long-text")
    ok = {**event, "text": "x" * 10_000} if "text" in event else {**event, "note": "x" * 10_000}
    assert app.import_record([json.dumps(header), json.dumps(ok)], "ok.rollcall.jsonl").violations == 0
