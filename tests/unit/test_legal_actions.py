"""What each rules pack offers to record next: the common events, The 9th Age's magic phase step by
step and Claustrophobia's initiative, state by state on small games."""

from __future__ import annotations

from typing import Any

import pytest

from completions import completions, examples as completions_examples
from domain.game import Game
from domain.systems.actions import Action, count, faces, offered, one_of
from domain.systems.pack import winner_of

PLAYERS = [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}]


def start(system: str, setup: dict, rules: dict | None = None) -> Game:
    return Game.start({"rollcall": 1, "system": system, "game": "g", "players": PLAYERS, "rules": rules or {},
                       "setup": setup}, id=None)  # type: ignore[arg-type]


def offers(game: Game, event_type: str, **fixed: Any) -> list[Action]:
    return [a for a in game.system.legal_actions(game.state)
            if a.event["type"] == event_type and all(a.event.get(k) == v for k, v in fixed.items())]


def types(game: Game) -> set[str]:
    return {a.event["type"] for a in game.system.legal_actions(game.state)}


def play(game: Game, *events: dict) -> None:
    for event in events:
        game.record(event)


# --- the vocabulary -------------------------------------------------------------------------------

def test_an_entry_of_an_object_field_fills_into_the_object_and_the_derived_winner_follows_the_score() -> None:
    end = Action({"type": "GameEnded"}, "End", open={"score.p1": count(0, 9), "score.p2": count(0, 9),
                                                      "reason": one_of(["turn limit"])},
                 derive=lambda e: {"winner": winner_of(e["score"])})
    event = end.fill(**{"score.p1": 3, "score.p2": 5}, reason="turn limit")
    assert event == {"type": "GameEnded", "score": {"p1": 3, "p2": 5}, "reason": "turn limit", "winner": "p2"}
    assert end.matches(event)
    assert not end.matches({**event, "winner": "p1"})
    assert not end.matches({**event, "score": {"p1": 3, "p2": 5, "p3": 1}, "winner": "p3"})
    assert end.fill(**{"score.p1": 4, "score.p2": 4}, reason="turn limit")["winner"] is None
    with pytest.raises(ValueError, match="score.p1"):
        end.fill(**{"score.p1": 10, "score.p2": 4}, reason="turn limit")


def test_completions_of_a_final_score_give_a_draw_and_a_win_for_each_side() -> None:
    end = Action({"type": "GameEnded"}, "End", open={"score.p1": count(0, 50), "score.p2": count(0, 50)},
                 derive=lambda e: {"winner": winner_of(e["score"])})
    winners = [e["winner"] for e in completions(end, 6)]
    assert {None, "p1", "p2"} <= set(winners)


def test_examples_of_many_dice_show_every_face() -> None:
    examples = completions_examples(faces(range(1, 7), 5), 50)
    assert len(examples) == 50 and len({tuple(e) for e in examples}) == 50
    assert {f for e in examples for f in e} == set(range(1, 7))
    assert {e[0] for e in examples} == set(range(1, 7))


# --- the common events --------------------------------------------------------------------------

SETUP_T9A = {"spells": [{"id": "fireball", "path": "pyromancy", "kind": "normal", "casting_value": 7,
                         "boosted_value": 10},
                        {"id": "flame_wall", "path": "pyromancy", "kind": "normal", "casting_value": 8},
                        {"id": "burn", "path": "pyromancy", "kind": "attribute"},
                        {"id": "entangle", "path": "druidism", "kind": "replicable", "casting_value": 5},
                        {"id": "wand", "path": "items", "kind": "bound", "power_level": [4, 8]}],
             "wizards": [{"id": "w1", "player": "p1", "spells": ["fireball", "flame_wall", "burn", "entangle", "wand"]},
                         {"id": "w2", "player": "p1", "spells": ["fireball", "entangle"]},
                         {"id": "w3", "player": "p1", "spells": ["fireball"], "fleeing": True},
                         {"id": "d1", "player": "p2", "spells": ["fireball"]},
                         {"id": "d2", "player": "p2", "spells": ["fireball"], "fleeing": True}],
             "channel": {"p1": 0, "p2": 0}}


