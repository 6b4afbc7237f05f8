"""Tornscape's legal actions (domain/systems/tornscape/legal.py): what the Record page offers and the
simulator plays.

Behaviours at chosen states (who may activate, reachable hexes, ejections in the order R64 asks, dodges,
stabilisation before the cards, the domain choice, the explore, Phase V, crystals), and two properties held
over seeded simulated games:

(a) every action offered at every state, completed with example values of its open fields, is accepted by
    the rules (``Game.check_event`` strict; one a state is also recorded on a copy of the game);
(b) the event the simulator played next at every state is among those offered (the common actions —
    turns, other phases, points, the end — are the base pack's: where it offers some of that type, the
    event must be one of them).
"""

from __future__ import annotations

import copy
import json
import random
from itertools import product
from typing import Any

import pytest

from completions import examples
from domain.errors import MalformedRecord, RuleViolation
from domain.game import Game
from domain.systems.actions import Action, offered
from domain.systems.pack import GameSystem
from domain.systems.tornscape import hexes as hx
from simulation.games import TornscapeSimulator, simulate_tornscape, tornscape_header

PLAYERS = [{"id": "p1", "name": "Anna", "faction": "engeln"}, {"id": "p2", "name": "Boris", "faction": "castilla"}]
V1 = (5, 6)  # hexon [5,6]: [5,6] [6,6] [6,5] [5,5] [4,6] [4,7] [5,7]
COMMON = frozenset({"TurnStarted", "PhaseStarted", "PointsScored", "GameEnded", "GameSealed", "Noted",
                    "DisputeOpened", "RulingMade"})


# --- building states ---------------------------------------------------------------------------------------

def inf(mid: str, player: str, at: tuple, **extra: Any) -> dict:
    return {"id": mid, "player": player, "name": mid, "size": "infantry", "at": [list(at)], "step": 2, "run": 3,
            "agility": 1, "explore": 1, "domains": ["creation"], **extra}


def large(mid: str, player: str, at: tuple, **extra: Any) -> dict:
    return {"id": mid, "player": player, "name": mid, "size": "large", "at": [list(at)], "step": 1, "run": 2,
            "agility": 1, "explore": 1, "domains": ["death"], **extra}


def game(*models: dict, vortices: tuple = (), terrain: tuple = ()) -> Game:
    header = {"rollcall": 1, "system": "tornscape", "game": "g", "players": PLAYERS,
              "setup": {"board": {"width": 14, "height": 12}, "models": list(models), "vortices": list(vortices),
                        "terrain": list(terrain)}}
    played = Game.start(header, id=None)  # type: ignore[arg-type]
    played.record({"type": "TurnStarted", "turn": 1})
    played.record({"type": "PhaseStarted", "phase": "activation"})
    return played


def vortex(vid: str, at: tuple, ether: int = 3) -> dict:
    return {"id": vid, "at": list(at), "facing": 0, "ether": ether}


def actions(played: Game) -> list[Action]:
    """What may come next, less the end at time (offered in every state of play: tests/unit/test_time_called.py)."""
    return [a for a in played.system.legal_actions(played.state) if a.event.get("reason") != "time"]


def of_type(played: Game, event_type: str) -> list[Action]:
    return [a for a in actions(played) if a.event["type"] == event_type]


def play(played: Game, event_type: str, **fields: Any) -> dict:
    return played.record({"type": event_type, **fields})


def ends(moves: list[Action]) -> set[tuple]:
    return {tuple(tuple(h) for h in a.hexes) for a in moves}


# --- who may activate, Phase V (R31) -----------------------------------------------------------------------

def test_every_model_not_yet_activated_this_turn_may_activate_R31() -> None:
    played = game(inf("a", "p1", (2, 2)), inf("b", "p2", (8, 9)), inf("c", "p2", (10, 2)))
    assert {a.event["model"] for a in of_type(played, "ActivationStarted")} == {"a", "b", "c"}
    play(played, "ActivationStarted", model="b")
    play(played, "ActivationEnded", model="b")
    starts = of_type(played, "ActivationStarted")
    assert {a.event["model"] for a in starts} == {"a", "c"} and {a.actor for a in starts} == {"p1", "p2"}


