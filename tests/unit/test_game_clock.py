"""The game clock: clock events are events of the game, each with its time; the rules C01–C08 refuse what is
out of order and store nothing; the remaining time at any event is a pure function of the record."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain import clock
from domain.errors import MalformedRecord, RuleViolation
from domain.game import Game, fold

T0 = "2026-12-07T10:00:00Z"


def at(seconds: float) -> str:
    return clock.iso(clock.instant(T0) + round(seconds * 1000))


def header(system: str = "t9a", **clock_setting) -> dict:
    setting = {"seconds": 600, **clock_setting}
    return {"rollcall": 1, "game": f"clocked-{uuid4().hex[:6]}", "system": system, "clock": setting,
            "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}], "setup": {}}


def started(**setting) -> Game:
    game = Game.start(header(**setting), uuid4())
    game.record({"type": "ClockStarted", "at": at(0), "player": "p1"})
    return game


def refused(game: Game, event: dict, rule: str) -> None:
    before = (game.state.seq, game.version, dict(game.state.clock.remaining))
    with pytest.raises(RuleViolation) as caught:
        game.record(event)
    assert caught.value.rule == rule
    assert (game.state.seq, game.version, dict(game.state.clock.remaining)) == before


def test_passing_the_clock_charges_the_time_to_the_player_whose_clock_ran() -> None:
    game = started()
    game.record({"type": "ClockPassed", "at": at(90), "player": "p1"})
    game.record({"type": "ClockPassed", "at": at(100.5), "player": "p2"})
    assert game.state.clock.remaining == {"p1": 510_000, "p2": 589_500}
    assert game.state.clock.running == "p1"
    assert clock.remaining_at(game.state.clock, at(130.5)) == {"p1": 480_000, "p2": 589_500}


def test_a_paused_clock_spends_no_time_until_it_is_resumed() -> None:
    game = started()
    game.record({"type": "ClockPaused", "at": at(10), "judge": "Jo"})
    assert clock.remaining_at(game.state.clock, at(500)) == {"p1": 590_000, "p2": 600_000}
    game.record({"type": "ClockResumed", "at": at(500)})
    game.record({"type": "ClockPassed", "at": at(520), "player": "p1"})
    assert game.state.clock.remaining == {"p1": 570_000, "p2": 600_000}


def test_a_clock_event_in_a_game_without_a_clock_is_refused_naming_c01() -> None:
    plain = {k: v for k, v in header().items() if k != "clock"}
    game = Game.start(plain, uuid4())
    with pytest.raises(RuleViolation) as caught:
        game.record({"type": "ClockStarted", "at": at(0), "player": "p1"})
    assert caught.value.rule == "C01"
    assert game.state.seq == 0


def test_a_pass_before_the_clock_starts_is_refused_naming_c02() -> None:
    game = Game.start(header(), uuid4())
    with pytest.raises(RuleViolation) as caught:
        game.record({"type": "ClockPassed", "at": at(5), "player": "p1"})
    assert caught.value.rule == "C02"
    assert game.state.seq == 0 and not game.state.clock.started


def test_starting_the_clock_twice_is_refused_naming_c02() -> None:
    refused(started(), {"type": "ClockStarted", "at": at(3), "player": "p2"}, "C02")


def test_only_the_player_whose_clock_runs_passes_it_c03() -> None:
    refused(started(), {"type": "ClockPassed", "at": at(3), "player": "p2"}, "C03")


def test_a_paused_clock_is_not_passed_c03() -> None:
    game = started()
    game.record({"type": "ClockPaused", "at": at(3)})
    refused(game, {"type": "ClockPassed", "at": at(4), "player": "p1"}, "C03")


def test_resuming_a_running_clock_and_pausing_a_paused_one_are_refused_c04() -> None:
    game = started()
    refused(game, {"type": "ClockResumed", "at": at(3)}, "C04")
    game.record({"type": "ClockPaused", "at": at(4)})
    refused(game, {"type": "ClockPaused", "at": at(5)}, "C04")


def test_a_clock_event_earlier_than_the_last_is_refused_c05() -> None:
    game = started()
    game.record({"type": "ClockPassed", "at": at(60), "player": "p1"})
    refused(game, {"type": "ClockPassed", "at": at(30), "player": "p2"}, "C05")


def test_an_adjustment_taking_a_clock_below_zero_is_refused_c06() -> None:
    game = started()
    adjust = {"type": "ClockAdjusted", "at": at(100), "player": "p1", "judge": "Jo", "reason": "slow play"}
    refused(game, {**adjust, "seconds": -501}, "C06")  # 500 s are left at 100 s
    game.record({**adjust, "seconds": -500})
    assert clock.remaining_at(game.state.clock) == {"p1": 0, "p2": 600_000}


def test_a_judge_adds_time_with_a_reason() -> None:
    game = started()
    game.record({"type": "ClockAdjusted", "at": at(10), "player": "p2", "seconds": 120, "judge": "Jo",
                 "reason": "the clock was not started on time"})
    assert game.state.clock.remaining == {"p1": 590_000, "p2": 720_000}


def test_an_adjustment_needs_its_judge_and_reason() -> None:
    game = started()
    with pytest.raises(MalformedRecord) as caught:
        game.record({"type": "ClockAdjusted", "at": at(10), "player": "p2", "seconds": 120, "judge": "Jo"})
    assert caught.value.field == "reason"


def test_a_clock_event_without_its_time_is_refused_naming_at() -> None:
    game = started()
    with pytest.raises(MalformedRecord) as caught:
        game.record({"type": "ClockPassed", "player": "p1"})
    assert caught.value.field == "at"
    with pytest.raises(MalformedRecord) as caught:
        game.record({"type": "ClockPassed", "at": "half past ten", "player": "p1"})
    assert caught.value.field == "at"


def test_a_flag_falls_only_once_the_time_ran_out_c07() -> None:
    game = started()
    refused(game, {"type": "FlagFell", "at": at(599), "player": "p1"}, "C07")
    refused(game, {"type": "FlagFell", "at": at(700), "player": "p2"}, "C07")
    game.record({"type": "FlagFell", "at": at(600), "player": "p1"})
    assert game.state.clock.flagged == ["p1"]


def test_after_a_flag_with_flag_time_only_the_end_at_time_follows_c08() -> None:
    game = started()
    game.record({"type": "FlagFell", "at": at(601), "player": "p1"})
    refused(game, {"type": "TurnStarted", "turn": 1}, "C08")
    refused(game, {"type": "PointsScored", "player": "p2", "points": 1, "reason": "objective"}, "C08")
    offered = game.system.legal_actions(game.state)
    assert [a.event.get("reason") for a in offered] == ["time"]
    game.record({"type": "GameEnded", "score": {"p1": 0, "p2": 1}, "winner": "p2", "reason": "time",
                 "at": at(620)})
    assert game.state.ended and game.state.clock.stopped and game.state.clock.running is None


def test_after_a_flag_with_flag_phase_the_phase_is_finished_but_no_new_one_begins_c08() -> None:
    game = started(flag="phase")
    game.record({"type": "TurnStarted", "turn": 1, "at": at(1)})
    game.record({"type": "FlagFell", "at": at(601), "player": "p1"})
    game.record({"type": "PointsScored", "player": "p1", "points": 2, "reason": "objective"})
    refused(game, {"type": "TurnStarted", "turn": 2}, "C08")
    refused(game, {"type": "PhaseStarted", "phase": "magic"}, "C08")


def test_the_clock_stops_when_the_game_ends() -> None:
    game = started()
    game.record({"type": "GameEnded", "score": {"p1": 1, "p2": 0}, "winner": "p1", "reason": "concession",
                 "at": at(30)})
    assert clock.remaining_at(game.state.clock, at(400)) == {"p1": 570_000, "p2": 600_000}
    with pytest.raises(RuleViolation) as caught:
        game.record({"type": "ClockPassed", "at": at(31), "player": "p1"})
    assert caught.value.rule == "F10"


def test_a_take_back_never_takes_back_clock_events() -> None:
    game = started()
    game.record({"type": "TurnStarted", "turn": 1, "at": at(2)})
    game.record({"type": "ClockPassed", "at": at(40), "player": "p1"})
    game.record({"type": "TakenBack", "from": 2})
    assert game.state.turn == 0
    assert game.state.clock.remaining == {"p1": 560_000, "p2": 600_000}
    assert game.state.clock.running == "p2"


def test_replay_shows_both_clocks_after_every_event() -> None:
    game = started()
    game.record({"type": "TurnStarted", "turn": 1, "at": at(2)})
    game.record({"type": "ClockPassed", "at": at(40), "player": "p1"})
    shown = []
    for n in range(game.state.seq + 1):
        state = fold(game.header, game.state.lines[:n])
        shown.append(state.to_json()["clock"]["remaining"])
    assert shown == [{"p1": 600_000, "p2": 600_000}, {"p1": 600_000, "p2": 600_000},
                     {"p1": 600_000, "p2": 600_000}, {"p1": 560_000, "p2": 600_000}]


def test_a_header_clock_setting_is_checked_naming_its_field() -> None:
    for setting, name in (({"seconds": 0}, "clock.seconds"), ({"seconds": "2h"}, "clock.seconds"),
                          ({"seconds": {"p1": 60}}, "clock.seconds"), ({"seconds": 60, "flag": "later"}, "clock.flag"),
                          ({"seconds": 60, "increment": 5}, "clock.increment"), ({}, "clock.seconds")):
        with pytest.raises(MalformedRecord) as caught:
            Game.start({**header(), "clock": setting}, uuid4())
        assert caught.value.field == name, setting


def test_each_player_may_have_their_own_time() -> None:
    game = Game.start({**header(), "clock": {"seconds": {"p1": 60, "p2": 120}}}, uuid4())
    assert game.state.clock.remaining == {"p1": 60_000, "p2": 120_000}


def test_time_by_turn_counts_each_players_running_time_per_turn_and_phase() -> None:
    game = started()
    game.record({"type": "TurnStarted", "turn": 1, "at": at(0)})
    game.record({"type": "ClockPassed", "at": at(90), "player": "p1"})
    game.record({"type": "ClockPassed", "at": at(150), "player": "p2"})
    game.record({"type": "TurnStarted", "turn": 2, "at": at(150)})
    game.record({"type": "ClockPassed", "at": at(180), "player": "p1"})
    game.record({"type": "ClockPaused", "at": at(200)})
    rows = clock.time_by_turn(game.header, game.state.lines)
    assert rows == [{"player": "p1", "turn": 1, "phase": None, "seconds": 90.0},
                    {"player": "p2", "turn": 1, "phase": None, "seconds": 60.0},
                    {"player": "p1", "turn": 2, "phase": None, "seconds": 30.0},
                    {"player": "p2", "turn": 2, "phase": None, "seconds": 20.0}]


def test_the_clock_history_gives_both_times_after_each_clock_event() -> None:
    game = started()
    game.record({"type": "ClockPassed", "at": at(90), "player": "p1"})
    game.record({"type": "ClockAdjusted", "at": at(95), "player": "p1", "seconds": 30, "judge": "Jo",
                 "reason": "interrupted by the neighbouring table"})
    rows = clock.history(game.header, game.state.lines)
    assert [(r["type"], r["remaining"]["p1"], r["remaining"]["p2"], r["running"]) for r in rows] == [
        ("ClockStarted", 600_000, 600_000, "p1"), ("ClockPassed", 510_000, 600_000, "p2"),
        ("ClockAdjusted", 540_000, 595_000, "p2")]


def test_a_clock_is_shown_in_hours_minutes_and_seconds() -> None:
    assert [clock.shown(ms) for ms in (9_000_000, 245_900, 0, -12_000, -500)] == [
        "2:30:00", "4:05", "0:00", "-0:12", "-0:01"]


def test_the_replay_shows_both_clocks_at_every_event_counted_to_its_moment() -> None:
    from dashboard.stepper import clock_line
    from domain.systems.presentation import Names

    game = started()
    game.record({"type": "TurnStarted", "turn": 1, "at": at(30)})
    game.record({"type": "ClockPassed", "at": at(90), "player": "p1"})
    game.record({"type": "Noted", "text": "no time given"})
    clocks = clock.at_each_event(game.header, game.state.lines)
    assert [(c["remaining"]["p1"], c["remaining"]["p2"], c["running"]) for c in clocks.values()] == [
        (600_000, 600_000, "p1"), (570_000, 600_000, "p1"), (510_000, 600_000, "p2"), (510_000, 600_000, "p2")]
    names = Names({"players": {"p1": "Anna", "p2": "Boris"}})
    line = clock_line(clocks[2], names)
    assert "▶ Anna <b>9:30</b>" in line and "Boris <b>10:00</b>" in line