def test_the_next_turn_points_and_the_end_are_offered_and_after_the_end_only_the_seal() -> None:
    game = start("t9a", SETUP_T9A)
    assert [a.event for a in offers(game, "TurnStarted")] == [{"type": "TurnStarted", "turn": 1}]
    play(game, {"type": "TurnStarted", "turn": 1})
    assert [a.event["turn"] for a in offers(game, "TurnStarted")] == [2]
    points = offers(game, "PointsScored")[0]
    assert points.open["player"].values == ("p1", "p2") and points.open["points"].low == 1
    assert "spell damage" in points.open["reason"].values
    play(game, {"type": "PointsScored", "player": "p2", "points": 3, "reason": "spell damage"})
    end = offers(game, "GameEnded")[0]
    assert offered([end], {"type": "GameEnded", "score": {"p1": 0, "p2": 3}, "winner": "p2", "reason": "turn limit"})
    assert not offered([end], {"type": "GameEnded", "score": {"p1": 0, "p2": 3}, "winner": "p1",
                               "reason": "turn limit"})
    play(game, end.fill(**{"score.p1": 0, "score.p2": 3}, reason="turn limit"))
    assert [a.event for a in game.system.legal_actions(game.state)] == [
        {"type": "GameSealed", "confirmed_by": ["p1", "p2"]}]
    play(game, {"type": "GameSealed", "confirmed_by": ["p1", "p2"]})
    assert game.system.legal_actions(game.state) == []


def test_a_final_score_above_the_usual_bound_is_still_offered() -> None:
    game = start("t9a", SETUP_T9A)
    play(game, *[{"type": "PointsScored", "player": "p1", "points": 20, "reason": "objective"}] * 6)
    end = offers(game, "GameEnded")[0]
    assert end.open["score.p1"].allows(120) and end.open["score.p2"].allows(0)


# --- The 9th Age ---------------------------------------------------------------------------------

def siphoned(card: str = "5", converted: int = 3, active: str = "p1") -> Game:
    """p1's magic phase, Flux card 5 (5 dice each, 9 veil tokens), 3 dice siphoned: p1 8 dice, p2 5."""
    game = start("t9a", SETUP_T9A)
    play(game, {"type": "TurnStarted", "turn": 1}, {"type": "MagicPhaseStarted", "active": active},
         {"type": "FluxCardDrawn", "card": card}, {"type": "VeilSiphoned", "converted_dice": converted})
    return game


def roll(game: Game, player: str, purpose: str, dice: list[int]) -> int:
    return game.record({"type": "DiceRolled", "player": player, "purpose": purpose, "die": "d6", "faces": dice})["seq"]


def test_a_magic_phase_goes_start_flux_card_siphon_with_the_cards_left_and_the_veil_allowed() -> None:
    game = start("t9a", SETUP_T9A)
    play(game, {"type": "TurnStarted", "turn": 1})
    assert offers(game, "MagicPhaseStarted")[0].open["active"].values == ("p1", "p2")
    play(game, {"type": "MagicPhaseStarted", "active": "p1"})
    assert "TurnStarted" not in types(game)
    flux = offers(game, "FluxCardDrawn")[0]
    assert flux.open["card"].values == tuple("12345678") and flux.actor == "p2"
    play(game, {"type": "FluxCardDrawn", "card": "2"})  # 2 veil tokens: no die to convert
    assert offers(game, "VeilSiphoned")[0].open["converted_dice"] == count(0, 0)
    play(game, {"type": "VeilSiphoned", "converted_dice": 0}, {"type": "MagicPhaseEnded"},
         {"type": "TurnStarted", "turn": 2}, {"type": "MagicPhaseStarted", "active": "p1"})
    assert "2" not in offers(game, "FluxCardDrawn")[0].open["card"].values  # R83
    play(game, {"type": "FluxCardDrawn", "card": "5"})  # 9 tokens + 2 kept: 3 dice (R88), never more than 4 (R89)
    assert offers(game, "VeilSiphoned")[0].open["converted_dice"] == count(0, 3)