def test_an_open_activation_offers_its_end_and_no_other_activation_F05() -> None:
    played = game(inf("a", "p1", (2, 2)), inf("b", "p2", (8, 9)))
    play(played, "ActivationStarted", model="a")
    offered_types = {a.event["type"] for a in actions(played)}
    assert "ActivationEnded" in offered_types and "ActivationStarted" not in offered_types


def test_phase_v_is_offered_once_every_model_activated_R31() -> None:
    played = game(inf("a", "p1", (2, 2)), inf("b", "p2", (8, 9)), vortices=(vortex("v1", V1),))
    assert not of_type(played, "PhaseStarted")
    for mid in ("a", "b"):
        play(played, "ActivationStarted", model=mid)
        play(played, "ActivationEnded", model=mid)
    assert [a.event for a in actions(played) if a.group != "score"] == [{"type": "PhaseStarted",
                                                                          "phase": "vortex_movement"}]


def test_phase_v_moves_each_vortex_after_a_roll_of_the_right_player_R32_R33() -> None:
    played = game(inf("a", "p1", (2, 2)), inf("b", "p2", (8, 9)), vortices=(vortex("v1", V1), vortex("v2", (10, 5))))
    for mid in ("b", "a"):  # p2 finishes first: p2 rolls first (R32)
        play(played, "ActivationStarted", model=mid)
        play(played, "ActivationEnded", model=mid)
    play(played, "PhaseStarted", phase="vortex_movement")
    (roll,) = actions(played)
    assert roll.event == {"type": "DiceRolled", "player": "p2", "purpose": "vortex_move", "die": "attack"}
    assert roll.open["faces"].count == 2 and set(roll.open["faces"].values) == {"crit", "success", "blank"}
    seq = played.record(roll.fill(faces=["crit", "crit"]))["seq"]
    moves = of_type(played, "VortexMoved")
    assert {(a.event["vortex"], a.event["roll"], tuple(a.open)) for a in moves} == {
        ("v1", seq, ()), ("v1", seq, ("facing",)), ("v2", seq, ()), ("v2", seq, ("facing",))}
    played.record(moves[0].event)
    assert of_type(played, "DiceRolled")[0].event["player"] == "p1"  # then the players alternate


# --- moves (R41–R56) ---------------------------------------------------------------------------------------

def accepted_ends(played: Game, model: str, action: str, steps: int) -> set[tuple]:
    """The oracle: every end of every path of ``steps`` steps or fewer that the rules accept."""
    state = played.state
    start = state.models[model].at[0]
    size = state.models[model].size
    directions = hx.DIRECTIONS if size == "infantry" else hx.HEXON_DIRECTIONS
    found = set()
    for length in range(1, steps + 1):
        for turns in product(directions, repeat=length):
            here, path = start, []
            for dq, dr in turns:
                here = (here[0] + dq, here[1] + dr)
                path.append(list(here))
            try:
                played.check_event({"type": "ModelMoved", "model": model, "action": action, "path": path})
            except (RuleViolation, MalformedRecord):
                continue
            found.add((here,))
    return found - {(start,)}


def test_infantry_is_offered_exactly_the_ends_some_legal_step_reaches_R42_R44_R45() -> None:
    played = game(inf("a", "p1", (4, 4)), inf("b", "p1", (5, 4)), inf("e", "p2", (3, 5)),
                  terrain=({"id": "rock", "kind": "solid", "hexes": [[4, 3], [5, 3]]},))
    play(played, "ActivationStarted", model="a")
    steps = [a for a in of_type(played, "ModelMoved") if a.event["action"] == "step"]
    assert ends(steps) == accepted_ends(played, "a", "step", 2)
    assert ((5, 4),) not in ends(steps) and ((6, 4),) in ends(steps)  # passes the ally, never ends on it
    assert ((3, 5),) not in ends(steps) and ((4, 2),) not in ends(steps)  # not onto the enemy, not through the rock


