"""Every magic-phase rule of seed 001 (R77–R97) and every extra check X01–X07 of The 9th Age that a
record can break.

Each ``test_*_R<nn>`` / ``test_*_X<nn>`` builds a small record that breaks one rule and asserts that

* a strict import raises ``RecordError`` reading ``FILE:LINE (EventType): R<nn> …`` naming the
  wizards / spells / cards concerned, and stores nothing of that game (``app.exists`` is False);
* a lenient import stores the game, with ``violations`` naming the rule on the offending line (and on
  no earlier line).

Rules of R77–R97 and X01–X07 a record cannot break, and why:

* R81 — that the Flux card is drawn from the Active player's deck is built in (``FluxCardDrawn`` names a
  card of that deck; a card of it drawn twice is R83). Who draws it is checked where the record says it:
  the optional ``player`` of ``FluxCardDrawn`` must be the Reactive player (tested).
* R84 — that the card is random can only be checked for digital draws, which must be the committed
  seed's draw over the active player's cards left (checked as F07 when ``GameEnded`` reveals the seed,
  tested below); a physical draw is whatever card the players turned up.
* R93 — the declaration *is* the ``CastingAttempted`` event: wizard, spell and dice are required fields
  (a line without one is malformed, not a rule violation, tested below), the version defaults to
  basic (R97, tested) and the target is free text Rollcall does not model. "Before rolling" cannot be
  told from a record, whose roll line comes first by design (the use names its roll).
* X02 — the fizzle gives natural 1s of a failed attempt (2+ dice) back to the pool; no event states the
  pool, so a record cannot contradict it directly. What it changes is what the pool holds for the next
  attempt (R95), tested with the switch on and off.
* The effects of the miscast table (amnesia, broken concentration) and of spells are not events, so
  the dice-count modifier and the table are tested only through the derived ``value`` / ``effect``
  of ``MiscastResolved`` (X06).

Derived fields given wrongly on import break the rule that derives them: ``magic_dice`` and
``veil_tokens`` of ``FluxCardDrawn`` R82, its ``miscast_modifier`` R85 (card 1) / R86 (card 8);
``pool`` R87, ``kept`` R90, ``magic_dice`` of ``VeilSiphoned`` R88; ``total``/``passed`` R96 (X03 for a
bound spell, X01 for a lone natural 1–2); ``miscast`` X06; ``total``/``dispelled`` X07 (X01);
``value``/``effect`` X06; ``carried`` R90.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain import randomness
from service.application import Rollcall
from domain.errors import RecordError
from rulecheck import imported_cleanly, refused_and_marked

FILE = "magic.rollcall.jsonl"
GAME = "g"
PLAYERS = [{"id": "p1", "name": "Anna", "faction": "highborn"}, {"id": "p2", "name": "Boris", "faction": "orcs"}]
SPELLS = [
    {"id": "fireball", "name": "Fireball", "path": "pyromancy", "kind": "normal", "casting_value": 7,
     "boosted_value": 10},
    {"id": "flame_wall", "name": "Flame Wall", "path": "pyromancy", "kind": "normal", "casting_value": 8},
    {"id": "burn", "name": "Burn", "path": "pyromancy", "kind": "attribute"},
    {"id": "heal", "name": "Heal", "path": "druidism", "kind": "normal", "casting_value": 6},
    {"id": "regrowth", "name": "Regrowth", "path": "druidism", "kind": "attribute"},
    {"id": "entangle", "name": "Entangle", "path": "druidism", "kind": "replicable", "casting_value": 5},
    {"id": "wand", "name": "Wand of Sparks", "path": "items", "kind": "bound", "power_level": [4, 8]},
    {"id": "spark", "name": "Spark", "path": "evocation", "kind": "normal", "casting_value": 2},
]
WIZARDS = [
    {"id": "w1", "player": "p1", "spells": ["fireball", "flame_wall", "burn", "entangle", "wand", "spark"]},
    {"id": "w2", "player": "p1", "spells": ["fireball", "heal", "regrowth", "entangle", "wand"]},
    {"id": "w3", "player": "p1", "spells": ["heal"], "fleeing": True},
    {"id": "d1", "player": "p2", "spells": ["heal"]},
    {"id": "d2", "player": "p2", "spells": ["heal"], "fleeing": True},
]


# --- building records ----------------------------------------------------------------------------------

def header(rules: dict | None = None, channel: dict | None = None, **extra: Any) -> dict:
    return {"rollcall": 1, "system": "t9a", "game": GAME, "players": PLAYERS, "rules": rules or {},
            "setup": {"spells": SPELLS, "wizards": WIZARDS, "channel": channel or {"p1": 0, "p2": 0}}, **extra}


class Rec:
    """A record being written; each method appends lines and returns the line number of the last one
    (the header is line 1 and seq 0, so the event on line ``n`` has seq ``n - 1``)."""

    def __init__(self, head: dict) -> None:
        self.items: list[dict] = [head]

    @property
    def line(self) -> int:
        return len(self.items)

    def add(self, event_type: str, **fields: Any) -> int:
        self.items.append({"type": event_type, **fields})
        return self.line

    def phase(self, active: str = "p1", card: str = "5", siphon: int | None = 3, turn: int | None = None,
              **flux: Any) -> int:
        if turn is not None:
            self.add("TurnStarted", turn=turn)
        self.add("MagicPhaseStarted", active=active)
        self.add("FluxCardDrawn", card=card, **flux)
        if siphon is not None:
            self.add("VeilSiphoned", converted_dice=siphon)
        return self.line

    def roll(self, player: str, purpose: str, faces: list[int]) -> int:
        """A d6 roll; returns its seq."""
        return self.add("DiceRolled", player=player, purpose=purpose, die="d6", faces=faces) - 1

    def cast(self, wizard: str, spell: str, faces: list[int], player: str = "p1", dice: int | None = None,
             **fields: Any) -> int:
        roll = self.roll(player, "casting", faces)
        return self.add("CastingAttempted", wizard=wizard, spell=spell, dice=len(faces) if dice is None else dice,
                        roll=roll, **fields)

    def bound(self, wizard: str, spell: str = "wand", dice: int = 2, **fields: Any) -> int:
        return self.add("CastingAttempted", wizard=wizard, spell=spell, dice=dice, **fields)

    def dispel(self, wizard: str, faces: list[int], player: str = "p2", dice: int | None = None, **fields: Any) -> int:
        roll = self.roll(player, "dispel", faces)
        return self.add("DispelAttempted", wizard=wizard, dice=len(faces) if dice is None else dice, roll=roll,
                        **fields)

    def lines(self) -> list[str]:
        return [json.dumps(item) for item in self.items]


def magic(rules: dict | None = None, channel: dict | None = None, card: str = "5", siphon: int | None = 3) -> Rec:
    """Turn 1, p1's magic phase with Flux card 5 (5 magic dice each, 9 veil tokens), 3 dice siphoned:
    p1 holds 8 magic dice, p2 holds 5; the first event after it is on line 6."""
    rec = Rec(header(rules, channel))
    rec.add("TurnStarted", turn=1)
    rec.phase(card=card, siphon=siphon)
    return rec


# --- asserting ------------------------------------------------------------------------------------------

def broken(app: Rollcall, rec: Rec, *, line: int, event: str | None, rule: str, names: tuple = ()) -> str:
    """Strict import refuses at ``line`` with ``rule``; lenient import marks it (see rulecheck)."""
    return refused_and_marked(app, rec.lines(), file=FILE, game=GAME, line=line, event=event, rule=rule,
                              names=names)


def accepted(app: Rollcall, rec: Rec) -> tuple[dict, list[dict]]:
    """The record imports strictly without violations: (final state, exported lines)."""
    return imported_cleanly(app, rec.lines(), FILE)


# --- R77: the order of the phase ------------------------------------------------------------------------

def test_a_flux_card_is_drawn_inside_a_magic_phase_R77(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    line = rec.add("FluxCardDrawn", card="3")
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R77", names=("MagicPhaseStarted",))


def test_one_flux_card_per_phase_R77(app: Rollcall) -> None:
    rec = magic()
    line = rec.add("FluxCardDrawn", card="2")
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R77", names=("siphoned",))


def test_siphon_the_veil_comes_after_the_flux_card_R77(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    line = rec.add("VeilSiphoned", converted_dice=0)
    broken(app, rec, line=line, event="VeilSiphoned", rule="R77", names=("started",))


def test_casting_comes_after_siphon_the_veil_R77(app: Rollcall) -> None:
    rec = magic(siphon=None)
    line = rec.cast("w1", "fireball", [4, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R77", names=("flux",))


def test_the_phase_ends_after_its_flux_card_and_siphon_R77(app: Rollcall) -> None:
    rec = magic(siphon=None)
    line = rec.add("MagicPhaseEnded")
    broken(app, rec, line=line, event="MagicPhaseEnded", rule="R77", names=("Siphon the Veil",))


def test_a_magic_phase_does_not_start_inside_another_R77(app: Rollcall) -> None:
    rec = magic()
    line = rec.add("MagicPhaseStarted", active="p2")
    broken(app, rec, line=line, event="MagicPhaseStarted", rule="R77")


def test_no_casting_after_the_phase_ended_R77(app: Rollcall) -> None:
    rec = magic()
    rec.add("MagicPhaseEnded")
    line = rec.cast("w1", "fireball", [4, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R77", names=("outside a magic phase",))


def test_a_passed_spell_takes_effect_before_the_next_casting_attempt_R77(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])                     # 8 >= 7: passed; p2 does not dispel
    line = rec.cast("w2", "heal", [3, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R77", names=("fireball", "step D"))


def test_a_spell_not_dispelled_takes_effect_before_the_next_casting_attempt_R77(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.dispel("d1", [2, 3])                               # 5 < 8: not dispelled
    line = rec.cast("w2", "heal", [3, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R77", names=("fireball",))


def test_a_passed_spell_takes_effect_before_the_phase_ends_R77(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    line = rec.add("MagicPhaseEnded")
    broken(app, rec, line=line, event="MagicPhaseEnded", rule="R77", names=("fireball",))


def test_a_dispel_answers_the_casting_attempt_just_made_R77(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.add("SpellResolved", spell="fireball")
    line = rec.dispel("d1", [6, 6])
    broken(app, rec, line=line, event="DispelAttempted", rule="R77")


def test_a_spell_resolves_after_a_casting_attempt_R77(app: Rollcall) -> None:
    rec = magic()
    line = rec.add("SpellResolved", spell="fireball")
    broken(app, rec, line=line, event="SpellResolved", rule="R77", names=("follows a casting attempt",))


def test_a_dispelled_spell_then_the_next_cast_is_the_normal_order_R77(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.dispel("d1", [5, 4])                                # 9 >= 8: dispelled
    rec.cast("w2", "heal", [3, 4])
    rec.add("SpellResolved", spell="heal")
    rec.add("MagicPhaseEnded")
    state, exported = accepted(app, rec)
    assert exported[8]["dispelled"] is True
    assert state["magic"]["step"] == "ended"


# --- R78, R79, R80: the steps of one casting attempt -------------------------------------------------------

def test_a_failed_cast_cannot_be_dispelled_R78(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [2, 3])                     # 5 < 7: failed
    line = rec.dispel("d1", [6])
    broken(app, rec, line=line, event="DispelAttempted", rule="R78", names=("fireball", "skip B-E"))


def test_a_failed_cast_has_no_miscast_R78(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [1, 1, 1])                  # three 1s: a miscast roll, but 3 < 7 fails
    line = rec.add("MiscastResolved", wizard="w1")
    broken(app, rec, line=line, event="MiscastResolved", rule="R78", names=("fireball",))


def test_a_failed_cast_has_no_effect_R78(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [2, 3])
    line = rec.add("SpellResolved", spell="fireball")
    broken(app, rec, line=line, event="SpellResolved", rule="R78", names=("fireball",))


def test_a_failed_cast_has_no_attribute_R78(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [2, 3])
    line = rec.add("AttributeResolved", spell="burn")
    broken(app, rec, line=line, event="AttributeResolved", rule="R78", names=("fireball",))


def test_a_failed_cast_goes_straight_to_the_next_attempt_R78(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [2, 3])
    rec.cast("w2", "heal", [3, 4])
    rec.add("SpellResolved", spell="heal")
    state, exported = accepted(app, rec)
    assert exported[6]["passed"] is False and exported[8]["passed"] is True


def test_a_dispelled_spell_has_no_effect_R79(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.dispel("d1", [4, 4])                                # 8 >= 8: a tie dispels (X07 default)
    line = rec.add("SpellResolved", spell="fireball")
    broken(app, rec, line=line, event="SpellResolved", rule="R79", names=("fireball", "dispelled"))


def test_a_dispelled_spell_has_no_miscast_R79(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [3, 3, 3])                   # 9, a triple
    rec.dispel("d1", [5, 5])
    line = rec.add("MiscastResolved", wizard="w1")
    broken(app, rec, line=line, event="MiscastResolved", rule="R79", names=("fireball",))


def test_a_dispelled_spell_has_no_attribute_R79(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.dispel("d1", [5, 5])
    line = rec.add("AttributeResolved", spell="burn")
    broken(app, rec, line=line, event="AttributeResolved", rule="R79", names=("fireball",))


def test_the_miscast_is_resolved_before_the_spell_R80(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [3, 3, 3])
    line = rec.add("SpellResolved", spell="fireball")
    broken(app, rec, line=line, event="SpellResolved", rule="R80", names=("miscast", "fireball"))


def test_the_miscast_after_a_failed_dispel_is_resolved_before_the_spell_R80(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [3, 3, 3])
    rec.dispel("d1", [2, 3])                                # 5 < 9: not dispelled
    line = rec.add("SpellResolved", spell="fireball")
    broken(app, rec, line=line, event="SpellResolved", rule="R80", names=("miscast", "fireball"))


def test_the_miscast_does_not_come_after_the_spell_R80(app: Rollcall) -> None:
    rec = magic(rules={"switches": {"X06": False}})        # no miscast derived: the spell may come first
    rec.cast("w1", "fireball", [3, 3, 3])
    rec.add("SpellResolved", spell="fireball")
    line = rec.add("MiscastResolved", wizard="w1")
    message = broken(app, rec, line=line, event="MiscastResolved", rule="R80", names=("step C", "step D"))
    assert "fireball" in message


def test_the_attribute_follows_the_spell_R80(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    line = rec.add("AttributeResolved", spell="burn")
    broken(app, rec, line=line, event="AttributeResolved", rule="R80", names=("fireball", "(D)"))


def test_the_spell_resolved_is_the_spell_cast_R80(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    line = rec.add("SpellResolved", spell="heal")
    broken(app, rec, line=line, event="SpellResolved", rule="R80", names=("fireball",))


def test_miscast_spell_then_attribute_is_the_order_C_D_E_R80(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [3, 3, 3])
    rec.add("MiscastResolved", wizard="w1")
    rec.add("SpellResolved", spell="fireball")
    rec.add("AttributeResolved", spell="burn")
    state, _ = accepted(app, rec)
    assert state["magic"]["cast"]["step"] == "E"


# --- R82, R83, R85, R86: Flux cards ------------------------------------------------------------------------

def test_the_flux_card_gives_its_magic_dice_R82(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    line = rec.add("FluxCardDrawn", card="6", magic_dice=5)
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R82", names=("magic_dice", "6"))


def test_the_flux_card_gives_its_veil_tokens_R82(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    line = rec.add("FluxCardDrawn", card="5", veil_tokens=7)
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R82", names=("veil_tokens", "9"))


def test_a_card_without_a_miscast_modifier_has_none_R82(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    line = rec.add("FluxCardDrawn", card="4", miscast_modifier=1)
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R82", names=("miscast_modifier",))


def test_both_players_get_the_flux_cards_magic_dice_R82(app: Rollcall) -> None:
    rec = magic(card="6", siphon=0)
    state, exported = accepted(app, rec)
    assert exported[3] | {"hash": None} == {"seq": 3, "type": "FluxCardDrawn", "card": "6", "magic_dice": 6,
                                            "veil_tokens": 5, "miscast_modifier": 0, "hash": None}
    assert state["players"]["p1"]["magic_dice"] == state["players"]["p2"]["magic_dice"] == 6
    assert state["players"]["p1"]["veil"] == 3            # 5 tokens, none converted: 3 kept (R90)


def test_the_reactive_player_draws_the_flux_card_R81(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    line = rec.add("FluxCardDrawn", card="5", player="p1")
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R81", names=("reactive player p2", "not p1"))


def test_the_flux_card_drawn_by_the_reactive_player_is_recorded_R81(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p2")
    rec.add("FluxCardDrawn", card="5", player="p1")
    _, exported = accepted(app, rec)
    assert exported[3]["player"] == "p1" and exported[3]["magic_dice"] == 5


def test_an_unknown_flux_card_is_malformed(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    rec.add("FluxCardDrawn", card="9")
    with pytest.raises(RecordError, match=r"^magic.rollcall.jsonl:4 \(FluxCardDrawn\): field `card`: no Flux card"):
        app.import_record(rec.lines(), FILE)
    assert not app.exists(GAME)


def test_a_flux_card_is_used_once_per_game_R83(app: Rollcall) -> None:
    rec = magic(card="5")
    rec.add("MagicPhaseEnded")
    rec.add("TurnStarted", turn=2)
    line = rec.phase(active="p1", card="5", siphon=None)
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R83", names=("p1", "card 5", "1, 2, 3, 4, 6, 7, 8"))


def test_each_player_draws_from_his_own_deck_R83(app: Rollcall) -> None:
    rec = magic(card="5")
    rec.add("MagicPhaseEnded")
    rec.phase(active="p2", card="5", siphon=0, turn=2)
    rec.add("MagicPhaseEnded")
    state, _ = accepted(app, rec)
    assert "5" not in state["players"]["p1"]["flux_left"] and "5" not in state["players"]["p2"]["flux_left"]
    assert len(state["players"]["p1"]["flux_left"]) == len(state["players"]["p2"]["flux_left"]) == 7


def test_a_ninth_magic_phase_has_no_card_left_R83(app: Rollcall) -> None:
    rec = Rec(header())
    for turn, card in enumerate("12345678", start=1):
        rec.phase(active="p1", card=card, siphon=0, turn=turn)
        rec.add("MagicPhaseEnded")
    line = rec.phase(active="p1", card="3", siphon=None, turn=9)
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R83", names=("left: none",))


def test_flux_card_1_gives_miscasts_plus_one_R85(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    line = rec.add("FluxCardDrawn", card="1", miscast_modifier=0)
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R85", names=("miscast_modifier", "1"))


def test_flux_card_1_adds_one_to_the_miscast_value_R85(app: Rollcall) -> None:
    rec = magic(card="1", siphon=0)                        # 4 magic dice
    rec.cast("w1", "fireball", [3, 3, 3, 1])               # 10 >= 7, triple 3, 4 dice (no dice-count modifier)
    rec.add("MiscastResolved", wizard="w1")
    rec.add("SpellResolved", spell="fireball")
    _, exported = accepted(app, rec)
    assert exported[3]["miscast_modifier"] == 1
    assert exported[7]["value"] == 4 and exported[7]["effect"] == "amnesia"  # 3 + 1


def test_flux_card_8_gives_miscasts_minus_one_R86(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    line = rec.add("FluxCardDrawn", card="8", miscast_modifier=0)
    broken(app, rec, line=line, event="FluxCardDrawn", rule="R86", names=("miscast_modifier", "-1"))


def test_flux_card_8_takes_one_from_the_miscast_value_R86(app: Rollcall) -> None:
    rec = magic(card="8", siphon=0)                        # 7 magic dice
    rec.cast("w1", "fireball", [3, 3, 3, 1])
    rec.add("MiscastResolved", wizard="w1")
    rec.add("SpellResolved", spell="fireball")
    _, exported = accepted(app, rec)
    assert exported[3]["miscast_modifier"] == -1
    assert exported[7]["value"] == 2 and exported[7]["effect"] == "witchfire"  # 3 - 1


def test_a_wrong_miscast_value_breaks_X06(app: Rollcall) -> None:
    rec = magic(card="1", siphon=0)
    rec.cast("w1", "fireball", [3, 3, 3, 1])
    line = rec.add("MiscastResolved", wizard="w1", value=3)   # the card's +1 forgotten
    broken(app, rec, line=line, event="MiscastResolved", rule="X06", names=("value", "4"))


# --- R87–R90: Siphon the Veil ------------------------------------------------------------------------------

def test_the_veil_pool_is_card_plus_channel_plus_carried_R87(app: Rollcall) -> None:
    rec = Rec(header(channel={"p1": 2, "p2": 0}))
    rec.phase(active="p1", card="2", siphon=0, turn=1)     # 2 + 2 channel = 4 tokens, 3 kept
    rec.add("MagicPhaseEnded")
    rec.phase(active="p2", card="3", siphon=0, turn=2)     # p2: 5 tokens, channel 0, nothing carried
    rec.add("MagicPhaseEnded")
    rec.phase(active="p1", card="4", siphon=4, turn=3)     # 7 + 2 + 3 carried = 12 tokens -> 4 dice, 0 left
    rec.add("MagicPhaseEnded")
    _, exported = accepted(app, rec)
    siphons = [e for e in exported if e.get("type") == "VeilSiphoned"]
    assert [(s["pool"], s["kept"]) for s in siphons] == [(4, 3), (5, 3), (0, 0)]
    assert siphons[2]["magic_dice"] == {"p1": 9, "p2": 5}
    assert [e["carried"] for e in exported if e.get("type") == "MagicPhaseEnded"] == [3, 3, 0]


def test_a_wrong_veil_pool_breaks_R87(app: Rollcall) -> None:
    rec = Rec(header(channel={"p1": 2, "p2": 0}))
    rec.phase(active="p1", card="2", siphon=None, turn=1)
    line = rec.add("VeilSiphoned", converted_dice=0, pool=2)   # channel forgotten
    broken(app, rec, line=line, event="VeilSiphoned", rule="R87", names=("pool", "4"))


def test_three_veil_tokens_make_one_magic_die_R88(app: Rollcall) -> None:
    rec = Rec(header())
    rec.phase(active="p1", card="2", siphon=None, turn=1)  # 2 tokens
    line = rec.add("VeilSiphoned", converted_dice=1)
    broken(app, rec, line=line, event="VeilSiphoned", rule="R88", names=("3 veil tokens", "holds 2"))


def test_the_magic_dice_after_siphoning_are_derived_R88(app: Rollcall) -> None:
    rec = Rec(header())
    rec.phase(active="p1", card="5", siphon=None, turn=1)
    line = rec.add("VeilSiphoned", converted_dice=2, magic_dice={"p1": 7, "p2": 7})
    broken(app, rec, line=line, event="VeilSiphoned", rule="R88", names=("magic_dice",))


def test_at_most_four_magic_dice_from_veil_tokens_R89(app: Rollcall) -> None:
    rec = Rec(header(channel={"p1": 6, "p2": 0}))
    rec.phase(active="p1", card="5", siphon=None, turn=1)  # 9 + 6 = 15 tokens: enough for 5 dice
    line = rec.add("VeilSiphoned", converted_dice=5)
    broken(app, rec, line=line, event="VeilSiphoned", rule="R89", names=("5 magic dice", "at most 4"))


def test_at_most_three_veil_tokens_are_kept_R90(app: Rollcall) -> None:
    rec = Rec(header())
    rec.phase(active="p1", card="5", siphon=None, turn=1)
    line = rec.add("VeilSiphoned", converted_dice=1, kept=6)
    broken(app, rec, line=line, event="VeilSiphoned", rule="R90", names=("kept", "3"))


def test_the_tokens_carried_are_the_tokens_kept_R90(app: Rollcall) -> None:
    rec = magic(card="5", siphon=1)                         # 9 - 3 = 6 left, 3 kept
    line = rec.add("MagicPhaseEnded", carried=6)
    broken(app, rec, line=line, event="MagicPhaseEnded", rule="R90", names=("carried", "3"))


# --- R91, R92: who casts what --------------------------------------------------------------------------------

def test_only_the_active_players_wizards_cast_R91(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("d1", "heal", [3, 4], player="p2")
    broken(app, rec, line=line, event="CastingAttempted", rule="R91", names=("d1", "p2", "active player p1"))


def test_a_fleeing_wizard_does_not_cast_R91(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w3", "heal", [3, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R91", names=("w3", "fleeing"))


def test_a_wizard_casts_only_spells_he_knows_R91(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "heal", [3, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R91", names=("w1", "heal"))


def test_a_wizard_tries_each_spell_once_per_phase_R91(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [1, 2])
    line = rec.cast("w1", "fireball", [4, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R91", names=("w1", "fireball"))


def test_a_model_casts_its_bound_spell_once_per_phase_R91(app: Rollcall) -> None:
    rec = magic()
    rec.bound("w1")
    rec.add("SpellResolved", spell="wand")
    line = rec.bound("w1")
    broken(app, rec, line=line, event="CastingAttempted", rule="R91", names=("w1", "wand"))


def test_a_spell_is_tried_once_per_phase_per_player_R92(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [1, 2])                     # failed
    line = rec.cast("w2", "fireball", [4, 4])               # another wizard, the same spell
    broken(app, rec, line=line, event="CastingAttempted", rule="R92", names=("p1", "fireball"))


def test_bound_and_replicable_spells_may_be_tried_by_several_wizards_R92(app: Rollcall) -> None:
    rec = magic()
    rec.bound("w1")
    rec.add("SpellResolved", spell="wand")
    rec.bound("w2")
    rec.add("SpellResolved", spell="wand")
    rec.cast("w1", "entangle", [1, 2])                     # 3 < 5 fails: the 1 comes back (X02)
    rec.cast("w2", "entangle", [3, 3])
    rec.add("SpellResolved", spell="entangle")
    state, _ = accepted(app, rec)
    assert state["players"]["p1"]["magic_dice"] == 8 - 2 - 2 - 1 - 2


def test_the_same_spell_in_the_next_phase_is_allowed_R92(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.add("SpellResolved", spell="fireball")
    rec.add("MagicPhaseEnded")
    rec.phase(active="p1", card="6", siphon=0, turn=2)
    rec.cast("w1", "fireball", [4, 4])
    rec.add("SpellResolved", spell="fireball")
    accepted(app, rec)


# --- R93–R97: the casting attempt ----------------------------------------------------------------------------

def test_a_casting_attempt_declares_its_dice_R93(app: Rollcall) -> None:
    rec = magic()
    roll = rec.roll("p1", "casting", [4, 4])
    rec.add("CastingAttempted", wizard="w1", spell="fireball", roll=roll)
    with pytest.raises(RecordError, match=r"^magic.rollcall.jsonl:7 \(CastingAttempted\): missing field `dice`"):
        app.import_record(rec.lines(), FILE)
    assert not app.exists(GAME)


def test_a_casting_attempt_uses_at_most_five_dice_R94(app: Rollcall) -> None:
    rec = magic(card="8", siphon=0)                        # 7 magic dice in the pool
    line = rec.cast("w1", "fireball", [1, 2, 3, 1, 2, 3])
    broken(app, rec, line=line, event="CastingAttempted", rule="R94", names=("6 dice", "1 to 5"))


def test_a_casting_attempt_uses_at_least_one_die_R94(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "fireball", [4], dice=0)
    broken(app, rec, line=line, event="CastingAttempted", rule="R94", names=("0 dice",))


def test_the_dice_come_from_the_casters_pool_R95(app: Rollcall) -> None:
    rec = magic(card="1", siphon=0)                        # 4 magic dice
    line = rec.cast("w1", "fireball", [1, 2, 3, 4, 5])
    broken(app, rec, line=line, event="CastingAttempted", rule="R95", names=("5 dice", "holds 4"))


def test_used_dice_leave_the_pool_R95(app: Rollcall) -> None:
    rec = magic(card="1", siphon=0)                        # 4 magic dice
    rec.cast("w1", "fireball", [4, 4, 4])                  # passed: 3 dice gone
    rec.add("MiscastResolved", wizard="w1")
    rec.add("SpellResolved", spell="fireball")
    line = rec.cast("w2", "heal", [3, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R95", names=("2 dice", "holds 1"))


def test_the_roll_has_the_dice_declared_R95(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "fireball", [4, 4], dice=3)
    broken(app, rec, line=line, event="CastingAttempted", rule="R95", names=("2 dice", "rolls 3"))


def test_dispel_dice_come_from_the_reactive_players_pool_R95(app: Rollcall) -> None:
    rec = magic()                                          # p2 holds 5
    rec.cast("w1", "fireball", [5, 5])
    line = rec.dispel("d1", [1, 2, 3, 4, 5, 6])
    broken(app, rec, line=line, event="DispelAttempted", rule="R95", names=("6 dice", "p2", "holds 5"))


def test_the_cast_passes_when_the_total_reaches_the_casting_value_R96(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [2, 3], modifier=2)          # 5 + 2 = 7 >= 7
    rec.add("SpellResolved", spell="fireball")
    rec.cast("w1", "flame_wall", [3, 3], modifier=1)        # 7 < 8
    _, exported = accepted(app, rec)
    assert (exported[6]["total"], exported[6]["passed"]) == (7, True)
    assert (exported[9]["total"], exported[9]["passed"]) == (7, False)


def test_a_cast_below_the_casting_value_does_not_pass_R96(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "fireball", [3, 3], passed=True)
    broken(app, rec, line=line, event="CastingAttempted", rule="R96", names=("passed", "false"))


def test_the_total_is_the_dice_plus_the_modifier_R96(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "fireball", [3, 3], modifier=1, total=6)
    broken(app, rec, line=line, event="CastingAttempted", rule="R96", names=("total", "7"))


def test_a_boosted_version_needs_a_spell_that_has_one_R97(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "flame_wall", [5, 5], version="boosted")
    broken(app, rec, line=line, event="CastingAttempted", rule="R97", names=("flame_wall", "boosted"))


def test_without_a_version_the_basic_casting_value_counts_R97(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 5])                      # 9 >= 7 (basic)
    rec.add("SpellResolved", spell="fireball")
    rec.cast("w2", "heal", [1, 2])
    rec.add("MagicPhaseEnded")
    rec.phase(active="p1", card="6", siphon=0, turn=2)
    rec.cast("w1", "fireball", [4, 5], version="boosted")   # 9 < 10 (boosted)
    _, exported = accepted(app, rec)
    assert exported[6]["passed"] is True and exported[16]["passed"] is False


def test_the_boosted_value_is_what_the_total_must_reach_R96(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "fireball", [4, 5], version="boosted", passed=True)
    broken(app, rec, line=line, event="CastingAttempted", rule="R96", names=("passed",))


# --- X01: a lone die showing 1 or 2 -----------------------------------------------------------------------

def test_a_single_die_natural_2_fails_whatever_the_modifier_X01(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "fireball", [2], modifier=5, passed=True)   # 7 >= 7 but a lone natural 2
    broken(app, rec, line=line, event="CastingAttempted", rule="X01", names=("passed", "false"))


def test_a_single_die_natural_2_does_not_dispel_X01(app: Rollcall, tmp_path: Path) -> None:
    def record(rules: dict | None, **given: Any) -> Rec:
        rec = magic(rules=rules)
        rec.cast("w1", "spark", [1, 1])                      # 2 >= 2: passed
        rec.dispel("d1", [2], **given)                       # 2 >= 2 would dispel, but a lone natural 2 fails
        return rec

    broken(app, record(None, dispelled=True), line=9, event="DispelAttempted", rule="X01",
           names=("dispelled", "false"))
    _, exported = accepted(Rollcall.open(tmp_path / "off"), record({"switches": {"X01": False}}))
    assert exported[8]["dispelled"] is True


def test_switching_X01_off_lets_a_lone_natural_2_pass(app: Rollcall, tmp_path: Path) -> None:
    on = magic()
    on.cast("w1", "fireball", [2], modifier=5)
    _, exported = accepted(app, on)
    assert (exported[6]["total"], exported[6]["passed"]) == (7, False)

    off = magic(rules={"switches": {"X01": False}})
    off.cast("w1", "fireball", [2], modifier=5)
    off.add("SpellResolved", spell="fireball")
    _, exported = accepted(Rollcall.open(tmp_path / "off"), off)
    assert (exported[6]["total"], exported[6]["passed"]) == (7, True)


# --- X02: fizzle ---------------------------------------------------------------------------------------------

def test_a_failed_cast_gives_its_natural_ones_back_X02(app: Rollcall, tmp_path: Path) -> None:
    def record(rules: dict | None) -> Rec:
        rec = magic(rules=rules, card="1", siphon=0)         # 4 magic dice
        rec.cast("w1", "fireball", [1, 1, 3])                # 5 < 7 fails: two 1s come back -> 4 - 3 + 2 = 3
        rec.cast("w2", "heal", [3, 3, 4])                    # 3 dice: only possible with the fizzle
        rec.add("SpellResolved", spell="heal")
        return rec

    state, _ = accepted(app, record(None))
    assert state["players"]["p1"]["magic_dice"] == 0
    off = Rollcall.open(tmp_path / "off")
    broken(off, record({"switches": {"X02": False}}), line=9, event="CastingAttempted", rule="R95",
           names=("3 dice", "holds 1"))


def test_a_passed_cast_keeps_its_ones_spent_X02(app: Rollcall) -> None:
    rec = magic(card="1", siphon=0)
    rec.cast("w1", "fireball", [1, 6, 4])                    # 11: passed, all three dice spent
    rec.add("SpellResolved", spell="fireball")
    line = rec.cast("w2", "heal", [3, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="R95", names=("holds 1",))


def test_a_failed_dispel_gives_its_natural_ones_back_X02(app: Rollcall) -> None:
    rec = magic()                                            # p2 holds 5
    rec.cast("w1", "fireball", [6, 6])                       # 12
    rec.dispel("d1", [1, 1, 4])                              # 6 < 12: 3 - 2 = 1 die spent -> 4 left
    rec.add("SpellResolved", spell="fireball")
    state, _ = accepted(app, rec)
    assert state["players"]["p2"]["magic_dice"] == 4


# --- X03: bound spells ----------------------------------------------------------------------------------

def test_a_bound_spell_uses_two_or_three_dice_X03(app: Rollcall) -> None:
    rec = magic()
    line = rec.bound("w1", dice=4)
    broken(app, rec, line=line, event="CastingAttempted", rule="X03", names=("2 or 3", "not 4"))


def test_a_bound_spell_is_never_boosted_X03(app: Rollcall) -> None:
    rec = magic()
    line = rec.bound("w1", version="boosted")
    broken(app, rec, line=line, event="CastingAttempted", rule="X03", names=("boosted",))


def test_no_casting_modifier_applies_to_a_bound_spell_X03(app: Rollcall) -> None:
    rec = magic()
    line = rec.bound("w1", modifier=1)
    broken(app, rec, line=line, event="CastingAttempted", rule="X03", names=("modifiers",))


def test_a_bound_spells_dice_are_not_rolled_X03(app: Rollcall) -> None:
    rec = magic()
    roll = rec.roll("p1", "casting", [6, 6])
    line = rec.bound("w1", roll=roll)
    broken(app, rec, line=line, event="CastingAttempted", rule="X03", names=("unrolled", f"roll {roll}"))


def test_a_bound_spell_always_passes_at_its_power_level_X03(app: Rollcall) -> None:
    rec = magic()
    line = rec.bound("w1", dice=3, passed=False)
    broken(app, rec, line=line, event="CastingAttempted", rule="X03", names=("passed", "true"))


def test_a_bound_spells_total_is_its_power_level_X03(app: Rollcall) -> None:
    rec = magic()
    line = rec.bound("w1", dice=3, total=4)
    broken(app, rec, line=line, event="CastingAttempted", rule="X03", names=("total", "8"))


def test_a_dispel_must_reach_the_bound_spells_power_level_X03(app: Rollcall) -> None:
    rec = magic()
    rec.bound("w1", dice=3)                                  # power level 8
    rec.dispel("d1", [3, 4])                                 # 7 < 8
    rec.add("SpellResolved", spell="wand")
    rec.bound("w2", dice=2)                                  # power level 4
    rec.dispel("d1", [1, 3])                                 # 4 >= 4: dispelled
    state, exported = accepted(app, rec)
    assert (exported[5]["total"], exported[5]["passed"], exported[7]["dispelled"]) == (8, True, False)
    assert (exported[9]["total"], exported[11]["dispelled"]) == (4, True)
    assert state["players"]["p1"]["magic_dice"] == 8 - 3 - 2


def test_switching_X03_off_makes_a_bound_spell_an_ordinary_roll(app: Rollcall) -> None:
    rec = magic(rules={"switches": {"X03": False}})
    rec.cast("w1", "wand", [1, 2, 1, 2])                     # four rolled dice are fine without X03
    state, exported = accepted(app, rec)
    assert exported[6]["total"] == 6 and exported[6]["passed"] is True  # no casting value: anything passes


# --- X04: attributes --------------------------------------------------------------------------------------

def test_an_attribute_belongs_to_the_path_of_the_spell_X04(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.add("SpellResolved", spell="fireball")
    line = rec.add("AttributeResolved", spell="regrowth")
    broken(app, rec, line=line, event="AttributeResolved", rule="X04", names=("regrowth", "druidism", "fireball"))


def test_only_an_attribute_spell_resolves_as_an_attribute_X04(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.add("SpellResolved", spell="fireball")
    line = rec.add("AttributeResolved", spell="flame_wall")
    broken(app, rec, line=line, event="AttributeResolved", rule="X04", names=("flame_wall", "not an attribute"))


def test_an_attribute_is_not_cast_without_a_passed_spell_of_its_path_X04(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "burn", [4, 4])
    broken(app, rec, line=line, event="CastingAttempted", rule="X04", names=("burn", "pyromancy"))


def test_an_attribute_cannot_be_dispelled_X04(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    rec.add("SpellResolved", spell="fireball")
    rec.cast("w1", "burn", [3, 3])
    line = rec.dispel("d1", [6, 6])
    broken(app, rec, line=line, event="DispelAttempted", rule="X04", names=("burn",))


def test_switching_X04_off_lets_any_path_follow(app: Rollcall) -> None:
    rec = magic(rules={"switches": {"X04": False}})
    rec.cast("w1", "fireball", [4, 4])
    rec.add("SpellResolved", spell="fireball")
    rec.add("AttributeResolved", spell="regrowth")
    state, _ = accepted(app, rec)
    assert state["magic"]["cast"]["step"] == "E"


# --- X05: replicable spells ----------------------------------------------------------------------------------

def test_a_replicable_spell_is_tried_once_per_wizard_X05(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "entangle", [1, 2])
    line = rec.cast("w1", "entangle", [3, 3])
    broken(app, rec, line=line, event="CastingAttempted", rule="X05", names=("w1", "entangle"))


# --- X06: miscasts ----------------------------------------------------------------------------------------

def test_three_equal_dice_are_a_miscast_X06(app: Rollcall) -> None:
    rec = magic()
    line = rec.cast("w1", "fireball", [3, 5, 3, 3], miscast=False)
    broken(app, rec, line=line, event="CastingAttempted", rule="X06", names=("miscast", "true"))


def test_two_equal_dice_are_no_miscast_X06(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [6, 6, 1])
    line = rec.add("MiscastResolved", wizard="w1")
    broken(app, rec, line=line, event="MiscastResolved", rule="X06", names=("fireball", "no miscast"))


def test_the_miscast_falls_on_the_caster_X06(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [3, 3, 3])
    line = rec.add("MiscastResolved", wizard="w2")
    broken(app, rec, line=line, event="MiscastResolved", rule="X06", names=("w1", "w2"))


def test_the_miscast_effect_follows_the_table_X06(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [3, 3, 3])                    # 3 - 1 (three dice) = 2: witchfire
    line = rec.add("MiscastResolved", wizard="w1", effect="magical_inferno")
    broken(app, rec, line=line, event="MiscastResolved", rule="X06", names=("effect", "witchfire"))


def test_the_dice_count_modifies_the_miscast_value_X06(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [5, 5, 5, 1, 2])              # 18, five dice: 5 + 1 = 6
    rec.add("MiscastResolved", wizard="w1")
    rec.add("SpellResolved", spell="fireball")
    _, exported = accepted(app, rec)
    assert (exported[7]["value"], exported[7]["effect"]) == (6, "implosion")


def test_the_double_six_trigger_changes_what_is_a_miscast_X06(app: Rollcall, tmp_path: Path) -> None:
    triple = magic()
    triple.cast("w1", "fireball", [6, 6, 2])
    triple.add("SpellResolved", spell="fireball")
    _, exported = accepted(app, triple)
    assert exported[6]["miscast"] is False

    sixes = magic(rules={"miscast": {"trigger": "double_six"}})
    sixes.cast("w1", "fireball", [6, 6, 2])
    line = sixes.add("SpellResolved", spell="fireball")
    broken(Rollcall.open(tmp_path / "sixes"), sixes, line=line, event="SpellResolved", rule="R80",
           names=("miscast",))


def test_switching_X06_off_means_no_miscast(app: Rollcall) -> None:
    rec = magic(rules={"switches": {"X06": False}})
    rec.cast("w1", "fireball", [3, 3, 3])
    rec.add("SpellResolved", spell="fireball")
    _, exported = accepted(app, rec)
    assert exported[6]["miscast"] is False


# --- X07: dispelling --------------------------------------------------------------------------------------

def test_the_reactive_player_dispels_X07(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    line = rec.dispel("w2", [6, 6], player="p1")
    broken(app, rec, line=line, event="DispelAttempted", rule="X07", names=("w2", "reactive player p2"))


def test_a_fleeing_wizard_does_not_dispel_X07(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    line = rec.dispel("d2", [6, 6])
    broken(app, rec, line=line, event="DispelAttempted", rule="X07", names=("d2", "fleeing"))


def test_a_dispel_uses_at_least_one_die_X07(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4])
    line = rec.dispel("d1", [6], dice=0)
    broken(app, rec, line=line, event="DispelAttempted", rule="X07", names=("0 dispel dice",))


def test_a_dispel_that_does_not_reach_the_casting_total_fails_X07(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 5])                       # 9
    line = rec.dispel("d1", [4, 4], dispelled=True)          # 8 < 9
    broken(app, rec, line=line, event="DispelAttempted", rule="X07", names=("dispelled", "false"))


def test_the_dispel_total_is_the_sum_of_its_dice_X07(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 5])
    line = rec.dispel("d1", [4, 4], total=9)
    broken(app, rec, line=line, event="DispelAttempted", rule="X07", names=("total", "8"))


def test_a_tie_dispels_unless_the_rules_give_it_to_the_caster_X07(app: Rollcall, tmp_path: Path) -> None:
    def record(rules: dict | None) -> Rec:
        rec = magic(rules=rules)
        rec.cast("w1", "fireball", [4, 5])                   # 9
        rec.dispel("d1", [3, 6])                             # 9: a tie
        return rec

    _, exported = accepted(app, record(None))
    assert exported[8]["dispelled"] is True
    caster = record({"dispel": {"tie": "caster"}})
    caster.add("SpellResolved", spell="fireball")
    _, exported = accepted(Rollcall.open(tmp_path / "caster"), caster)
    assert exported[8]["dispelled"] is False
    assert exported[9]["type"] == "SpellResolved"


def test_switching_X07_off_lets_any_wizard_dispel(app: Rollcall) -> None:
    rec = magic(rules={"switches": {"X07": False}})
    rec.cast("w1", "fireball", [4, 4])
    rec.dispel("d2", [6, 6])                                 # fleeing: refused with X07 on
    state, exported = accepted(app, rec)
    assert exported[8]["dispelled"] is True


# --- R84: digital Flux draws ----------------------------------------------------------------------------

def digital_flux(seed: bytes, card: str | None = None) -> Rec:
    rec = Rec(header(dice_mode="digital", commit=randomness.commit_of(seed)))
    rec.add("TurnStarted", turn=1)
    rec.add("MagicPhaseStarted", active="p1")
    due = randomness.draw(seed, GAME, 3, [str(n) for n in range(1, 9)])
    rec.add("FluxCardDrawn", card=card or due, source="digital")
    rec.add("VeilSiphoned", converted_dice=0)
    rec.add("MagicPhaseEnded")
    rec.add("GameEnded", score={"p1": 0, "p2": 0}, winner=None, reason="test", seed=seed.hex())
    return rec


def test_a_digital_flux_card_is_the_seeds_random_draw_R84(app: Rollcall, tmp_path: Path) -> None:
    seed = bytes(range(32))
    accepted(app, digital_flux(seed))
    due = randomness.draw(seed, GAME, 3, [str(n) for n in range(1, 9)])
    other = "1" if due != "1" else "2"
    broken(Rollcall.open(tmp_path / "other"), digital_flux(seed, other), line=7, event="GameEnded", rule="F07",
           names=(f"digital draw 3 is {other}", f"the seed gives {due}"))


def test_broken_concentration_makes_the_cast_fail_after_all_X06(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [1, 1, 1, 6])                # 9 passes; the triple of 1s is worth 1
    rec.add("MiscastResolved", wizard="w1")                 # broken concentration
    line = rec.add("SpellResolved", spell="fireball")
    broken(app, rec, line=line, event="SpellResolved", rule="X06", names=("concentration", "fireball"))


def test_amnesia_forbids_the_spell_for_the_rest_of_the_game_X06(app: Rollcall) -> None:
    rec = magic()
    rec.cast("w1", "fireball", [4, 4, 4, 1])                # 13 passes; the triple of 4s: amnesia
    rec.add("MiscastResolved", wizard="w1")
    rec.add("SpellResolved", spell="fireball")
    rec.add("MagicPhaseEnded")
    rec.phase(card="6", turn=2, siphon=0)
    rec.cast("w1", "fireball", [5, 5])
    broken(app, rec, line=rec.line, event="CastingAttempted", rule="X06", names=("amnesia", "fireball"))