def test_a_player_without_flux_cards_left_starts_no_magic_phase() -> None:
    game = start("t9a", SETUP_T9A)
    for turn, card in enumerate("12345678", start=1):
        play(game, {"type": "TurnStarted", "turn": turn}, {"type": "MagicPhaseStarted", "active": "p1"},
             {"type": "FluxCardDrawn", "card": card}, {"type": "VeilSiphoned", "converted_dice": 0},
             {"type": "MagicPhaseEnded"})
    assert offers(game, "MagicPhaseStarted")[0].open["active"].values == ("p2",)


def test_casting_rolls_are_offered_for_one_to_five_dice_within_the_pool() -> None:
    game = siphoned()
    assert sorted(a.open["faces"].count for a in offers(game, "DiceRolled", purpose="casting")) == [1, 2, 3, 4, 5]
    game = siphoned(card="2", converted=0)  # 5 dice
    seq = roll(game, "p1", "casting", [6, 6])
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "flame_wall", "dice": 2, "roll": seq})
    play(game, {"type": "SpellResolved", "spell": "flame_wall"})
    assert sorted(a.open["faces"].count for a in offers(game, "DiceRolled", purpose="casting")) == [1, 2, 3]


def test_after_a_casting_roll_only_the_attempts_naming_it_are_offered_basic_or_boosted() -> None:
    game = siphoned()
    seq = roll(game, "p1", "casting", [4, 3])
    attempts = offers(game, "CastingAttempted")
    assert {(a.event["wizard"], a.event["spell"], a.event.get("version")) for a in attempts} == {
        ("w1", "fireball", None), ("w1", "fireball", "boosted"), ("w1", "flame_wall", None),
        ("w1", "entangle", None), ("w2", "fireball", None), ("w2", "fireball", "boosted"), ("w2", "entangle", None)}
    assert all(a.event["dice"] == 2 and a.event["roll"] == seq for a in attempts)  # no fleeing w3, no unrolled wand
    assert types(game) == {"CastingAttempted", "PointsScored", "GameEnded"}


def test_a_spell_tried_once_is_offered_to_no_wizard_but_a_replicable_one_to_each_other_wizard_once() -> None:
    game = siphoned()
    seq = roll(game, "p1", "casting", [1, 1])
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "fireball", "dice": 2, "roll": seq})
    seq = roll(game, "p1", "casting", [1, 1])
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "entangle", "dice": 2, "roll": seq})
    roll(game, "p1", "casting", [1, 2])
    tried = {(a.event["wizard"], a.event["spell"]) for a in offers(game, "CastingAttempted")}
    assert tried == {("w1", "flame_wall"), ("w2", "entangle")}  # R92 fireball, R91 and X05 entangle


def test_a_bound_spell_is_cast_unrolled_with_the_dice_the_pool_allows() -> None:
    game = siphoned(card="2", converted=0)  # 5 dice
    bound = offers(game, "CastingAttempted", spell="wand")
    assert [(a.event, a.open["dice"].values) for a in bound] == [
        ({"type": "CastingAttempted", "wizard": "w1", "spell": "wand"}, (2, 3))]
    seq = roll(game, "p1", "casting", [3, 3, 3])
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "flame_wall", "dice": 3, "roll": seq},
         {"type": "MiscastResolved", "wizard": "w1"}, {"type": "SpellResolved", "spell": "flame_wall"})
    assert offers(game, "CastingAttempted", spell="wand")[0].open["dice"].values == (2,)


