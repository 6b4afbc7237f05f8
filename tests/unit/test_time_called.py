"""Time called: a game ends at time in any phase of every system (``GameEnded`` with reason ``time`` and the
score), whatever is pending; the rules that hold for a game played out say which end they hold for; a result
entered on a game under way ends it at time, and the next round pairs."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.systems import system_for
from domain.systems.presentation import Names
from domain.systems.state import Checks
from service.application import Rollcall
from simulation.games import simulate

SYSTEMS = ("tornscape", "t9a", "claustrophobia")


def states(system: str, seed: int):
    """The state before each event of a simulated game, up to its end."""
    game = simulate(system, seed, f"timed-{system}-{seed}")
    pack = system_for(system)
    state = pack.new_state(game.header)
    pack.check_setup(state, Checks(strict=False))
    state.head = game.header["hash"]
    for line in game.state.lines:
        if line["type"] == "GameEnded":
            return
        yield pack, state
        pack.apply(state, line)


def ending(state, reason: str) -> dict:
    return {"type": "GameEnded", "score": {p: 0 for p in state.players}, "winner": None, "reason": reason,
            "seq": state.seq + 1}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_game_ends_at_time_before_any_event_of_a_played_game(system: str) -> None:
    refused_played_out = 0
    for seed in range(3):
        for pack, state in states(system, seed):
            pack.decide(state, ending(state, "time"), Checks(strict=True))  # never refused
            refused_played_out += not pack.allows(state, ending(state, "turn limit"))
    if system != "t9a":  # (a magic phase alone can end anywhere: nothing there waits for the end of a turn)
        assert refused_played_out > 0  # the games do pass states where a game played out may not end


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_end_at_time_is_offered_in_every_state_of_play_and_the_rules_take_it(system: str) -> None:
    for pack, state in states(system, 1):
        offered = [a for a in pack.legal_actions(state) if a.event.get("reason") == "time"]
        assert [a.label for a in offered] == ["End at time"]
        event = offered[0].fill(**{f"score.{p}": i for i, p in enumerate(state.players)})
        assert event["winner"] == list(state.players)[1]
        assert pack.allows(state, event)


def mid_turn(system: str, rule: str):
    """A state of a simulated game where a game played out may not end, by ``rule``."""
    for seed in range(3):
        for pack, state in states(system, seed):
            try:
                pack.decide(state, ending(state, "turn limit"), Checks(strict=True))
            except RuleViolation as exc:
                if exc.rule == rule:
                    return pack, state, str(exc)
    raise AssertionError(f"no state refused by {rule}")


@pytest.mark.parametrize(("system", "rule"), [("tornscape", "R31"), ("tornscape", "R50"), ("tornscape", "R23"),
                                              ("claustrophobia", "R99")])
def test_an_end_played_out_mid_turn_says_which_end_its_rule_holds_for(system: str, rule: str) -> None:
    _pack, _state, message = mid_turn(system, rule)
    assert message.startswith(rule + " ")
    assert "a game played out may not end yet" in message
    assert "when time is called it ends at time, reason `time`, in any phase" in message


def test_an_end_played_out_mid_turn_is_kept_with_its_violation_in_a_lenient_record() -> None:
    pack, state, _message = mid_turn("tornscape", "R31")
    chk = Checks(strict=False)
    pack.decide(state, ending(state, "turn limit"), chk)
    assert [v.rule for v in chk.found] == ["R31"] and "game played out" in chk.found[0].message


def test_a_game_ended_at_time_is_said_so_in_its_replay() -> None:
    pack, state, _message = mid_turn("tornscape", "R31")
    event = {**ending(state, "time"), "score": {"p1": 12, "p2": 8}, "winner": "p1", "hash": "0" * 64}
    said = pack.presentation.summary(event, {}, Names({"players": {"p1": "Anna", "p2": "Boris"}}))
    assert said == "ended at time: Anna 12 – Boris 8; winner Anna"
    pack.apply(state, event)
    assert state.ended and state.ended_at_time
    assert [a.event["type"] for a in pack.legal_actions(state)] == ["GameSealed"]


# --- a tournament's round -----------------------------------------------------------------------

@pytest.fixture
def app() -> Rollcall:
    return Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


def begun(app: Rollcall, players: int = 4) -> tuple[str, str]:
    """A Tornscape tournament whose round 1 is paired, its table 1 recorded into turn 1's activation phase
    (a model activated: Phase V is due before a game played out ends)."""
    app.create_tournament("Late Night", "tornscape")
    for i in range(players):
        app.register_player("Late Night", f"Player {i + 1}", "engeln")
    game = app.pair_round("Late Night", 1, seed=3)["tables"][0]["game"]
    app.record(game, {"type": "TurnStarted", "turn": 1})
    app.record(game, {"type": "PhaseStarted", "phase": "activation"})
    state = app.get_game(game).state
    model = next(a.event["model"] for a in app.get_game(game).system.legal_actions(state)
                 if a.event["type"] == "ActivationStarted")
    app.record(game, {"type": "ActivationStarted", "model": model})
    return "Late Night", game


def test_a_result_entered_on_a_game_under_way_ends_it_at_time_and_the_next_round_pairs(app: Rollcall) -> None:
    name, game = begun(app)
    ended = app.enter_result(name, 1, 1, {"p1": 12, "p2": 8})
    assert (ended["seq"], ended["reason"], ended["winner"], ended["score"]) == (4, "time", "p1", {"p1": 12, "p2": 8})
    assert app.get_game(game).state.ended_at_time
    app.enter_result(name, 1, 2, {"p1": 3, "p2": 5})  # a table without a tablet: a result alone
    assert app.stored_lines(app.table_game(name, 1, 2))[-1]["reason"] == "result entered"
    assert len(app.pair_round(name, 2, seed=1)["tables"]) == 2


def test_a_game_under_way_that_a_scorekeeper_ends_at_time_completes_its_round(app: Rollcall) -> None:
    name, game = begun(app, players=2)
    with pytest.raises(RuleViolation, match="R31 .*when time is called it ends at time"):
        app.record(game, {"type": "GameEnded", "score": {"p1": 1, "p2": 1}, "winner": None, "reason": "turn limit"})
    app.record(game, {"type": "GameEnded", "score": {"p1": 1, "p2": 1}, "winner": None, "reason": "time"})
    [played] = app.tournament_games(app.tournament(name))
    assert played.result is not None and played.result.winner is None
    assert app.pair_round(name, 2, seed=1)["round"] == 2