def test_a_large_model_is_offered_the_hexons_it_may_reach_and_shove_R46_R50() -> None:
    played = game(large("L", "p1", (3, 5)), inf("b", "p1", (5, 7)), inf("e", "p2", (6, 6)), large("M", "p2", (8, 4)))
    play(played, "ActivationStarted", model="L")
    runs = [a for a in of_type(played, "ModelMoved") if a.event["action"] == "run"]
    assert ends(runs) == accepted_ends(played, "L", "run", 2)
    assert ((5, 6),) in ends(runs)  # onto the ally and the enemy infantry: they are shoved


def test_each_move_follows_a_shortest_path_and_highlights_its_end_R42() -> None:
    played = game(inf("a", "p1", (6, 6)))
    play(played, "ActivationStarted", model="a")
    for move in of_type(played, "ModelMoved"):
        path = move.event["path"]
        assert len(path) == hx.distance((6, 6), tuple(path[-1])) and move.hexes == (path[-1],)


def test_a_movement_action_made_is_no_longer_offered_R41() -> None:
    played = game(inf("a", "p1", (6, 6)))
    play(played, "ActivationStarted", model="a")
    played.record(next(a for a in of_type(played, "ModelMoved") if a.event["action"] == "step").event)
    assert {a.event["action"] for a in of_type(played, "ModelMoved")} == {"run"}


# --- ejections: allies first, dodges, who picks (R57–R64) ---------------------------------------------------

def shoved() -> Game:
    """L (p1, large) steps onto hexon [5,6], held by its ally b and the enemy e (agility 1)."""
    played = game(large("L", "p1", (3, 5)), inf("b", "p1", (5, 7)), inf("e", "p2", (6, 6)))
    play(played, "ActivationStarted", model="L")
    play(played, "ModelMoved", model="L", action="step", path=[[5, 6]])
    return played


def test_the_ally_is_ejected_first_to_a_nearest_free_hex_R57_R64() -> None:
    played = shoved()
    offered_now = actions(played)
    assert [a.event["type"] for a in offered_now] == ["ModelEjected"]
    (eject,) = offered_now
    targets = played.system.ejection_targets(played.state, played.state.models["b"], played.state.models["L"])
    assert eject.event == {"type": "ModelEjected", "model": "b", "by": "L", "chosen_by": "p1"}
    assert list(eject.open["to"].values) == [list(t[0]) for t in targets] and eject.hexes == eject.open["to"].values


def test_the_enemy_may_roll_its_dodge_then_the_shover_or_the_dodger_picks_R60_R62() -> None:
    played = shoved()
    played.record(of_type(played, "ModelEjected")[0].fill(to=[4, 5]))
    roll = next(a for a in actions(played) if a.event["type"] == "DiceRolled")
    assert roll.event == {"type": "DiceRolled", "player": "p2", "purpose": "dodge", "die": "agility"}
    assert roll.open["faces"].count == 1
    assert of_type(played, "ModelEjected")[0].event["chosen_by"] == "p1"  # no dodge: the shover picks
    played.record(roll.fill(faces=["success"]))
    (eject,) = of_type(played, "ModelEjected")
    assert eject.event["chosen_by"] == "p2" and eject.event["dodge"] == 6  # dodged: its controller picks


# --- vortex interactions (R09, R10, R14, R15–R30) -----------------------------------------------------------

def test_entering_an_unaligned_vortex_offers_the_opponents_roll_before_the_card_R10_R23() -> None:
    played = game(inf("s", "p1", (6, 5)), inf("r", "p2", (10, 2)), vortices=(vortex("v1", V1),))
    play(played, "ActivationStarted", model="s")
    (roll,) = [a for a in actions(played) if a.group != "crystals"]
    assert roll.event == {"type": "DiceRolled", "player": "p2", "purpose": "stabilisation", "die": "attack"}
    played.record(roll.fill(faces=["crit"]))
    (use,) = actions(played)
    assert use.event == {"type": "VortexStabilised", "vortex": "v1", "model": "s", "roll": 4}
    played.record(use.event)
    (card,) = actions(played)  # crit: v1 turns destruction, hostile to s: two negative cards
    assert card.event == {"type": "PhenomenonDrawn", "effect": "negative", "vortex": "v1"}
    assert list(card.open["card"].values) == played.state.deck_left()
    played.record(card.fill(card="air_vortex"))
    assert "air_vortex" not in of_type(played, "PhenomenonDrawn")[0].open["card"].values