def test_a_passed_cast_is_answered_by_a_dispel_within_the_reactive_pool_then_its_effect() -> None:
    game = siphoned()
    seq = roll(game, "p1", "casting", [5, 4])
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "fireball", "dice": 2, "roll": seq})
    assert "MagicPhaseEnded" not in types(game) and not offers(game, "DiceRolled", purpose="casting")
    assert sorted(a.open["faces"].count for a in offers(game, "DiceRolled", purpose="dispel")) == [1, 2, 3, 4, 5]
    assert [a.event for a in offers(game, "SpellResolved")] == [{"type": "SpellResolved", "spell": "fireball"}]
    seq = roll(game, "p2", "dispel", [2, 3])
    dispel = offers(game, "DispelAttempted")
    assert [(a.event, a.open["wizard"].values) for a in dispel] == [
        ({"type": "DispelAttempted", "dice": 2, "roll": seq}, ("d1",))]  # d2 flees (X07)
    play(game, dispel[0].fill(wizard="d1"))
    assert not offers(game, "DiceRolled", purpose="dispel")  # one answer
    play(game, {"type": "SpellResolved", "spell": "fireball"})
    assert [a.event["spell"] for a in offers(game, "AttributeResolved")] == ["burn"]
    assert "MagicPhaseEnded" in types(game)


def test_a_miscast_is_resolved_before_the_effect_and_a_dispelled_spell_has_none() -> None:
    game = siphoned()
    seq = roll(game, "p1", "casting", [4, 4, 4])
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "fireball", "dice": 3, "roll": seq})
    assert [a.event for a in offers(game, "MiscastResolved")] == [{"type": "MiscastResolved", "wizard": "w1"}]
    assert not offers(game, "SpellResolved")
    seq = roll(game, "p2", "dispel", [6, 6, 6])
    play(game, {"type": "DispelAttempted", "wizard": "d1", "dice": 3, "roll": seq})
    assert not types(game) & {"MiscastResolved", "SpellResolved", "AttributeResolved"}
    assert "MagicPhaseEnded" in types(game)


def test_a_failed_cast_leaves_nothing_to_answer() -> None:
    game = siphoned()
    seq = roll(game, "p1", "casting", [1, 1])
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "fireball", "dice": 2, "roll": seq})
    assert not types(game) & {"DispelAttempted", "MiscastResolved", "SpellResolved"}
    assert not offers(game, "DiceRolled", purpose="dispel")


def test_a_spell_forgotten_to_amnesia_is_not_offered_again() -> None:
    game = siphoned(card="1", converted=1)  # miscasts +1: a triple of 3 on 3 dice is 3 + 1 - 1 = 3
    seq = roll(game, "p1", "casting", [4, 4, 4])  # 4 + 1 - 1 = 4: amnesia
    play(game, {"type": "CastingAttempted", "wizard": "w1", "spell": "fireball", "dice": 3, "roll": seq})
    assert game.record({"type": "MiscastResolved", "wizard": "w1"})["effect"] == "amnesia"
    play(game, {"type": "SpellResolved", "spell": "fireball"}, {"type": "MagicPhaseEnded"},
         {"type": "TurnStarted", "turn": 2}, {"type": "MagicPhaseStarted", "active": "p1"},
         {"type": "FluxCardDrawn", "card": "5"}, {"type": "VeilSiphoned", "converted_dice": 0})
    roll(game, "p1", "casting", [3])
    assert ("w1", "fireball") not in {(a.event["wizard"], a.event["spell"]) for a in offers(game, "CastingAttempted")}
    assert ("w2", "fireball") in {(a.event["wizard"], a.event["spell"]) for a in offers(game, "CastingAttempted")}


# --- Claustrophobia ------------------------------------------------------------------------------

REDEEMER = {"id": "redeemer", "kind": "redeemer", "sceptre": True,
            "lines": {"3": {"mvt": 2, "cbt": 1, "def": 4}, "5": {"mvt": 1, "cbt": 1, "def": 5}},
            "gifts": {"5": "aura_of_foresight"}}
BLADE = {"id": "blade", "kind": "blade_for_hire",
         "lines": {"2": {"mvt": 1, "cbt": 2, "def": 4}, "4": {"mvt": 2, "cbt": 2, "def": 3}}}


def crypt(*warriors: dict) -> Game:
    game = start("claustrophobia", {"human": "p1", "warriors": list(warriors) or [REDEEMER, BLADE]})
    play(game, {"type": "TurnStarted", "turn": 1})
    return game


