"""Every initiative-phase rule of seed 003 (R98–R106) and the extra checks X08–X09 of Claustrophobia
that a record can break.

Each ``test_*_R<nn>`` / ``test_*_X<nn>`` builds a small record that breaks one rule and asserts that

* a strict import raises ``RecordError`` reading ``FILE:LINE (EventType): R<nn> …`` naming the
  warriors / dice / lines concerned, and stores nothing of that game (``app.exists`` is False);
* a lenient import stores the game, with ``violations`` naming the rule on the offending line (and on
  no earlier line).

Rules of R98–R106 and X08–X09 a record cannot break, and why:

* R103 — an Exhausted warrior has no Talents and no Object benefits (the Sceptre of Command
  excepted), but keeps bonuses of special rules and Advantage cards: none of these is an event of the
  record, so nothing can contradict it. Its visible half — the exhausted stats — is R102, tested.
* R106 — the rule text's example (three dice: the Redeemer holding the Sceptre of Command and one
  Blade for Hire) is an instance of R98, whose count includes the Sceptre's die: a wrong count with
  the Sceptre breaks R98 (tested), and the example itself is the golden record
  ``claustrophobia-seed003-sceptre-three-dice``.
* X09 bounds the dice too (at most 5 + 1): with at most five warriors (tested on the header) that
  follows from R98.

Derived fields given wrongly on import break the rule that derives them: ``line``, ``mvt``, ``cbt``,
``def`` R100 (R102 when the die fell on an unavailable line), ``exhausted`` R102, ``set_aside`` R105.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from service.application import Rollcall
from domain.errors import RecordError
from rulecheck import imported_cleanly, refused_and_marked

FILE = "crypt.rollcall.jsonl"
GAME = "g"
PLAYERS = [{"id": "p1", "name": "Anna", "faction": "humans"}, {"id": "p2", "name": "Boris", "faction": "troglodytes"}]
REDEEMER = {"id": "redeemer", "kind": "redeemer", "sceptre": True,
            "lines": {"3": {"mvt": 2, "cbt": 1, "def": 4}, "5": {"mvt": 1, "cbt": 1, "def": 5}},
            "gifts": {"5": "aura_of_foresight"}}
BLADE = {"id": "blade", "kind": "blade_for_hire",
         "lines": {"2": {"mvt": 1, "cbt": 2, "def": 4}, "4": {"mvt": 2, "cbt": 2, "def": 3}}}


# --- building records ----------------------------------------------------------------------------------

def header(*warriors: dict, rules: dict | None = None) -> dict:
    return {"rollcall": 1, "system": "claustrophobia", "game": GAME, "players": PLAYERS, "rules": rules or {},
            "setup": {"human": "p1", "warriors": list(warriors) or [REDEEMER, BLADE]}}


class Rec:
    """A record being written; each method appends lines and returns the line number of the last one
    (the header is line 1 and seq 0, so the event on line ``n`` has seq ``n - 1``)."""

    def __init__(self, head: dict) -> None:
        self.items: list[dict] = [head]
        self.initiative = 0

    @property
    def line(self) -> int:
        return len(self.items)

    def add(self, event_type: str, **fields: Any) -> int:
        self.items.append({"type": event_type, **fields})
        return self.line

    def round(self, turn: int, faces: list[int], player: str = "p1") -> int:
        """A round: its initiative phase and the roll of its action dice (remembered for ``assign``)."""
        self.add("TurnStarted", turn=turn)
        self.add("PhaseStarted", phase="initiative")
        self.initiative = self.add("DiceRolled", player=player, purpose="initiative", die="d6", faces=faces) - 1
        return self.line

    def assign(self, warrior: str, index: int, roll: int | None = None, **derived: Any) -> int:
        return self.add("ActionDieAssigned", warrior=warrior, roll=self.initiative if roll is None else roll,
                        index=index, **derived)

    def lines(self) -> list[str]:
        return [json.dumps(item) for item in self.items]


def seed_round(head: dict | None = None) -> Rec:
    """Round 1: three dice [5, 2, 6] (two warriors and the Sceptre); the Redeemer takes the 5 (line 5),
    the Blade for Hire the 2 (line 6); the 6 is left over."""
    rec = Rec(head or header())
    rec.round(1, [5, 2, 6])
    rec.assign("redeemer", 0)
    rec.assign("blade", 1)
    return rec


# --- asserting ------------------------------------------------------------------------------------------

def broken(app: Rollcall, rec: Rec, *, line: int, event: str | None, rule: str, names: tuple = ()) -> str:
    """Strict import refuses at ``line`` with ``rule``; lenient import marks it (see rulecheck)."""
    return refused_and_marked(app, rec.lines(), file=FILE, game=GAME, line=line, event=event, rule=rule,
                              names=names)


def accepted(app: Rollcall, rec: Rec) -> tuple[dict, list[dict]]:
    """The record imports strictly without violations: (final state, exported lines)."""
    return imported_cleanly(app, rec.lines(), FILE)


def stats(line: dict) -> tuple:
    return line["line"], line["mvt"], line["cbt"], line["def"], line["exhausted"]


# --- R98: the action dice ------------------------------------------------------------------------------

def test_the_sceptre_of_command_adds_one_action_die_R98(app: Rollcall) -> None:
    rec = Rec(header())
    line = rec.round(1, [5, 2])
    broken(app, rec, line=line, event="DiceRolled", rule="R98", names=("2 action dice", "3 are due", "Sceptre"))


def test_one_action_die_per_warrior_in_play_R98(app: Rollcall) -> None:
    rec = Rec(header({**REDEEMER, "sceptre": False}, BLADE))
    line = rec.round(1, [5, 2, 6])
    broken(app, rec, line=line, event="DiceRolled", rule="R98", names=("3 action dice", "2 are due"))


def test_a_removed_warrior_gets_no_action_die_R98(app: Rollcall) -> None:
    rec = seed_round()
    rec.add("PhaseStarted", phase="action")
    rec.add("WarriorRemoved", warrior="blade")
    line = rec.round(2, [1, 2, 3])
    broken(app, rec, line=line, event="DiceRolled", rule="R98", names=("3 action dice", "2 are due"))


def test_the_human_player_rolls_the_action_dice_R98(app: Rollcall) -> None:
    rec = Rec(header())
    line = rec.round(1, [5, 2, 6], player="p2")
    broken(app, rec, line=line, event="DiceRolled", rule="R98", names=("human player p1",))


def test_action_dice_are_rolled_in_the_initiative_phase_R98(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("PhaseStarted", phase="action")
    line = rec.add("DiceRolled", player="p1", purpose="initiative", die="d6", faces=[5, 2, 6])
    broken(app, rec, line=line, event="DiceRolled", rule="R98", names=("initiative phase",))


def test_action_dice_are_rolled_once_per_initiative_R98(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    line = rec.add("DiceRolled", player="p1", purpose="initiative", die="d6", faces=[1, 1, 1])
    broken(app, rec, line=line, event="DiceRolled", rule="R98", names=("already rolled",))


def test_a_redeemer_with_the_sceptre_and_a_blade_for_hire_roll_three_dice_R98(app: Rollcall) -> None:
    state, exported = accepted(app, seed_round())
    assert exported[3]["faces"] == [5, 2, 6] and state["initiative"]["faces"] == [5, 2, 6]


# --- R99, R100: one die per warrior, its line -------------------------------------------------------------

def test_a_warrior_takes_one_die_R99(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    rec.assign("blade", 1)
    line = rec.assign("blade", 2)
    broken(app, rec, line=line, event="ActionDieAssigned", rule="R99", names=("blade", "one die per warrior"))


def test_a_die_goes_to_one_warrior_R99(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    rec.assign("redeemer", 0)
    line = rec.assign("blade", 0)
    broken(app, rec, line=line, event="ActionDieAssigned", rule="R99", names=("die 0", "already given"))


def test_every_warrior_takes_a_die_before_the_initiative_ends_R99(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    rec.assign("redeemer", 0)
    line = rec.add("PhaseStarted", phase="action")
    broken(app, rec, line=line, event="PhaseStarted", rule="R99", names=("blade", "has none"))


def test_every_warrior_takes_a_die_before_the_next_round_R99(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    rec.assign("redeemer", 0)
    line = rec.add("TurnStarted", turn=2)
    broken(app, rec, line=line, event="TurnStarted", rule="R99", names=("blade", "round 2"))


def test_every_warrior_takes_a_die_before_the_game_ends_R99(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    rec.assign("redeemer", 0)
    line = rec.add("GameEnded", score={"p1": 0, "p2": 0}, winner=None, reason="turn limit")
    broken(app, rec, line=line, event="GameEnded", rule="R99", names=("blade", "the game ends"))


def test_the_round_goes_on_once_every_warrior_has_a_die_R99(app: Rollcall) -> None:
    rec = seed_round()
    rec.round(2, [3, 4, 1])
    rec.assign("blade", 1)
    rec.assign("redeemer", 0)
    rec.add("GameEnded", score={"p1": 1, "p2": 0}, winner="p1", reason="scenario end")
    state, _ = accepted(app, rec)
    assert state["turn"] == 2 and state["warriors"]["blade"]["line"] == 4


def test_the_die_comes_from_this_initiatives_roll_R99(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    other = rec.add("DiceRolled", player="p1", purpose="other", die="d6", faces=[4]) - 1
    line = rec.assign("blade", 0, roll=other)
    broken(app, rec, line=line, event="ActionDieAssigned", rule="R99", names=(f"roll {other}",))


def test_last_rounds_dice_do_not_set_this_rounds_lines_R99(app: Rollcall) -> None:
    rec = seed_round()
    first = rec.initiative
    rec.add("PhaseStarted", phase="action")
    rec.round(2, [3, 4, 1])
    line = rec.assign("redeemer", 0, roll=first)
    broken(app, rec, line=line, event="ActionDieAssigned", rule="R99", names=(f"roll {first}",))


def test_a_removed_warrior_takes_no_die_R99(app: Rollcall) -> None:
    rec = Rec(header())
    rec.add("TurnStarted", turn=1)
    rec.add("WarriorRemoved", warrior="blade")
    rec.add("PhaseStarted", phase="initiative")
    rec.initiative = rec.add("DiceRolled", player="p1", purpose="initiative", die="d6", faces=[5, 2]) - 1
    rec.assign("redeemer", 0)
    line = rec.assign("blade", 1)
    broken(app, rec, line=line, event="ActionDieAssigned", rule="R99", names=("blade", "no longer in play"))


def test_the_die_sets_the_warriors_line_and_its_stats_R100(app: Rollcall) -> None:
    rec = seed_round()
    rec.add("PhaseStarted", phase="action")
    state, exported = accepted(app, rec)
    assert stats(exported[5]) == (2, 1, 2, 4, False)      # the seed: a 2 gives MVT 1, CBT 2, DEF 4
    assert stats(exported[4]) == (5, 1, 1, 5, False)      # the seed: the Redeemer's line 5: 1, 1, 5
    blade = state["warriors"]["blade"]
    assert {k: blade[k] for k in ("line", "mvt", "cbt", "def", "exhausted")} == {
        "line": 2, "mvt": 1, "cbt": 2, "def": 4, "exhausted": False}


def test_the_line_is_the_face_of_the_die_R100(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    line = rec.assign("blade", 1, line=4)
    broken(app, rec, line=line, event="ActionDieAssigned", rule="R100", names=("line", "2"))


def test_the_stats_are_those_of_the_line_R100(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    line = rec.assign("blade", 1, cbt=3)
    broken(app, rec, line=line, event="ActionDieAssigned", rule="R100", names=("cbt", "2"))


def test_the_line_holds_until_the_next_initiative_R100(app: Rollcall) -> None:
    rec = seed_round()
    rec.add("PhaseStarted", phase="action")
    rec.add("LineLost", warrior="blade", line=4)          # a wound on another line changes nothing now
    rec.add("TurnStarted", turn=2)
    rec.add("PhaseStarted", phase="initiative")
    state, _ = accepted(app, rec)
    blade = state["warriors"]["blade"]
    assert (blade["line"], blade["mvt"], blade["cbt"], blade["def"]) == (2, 1, 2, 4)
    assert blade["die"] is None                            # the new initiative: no die yet


# --- R101, R104: gifts -----------------------------------------------------------------------------------

def test_a_gift_needs_a_die_of_its_line_R101(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [3, 2, 6])
    rec.assign("redeemer", 0)                              # a 3: the Aura of Foresight needs a 5
    line = rec.add("GiftUsed", warrior="redeemer", gift="aura_of_foresight")
    broken(app, rec, line=line, event="GiftUsed", rule="R101", names=("redeemer", "aura_of_foresight", "5", "3"))


def test_a_gift_is_not_used_before_the_redeemer_has_a_die_R101(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 2, 6])
    line = rec.add("GiftUsed", warrior="redeemer", gift="aura_of_foresight")
    broken(app, rec, line=line, event="GiftUsed", rule="R101", names=("redeemer", "None"))


def test_a_die_of_5_lets_the_redeemer_use_his_gift_R101(app: Rollcall) -> None:
    rec = seed_round()
    rec.add("GiftUsed", warrior="redeemer", gift="aura_of_foresight")
    accepted(app, rec)


def test_an_unknown_gift_is_malformed(app: Rollcall) -> None:
    rec = seed_round()
    rec.add("GiftUsed", warrior="redeemer", gift="second_sight")
    with pytest.raises(RecordError, match=r"^crypt.rollcall.jsonl:7 \(GiftUsed\): field `gift`: redeemer has no gift"):
        app.import_record(rec.lines(), FILE)


def lost_line_5(rec: Rec) -> Rec:
    """Round 1 as the seed, the Redeemer wounded on line 5; round 2 he takes a 5 again (line 12)."""
    rec.add("PhaseStarted", phase="action")
    rec.add("LineLost", warrior="redeemer", line=5)
    rec.round(2, [5, 4, 1])
    rec.assign("redeemer", 0)
    rec.assign("blade", 1)
    return rec


def test_an_exhausted_redeemer_cannot_use_the_gift_of_the_lost_line_R104(app: Rollcall) -> None:
    rec = lost_line_5(seed_round())
    line = rec.add("GiftUsed", warrior="redeemer", gift="aura_of_foresight")
    broken(app, rec, line=line, event="GiftUsed", rule="R104", names=("redeemer", "exhausted", "aura_of_foresight"))


# --- R102: exhaustion --------------------------------------------------------------------------------------

def test_a_die_on_a_lost_line_exhausts_the_warrior_R102(app: Rollcall) -> None:
    state, exported = accepted(app, lost_line_5(seed_round()))
    assert stats(exported[11]) == (5, 0, 0, 3, True)
    assert stats(exported[12]) == (4, 2, 2, 3, False)
    redeemer = state["warriors"]["redeemer"]
    assert redeemer["exhausted"] is True and redeemer["lines"]["5"]["available"] is False


def test_a_die_on_a_line_missing_from_the_card_exhausts_the_warrior_R102(app: Rollcall) -> None:
    rec = Rec(header())
    rec.round(1, [5, 6, 1])
    rec.assign("redeemer", 0)
    rec.assign("blade", 1)                                 # the Blade for Hire has no line 6
    _, exported = accepted(app, rec)
    assert stats(exported[5]) == (6, 0, 0, 3, True)


def test_exhausted_is_derived_from_the_lost_line_R102(app: Rollcall) -> None:
    rec = lost_line_5(seed_round())
    rec.items[-2]["exhausted"] = False
    broken(app, rec, line=rec.line - 1, event="ActionDieAssigned", rule="R102", names=("exhausted", "true"))


def test_an_exhausted_warrior_has_DEF_3_R102(app: Rollcall) -> None:
    rec = lost_line_5(seed_round())
    rec.items[-2]["def"] = 5                               # the lost line's own DEF
    broken(app, rec, line=rec.line - 1, event="ActionDieAssigned", rule="R102", names=("def", "3"))


def test_an_exhausted_warrior_has_MVT_0_R102(app: Rollcall) -> None:
    rec = lost_line_5(seed_round())
    rec.items[-2]["mvt"] = 1
    broken(app, rec, line=rec.line - 1, event="ActionDieAssigned", rule="R102", names=("mvt", "0"))


def test_the_exhausted_values_come_from_the_rule_data(app: Rollcall) -> None:
    rec = lost_line_5(seed_round(header(rules={"exhausted": {"def": 2}})))
    _, exported = accepted(app, rec)
    assert stats(exported[11]) == (5, 0, 0, 2, True)


# --- R105: dice set aside -----------------------------------------------------------------------------------

def test_the_die_no_warrior_takes_is_set_aside_R105(app: Rollcall) -> None:
    rec = seed_round()
    rec.add("PhaseStarted", phase="action")
    state, exported = accepted(app, rec)
    assert exported[6]["set_aside"] == [2]
    assert state["initiative"]["set_aside"] == [2] and state["initiative"]["taken"] == [0, 1]


def test_set_aside_lists_the_dice_no_warrior_took_R105(app: Rollcall) -> None:
    rec = seed_round()
    line = rec.add("PhaseStarted", phase="action", set_aside=[1])
    broken(app, rec, line=line, event="PhaseStarted", rule="R105", names=("set_aside", "[2]"))


# --- X08: healing ------------------------------------------------------------------------------------------

def test_healing_the_current_line_ends_the_exhaustion_X08(app: Rollcall) -> None:
    rec = lost_line_5(seed_round())
    rec.add("PhaseStarted", phase="action")
    rec.add("LineRestored", warrior="redeemer", line=5)
    rec.add("GiftUsed", warrior="redeemer", gift="aura_of_foresight")   # the line is his again: so is the gift
    state, _ = accepted(app, rec)
    redeemer = state["warriors"]["redeemer"]
    assert (redeemer["exhausted"], redeemer["mvt"], redeemer["cbt"], redeemer["def"]) == (False, 1, 1, 5)


def test_only_a_lost_line_is_restored_X08(app: Rollcall) -> None:
    rec = seed_round()
    rec.add("PhaseStarted", phase="action")
    line = rec.add("LineRestored", warrior="blade", line=2)
    broken(app, rec, line=line, event="LineRestored", rule="X08", names=("line 2", "blade", "not lost"))


def test_switching_X08_off_keeps_a_healed_warrior_exhausted(app: Rollcall) -> None:
    rec = lost_line_5(seed_round(header(rules={"switches": {"X08": False}})))
    rec.add("PhaseStarted", phase="action")
    rec.add("LineRestored", warrior="redeemer", line=5)
    line = rec.add("GiftUsed", warrior="redeemer", gift="aura_of_foresight")
    broken(app, rec, line=line, event="GiftUsed", rule="R104", names=("exhausted",))


# --- X09: the party -------------------------------------------------------------------------------------

def party(size: int) -> list[dict]:
    return [REDEEMER] + [{"id": f"w{n}", "kind": "brute", "lines": {"1": {"mvt": 1, "cbt": 3, "def": 4}}}
                         for n in range(1, size)]


def test_a_human_party_has_at_most_five_warriors_X09(app: Rollcall) -> None:
    rec = Rec(header(*party(6)))
    broken(app, rec, line=1, event=None, rule="X09", names=("at most 5", "not 6"))


def test_five_warriors_and_the_sceptre_roll_six_dice_X09(app: Rollcall) -> None:
    rec = Rec(header(*party(5)))
    rec.round(1, [1, 1, 2, 3, 4, 6])
    accepted(app, rec)


def test_switching_X09_off_allows_a_larger_party(app: Rollcall) -> None:
    rec = Rec(header(*party(6), rules={"switches": {"X09": False}}))
    rec.round(1, [1, 1, 2, 3, 4, 6, 6])
    accepted(app, rec)
