"""Take-backs and rewinds (domain/corrections.py): appended events after which the game goes on from the
state before the events they took back, checked against that state; F12 and F13 when they cannot be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import Rollcall
from domain.errors import MalformedRecord, RecordError, RuleViolation
from domain.game import fold
from rulecheck import refused_and_marked

GAMES = Path(__file__).resolve().parents[1] / "games"
EX1 = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
T9A = GAMES / "t9a-eight-flux-cards.rollcall.jsonl"
GAME = "seed004-ex1"
STEP = {"type": "ModelMoved", "model": "faceless", "action": "step", "path": [[5, 6]]}
WRONG_STEP = {"type": "ModelMoved", "model": "faceless", "action": "step", "path": [[1, 4]]}


def record_lines(path: Path) -> tuple[str, list[dict]]:
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    events = [{k: v for k, v in json.loads(x).items() if k not in ("hash", "seq")} for x in lines[1:]]
    return lines[0], events


def shifted(events: list[dict], by: int) -> list[dict]:
    """The events recorded ``by`` seqs later: the rolls they use are that much later too."""
    return [{**e, **{k: e[k] + by for k in ("roll", "dodge") if k in e}} for e in events]


def started(app: Rollcall, path: Path = EX1, events: int = 3) -> tuple[str, list[dict]]:
    header, played = record_lines(path)
    app.import_record([header, *map(json.dumps, played[:events])], str(path))
    return json.loads(header)["game"], played


def state_of(app: Rollcall, game: str = GAME) -> dict:
    return {k: v for k, v in app.get_game(game).state.to_json().items() if k != "seq"}


def test_a_mis_tapped_move_taken_back_leaves_the_game_as_if_it_never_happened(app: Rollcall, tmp_path: Path) -> None:
    game, played = started(app)
    app.record(game, WRONG_STEP)
    taken = app.record(game, {"type": "TakenBack", "from": 4})
    assert taken["taken_back"] == [4] and taken["seq"] == 5
    for event in shifted(played[3:], 2):
        app.record(game, event)
    corrected = state_of(app)

    clean = Rollcall.open(tmp_path / "clean")
    header, _ = record_lines(EX1)
    clean.import_record([header, *map(json.dumps, played)], str(EX1))
    assert corrected == state_of(clean)


def test_what_follows_a_take_back_is_checked_against_the_state_before_it(app: Rollcall) -> None:
    game, _ = started(app)
    app.record(game, STEP)  # the Faceless shoves the Swordsman: an ejection is due
    app.record(game, {"type": "TakenBack", "from": 4})
    assert app.get_game(game).state.pending == []
    with pytest.raises(RuleViolation) as info:  # the roll and ejection belonged to the move taken back
        app.record(game, {"type": "ModelEjected", "model": "swordsman", "by": "faceless", "to": [7, 5]})
    assert info.value.rule in ("F01", "R50")


def test_a_take_back_takes_back_every_event_in_play_from_its_seq(app: Rollcall) -> None:
    game, played = started(app, events=6)
    app.record(game, {"type": "Noted", "text": "the Swordsman's player is unsure"})
    taken = app.record(game, {"type": "TakenBack", "from": 4})
    assert taken["taken_back"] == [4, 5, 6]  # the note stays: notes are no play
    state = app.get_game(game).state
    assert state.models["faceless"].at == [(3, 5)] and state.models["swordsman"].at == [(6, 6)]
    assert 5 not in state.rolls


def test_a_take_back_stops_at_a_judges_event(app: Rollcall) -> None:
    game, _ = started(app)
    app.record(game, WRONG_STEP)
    app.open_dispute(game, "p1", [4], "the Faceless went the wrong way")
    with pytest.raises(RuleViolation) as info:
        app.record(game, {"type": "TakenBack", "from": 4})
    assert info.value.rule == "F12" and "DisputeOpened at seq 5" in info.value.message
    assert app.get_game(game).state.seq == 5  # nothing stored


def test_nothing_left_to_take_back_is_refused(app: Rollcall) -> None:
    game, _ = started(app)
    app.record(game, WRONG_STEP)
    app.record(game, {"type": "TakenBack", "from": 4})
    with pytest.raises(RuleViolation) as info:
        app.record(game, {"type": "TakenBack", "from": 4})
    assert info.value.rule == "F12" and "nothing to take back" in info.value.message
    with pytest.raises(MalformedRecord) as bad:
        app.record(game, {"type": "TakenBack", "from": 99})
    assert bad.value.field == "from"


def test_a_sealed_game_takes_nothing_back(app: Rollcall) -> None:
    game, _ = started(app)
    app.record(game, {"type": "GameEnded", "score": {"p1": 0, "p2": 0}, "winner": None, "reason": "time called"})
    app.seal_game(game, ["p1", "p2"])
    with pytest.raises(RuleViolation) as info:
        app.record(game, {"type": "TakenBack", "from": 4})
    assert info.value.rule == "F04"


def test_the_end_of_a_game_may_be_taken_back_before_the_seal(app: Rollcall) -> None:
    game, _ = started(app)
    app.record(game, {"type": "GameEnded", "score": {"p1": 1, "p2": 0}, "winner": "p1", "reason": "time called"})
    app.record(game, {"type": "TakenBack", "from": 4})
    state = app.get_game(game).state
    assert not state.ended
    app.record(game, STEP)


def test_a_digital_roll_is_not_taken_back(app: Rollcall) -> None:
    header, played = record_lines(EX1)
    digital = {**json.loads(header), "dice_mode": "digital", "game": "digital-ex1", "hash": None}
    app.import_record([json.dumps(digital), *map(json.dumps, played[:4])], "digital")
    app.roll("digital-ex1", "p1", "dodge", "agility", 1)
    with pytest.raises(RuleViolation) as info:
        app.record("digital-ex1", {"type": "TakenBack", "from": 5})
    assert info.value.rule == "F12" and "digital roll" in info.value.message
    app.record("digital-ex1", {"type": "GameRewound", "to": 4, "judge": "Jules", "text": "the roll was for nothing"})


def test_a_judge_rewinds_a_game_to_any_seq_and_play_goes_on_from_there(app: Rollcall) -> None:
    game, played = started(app, events=7)
    app.open_dispute(game, "p1", [4], "the Faceless had activated already")
    rewound = app.record(game, {"type": "GameRewound", "to": 3, "judge": "Jules", "text": "replay from 3"})
    assert rewound["taken_back"] == [4, 5, 6, 7]
    state = app.get_game(game).state
    assert state.seq == 9 and state.activation is not None  # the Faceless's activation is open again
    assert state.models["swordsman"].at == [(6, 6)]
    for event in shifted(played[3:], 6):
        app.record(game, event)
    assert app.get_game(game).state.models["swordsman"].at == [(7, 5)]


def test_a_rewind_to_the_setup_takes_back_everything(app: Rollcall) -> None:
    game, _ = started(app, events=7)
    app.record(game, {"type": "GameRewound", "to": 0, "judge": "Jules", "text": "start again"})
    state = app.get_game(game).state
    assert state.turn == 0 and state.phase is None


def test_a_rewind_past_a_digital_games_end_is_refused(app: Rollcall) -> None:
    header, played = record_lines(EX1)
    digital = {**json.loads(header), "dice_mode": "digital", "game": "digital-end", "hash": None}
    app.import_record([json.dumps(digital), *map(json.dumps, played[:3])], "digital")
    app.record("digital-end", {"type": "GameEnded", "score": {"p1": 0, "p2": 0}, "winner": None, "reason": "time called"})
    with pytest.raises(RuleViolation) as info:
        app.record("digital-end", {"type": "GameRewound", "to": 3, "judge": "Jules", "text": "again"})
    assert info.value.rule == "F13" and "seed public" in info.value.message


def test_a_rewind_needs_a_judges_key_and_a_take_back_any_key(app: Rollcall) -> None:
    from domain.access import AccessDenied

    organiser = app.add_key("organiser", "Olga")
    app.key = organiser
    scorekeeper = app.add_key("scorekeeper", "Sam")
    judge = app.add_key("judge", "Jules")
    app.key = scorekeeper
    game, _ = started(app)
    app.record(game, WRONG_STEP)
    with pytest.raises(AccessDenied):
        app.record(game, {"type": "GameRewound", "to": 3, "judge": "Sam", "text": "x"})
    assert app.record(game, {"type": "TakenBack", "from": 4})["taken_back"] == [4]
    app.key = judge
    app.record(game, STEP)
    assert app.record(game, {"type": "GameRewound", "to": 3, "judge": "Jules", "text": "x"})["taken_back"] == [6]


def test_a_ruling_cannot_void_a_correction_or_what_was_taken_back(app: Rollcall) -> None:
    game, _ = started(app)
    app.record(game, WRONG_STEP)
    app.record(game, {"type": "TakenBack", "from": 4})
    for about in ([4], [5]):
        with pytest.raises(MalformedRecord):
            app.make_ruling(game, "Jules", about, "void", "no")


def test_a_void_after_a_take_back_leaves_the_taken_back_events_out(app: Rollcall) -> None:
    game, played = started(app, events=3)
    app.record(game, WRONG_STEP)
    app.record(game, {"type": "TakenBack", "from": 4})
    for event in shifted(played[3:], 2):
        app.record(game, event)  # seq 6 to 9: the step, the dodge, the ejection, the end of the activation
    app.make_ruling(game, "Jules", [9], "void", "the activation goes on")
    state = app.get_game(game).state
    assert state.activation is not None and state.models["swordsman"].at == [(7, 5)]


def test_the_as_played_and_as_ruled_folds_of_a_corrected_game(app: Rollcall) -> None:
    game, played = started(app)
    app.record(game, WRONG_STEP)
    app.record(game, {"type": "TakenBack", "from": 4})
    lines = app.stored_lines(game)
    header, events = lines[0], lines[1:]
    assert fold(header, events[:4]).models["faceless"].at == [(1, 4)]  # as played: the step happened
    assert fold(header, events).models["faceless"].at == [(3, 5)]  # then it was taken back
    assert fold(header, events, as_ruled=True).models["faceless"].at == [(3, 5)]
    assert fold(header, events[:4], as_ruled=False).seq == 4


def test_a_record_with_corrections_round_trips_and_verifies(app: Rollcall, tmp_path: Path) -> None:
    game, played = started(app)
    app.record(game, WRONG_STEP)
    app.record(game, {"type": "TakenBack", "from": 4})
    for event in shifted(played[3:], 2):
        app.record(game, event)
    app.record(game, {"type": "GameRewound", "to": 6, "judge": "Jules", "text": "replay the dodge"})
    exported = list(app.export_lines(game))
    assert app.verify(game).ok
    other = Rollcall.open(tmp_path / "other")
    other.import_record(exported, "exported")
    assert list(other.export_lines(game)) == exported


def test_a_record_whose_take_back_lists_other_seqs_is_refused(app: Rollcall) -> None:
    header, played = record_lines(EX1)
    lines = [header, *map(json.dumps, played[:3]), json.dumps(WRONG_STEP),
             json.dumps({"type": "TakenBack", "from": 4, "taken_back": [3, 4]})]
    refused_and_marked(app, lines, file="tb.rollcall.jsonl", game=GAME, line=6, event="TakenBack", rule="F12")


def test_a_record_taking_back_across_a_ruling_is_refused(app: Rollcall) -> None:
    header, played = record_lines(EX1)
    lines = [header, *map(json.dumps, played[:3]), json.dumps(WRONG_STEP),
             json.dumps({"type": "RulingMade", "judge": "Jules", "about": [4], "decision": "stands", "text": "ok"}),
             json.dumps({"type": "TakenBack", "from": 4})]
    refused_and_marked(app, lines, file="tb.rollcall.jsonl", game=GAME, line=7, event="TakenBack", rule="F12",
                       names=("RulingMade at seq 5",))


def test_a_magic_phase_taken_back_offers_its_roll_again(app: Rollcall) -> None:
    game, played = started(app, T9A, events=5)  # ... the casting roll at seq 5
    app.record(game, played[5])  # the cast at seq 6
    app.record(game, {"type": "TakenBack", "from": 6})
    state = app.get_game(game).state
    offered = app.get_game(game).system.legal_actions(state)
    assert any(a.event.get("type") == "CastingAttempted" and a.event.get("roll") == 5 for a in offered)


def test_an_import_refusal_names_the_file_line_and_rule(app: Rollcall) -> None:
    header, played = record_lines(EX1)
    with pytest.raises(RecordError) as info:
        app.import_record([header, json.dumps({"type": "TakenBack", "from": 1})], "early.rollcall.jsonl")
    assert str(info.value).startswith("early.rollcall.jsonl:2 (TakenBack):")