def test_a_round_starts_with_the_initiative_and_its_action_dice_rolled_by_the_human_player() -> None:
    game = crypt()
    assert [a.event["phase"] for a in offers(game, "PhaseStarted")] == ["initiative"]
    play(game, {"type": "PhaseStarted", "phase": "initiative"})
    dice = offers(game, "DiceRolled")
    assert [(a.event["player"], a.event["purpose"], a.open["faces"].count) for a in dice] == [("p1", "initiative", 3)]
    assert not offers(game, "PhaseStarted")  # the dice first
    no_sceptre = crypt({**REDEEMER, "sceptre": False}, BLADE)
    play(no_sceptre, {"type": "PhaseStarted", "phase": "initiative"})
    assert offers(no_sceptre, "DiceRolled")[0].open["faces"].count == 2


def test_each_die_goes_to_a_warrior_without_one_and_the_action_phase_waits_for_all() -> None:
    game = crypt()
    play(game, {"type": "PhaseStarted", "phase": "initiative"})
    seq = game.record({"type": "DiceRolled", "player": "p1", "purpose": "initiative", "die": "d6",
                       "faces": [5, 2, 6]})["seq"]
    pairs = {(a.event["warrior"], a.event["index"]) for a in offers(game, "ActionDieAssigned", roll=seq)}
    assert pairs == {(w, i) for w in ("redeemer", "blade") for i in range(3)}
    assert not offers(game, "PhaseStarted") and not offers(game, "TurnStarted")
    play(game, {"type": "ActionDieAssigned", "warrior": "redeemer", "roll": seq, "index": 0})
    assert {(a.event["warrior"], a.event["index"]) for a in offers(game, "ActionDieAssigned")} == {
        ("blade", 1), ("blade", 2)}
    assert [a.event for a in offers(game, "GiftUsed")] == [
        {"type": "GiftUsed", "warrior": "redeemer", "gift": "aura_of_foresight"}]
    play(game, {"type": "ActionDieAssigned", "warrior": "blade", "roll": seq, "index": 2})
    assert [a.event["phase"] for a in offers(game, "PhaseStarted")] == ["action"]
    play(game, {"type": "PhaseStarted", "phase": "action"})
    assert not offers(game, "PhaseStarted") and offers(game, "TurnStarted")


def test_lines_are_lost_while_available_restored_once_lost_and_an_exhausted_redeemer_has_no_gift() -> None:
    game = crypt()
    assert offers(game, "LineLost", warrior="redeemer")[0].open["line"].values == (3, 5)
    assert not offers(game, "LineRestored")
    play(game, {"type": "LineLost", "warrior": "redeemer", "line": 5})
    assert offers(game, "LineLost", warrior="redeemer")[0].open["line"].values == (3,)
    assert offers(game, "LineRestored", warrior="redeemer")[0].open["line"].values == (5,)
    play(game, {"type": "PhaseStarted", "phase": "initiative"})
    seq = game.record({"type": "DiceRolled", "player": "p1", "purpose": "initiative", "die": "d6",
                       "faces": [5, 2, 6]})["seq"]
    assert game.record({"type": "ActionDieAssigned", "warrior": "redeemer", "roll": seq, "index": 0})["exhausted"]
    assert not offers(game, "GiftUsed")  # R104
    play(game, {"type": "LineRestored", "warrior": "redeemer", "line": 5})  # X08: no longer exhausted
    assert offers(game, "GiftUsed", warrior="redeemer")


def test_a_removed_warrior_is_offered_nothing_and_takes_no_die() -> None:
    game = crypt()
    play(game, {"type": "WarriorRemoved", "warrior": "blade"}, {"type": "PhaseStarted", "phase": "initiative"})
    assert offers(game, "DiceRolled")[0].open["faces"].count == 2  # the redeemer and his Sceptre
    assert not [a for a in game.system.legal_actions(game.state) if a.event.get("warrior") == "blade"]