def test_a_model_of_two_domains_chooses_before_it_interacts_R09() -> None:
    played = game(inf("w", "p1", (6, 5), domains=["life", "creation"]), vortices=(vortex("v1", V1),))
    play(played, "ActivationStarted", model="w")
    (choice,) = actions(played)
    assert choice.event == {"type": "DomainChosen", "model": "w"} and choice.open["domain"].values == ("life", "creation")


def test_a_model_without_a_domain_is_offered_no_domain_choice_R09() -> None:
    played = game(inf("n", "p1", (6, 5), domains=[]), vortices=(vortex("v1", V1),))
    play(played, "ActivationStarted", model="n")
    assert [a.event["type"] for a in actions(played)] == ["DiceRolled"]


def test_explore_offers_the_stabilisation_then_the_explore_roll_then_the_explore_R10_R16() -> None:
    played = game(inf("s", "p1", (7, 6), explore=2), vortices=(vortex("v1", V1),))
    play(played, "ActivationStarted", model="s")
    vortex_rolls = [a for a in of_type(played, "DiceRolled")]
    assert [a.event["purpose"] for a in vortex_rolls] == ["stabilisation"]  # unaligned: no explore roll yet
    played.record(vortex_rolls[0].fill(faces=["success"]))
    played.record(of_type(played, "VortexStabilised")[0].event)
    (explore,) = of_type(played, "DiceRolled")
    assert explore.event["purpose"] == "explore" and explore.open["faces"].count == 2
    played.record(explore.fill(faces=["success", "blank"]))
    assert [a.event for a in actions(played) if a.group != "score"] == [
        {"type": "VortexExplored", "vortex": "v1", "model": "s", "roll": 6}]


# --- crystals (R38–R40) ------------------------------------------------------------------------------------

def test_crystals_offer_conversions_and_a_reroll_per_die_of_the_last_unused_roll_R38_R39() -> None:
    played = game(inf("s", "p1", (7, 6), explore=2), vortices=(vortex("v1", V1, ether=5),))
    play(played, "ActivationStarted", model="s")
    seq = play(played, "DiceRolled", player="p2", purpose="stabilisation", die="attack", faces=["blank"])["seq"]
    play(played, "VortexStabilised", vortex="v1", model="s", roll=seq)
    seq = play(played, "DiceRolled", player="p1", purpose="explore", die="attack", faces=["success", "crit"])["seq"]
    assert not [a for a in actions(played) if a.group == "crystals"]  # no crystal yet
    play(played, "VortexExplored", vortex="v1", model="s", roll=seq)
    for card in ("air_vortex", "ember_spiral"):
        play(played, "PhenomenonDrawn", card=card, effect="positive")
    seq = play(played, "DiceRolled", player="p1", purpose="attack", die="attack", faces=["blank", "blank"])["seq"]
    crystals = [a for a in actions(played) if a.group == "crystals"]
    convert = next(a for a in crystals if a.event["type"] == "EtherConverted")
    assert convert.event == {"type": "EtherConverted", "player": "p1"} and convert.open["amount"].high == 2
    assert [(a.event["roll"], a.event["index"]) for a in crystals if a.event["type"] == "DieRerolled"] == [
        (seq, 0), (seq, 1)]


# --- the properties -----------------------------------------------------------------------------------------

def states_of(played: Game):
    """(state before the event, the event) for every event of a game, replayed on a fresh state."""
    lines = [e.data for e in played.pending_events]
    header, events = lines[0], lines[1:]
    replay = Game.start({k: v for k, v in header.items() if k not in ("hash", "violations")}, id=None)  # type: ignore[arg-type]
    for event in events:
        yield replay, event
        replay.record({k: v for k, v in event.items() if k not in ("hash", "seq")})


def completions(action: Action, rng: random.Random, how_many: int = 2) -> list[dict]:
    """``action`` completed with example values of its open fields: the first ones and random ones."""
    if not action.open:
        return [dict(action.event)]
    options = {name: examples(choice, 64) for name, choice in action.open.items()}
    firsts = action.fill(**{name: values[0] for name, values in options.items()})
    others = [action.fill(**{name: rng.choice(values) for name, values in options.items()}) for _ in range(how_many - 1)]
    return [firsts, *others]


