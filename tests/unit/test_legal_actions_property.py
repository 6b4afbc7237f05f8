"""The offered actions and the rules held to each other, at every state of many games.

* Every action a rules pack offers, completed with example values of its open fields, is accepted by the
  rules: the strict check of ``Game.check_event`` passes for each completion, and recording one
  completion of each type of event on a copy of the game (its state pickled apart) runs the whole
  pipeline, apply included.
* The simulators of The 9th Age and Claustrophobia play among the offered actions: at every state the
  event they played next is among those offered; so is every event of the golden records.
* A random walk over the offered actions (any action, any completion) stays legal for as long as it
  goes, reaching states the purposeful simulators never do.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path

import pytest

from completions import completions
from domain.game import Game
from domain.record import read_lines
from domain.systems.actions import offered
from simulation.games import record_lines, simulate

GAMES = Path(__file__).resolve().parents[1] / "games"
GOLDEN = sorted(GAMES.glob("t9a-*.rollcall.jsonl")) + sorted(GAMES.glob("claustrophobia-*.rollcall.jsonl"))
PLAYED = {"t9a": dict(seeds=range(4), turns=8), "claustrophobia": dict(seeds=range(4), turns=6),
          "tornscape": dict(seeds=range(2), turns=2)}


def on_copy(game: Game) -> Game:
    """An independent copy of ``game`` at its state: recording on it leaves ``game`` as it was."""
    twin = copy.copy(game)
    twin._pending_events = []  # the aggregate's list of new events, shared by a shallow copy
    twin.state = pickle.loads(pickle.dumps(game.state, pickle.HIGHEST_PROTOCOL))
    return twin


def check_offers(game: Game, events_each: int = 4) -> list:
    """Assert that the rules accept every action offered at ``game``'s state; the actions."""
    actions = game.system.legal_actions(game.state)
    recorded = set()
    for action in actions:
        events = completions(action, events_each)
        assert events, f"seq {game.state.seq}: {action.label} offers no value for an open field"
        for event in events:
            game.check_event(event, strict=True)  # RuleViolation or MalformedRecord if the rules refuse it
        if action.event["type"] not in recorded:
            recorded.add(action.event["type"])
            before = game.state.seq
            on_copy(game).record(events[-1])
            assert game.state.seq == before
    return actions


def replay(lines: list[str]):
    """(game, the next event) at each state of a record, then (game, None) at its end."""
    header, *events = [json.loads(line) for line in lines]
    game = Game.start(header, id=None)  # type: ignore[arg-type]
    for event in events:
        yield game, event
        game.record(event)
    yield game, None


def simulated(system: str) -> list[list[str]]:
    options = PLAYED[system]
    return [record_lines(simulate(system, seed, f"{system}-{seed}", turns=options["turns"]))
            for seed in options["seeds"]]


@pytest.mark.slow
@pytest.mark.parametrize("system", sorted(PLAYED))
def test_every_action_offered_in_simulated_games_is_accepted_by_the_rules(system: str) -> None:
    states = 0
    for lines in simulated(system):
        for game, _ in replay(lines):
            check_offers(game)
            states += 1
    assert states > 50


@pytest.mark.parametrize("system", ["t9a", "claustrophobia"])
def test_the_simulators_play_only_offered_actions(system: str) -> None:
    for lines in simulated(system):
        for game, event in replay(lines):
            if event is not None:
                assert offered(game.system.legal_actions(game.state), event), \
                    f"seq {event['seq']} ({event['type']}) was not offered"


def modelled(game, event: dict) -> bool:
    """An event the offers stand for: not a roll of purpose other (the Record page's "Other roll…" takes those,
    in any phase), nor the start of a phase the rules pack does not model (a record may name any phase)."""
    if event["type"] == "DiceRolled" and event.get("purpose") == "other":
        return False
    return not (event["type"] == "PhaseStarted" and event["phase"] not in game.system.phases)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name.split(".")[0])
def test_every_event_of_the_golden_records_is_offered_at_its_state(path: Path) -> None:
    lines = [json.dumps(obj) for _, obj, _ in read_lines(path.read_text(encoding="utf-8").splitlines())]
    for game, event in replay(lines):
        if event is not None and modelled(game, event):
            assert offered(check_offers(game), event), f"seq {event['seq']} ({event['type']}) was not offered"


@pytest.mark.slow
@pytest.mark.parametrize("system", ["t9a", "claustrophobia"])
@pytest.mark.parametrize("seed", range(4))
def test_a_random_walk_over_the_offered_actions_stays_legal(system: str, seed: int) -> None:
    rng = random.Random(seed)
    header = json.loads(record_lines(simulate(system, seed, f"walk-{seed}", turns=0))[0])
    game = Game.start(header, id=None)  # type: ignore[arg-type]
    kinds = set()
    for step in range(400):
        by_type: dict[str, list] = {}
        for action in check_offers(game, events_each=3):
            by_type.setdefault(action.event["type"], []).append(action)
        if step >= 160 and "GameEnded" in by_type:  # walked far enough, and the rules let the game end now
            break
        by_type.pop("GameEnded", None)
        if "WarriorRemoved" in by_type and rng.random() < 0.9:
            del by_type["WarriorRemoved"]  # (a party wiped out at once would leave little to walk through)
        kind = rng.choice(sorted(by_type))  # each type of event as likely, whatever the number of its actions
        game.record(rng.choice(completions(rng.choice(by_type[kind]), 8)))
        kinds.add(kind)
    end = next(a for a in check_offers(game) if a.event["type"] == "GameEnded")
    game.record(completions(end)[0])
    seal = check_offers(game)
    assert [a.event["type"] for a in seal] == ["GameSealed"]
    game.record(seal[0].fill())
    assert game.system.legal_actions(game.state) == []
    assert len(kinds) >= 6
