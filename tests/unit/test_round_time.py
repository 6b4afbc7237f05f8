"""A round's time: the organiser starts a paired round's time with its length (RoundStarted), pages count it down
and time is called at its end (C09–C10); the format sets each game's chess clock and a round's length; a
player's flag falls by itself at the instant their time ran out (domain.clock.due_flag)."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain import clock
from domain.formats import FormatError, parse
from domain.game import Game
from domain.round_time import RoundTime, round_time
from domain.tournament_record import record_lines, restore
from domain.record import Line
from domain.tournaments import Tournament, TournamentError, game_header

T0 = "2026-12-07T10:00:00Z"
TIMED = {"format": "timed", "clock": {"seconds": 9000, "flag": "phase"}, "round_seconds": 10800}


def paired(fmt: dict | None = None) -> Tournament:
    t = Tournament.create("Timed Open", "t9a", format=parse(fmt, "timed") if fmt else None)
    for player in ("Anna", "Boris"):
        t.register(player)
    t.pair({"round": 1, "tables": [{"table": 1, "game": "timed-open-r1-t1", "players": [{"name": "Anna"},
                                                                                         {"name": "Boris"}]}],
            "bye": None, "seed": 1, "scenario": None})
    return t


def test_a_paired_rounds_time_starts_once_with_its_length_and_is_called_at_its_end() -> None:
    t = paired()
    data = t.start_round(1, 3 * 3600, T0)
    assert data == {"tournament": "Timed Open", "round": 1, "seconds": 10800, "at": T0}
    timer = t.round_time()
    start = clock.instant(T0)
    assert timer == RoundTime(1, start, 10800) and timer.ends == start + 10_800_000
    assert timer.words(start + 1000) == "Round 1: 2:59:59 left"
    assert not timer.called(timer.ends - 1) and timer.called(timer.ends)
    assert timer.words(timer.ends + 5000) == "Round 1: time is called" and timer.left(timer.ends + 5000) == 0
    with pytest.raises(TournamentError, match="C09 round 1's time was started already"):
        t.start_round(1, 600, T0)


@pytest.mark.parametrize(("round_no", "seconds", "at", "rule"), [
    (2, 600, T0, "C09 round 2 is not paired"), (1, 59, T0, "C10"), (1, 24 * 3600 + 1, T0, "C10"),
    (1, 600.5, T0, "C10"), (1, 600, "at noon", "C09 field `at`")])
def test_a_rounds_time_out_of_its_rules_is_refused_naming_the_rule_and_nothing_changes(round_no, seconds, at,
                                                                                       rule) -> None:
    t = paired()
    version = t.version
    with pytest.raises(TournamentError, match=rule):
        t.start_round(round_no, seconds, at)
    assert t.version == version and t.round_time() is None


def test_no_rounds_time_before_any_round_is_paired() -> None:
    with pytest.raises(TournamentError, match="C09 no round is paired yet"):
        Tournament.create("Early", "t9a").start_round(0, 600, T0)


def test_a_started_round_time_is_in_the_tournaments_record_and_comes_in_again() -> None:
    t = paired()
    t.start_round(1, 5400, T0)
    events = [(type(e).__name__, e.data) for e in t.collect_events()[1:]]
    lines = record_lines(t.data, events)
    assert lines[-1]["type"] == "RoundStarted" and lines[-1]["seconds"] == 5400
    again = restore([Line(n, line, True) for n, line in enumerate(lines, start=1)], "timed.tournament.jsonl")
    assert again.round_time(1) == round_time({"round": 1, "seconds": 5400, "at": T0})


def test_the_format_gives_every_paired_game_its_clock_and_a_round_its_length() -> None:
    t = paired(TIMED)
    assert t.format.clock == {"seconds": 9000, "flag": "phase"} and t.format.round_seconds == 10800
    assert t.format.round_end == "time" and parse({**TIMED, "round_end": "phase"}, "timed").round_end == "phase"
    header = game_header(t, 1, 1, (("Anna", None), ("Boris", None)), {})
    assert header["clock"] == {"seconds": 9000, "flag": "phase"}
    assert Game.start(header, uuid4()).state.clock.remaining == {"p1": 9_000_000, "p2": 9_000_000}
    assert "clock" not in game_header(paired(), 1, 1, (("Anna", None), ("Boris", None)), {})


@pytest.mark.parametrize(("given", "field"), [
    ({"clock": {"seconds": 0}}, "clock.seconds"), ({"clock": {"seconds": 600, "flag": "turn"}}, "clock.flag"),
    ({"clock": 9000}, "clock"), ({"clock": {"minutes": 5}}, "clock"), ({"round_seconds": 30}, "round_seconds"), ({"round_end": "turn"}, "round_end")])
def test_a_formats_time_out_of_bounds_is_refused_naming_the_field(given, field) -> None:
    with pytest.raises(FormatError, match=f"field `{field}`"):
        parse({"format": "bad", **given}, "bad.json")


def test_the_flag_is_due_at_the_instant_the_running_players_time_ran_out_once() -> None:
    game = Game.start({"rollcall": 1, "game": "g", "system": "t9a", "clock": {"seconds": 600},
                       "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}], "setup": {}}, uuid4())
    start = clock.instant(T0)
    assert clock.due_flag(game.state.clock, start + 10**9) is None  # not started
    game.record({"type": "ClockStarted", "at": T0, "player": "p1"})
    game.record({"type": "ClockPassed", "at": clock.iso(start + 100_000), "player": "p1"})  # p1: 500 s left
    assert clock.due_flag(game.state.clock, start + 699_999) is None
    due = clock.due_flag(game.state.clock, start + 900_000)
    assert due == {"type": "FlagFell", "player": "p2", "at": "2026-12-07T10:11:40Z"}
    game.record(due)
    assert clock.due_flag(game.state.clock, start + 10**7) is None  # fallen once
    paused = Game.start({**game.header, "game": "h"}, uuid4())
    paused.record({"type": "ClockStarted", "at": T0, "player": "p1"})
    paused.record({"type": "ClockPaused", "at": clock.iso(start + 1000)})
    assert clock.due_flag(paused.state.clock, start + 10**7) is None