def varied_header(rng: random.Random, game_id: str, **options: Any) -> dict:
    """A simulated board with what the simulator's own lacks: a huge model, a model without a domain, a
    portable and a bound marker (placed on free hexes near the middle)."""
    header = tornscape_header(rng, game_id, **options)
    setup = header["setup"]
    width, height = setup["board"]["width"], setup["board"]["height"]
    taken = {tuple(h) for t in setup["terrain"] for h in t["hexes"]}
    for m in setup["models"]:
        taken |= hx.footprint(m["size"], [tuple(c) for c in m["at"]])
    for v in setup["vortices"]:
        taken |= set(hx.hexon_hexes(tuple(v["at"])))
    setup["models"][1]["domains"] = []
    for row in range(height // 2, height - 4):  # two hexons side by side, wholly free, for the huge model
        centre = hx.hexon_centre_of(hx.from_offset(width // 2 + rng.randrange(-4, 4), row))
        at = [centre, (centre[0] + 2, centre[1] + 1)]
        fp = hx.footprint("huge", at)
        if all(hx.on_board(h, width, height) for h in fp) and not fp & taken:
            setup["models"].append({"id": "p2h", "player": "p2", "name": "Colossus", "size": "huge",
                                    "at": [list(c) for c in at], "step": 1, "run": 2, "agility": 0, "explore": 1,
                                    "domains": ["death"]})
            taken |= fp
            break
    free = [h for h in hx.board_hexes(width, height) if h not in taken and 3 <= hx.to_offset(h)[1] <= height - 4]
    spots = rng.sample(free, 2)
    setup["markers"] = [{"id": "k1", "kind": "portable", "at": list(spots[0])},
                        {"id": "k2", "kind": "bound", "at": list(spots[1])}]
    return header


class VariedSimulator(TornscapeSimulator):
    make_header = staticmethod(varied_header)


def simulated(seed: int, turns: int) -> Game:
    """Seeded games: the simulator's own boards, and (odd seeds) the varied ones."""
    simulator = VariedSimulator if seed % 2 else TornscapeSimulator
    return simulator(seed, f"legal-{seed}", turns=turns).play()


SEEDS = (3, 11, 29, 40)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_every_action_offered_at_every_state_is_accepted_by_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for replay, _ in states_of(simulated(seed, turns=3)):
        offered_now = replay.system.legal_actions(replay.state)
        for action in offered_now:
            for event in completions(action, rng):
                replay.check_event(event)  # strict: raises RuleViolation or MalformedRecord
                checked += 1
        if offered_now:  # one of them recorded on a copy: its derived fields and state change apply too
            twin = copy.deepcopy(replay)
            twin.record(rng.choice(completions(rng.choice(offered_now), rng)))
    assert checked > 1000


@pytest.mark.parametrize("seed", (*SEEDS, 47, 58))
def test_every_event_the_simulator_plays_is_offered(seed: int) -> None:
    own = 0
    for replay, event in states_of(simulated(seed, turns=4)):
        offered_now = replay.system.legal_actions(replay.state)
        if event["type"] in COMMON and not (event["type"] == "PhaseStarted" and event["phase"] == "vortex_movement"):
            common = GameSystem.legal_actions(replay.system, replay.state)
            if not any(a.event["type"] == event["type"] for a in common):
                continue  # a common action the base pack does not offer (yet)
        assert offered(offered_now, event), (event, [a.label for a in offered_now])
        own += 1
    assert own > 100


def test_legal_actions_change_nothing() -> None:
    simulated = simulate_tornscape(5, "unchanged", turns=2)
    for replay, _ in states_of(simulated):
        before = json.dumps(replay.state.to_json(), sort_keys=True), len(replay.state.rolls), replay.state.seq
        replay.system.legal_actions(replay.state)
        assert (json.dumps(replay.state.to_json(), sort_keys=True), len(replay.state.rolls), replay.state.seq) == before
