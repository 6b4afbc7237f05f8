"""Every movement rule of seed 004 (R41–R76) that a record can break, the structural checks F01–F06,
and malformed records.

Each ``test_*_R<nn>`` builds a small record that breaks one rule and asserts that

* a strict import raises ``RecordError`` reading ``FILE:LINE (EventType): R<nn> …`` naming the
  models / hexes / terrain concerned, and stores nothing of that game (``app.exists`` is False);
* a lenient import stores the game, with ``violations`` naming the rule on the offending line (and on
  no earlier line).

Rules of R41–R76 a record cannot break, and why:

* R43, R46, R68 — permissions (infantry through allies, large through allied infantry, infantry
  shoving a portable marker). A record can only use them; tests below show such records are accepted.
* R51 — its literal text is a permission (huge through allied infantry). What a record can break is
  the restriction it implies, a huge model passing an allied large/huge model; that is tested as R51.
* R57 — "every large model has Shove" is a permission; its checkable half (ejected infantry goes to a
  NEAREST free hex) is tested.
* R62 — who chooses among equidistant nearest free hexes (the shoving player after a failed dodge or
  none, the controller after a successful one) is checked where the record says it: the optional
  ``chosen_by`` of ``ModelEjected``. Without it any nearest free hex is accepted.
* R72 — likewise for a displacement (``chosen_by`` of ``ModelDisplaced``); the first half (a dodging
  large model stays) and "only an opponent's model dodges" are tested.
* R76 — soft in RULES.md, but checkable when the header's setup has ``deployment_zones``; a record
  breaks it on line 1 (the header), tested below with the huge-model exception.
* R50/R56/R67 at the very end of a record: a record may stop in the middle of a game (live games are
  recorded event by event), so an ejection still pending after the last line is not a violation; the
  pending ejection is visible in the replay state. Any later event that is not the ejection breaks
  the rule and is tested.

Derived fields given wrongly on import break the rule that derives them: ``free_attacks`` R73/R74/R75
(ModelMoved) and R58 (ModelEjected), ``destroyed`` R53/R55, ``must_eject`` R64 (order) or R50/R56
(which models), ``dodged`` R61.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.application import Rollcall
from domain.errors import RecordError
from rulecheck import refused_and_marked

FILE = "game.rollcall.jsonl"
GAME = "g"
BOARD = {"width": 14, "height": 12}
PLAYERS = [{"id": "p1", "name": "Anna", "faction": "engeln"}, {"id": "p2", "name": "Boris", "faction": "castilla"}]


# --- building records ----------------------------------------------------------------------------------

def inf(mid: str, player: str, at: tuple[int, int], **extra: Any) -> dict:
    return {"id": mid, "player": player, "name": mid, "size": "infantry", "at": [list(at)],
            "step": 3, "run": 5, "agility": 1, **extra}


def large(mid: str, player: str, at: tuple[int, int], **extra: Any) -> dict:
    return {"id": mid, "player": player, "name": mid, "size": "large", "at": [list(at)],
            "step": 1, "run": 2, "agility": 1, **extra}


def huge(mid: str, player: str, at: list[tuple[int, int]], **extra: Any) -> dict:
    return {"id": mid, "player": player, "name": mid, "size": "huge", "at": [list(c) for c in at],
            "step": 1, "run": 2, "agility": 0, **extra}


def solid(tid: str, *hexes: tuple[int, int]) -> dict:
    return {"id": tid, "kind": "solid", "hexes": [list(h) for h in hexes]}


def marker(mid: str, kind: str, at: tuple[int, int]) -> dict:
    return {"id": mid, "kind": kind, "at": list(at)}


def header(*models: dict, terrain: tuple = (), markers: tuple = (), zones: dict | None = None,
           game: str = GAME) -> dict:
    setup: dict = {"board": BOARD, "terrain": list(terrain), "models": list(models), "markers": list(markers)}
    if zones is not None:
        setup["deployment_zones"] = zones
    return {"rollcall": 1, "system": "tornscape", "game": game, "players": PLAYERS, "setup": setup}


def ev(event_type: str, **fields: Any) -> dict:
    return {"type": event_type, **fields}


def lines_of(head: dict, *events: dict) -> list[str]:
    return [json.dumps(head)] + [json.dumps(e) for e in events]


def game_of(head: dict, *events: dict) -> list[str]:
    """A record: the header, turn 1, the activation phase, then ``events`` (first event on line 4)."""
    return lines_of(head, ev("TurnStarted", turn=1), ev("PhaseStarted", phase="activation"), *events)


def activation(model: str, *events: dict) -> list[dict]:
    return [ev("ActivationStarted", model=model), *events]


def move(model: str, action: str, *path: Any, **derived: Any) -> dict:
    return ev("ModelMoved", model=model, action=action, path=[list(p) if isinstance(p, tuple) else p for p in path],
              **derived)


def dodge_roll(player: str, *faces: str) -> dict:
    return ev("DiceRolled", player=player, purpose="dodge", die="agility", faces=list(faces))


# --- asserting ------------------------------------------------------------------------------------------

def broken(app: Rollcall, lines: list[str], *, line: int, event: str | None, rule: str, names: tuple = ()) -> str:
    """Strict import refuses at ``line`` with ``rule``; lenient import marks it (see rulecheck)."""
    return refused_and_marked(app, lines, file=FILE, game=GAME, line=line, event=event, rule=rule, names=names)


def accepted(app: Rollcall, lines: list[str]) -> dict:
    imported = app.import_record(lines, FILE)
    assert imported.violations == 0
    return app.get_game(imported.game).state.to_json()


def derived_line(app: Rollcall, lines: list[str], seq: int) -> dict:
    """The exported line of ``seq`` (the record imported strictly, derived fields filled in)."""
    imported = app.import_record(lines, FILE)
    return json.loads(list(app.export_lines(imported.game))[seq])


# --- R41, R42: actions and distance -------------------------------------------------------------------

def test_model_cannot_make_the_same_movement_action_twice_in_one_activation_R41(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))),
                    *activation("a", move("a", "step", (3, 2)), move("a", "step", (4, 2))))
    broken(app, lines, line=6, event="ModelMoved", rule="R41", names=("a", "step"))


def test_step_then_run_in_one_activation_is_allowed_R41(app: Rollcall) -> None:
    state = accepted(app, game_of(header(inf("a", "p1", (2, 2))),
                                  *activation("a", move("a", "step", (3, 2)), move("a", "run", (4, 2), (5, 2)))))
    assert state["models"]["a"]["at"] == [[5, 2]]


def test_infantry_cannot_move_more_hexes_than_its_step_R42(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))),
                    *activation("a", move("a", "step", (3, 2), (4, 2), (5, 2), (6, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="R42", names=("a", "4 hexes", "allows 3"))


def test_large_cannot_move_more_hexons_than_its_run_R42(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (1, 4))),
                    *activation("L", move("L", "run", (3, 5), (5, 6), (7, 7))))
    broken(app, lines, line=5, event="ModelMoved", rule="R42", names=("L", "3 hexons", "allows 2"))


def test_each_step_of_a_path_moves_one_hex_R42(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), *activation("a", move("a", "step", (4, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="R42", names=("a", "[[2,2]]", "[[4,2]]"))


# --- infantry: R43, R44, R45 -----------------------------------------------------------------------------

def test_infantry_may_pass_through_an_allied_large_model_R43(app: Rollcall) -> None:
    state = accepted(app, game_of(header(inf("a", "p1", (3, 6)), large("M", "p1", (5, 6))),
                                  *activation("a", move("a", "run", (4, 6), (5, 6), (6, 6), (7, 6)))))
    assert state["models"]["a"]["at"] == [[7, 6]]


def test_infantry_cannot_pass_through_enemy_model_R44(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (3, 2))),
                    *activation("a", move("a", "step", (3, 2), (4, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="R44", names=("a", "enemy model e", "[3,2]"))


def test_infantry_cannot_pass_through_solid_terrain_R44(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), terrain=(solid("rock", (3, 2)),)),
                    *activation("a", move("a", "step", (3, 2), (4, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="R44", names=("a", "solid terrain rock", "[3,2]"))


def test_infantry_cannot_end_on_another_model_R45(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("b", "p1", (3, 2))),
                    *activation("a", move("a", "step", (3, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="R45", names=("a", "model b", "[3,2]"))


def test_infantry_cannot_end_on_solid_terrain_R45(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), terrain=(solid("rock", (3, 2)),)),
                    *activation("a", move("a", "step", (3, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="R45", names=("a", "rock", "[3,2]"))


# --- large: R46–R50 ---------------------------------------------------------------------------------------

def test_large_may_pass_through_allied_infantry_R46(app: Rollcall) -> None:
    state = accepted(app, game_of(header(large("L", "p1", (3, 5)), inf("b", "p1", (5, 6))),
                                  *activation("L", move("L", "run", (5, 6), (7, 7)))))
    assert state["models"]["L"]["at"] == [[7, 7]] and state["models"]["b"]["at"] == [[5, 6]]


def test_large_cannot_pass_through_allied_large_model_R47(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), large("M", "p1", (5, 6))),
                    *activation("L", move("L", "run", (5, 6), (7, 7))))
    broken(app, lines, line=5, event="ModelMoved", rule="R47", names=("L", "allied large model M"))


def test_large_cannot_pass_through_allied_huge_model_R47(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), huge("H", "p1", [(5, 6), (4, 9)])),
                    *activation("L", move("L", "run", (5, 6), (7, 7))))
    broken(app, lines, line=5, event="ModelMoved", rule="R47", names=("L", "huge model H"))


def test_large_cannot_pass_through_enemy_infantry_R48(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "run", (5, 6), (7, 7))))
    broken(app, lines, line=5, event="ModelMoved", rule="R48", names=("L", "enemy model e", "[6,6]"))


def test_large_cannot_pass_through_solid_terrain_R48(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), terrain=(solid("rock", (6, 6)),)),
                    *activation("L", move("L", "run", (5, 6), (7, 7))))
    broken(app, lines, line=5, event="ModelMoved", rule="R48", names=("L", "rock", "[6,6]"))


def test_large_cannot_end_on_a_hexon_with_a_large_model_R49(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), large("M", "p1", (5, 6))),
                    *activation("L", move("L", "step", (5, 6))))
    broken(app, lines, line=5, event="ModelMoved", rule="R49", names=("L", "large model M"))


def test_large_cannot_end_on_solid_terrain_R49(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), terrain=(solid("rock", (6, 6)),)),
                    *activation("L", move("L", "step", (5, 6))))
    broken(app, lines, line=5, event="ModelMoved", rule="R49", names=("L", "rock", "[6,6]"))


def test_large_ending_on_infantry_must_shove_it_before_anything_else_R50(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6))), ev("ActivationEnded", model="L"))
    broken(app, lines, line=6, event="ActivationEnded", rule="R50", names=("e",))


def test_must_eject_omitting_a_model_breaks_R50(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6), must_eject=[])))
    broken(app, lines, line=5, event="ModelMoved", rule="R50", names=("must_eject", '["e"]'))


# --- huge: R51–R56 ----------------------------------------------------------------------------------------

HUGE_RUN = ([[3, 5], [5, 6]], [[6, 3], [8, 4]])  # passes hexons [3,5]+[5,6], ends on [6,3]+[8,4]


def test_huge_cannot_pass_through_allied_large_model_R51(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), large("M", "p1", (5, 6))),
                    *activation("H", move("H", "run", *HUGE_RUN)))
    broken(app, lines, line=5, event="ModelMoved", rule="R51", names=("H", "large model M"))


def test_huge_may_pass_through_allied_infantry_R51(app: Rollcall) -> None:
    state = accepted(app, game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), inf("b", "p1", (6, 6))),
                                  *activation("H", move("H", "run", *HUGE_RUN))))
    assert state["models"]["H"]["at"] == [[6, 3], [8, 4]]


def test_huge_cannot_pass_through_enemy_model_R52(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), inf("e", "p2", (6, 6))),
                    *activation("H", move("H", "run", *HUGE_RUN)))
    broken(app, lines, line=5, event="ModelMoved", rule="R52", names=("H", "enemy model e", "[6,6]"))


def test_huge_passing_solid_terrain_destroys_it_R53(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), terrain=(solid("rock", (6, 5)),)),
                    *activation("H", move("H", "run", *HUGE_RUN)))
    assert derived_line(app, lines, 4)["destroyed"] == ["rock"]
    assert app.get_game(GAME).state.to_json()["terrain"] == {}


def test_destroyed_omitting_terrain_passed_by_a_huge_model_breaks_R53(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), terrain=(solid("rock", (6, 5)),)),
                    *activation("H", move("H", "run", *HUGE_RUN, destroyed=[])))
    broken(app, lines, line=5, event="ModelMoved", rule="R53", names=("destroyed", '["rock"]'))


def test_huge_cannot_end_on_another_huge_model_R54(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), huge("G", "p1", [(5, 6), (7, 7)])),
                    *activation("H", move("H", "step", [[3, 5], [5, 6]])))
    broken(app, lines, line=5, event="ModelMoved", rule="R54", names=("H", "huge model G"))


def test_huge_ending_on_solid_terrain_destroys_it_R55(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), terrain=(solid("rock", (6, 5)),)),
                    *activation("H", move("H", "step", [[3, 5], [5, 6]])))
    assert derived_line(app, lines, 4)["destroyed"] == ["rock"]


def test_destroyed_omitting_terrain_a_huge_model_ends_on_breaks_R55(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), terrain=(solid("rock", (6, 5)),)),
                    *activation("H", move("H", "step", [[3, 5], [5, 6]], destroyed=[])))
    broken(app, lines, line=5, event="ModelMoved", rule="R55", names=("destroyed", '["rock"]'))


def test_huge_ending_on_a_large_model_must_huge_shove_it_R56(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), large("E", "p2", (5, 6))),
                    *activation("H", move("H", "step", [[3, 5], [5, 6]])), ev("ActivationEnded", model="H"))
    broken(app, lines, line=6, event="ActivationEnded", rule="R56", names=("E",))


# --- shove: R57–R64 ----------------------------------------------------------------------------------------

def shove_of(*others: dict, extra_terrain: tuple = ()) -> dict:
    """The Faceless-like large model L (p1) at hexon [3,5], about to step onto hexon [5,6]."""
    return header(large("L", "p1", (3, 5)), *others, terrain=extra_terrain)


def test_shoved_infantry_must_go_to_a_nearest_free_hex_R57(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)), ev("ModelEjected", model="e", by="L", to=[10, 2])))
    message = broken(app, lines, line=6, event="ModelEjected", rule="R57", names=("e", "[10,2]", "[7,5]"))
    assert "[4,5]" in message  # the nearest free hexes are listed, including those L has just left


def test_enemy_shoved_makes_a_free_attack_so_free_attacks_cannot_be_empty_R58(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)),
                                ev("ModelEjected", model="e", by="L", to=[7, 5], free_attacks=[])))
    broken(app, lines, line=6, event="ModelEjected", rule="R58", names=("free_attacks", '["e"]'))


def test_allied_model_shoved_makes_no_free_attack_R58(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("b", "p1", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)),
                                ev("ModelEjected", model="b", by="L", to=[7, 5], free_attacks=["b"])))
    broken(app, lines, line=6, event="ModelEjected", rule="R58", names=("free_attacks", '["b"]', "[]"))


def test_printed_shove_displaces_only_models_of_its_own_size_R59(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 6), traits=["shove"]), large("M", "p1", (5, 6))),
                    *activation("a", move("a", "step", (3, 6)), move("a", "run", (4, 6))))
    broken(app, lines, line=6, event="ModelMoved", rule="R59", names=("a", "large model M", "[4,6]"))


def test_printed_shove_lets_infantry_shove_infantry_R59(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2), traits=["shove"]), inf("e", "p2", (4, 2))),
                    *activation("a", move("a", "step", (3, 2), (4, 2)),
                                ev("ModelEjected", model="e", by="a", to=[5, 2])))
    assert derived_line(app, lines, 4)["must_eject"] == ["e"]


def test_model_shoved_by_printed_shove_must_be_ejected_first_R59(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2), traits=["shove"]), inf("e", "p2", (4, 2))),
                    *activation("a", move("a", "step", (3, 2), (4, 2)), ev("ActivationEnded", model="a")))
    broken(app, lines, line=6, event="ActivationEnded", rule="R59", names=("e",))


def test_allied_model_shoved_may_not_dodge_R60(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("b", "p1", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)), dodge_roll("p1", "success"),
                                ev("ModelEjected", model="b", by="L", to=[7, 5], dodge=5)))
    broken(app, lines, line=7, event="ModelEjected", rule="R60", names=("b", "L"))


def test_dodge_rolls_as_many_agility_dice_as_the_shield_R61(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6), agility=1)),
                    *activation("L", move("L", "step", (5, 6)), dodge_roll("p2", "success", "blank"),
                                ev("ModelEjected", model="e", by="L", to=[7, 5], dodge=5)))
    broken(app, lines, line=7, event="ModelEjected", rule="R61", names=("roll 5", "2 dice", "e's dodge"))


def test_dodge_succeeds_only_with_a_success_so_dodged_must_match_the_dice_R61(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)), dodge_roll("p2", "blank"),
                                ev("ModelEjected", model="e", by="L", to=[7, 5], dodge=5, dodged=True)))
    broken(app, lines, line=7, event="ModelEjected", rule="R61", names=("dodged", "false"))


def test_a_crit_counts_as_a_successful_dodge_R61(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)), dodge_roll("p2", "crit"),
                                ev("ModelEjected", model="e", by="L", to=[7, 5], dodge=5)))
    assert derived_line(app, lines, 6)["dodged"] is True


def test_large_model_huge_shoved_must_go_to_a_nearest_free_hexon_R63(app: Rollcall) -> None:
    lines = game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), large("E", "p2", (5, 6))),
                    *activation("H", move("H", "step", [[3, 5], [5, 6]]),
                                ev("ModelEjected", model="E", by="H", to=[[11, 2]])))
    broken(app, lines, line=6, event="ModelEjected", rule="R63", names=("E", "nearest free hexons", "[7,7]", "[11,2]"))


def test_huge_shove_moves_a_large_model_to_a_nearest_free_hexon_R63(app: Rollcall) -> None:
    state = accepted(app, game_of(header(huge("H", "p1", [(1, 4), (3, 5)]), large("E", "p2", (5, 6))),
                                  *activation("H", move("H", "step", [[3, 5], [5, 6]]),
                                              ev("ModelEjected", model="E", by="H", to=[[7, 7]]))))
    assert state["models"]["E"]["at"] == [[7, 7]]


def walled_huge_shove(to: list) -> list[str]:
    """H (huge) steps from [1,4]+[3,5] onto [0,7]+[2,8]: the allies b and c fill the two hexons it left,
    solid terrain one hex of each other adjacent hexon, so the enemy large E must go further."""
    walls = tuple(solid(f"r{i}", c) for i, c in enumerate([(-3, 9), (-2, 6), (-1, 10), (4, 9), (5, 6)]))
    head = header(huge("H", "p1", [(1, 4), (3, 5)]), large("E", "p2", (2, 8)), inf("b", "p1", (0, 7)),
                  inf("c", "p1", (1, 7)), terrain=walls)
    return game_of(head, *activation("H", move("H", "step", [[0, 7], [2, 8]]),
                                     ev("ModelEjected", model="b", by="H", to=[1, 5]),
                                     ev("ModelEjected", model="c", by="H", to=[3, 6]),
                                     ev("ModelEjected", model="E", by="H", to=to)))


def test_huge_shove_sends_a_large_model_further_when_no_adjacent_hexon_is_free_R63(app: Rollcall) -> None:
    state = accepted(app, walled_huge_shove([[7, 7]]))
    assert state["models"]["E"]["at"] == [[7, 7]]
    exported = [json.loads(line) for line in app.export_lines(GAME)]
    assert exported[4]["must_eject"] == ["b", "c", "E"]


def test_huge_shove_sends_a_large_model_no_further_than_the_nearest_free_hexon_R63(app: Rollcall) -> None:
    broken(app, walled_huge_shove([[8, 4]]), line=8, event="ModelEjected", rule="R63",
           names=("E", "[4,2], [6,3], [7,7]", "not [8,4]"))


FOUR = (inf("b", "p1", (5, 7)), inf("e", "p2", (6, 6)))  # an ally and an enemy in hexon [5,6]


def test_allies_are_shoved_before_enemies_R64(app: Rollcall) -> None:
    lines = game_of(shove_of(*FOUR),
                    *activation("L", move("L", "step", (5, 6)), ev("ModelEjected", model="e", by="L", to=[7, 5])))
    broken(app, lines, line=6, event="ModelEjected", rule="R64", names=("allied b", "enemy e"))


def test_must_eject_lists_allies_first_R64(app: Rollcall) -> None:
    lines = game_of(shove_of(*FOUR), *activation("L", move("L", "step", (5, 6), must_eject=["e", "b"])))
    broken(app, lines, line=5, event="ModelMoved", rule="R64", names=("must_eject", '["b","e"]'))


TWO_AND_TWO = (inf("b", "p1", (5, 7)), inf("c", "p1", (4, 6)), inf("e", "p2", (6, 6)), inf("f", "p2", (5, 5)))


def test_any_order_within_the_allies_and_within_the_enemies_is_legal_R64(app: Rollcall) -> None:
    lines = game_of(shove_of(*TWO_AND_TWO), *activation(
        "L", move("L", "step", (5, 6), must_eject=["c", "b", "f", "e"]),
        ev("ModelEjected", model="c", by="L", to=[4, 5]), ev("ModelEjected", model="b", by="L", to=[3, 7]),
        ev("ModelEjected", model="f", by="L", to=[5, 4]), ev("ModelEjected", model="e", by="L", to=[7, 5])))
    state = accepted(app, lines)
    assert [state["models"][m]["at"] for m in "cbfe"] == [[[4, 5]], [[3, 7]], [[5, 4]], [[7, 5]]]
    assert json.loads(list(app.export_lines(GAME))[4])["must_eject"] == ["c", "b", "f", "e"]


def test_an_enemy_listed_between_the_allies_breaks_R64(app: Rollcall) -> None:
    lines = game_of(shove_of(*TWO_AND_TWO), *activation("L", move("L", "step", (5, 6), must_eject=["c", "f", "b", "e"])))
    broken(app, lines, line=5, event="ModelMoved", rule="R64", names=("must_eject", '["b","c","e","f"]'))


def test_an_enemy_ejected_while_an_ally_waits_breaks_R64(app: Rollcall) -> None:
    lines = game_of(shove_of(*TWO_AND_TWO), *activation(
        "L", move("L", "step", (5, 6), must_eject=["c", "b", "f", "e"]),
        ev("ModelEjected", model="c", by="L", to=[4, 5]), ev("ModelEjected", model="f", by="L", to=[5, 4])))
    broken(app, lines, line=7, event="ModelEjected", rule="R64", names=("allied b", "enemy f"))


# --- who picks the hex: R62 ---------------------------------------------------------------------------------

def ejected_enemy(*dodge_faces: str, chosen_by: str) -> list[str]:
    """L steps onto enemy e; e dodges with ``dodge_faces`` (seq 5) or does not; the ejection names who chose."""
    dodge = [dodge_roll("p2", *dodge_faces)] if dodge_faces else []
    ejected = ev("ModelEjected", model="e", by="L", to=[7, 5], chosen_by=chosen_by,
                 **({"dodge": 5} if dodge_faces else {}))
    return game_of(shove_of(inf("e", "p2", (6, 6))), *activation("L", move("L", "step", (5, 6)), *dodge, ejected))


@pytest.mark.parametrize(("faces", "chooser"), [(("success",), "p2"), (("blank",), "p1"), ((), "p1")])
def test_the_hex_is_picked_by_the_dodger_after_a_dodge_else_by_the_shover_R62(app: Rollcall, faces: tuple,
                                                                              chooser: str) -> None:
    accepted(app, ejected_enemy(*faces, chosen_by=chooser))
    assert json.loads(list(app.export_lines(GAME))[-1])["chosen_by"] == chooser


def test_after_a_successful_dodge_the_shover_does_not_pick_R62(app: Rollcall) -> None:
    broken(app, ejected_enemy("crit", chosen_by="p1"), line=7, event="ModelEjected", rule="R62",
           names=("e dodged", "p2", "not p1"))


def test_after_a_failed_dodge_the_ejected_models_player_does_not_pick_R62(app: Rollcall) -> None:
    broken(app, ejected_enemy("blank", chosen_by="p2"), line=7, event="ModelEjected", rule="R62",
           names=("p1", "not p2"))


def test_without_a_dodge_the_shover_picks_R62(app: Rollcall) -> None:
    broken(app, ejected_enemy(chosen_by="p2"), line=6, event="ModelEjected", rule="R62", names=("p1", "not p2"))


def test_chosen_by_names_a_player_of_the_game(app: Rollcall) -> None:
    with pytest.raises(RecordError, match=r"6 \(ModelEjected\): field `chosen_by`: unknown player 'p3'"):
        app.import_record(ejected_enemy(chosen_by="p3"), FILE)


# --- moves by effects, placing: R65, R66 --------------------------------------------------------------------

def test_a_move_by_an_effect_cannot_end_on_a_model_R65(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), inf("e", "p2", (6, 6))), move("L", "effect", (5, 6)))
    broken(app, lines, line=4, event="ModelMoved", rule="R65", names=("L", "model e"))


def test_a_move_by_an_effect_cannot_end_on_a_marker_R65(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k1", "portable", (3, 2)),)),
                    move("a", "effect", (3, 2)))
    broken(app, lines, line=4, event="ModelMoved", rule="R65", names=("a", "marker k1"))


def test_a_move_by_an_effect_cannot_end_on_solid_terrain_either_R45(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), terrain=(solid("rock", (3, 2)),)), move("a", "effect", (3, 2)))
    broken(app, lines, line=4, event="ModelMoved", rule="R45", names=("a", "rock", "[3,2]"))


def test_a_panic_move_of_a_large_model_cannot_end_on_solid_terrain_R49(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), terrain=(solid("rock", (6, 6)),)), move("L", "panic", (5, 6)))
    broken(app, lines, line=4, event="ModelMoved", rule="R49", names=("L", "rock", "[6,6]"))


def test_a_displaced_model_cannot_be_put_on_an_occupied_hex_R65(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (5, 2)), inf("f", "p2", (6, 2))),
                    ev("ModelDisplaced", model="e", by="a", to=[6, 2]))
    broken(app, lines, line=4, event="ModelDisplaced", rule="R65", names=("e", "[6,2]"))


def test_a_placed_model_cannot_be_put_on_a_model_R66(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))),
                    ev("ModelPlaced", model=inf("n", "p1", (2, 2))))
    broken(app, lines, line=4, event="ModelPlaced", rule="R66", names=("n", "[[2,2]]", "model a at [2,2]"))


def test_a_placed_model_cannot_be_put_on_a_marker_R66(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k1", "portable", (6, 6)),)),
                    ev("ModelPlaced", model=large("n", "p1", (5, 6))))
    broken(app, lines, line=4, event="ModelPlaced", rule="R66", names=("n", "[[5,6]]", "marker k1 at [6,6]"))


# --- markers: R67–R71 ---------------------------------------------------------------------------------------

def test_a_portable_marker_is_shoved_to_a_nearest_free_hex_R67(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k1", "portable", (3, 2)),)),
                    *activation("a", move("a", "step", (3, 2)), ev("MarkerEjected", marker="k1", to=[9, 9])))
    broken(app, lines, line=6, event="MarkerEjected", rule="R67", names=("k1", "[9,9]", "[4,2]"))


def test_a_model_ending_on_a_marker_must_shove_it_before_anything_else_R67(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k1", "portable", (3, 2)),)),
                    *activation("a", move("a", "step", (3, 2))), ev("ActivationEnded", model="a"))
    broken(app, lines, line=6, event="ActivationEnded", rule="R67", names=("k1",))


def test_markers_to_eject_must_list_the_marker_ended_on_R67(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k1", "portable", (3, 2)),)),
                    *activation("a", move("a", "step", (3, 2), markers_to_eject=[])))
    broken(app, lines, line=5, event="ModelMoved", rule="R67", names=("markers_to_eject", '["k1"]'))


def test_infantry_may_shove_a_portable_marker_R68(app: Rollcall) -> None:
    state = accepted(app, game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k1", "portable", (3, 2)),)),
                                  *activation("a", move("a", "step", (3, 2)),
                                              ev("MarkerEjected", marker="k1", to=[4, 2]))))
    assert state["markers"]["k1"]["at"] == [4, 2] and state["models"]["a"]["at"] == [[3, 2]]


def test_a_taken_portable_marker_leaves_the_board_and_cannot_be_taken_again_R69(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("b", "p2", (4, 2)),
                           markers=(marker("k1", "portable", (3, 2)),)),
                    *activation("a", ev("MarkerTaken", model="a", marker="k1")), ev("ActivationEnded", model="a"),
                    *activation("b", ev("MarkerTaken", model="b", marker="k1")))
    broken(app, lines, line=8, event="MarkerTaken", rule="R69", names=("k1", "seq 4", "b"))


def test_a_taken_bound_marker_stays_on_the_board_R69(app: Rollcall) -> None:
    state = accepted(app, game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k2", "bound", (3, 2)),)),
                                  *activation("a", ev("MarkerTaken", model="a", marker="k2"))))
    assert state["markers"]["k2"] == {"kind": "bound", "at": [3, 2], "linked_to": "a"}


def test_infantry_cannot_shove_a_bound_marker_R70(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k2", "bound", (3, 2)),)),
                    *activation("a", move("a", "step", (3, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="R70", names=("a", "k2", "[3,2]"))


def bound_scene(*terrain: dict) -> list[dict]:
    """a (p1) takes bound k2 at [9,3]; then L (p2, large) steps from hexon [5,6] onto hexon [8,4], holding k2."""
    return [*activation("a", ev("MarkerTaken", model="a", marker="k2")), ev("ActivationEnded", model="a"),
            *activation("L", move("L", "step", (8, 4)))]


BOUND = dict(markers=(marker("k2", "bound", (9, 3)),))


def test_a_taken_bound_marker_goes_next_to_its_linked_model_R71(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (9, 2)), large("L", "p2", (5, 6)), **BOUND),
                    *bound_scene(), ev("MarkerEjected", marker="k2", to=[6, 1]))
    broken(app, lines, line=9, event="MarkerEjected", rule="R71", names=("k2", "[6,1]", "[10,1]"))


def test_no_model_may_end_on_a_taken_bound_marker_with_no_free_hex_next_to_its_model_R71(app: Rollcall) -> None:
    walls = (solid("rock", (10, 2), (10, 1), (9, 1), (8, 2)),)
    lines = game_of(header(inf("a", "p1", (9, 2)), large("L", "p2", (5, 6)), terrain=walls, **BOUND),
                    *bound_scene())
    broken(app, lines, line=8, event="ModelMoved", rule="R71", names=("k2", "a", "L"))


# --- displacement: R72 --------------------------------------------------------------------------------------

def test_a_large_model_that_dodges_a_displacement_stays_put_R72(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), large("E", "p2", (5, 6))),
                    dodge_roll("p2", "success"), ev("ModelDisplaced", model="E", by="a", to=[[8, 4]], dodge=3))
    broken(app, lines, line=5, event="ModelDisplaced", rule="R72", names=("E", "[5,6]"))


def test_a_large_model_that_dodges_a_displacement_is_not_moved_R72(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), large("E", "p2", (5, 6))),
                    dodge_roll("p2", "success"), ev("ModelDisplaced", model="E", by="a", to=[[5, 6]], dodge=3))
    assert derived_line(app, lines, 4)["dodged"] is True
    assert app.get_game(GAME).state.to_json()["models"]["E"]["at"] == [[5, 6]]


def displaced_after_a_dodge(chosen_by: str) -> list[str]:
    return game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (5, 6))), dodge_roll("p2", "success"),
                   ev("ModelDisplaced", model="e", by="a", to=[6, 6], dodge=3, chosen_by=chosen_by))


def test_after_dodging_a_displacement_the_infantrys_controller_picks_R72(app: Rollcall) -> None:
    assert accepted(app, displaced_after_a_dodge("p2"))["models"]["e"]["at"] == [[6, 6]]


def test_after_dodging_a_displacement_the_displacer_does_not_pick_R72(app: Rollcall) -> None:
    broken(app, displaced_after_a_dodge("p1"), line=5, event="ModelDisplaced", rule="R72",
           names=("e dodged", "p2", "not p1"))


def test_only_an_opponents_model_may_dodge_a_displacement_R72(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("b", "p1", (5, 2))),
                    dodge_roll("p1", "success"), ev("ModelDisplaced", model="b", by="a", to=[6, 2], dodge=3))
    broken(app, lines, line=5, event="ModelDisplaced", rule="R72", names=("b", "a"))


# --- free attacks: R73–R75 ----------------------------------------------------------------------------------

def test_a_model_engaged_at_the_start_of_a_move_takes_free_attacks_R73(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (3, 2))),
                    *activation("a", move("a", "step", (2, 3), free_attacks=[])))
    broken(app, lines, line=5, event="ModelMoved", rule="R73", names=("free_attacks", '["e"]'))


def test_passing_a_hex_next_to_an_enemy_provokes_a_free_attack_R74(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (4, 1))),
                    *activation("a", move("a", "step", (3, 2), (3, 3), free_attacks=[])))
    broken(app, lines, line=5, event="ModelMoved", rule="R74", names=("free_attacks", '["e"]'))


def test_ending_next_to_an_enemy_provokes_no_free_attack_R74(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (5, 2))),
                    *activation("a", move("a", "step", (3, 2), (4, 2))))
    assert derived_line(app, lines, 4)["free_attacks"] == []


def test_claiming_a_free_attack_that_did_not_happen_breaks_R74(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (8, 8))),
                    *activation("a", move("a", "step", (3, 2), free_attacks=["e"])))
    broken(app, lines, line=5, event="ModelMoved", rule="R74", names=("free_attacks", '["e"]', "[]"))


def test_a_panic_move_while_engaged_takes_free_attacks_R75(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (3, 2))),
                    move("a", "panic", (1, 2), free_attacks=[]))
    broken(app, lines, line=4, event="ModelMoved", rule="R75", names=("free_attacks", '["e"]'))


def test_an_effect_move_takes_no_free_attack_for_being_engaged_R75(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (3, 2))), move("a", "effect", (1, 2)))
    assert derived_line(app, lines, 3)["free_attacks"] == []


# --- deployment: R76 ----------------------------------------------------------------------------------------

ZONE_P1 = [[q, r] for r in (0, 1) for q in range(0, 14)]


def test_a_model_must_be_deployed_inside_its_zone_R76(app: Rollcall) -> None:
    head = header(inf("a", "p1", (2, 5)), zones={"p1": ZONE_P1})
    broken(app, lines_of(head, ev("TurnStarted", turn=1)), line=1, event=None, rule="R76",
           names=("a", "[2,5]", "p1's deployment zone"))
    assert app.stored_lines(GAME)[0]["violations"][0]["rule"] == "R76"


def test_a_huge_model_that_cannot_fit_may_stick_out_of_its_zone_R76(app: Rollcall) -> None:
    zone = [[5, 6], [6, 6], [6, 5], [5, 5], [4, 6], [4, 7], [5, 7]]  # exactly hexon [5,6]
    state = accepted(app, lines_of(header(huge("H", "p1", [(5, 6), (7, 7)]), zones={"p1": zone})))
    assert state["models"]["H"]["at"] == [[5, 6], [7, 7]]


def test_a_huge_model_that_could_fit_may_not_stick_out_of_its_zone_R76(app: Rollcall) -> None:
    zone = [list(h) for c in ((5, 6), (7, 7)) for h in hexon(c)]
    head = header(huge("H", "p1", [(3, 5), (5, 6)]), zones={"p1": zone})
    broken(app, lines_of(head), line=1, event=None, rule="R76", names=("H",))


def hexon(c: tuple[int, int]) -> list[tuple[int, int]]:
    from domain.systems.tornscape.hexes import hexon_hexes

    return list(hexon_hexes(c))


# --- structural checks F01–F06 ------------------------------------------------------------------------------

def test_only_a_model_waiting_to_be_ejected_can_be_ejected_F01(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5)), inf("e", "p2", (9, 9))),
                    *activation("L", ev("ModelEjected", model="e", by="L", to=[9, 8])))
    broken(app, lines, line=5, event="ModelEjected", rule="F01", names=("model e", "not waiting"))


def test_a_model_is_ejected_by_the_model_that_shoved_it_F01(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6)), inf("x", "p1", (11, 2))),
                    *activation("L", move("L", "step", (5, 6)), ev("ModelEjected", model="e", by="x", to=[7, 5])))
    broken(app, lines, line=6, event="ModelEjected", rule="F01", names=("e", "by L", "not x"))


def test_turns_count_one_two_three_F02(app: Rollcall) -> None:
    lines = lines_of(header(inf("a", "p1", (2, 2))), ev("TurnStarted", turn=2))
    broken(app, lines, line=2, event="TurnStarted", rule="F02", names=("turn 2", "turn 0"))


def test_a_dodge_must_use_a_dodge_roll_F03(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)),
                                ev("DiceRolled", player="p2", purpose="attack", die="agility", faces=["success"]),
                                ev("ModelEjected", model="e", by="L", to=[7, 5], dodge=5)))
    broken(app, lines, line=7, event="ModelEjected", rule="F03", names=("roll 5", "attack roll"))


def test_a_dodge_is_rolled_by_the_shoved_models_player_F03(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6))),
                    *activation("L", move("L", "step", (5, 6)), dodge_roll("p1", "success"),
                                ev("ModelEjected", model="e", by="L", to=[7, 5], dodge=5)))
    broken(app, lines, line=7, event="ModelEjected", rule="F03", names=("roll 5", "p1", "p2"))


def test_a_roll_is_used_once_F03(app: Rollcall) -> None:
    lines = game_of(shove_of(inf("e", "p2", (6, 6)), inf("f", "p2", (5, 5))),
                    *activation("L", move("L", "step", (5, 6)), dodge_roll("p2", "blank"),
                                ev("ModelEjected", model="e", by="L", to=[7, 5], dodge=5),
                                ev("ModelEjected", model="f", by="L", to=[5, 4], dodge=5)))
    broken(app, lines, line=8, event="ModelEjected", rule="F03", names=("roll 5", "already used", "seq 6"))


def test_after_a_game_is_sealed_only_judge_events_follow_F04(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), ev("GameSealed", confirmed_by=["p1", "p2"]),
                    ev("Noted", text="fine"), ev("TurnStarted", turn=2))
    broken(app, lines, line=6, event="TurnStarted", rule="F04", names=("sealed",))


def test_a_game_ends_once_F04(app: Rollcall) -> None:
    end = ev("GameEnded", score={"p1": 1, "p2": 0}, winner="p1", reason="time")
    broken(app, game_of(header(inf("a", "p1", (2, 2))), end, end), line=5, event="GameEnded", rule="F04",
           names=("already ended",))


def test_a_game_is_sealed_by_both_players_F04(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), ev("GameSealed", confirmed_by=["p1"]))
    broken(app, lines, line=4, event="GameSealed", rule="F04", names=("both players",))


def test_activations_do_not_overlap_F05(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("b", "p2", (8, 8))),
                    ev("ActivationStarted", model="a"), ev("ActivationStarted", model="b"))
    broken(app, lines, line=5, event="ActivationStarted", rule="F05", names=("b", "a"))


def test_an_activation_ends_only_if_it_started_F05(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), ev("ActivationEnded", model="a"))
    broken(app, lines, line=4, event="ActivationEnded", rule="F05", names=("a", "none"))


def test_a_movement_action_happens_in_the_models_own_activation_F05(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("b", "p2", (8, 8))),
                    *activation("b", move("a", "step", (3, 2))))
    broken(app, lines, line=5, event="ModelMoved", rule="F05", names=("a", "step", "open: b"))


def test_a_marker_is_taken_from_next_to_it_F06(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), markers=(marker("k1", "portable", (6, 6)),)),
                    *activation("a", ev("MarkerTaken", model="a", marker="k1")))
    broken(app, lines, line=5, event="MarkerTaken", rule="F06", names=("a", "k1", "[6,6]"))


# --- malformed records --------------------------------------------------------------------------------------

def refused(app: Rollcall, lines: list[str], *, line: int, event: str | None, says: tuple) -> str:
    """A malformed record is refused in strict AND lenient mode, with the line, and nothing stored."""
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


def test_bad_json_is_refused_with_its_line(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))))
    lines.insert(2, '{"type": "PhaseStarted", "phase": ')
    refused(app, lines, line=3, event=None, says=("not valid JSON",))


def test_a_line_that_is_not_an_object_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)))) + ["[1, 2]"]
    refused(app, lines, line=4, event=None, says=("JSON object",))


def test_comment_and_blank_lines_count_in_line_numbers(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))))
    lines[1:1] = ["# a comment", "   "]
    lines.append(json.dumps(ev("Teleported", model="a")))
    refused(app, lines, line=6, event="Teleported", says=("unknown event type `Teleported`",))


def test_an_unknown_event_type_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), ev("Teleported", model="a"))
    refused(app, lines, line=4, event="Teleported", says=("unknown event type `Teleported`", "tornscape"))


def test_a_line_without_type_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), {"model": "a"})
    refused(app, lines, line=4, event=None, says=("missing field `type`",))


def test_a_missing_field_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), *activation("a", ev("ModelMoved", model="a", action="step")))
    refused(app, lines, line=5, event="ModelMoved", says=("missing field `path`",))


def test_a_mistyped_field_is_refused(app: Rollcall) -> None:
    lines = lines_of(header(inf("a", "p1", (2, 2))), ev("TurnStarted", turn="1"))
    refused(app, lines, line=2, event="TurnStarted", says=("field `turn` must be an integer", '"1"'))


def test_a_value_outside_its_choices_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), *activation("a", move("a", "teleport", (3, 2))))
    refused(app, lines, line=5, event="ModelMoved", says=("field `action` must be one of", "teleport"))


def test_an_unknown_field_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), ev("Noted", text="hi", mood="grim"))
    refused(app, lines, line=4, event="Noted", says=("unknown field `mood`",))


def test_an_off_board_hex_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), *activation("a", move("a", "step", (30, 2))))
    refused(app, lines, line=5, event="ModelMoved", says=("[30,2]", "off the 14×12 board"))


def test_models_overlapping_in_the_setup_are_refused(app: Rollcall) -> None:
    head = header(inf("a", "p1", (6, 6)), large("L", "p2", (5, 6)))
    refused(app, lines_of(head), line=1, event=None, says=("L at [[5,6]]", "overlaps model a at [6,6]"))


def test_an_off_board_model_in_the_setup_is_refused(app: Rollcall) -> None:
    refused(app, lines_of(header(inf("a", "p1", (-5, 2)))), line=1, event=None, says=("[-5,2]", "off the"))


def test_a_large_model_off_a_hexon_centre_is_refused(app: Rollcall) -> None:
    lines = game_of(header(large("L", "p1", (3, 5))), *activation("L", move("L", "step", (4, 5))))
    refused(app, lines, line=5, event="ModelMoved", says=("[4,5]", "not a hexon centre"))


def test_an_unknown_model_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), ev("ActivationStarted", model="ghost"))
    refused(app, lines, line=4, event="ActivationStarted", says=("no model 'ghost'",))


def test_an_unknown_player_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), dodge_roll("p9", "blank"))
    refused(app, lines, line=4, event="DiceRolled", says=("unknown player 'p9'",))


def test_a_face_the_die_does_not_have_is_refused(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), dodge_roll("p1", "skull"))
    refused(app, lines, line=4, event="DiceRolled", says=('"skull" is not a face of the agility die',))


def test_a_header_with_one_player_is_refused(app: Rollcall) -> None:
    head = header(inf("a", "p1", (2, 2)))
    head["players"] = PLAYERS[:1]
    refused(app, lines_of(head), line=1, event=None, says=("exactly two players",))


def test_an_empty_record_is_refused(app: Rollcall) -> None:
    with pytest.raises(RecordError, match="empty"):
        app.import_record(["# nothing", ""], FILE)


def test_seq_gaps_are_refused(app: Rollcall) -> None:
    lines = lines_of(header(inf("a", "p1", (2, 2))), {**ev("TurnStarted", turn=1), "seq": 1},
                     {**ev("PhaseStarted", phase="activation"), "seq": 3})
    refused(app, lines, line=3, event="PhaseStarted", says=("field `seq` is 3", "event 2"))


def test_seq_must_start_at_one(app: Rollcall) -> None:
    lines = lines_of(header(inf("a", "p1", (2, 2))), {**ev("TurnStarted", turn=1), "seq": 0})
    refused(app, lines, line=2, event="TurnStarted", says=("field `seq` is 0",))


def test_seq_may_be_omitted_or_given_in_order(app: Rollcall) -> None:
    lines = lines_of(header(inf("a", "p1", (2, 2))), {**ev("TurnStarted", turn=1), "seq": 1},
                     ev("PhaseStarted", phase="activation"), {**ev("Noted", text="x"), "seq": 3})
    assert app.import_record(lines, FILE).events == 3


def test_an_edited_line_fails_its_hash_with_its_line_number(app: Rollcall, tmp_path: Path) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), *activation("a", move("a", "step", (3, 2))))
    app.import_record(lines, FILE)
    exported = list(app.export_lines(GAME))
    exported[4] = exported[4].replace('"path": [[3, 2]]', '"path": [[2, 3]]')
    other = Rollcall.open(tmp_path / "other")
    with pytest.raises(RecordError) as info:
        other.import_record(exported, FILE)
    assert str(info.value).startswith(f"{FILE}:5 (ModelMoved): ")
    assert "`hash` does not match" in str(info.value)
    assert other.exists(GAME) is False


# --- duplicates ---------------------------------------------------------------------------------------------

def test_a_duplicate_import_is_refused_and_changes_nothing(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2))), *activation("a", move("a", "step", (3, 2))))
    app.import_record(lines, FILE)
    before = list(app.export_lines(GAME))
    longer = lines + [json.dumps(ev("ActivationEnded", model="a"))]
    for lenient in (False, True):
        with pytest.raises(RecordError) as info:
            app.import_record(longer, FILE, lenient=lenient)
        assert str(info.value).startswith(f"{FILE}:1: ")
        assert "already recorded" in str(info.value) and "'g'" in str(info.value)
    assert list(app.export_lines(GAME)) == before
    assert [h["game"] for h in app.headers()] == [GAME]


def test_a_game_id_is_derived_from_tournament_round_and_table(app: Rollcall) -> None:
    head = header(inf("a", "p1", (2, 2)))
    del head["game"]
    head.update(tournament="Autumn Open 2026", round=2, table=7)
    assert app.import_record(lines_of(head), FILE).game == "autumn-open-2026-r2-t7"


# --- lenient games keep going -------------------------------------------------------------------------------

def test_lenient_import_records_every_violation_and_keeps_replaying(app: Rollcall) -> None:
    lines = game_of(header(inf("a", "p1", (2, 2)), inf("e", "p2", (3, 2))),
                    *activation("a", move("a", "step", (3, 2), (4, 2), (5, 2), (6, 2)),
                                move("a", "step", (7, 2))))
    imported = app.import_record(lines, FILE, lenient=True)
    stored = app.stored_lines(GAME)
    rules = [v["rule"] for v in stored[4]["violations"]]
    assert rules == ["R42", "R44"]
    assert [v["rule"] for v in stored[5]["violations"]] == ["R41"]
    assert imported.violations == 3
    assert app.get_game(GAME).state.to_json()["models"]["a"]["at"] == [[7, 2]]


def test_a_new_game_checks_its_setup_once_and_holds_the_state_a_reload_rebuilds(app: Rollcall, monkeypatch) -> None:
    from domain.systems.tornscape.pack import Tornscape

    calls = []
    check_setup = Tornscape.check_setup
    monkeypatch.setattr(Tornscape, "check_setup", lambda self, state, chk: calls.append(1) or check_setup(
        self, state, chk))
    head = header(inf("a", "p1", (2, 2)), large("b", "p2", (0, 7)), terrain=(solid("t1", (5, 5)),))
    game = app.check(header=head).game
    assert len(calls) == 1
    app.save(game)
    assert app.get_game(game.header["game"]).state.to_json() == game.state.to_json()
    assert len(calls) == 2  # the reload builds its state from the stored header
