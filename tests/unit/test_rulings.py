"""Disputes and rulings: a void leaves events out of the as-ruled game, never out of the record, and is
refused when what remains would break a rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import Rollcall
from domain.errors import MalformedRecord, RuleViolation
from domain.game import fold
from domain.rulings import as_ruled, voided_seqs

GAMES = Path(__file__).resolve().parents[1] / "games"
# Seed 004, example 1: seq 4 the Faceless steps onto the Swordsman, 5 the dodge roll, 6 the ejection,
# 7 the activation ends.
EX1 = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"


@pytest.fixture
def game(app: Rollcall) -> str:
    with open(EX1, encoding="utf-8") as handle:
        return app.import_record(handle, str(EX1)).game


def at(state, model: str) -> list:
    return [list(h) for h in state.models[model].at]


def setup_at(app: Rollcall, game: str, model: str) -> list:
    header = app.stored_lines(game)[0]
    return next(m["at"] for m in header["setup"]["models"] if m["id"] == model)


def test_voiding_a_move_whose_ejection_remains_is_refused_naming_the_rule(app: Rollcall, game: str) -> None:
    with pytest.raises(RuleViolation) as info:
        app.make_ruling(game, "Judge Dredd", [4], "void", "the step was not declared")
    assert info.value.rule == "F01"
    assert "seq 6 (ModelEjected)" in str(info.value)
    assert len(app.stored_lines(game)) == 8  # nothing written


def test_voiding_a_roll_that_a_later_event_uses_is_refused(app: Rollcall, game: str) -> None:
    with pytest.raises(RuleViolation) as info:
        app.make_ruling(game, "J", [5], "void", "rolled off the table")
    assert info.value.rule == "F08"
    assert "seq 6 (ModelEjected)" in str(info.value) and "voided" in str(info.value)


def test_voiding_an_ejection_the_activation_end_needs_is_refused(app: Rollcall, game: str) -> None:
    with pytest.raises(RuleViolation) as info:
        app.make_ruling(game, "J", [6], "void", "no")
    assert info.value.rule in ("R50", "R56", "R59", "R67", "F01")


def test_voiding_the_whole_shove_puts_both_models_back_in_the_as_ruled_game(app: Rollcall, game: str) -> None:
    played = at(app.get_game(game).state, "faceless")  # (the game read is the application's: it moves on)
    assert played != setup_at(app, game, "faceless")
    app.open_dispute(game, "p1", [4, 5, 6], "the Faceless had already activated")
    ruling = app.make_ruling(game, "J", [4, 5, 6], "void", "upheld: the activation is void")
    assert ruling["seq"] == 9 and "violations" not in ruling

    ruled = app.get_game(game).state  # the live game is the as-ruled game from the ruling on
    assert at(ruled, "faceless") == setup_at(app, game, "faceless")
    assert at(ruled, "swordsman") == setup_at(app, game, "swordsman")
    assert ruled.seq == 9 and ruled.voided == {4, 5, 6}
    assert [d["claim"] for d in ruled.disputes] == ["the Faceless had already activated"]

    lines = app.stored_lines(game)
    assert len(lines) == 10  # the record keeps every event
    as_played = fold(lines[0], lines[1:])
    assert at(as_played, "faceless") == played
    assert at(fold(lines[0], lines[1:], as_ruled=True), "swordsman") == setup_at(app, game, "swordsman")


def test_events_after_a_void_are_checked_against_the_as_ruled_game(app: Rollcall, game: str) -> None:
    from domain.systems.tornscape import hexes as hx

    played = tuple(app.get_game(game).state.models["swordsman"].at[0])  # where the ejection put it
    app.make_ruling(game, "J", [4, 5, 6], "void", "void")
    ruled = app.get_game(game).state
    start = tuple(setup_at(app, game, "swordsman")[0])
    # a hex next to the setup position but not next to where the as-played game has the swordsman
    target = next(h for h in hx.neighbours(start)
                  if ruled.is_free(h) and h != played and h not in hx.neighbours(played))
    app.record(game, {"type": "ActivationStarted", "model": "swordsman"})
    moved = app.record(game, {"type": "ModelMoved", "model": "swordsman", "action": "step", "path": [list(target)]})
    assert "violations" not in moved
    assert at(app.get_game(game).state, "swordsman") == [list(target)]


def test_a_ruling_that_stands_changes_nothing(app: Rollcall, game: str) -> None:
    before = app.get_game(game).state
    app.make_ruling(game, "J", [4], "stands", "the step was legal")
    after = app.get_game(game).state
    assert at(after, "faceless") == at(before, "faceless") and after.voided == set()


def test_judge_events_and_the_seal_cannot_be_voided(app: Rollcall, game: str) -> None:
    app.open_dispute(game, "p2", [6], "wrong hex")
    with pytest.raises(MalformedRecord, match="DisputeOpened"):
        app.make_ruling(game, "J", [8], "void", "x")
    with pytest.raises(MalformedRecord, match="not an earlier event"):
        app.make_ruling(game, "J", [42], "void", "x")


def test_a_dispute_is_opened_by_a_player_of_the_game(app: Rollcall, game: str) -> None:
    with pytest.raises(MalformedRecord, match="unknown player"):
        app.open_dispute(game, "p9", [4], "x")


def test_after_the_seal_only_judge_events_follow(app: Rollcall, game: str) -> None:
    app.seal_game(game, ["p1", "p2"])
    with pytest.raises(RuleViolation) as info:
        app.record(game, {"type": "ActivationStarted", "model": "swordsman"})
    assert info.value.rule == "F04"
    app.open_dispute(game, "p1", [6], "the Swordsman should have been placed at [3,6]")
    assert app.make_ruling(game, "J", [6], "stands", "the nearest free hex was chosen")["seq"] == 10


def test_a_record_with_rulings_round_trips_and_is_checked_again(app: Rollcall, game: str, tmp_path: Path) -> None:
    app.make_ruling(game, "J", [4, 5, 6], "void", "void")
    exported = list(app.export_lines(game))
    other = Rollcall.open(tmp_path / "other")
    other.import_record(exported, "exported")
    assert list(other.export_lines(game)) == exported
    assert other.get_game(game).state.voided == {4, 5, 6}

    # the same ruling voiding only the move is refused on import too
    tampered = [json.loads(line) for line in exported]
    tampered[-1]["about"] = [4]
    del tampered[-1]["hash"]
    third = Rollcall.open(tmp_path / "third")
    with pytest.raises(Exception) as info:
        third.import_record([json.dumps(t) for t in tampered], "tampered")
    assert "F01" in str(info.value) and not third.exists(game)


def test_as_ruled_lines_leave_out_every_voided_seq() -> None:
    lines = [{"seq": 1, "type": "TurnStarted"}, {"seq": 2, "type": "Noted"},
             {"seq": 3, "type": "RulingMade", "decision": "void", "about": [2]},
             {"seq": 4, "type": "RulingMade", "decision": "stands", "about": [1]}]
    assert voided_seqs(lines) == {2}
    assert [line["seq"] for line in as_ruled(lines)] == [1, 3, 4]


@pytest.mark.parametrize("system", ["t9a", "claustrophobia", "tornscape"])
def test_a_voided_game_end_lets_the_game_go_on(app: Rollcall, system: str) -> None:
    from simulation.games import record_lines, simulate

    game = app.import_record(record_lines(simulate(system, 7, f"void-end-{system}")), "simulated").game
    lines = app.stored_lines(game)
    end = lines[-1]
    assert end["type"] == "GameEnded"
    app.make_ruling(game, "J", [end["seq"]], "void", "the last turn was not played")
    assert app.get_game(game).state.ended is False
    again = app.record(game, {"type": "GameEnded", "score": end["score"], "winner": end["winner"],
                              "reason": "after the ruling"})
    assert "violations" not in again
    with pytest.raises(RuleViolation) as info:
        app.record(game, {"type": "GameEnded", "score": end["score"], "winner": None, "reason": "twice"})
    assert info.value.rule == "F04"
