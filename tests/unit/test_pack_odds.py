"""The 9th Age pack's own odds of a cast, a dispel and a miscast, under every switch of X01–X09 (those that change
them: X01, X03, X06, the dispel tie and the miscast trigger; the others leave them as they are), against the independent oracle of tests/exact_odds.py
(sums convolved) and brute force over every ordered roll."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from domain.systems import system_for
from domain.systems.state import Checks
from exact_odds import casting_pass_probability, dispel_probability

PLAYERS = [{"id": "p1", "name": "Anna", "faction": "highborn"}, {"id": "p2", "name": "Boris", "faction": "orcs"}]
SPELLS = [{"id": "bolt", "name": "Bolt", "path": "evocation", "kind": "normal", "casting_value": 7,
           "boosted_value": 10},
          {"id": "wand", "name": "Wand", "path": "items", "kind": "bound", "power_level": [4, 8]}]
WIZARDS = [{"id": "w1", "player": "p1", "spells": ["bolt", "wand"]}, {"id": "d1", "player": "p2", "spells": []}]


def state(rules: dict):
    system = system_for("t9a")
    header = {"rollcall": 1, "system": "t9a", "game": "g", "players": PLAYERS, "rules": rules,
              "setup": {"spells": SPELLS, "wizards": WIZARDS}}
    made = system.new_state(header)
    system.check_setup(made, Checks(strict=True))
    return system, made


def brute(dice: int, holds) -> float:
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return sum(1 for r in rolls if holds(r)) / len(rolls)


@pytest.mark.parametrize("x01", [True, False])
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("version,modifier", [("basic", 0), ("basic", 3), ("boosted", -2), ("basic", -40)])
def test_a_casts_odds_of_passing_are_the_oracles_under_x01_on_and_off(x01, dice, version, modifier) -> None:
    system, st = state({"switches": {"X01": x01}})
    got = system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "bolt", "dice": dice,
                           "version": version, "modifier": modifier})
    value = 10 if version == "boosted" else 7
    expected = casting_pass_probability(dice, value, modifier, (1, 2) if x01 else ())
    assert got["pass"] == pytest.approx(float(expected), abs=1e-15)


def test_the_x01_off_case_reads_five_sixths_and_on_four_sixths() -> None:
    """One die with +3 against casting value 5: the faces 2–6 reach it; X01 fails a natural 2 as well as a 1."""
    event = {"type": "CastingAttempted", "wizard": "w1", "spell": "bolt", "dice": 1, "modifier": 3}
    for x01, expected in ((False, 5 / 6), (True, 4 / 6)):
        system, st = state({"switches": {"X01": x01}})
        st.spells["bolt"] = {**st.spells["bolt"], "casting_value": 5}
        assert system.odds(st, event)["pass"] == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("trigger", ["same_value_3", "double_six"])
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
def test_a_casts_odds_of_miscasting_count_every_roll_of_the_trigger_in_force(trigger, dice) -> None:
    system, st = state({"miscast": {"trigger": trigger}})
    got = system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "bolt", "dice": dice})
    if trigger == "double_six":
        expected = brute(dice, lambda r: r.count(6) >= 2)
    else:
        expected = brute(dice, lambda r: max(Counter(r).values()) >= 3)
    assert got["miscast"] == pytest.approx(expected, abs=1e-15)


def test_with_x06_off_nothing_miscasts_and_with_x03_off_a_bound_spell_is_rolled_like_any_other() -> None:
    system, st = state({"switches": {"X06": False}})
    assert system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "bolt", "dice": 4})["miscast"] == 0
    system, st = state({})
    assert system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "wand", "dice": 2}) == {
        "pass": 1.0, "miscast": 0.0}  # X03: bound, unrolled
    system, st = state({"switches": {"X03": False}})
    off = system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "wand", "dice": 3})
    assert off["pass"] == pytest.approx(1.0)  # casting value 0 (a bound spell has none): any roll reaches it
    assert off["miscast"] == pytest.approx(brute(3, lambda r: len(set(r)) == 1))


@pytest.mark.parametrize("x01", [True, False])
@pytest.mark.parametrize("tie", ["dispelled", "caster"])
@pytest.mark.parametrize("dice,target", [(1, 3), (1, 6), (2, 7), (3, 12), (4, 20), (5, 2)])
def test_a_dispels_odds_are_the_oracles_under_the_tie_rule_and_x01(x01, tie, dice, target) -> None:
    from domain.systems.t9a.pack import Cast, Phase

    system, st = state({"switches": {"X01": x01}, "dispel": {"tie": tie}})
    st.phase_state = Phase("p1", step="siphoned", cast=Cast(seq=5, wizard="w1", spell="bolt", total=target,
                                                            passed=True, miscast=False))
    got = system.odds(st, {"type": "DispelAttempted", "wizard": "d1", "dice": dice, "roll": 6})
    expected = dispel_probability(dice, target, tie, (1, 2) if x01 else ())
    assert got["dispel"] == pytest.approx(float(expected), abs=1e-15)


def test_events_that_decide_nothing_by_chance_have_no_odds() -> None:
    system, st = state({})
    assert system.odds(st, {"type": "MagicPhaseStarted", "active": "p1"}) is None
    assert system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "nothing", "dice": 2}) is None
    assert system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "bolt", "dice": "two"}) is None
    for name in ("tornscape", "claustrophobia"):
        other = system_for(name)
        assert other.odds(None, {"type": "DiceRolled"}) is None


# --- a roll's odds: the pack judges it (Tornscape's explore and dodge by successes, a roll that needs a face by
# the dice reaching it, any other by the faces shown) -------------------------------------------------------------

def tornscape_state():
    system = system_for("tornscape")
    header = {"rollcall": 1, "system": "tornscape", "game": "g", "players": PLAYERS,
              "setup": {"board": {"width": 6, "height": 6}}}
    made = system.new_state(header)
    system.check_setup(made, Checks(strict=True))
    return system, made


def test_a_rolls_odds_follow_how_the_pack_judges_its_purpose() -> None:
    from domain.systems.state import Roll
    from exact_odds import at_least_one_success, faces_probability, successes_exactly

    system, st = tornscape_state()
    attack = {k: v for k, v in st.dice.data["attack"].items()}
    explore = Roll(1, "p1", "explore", "attack", ["crit", "success", "blank"])
    assert system.roll_odds(st, explore) == (2, pytest.approx(float(successes_exactly(attack, 3, 2))))
    dodged = Roll(2, "p1", "dodge", "attack", ["blank", "success"])
    assert system.roll_odds(st, dodged) == (1, pytest.approx(float(at_least_one_success(attack, 2))))
    failed = Roll(3, "p1", "dodge", "attack", ["blank", "blank"])
    assert system.roll_odds(st, failed) == (0, pytest.approx(1 - float(at_least_one_success(attack, 2))))
    stabilised = Roll(4, "p2", "stabilisation", "attack", ["crit"])
    assert system.roll_odds(st, stabilised) == (1, pytest.approx(float(faces_probability(attack, ["crit"]))))
    shooting = Roll(5, "p2", "other", "d6", [6, 6, 5, 4, 1], needs=4)
    assert system.roll_odds(st, shooting) == (4, pytest.approx(5 * 0.5 ** 5))


def test_crits_that_do_not_count_as_successes_leave_the_explore_odds_to_the_successes() -> None:
    from domain.systems.state import Roll

    system, st = tornscape_state()
    st.dice.crit_counts = False
    explore = Roll(1, "p1", "explore", "attack", ["crit", "success", "blank"])
    assert system.roll_odds(st, explore) == (1, pytest.approx(3 * 0.5 * 0.5 ** 2))  # success 3 sides in 6


@pytest.mark.parametrize("switch", ["X02", "X04", "X05", "X07", "X08", "X09"])
@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_a_switch_that_changes_no_chance_leaves_the_odds_the_oracles(switch: str, dice: int) -> None:
    """Fizzles, attributes, replicable spells, who dispels, and Claustrophobia's exhaustion and party size decide
    nothing by chance: switched off, a cast's and a dispel's odds are still the oracle's (X01 on, tie dispelled)."""
    from domain.systems.t9a.pack import Cast, Phase

    system, st = state({"switches": {switch: False}})
    cast = system.odds(st, {"type": "CastingAttempted", "wizard": "w1", "spell": "bolt", "dice": dice,
                            "version": "basic", "modifier": 1})
    assert cast["pass"] == pytest.approx(float(casting_pass_probability(dice, 7, 1, (1, 2))), abs=1e-15)
    assert cast["miscast"] == pytest.approx(brute(dice, lambda r: Counter(r).most_common(1)[0][1] >= 3), abs=1e-15)
    st.phase_state = Phase("p1", step="siphoned", cast=Cast(seq=5, wizard="w1", spell="bolt", total=8, passed=True,
                                                            miscast=False))
    dispel = system.odds(st, {"type": "DispelAttempted", "wizard": "d1", "dice": dice, "roll": 6})
    assert dispel["dispel"] == pytest.approx(float(dispel_probability(dice, 8, "dispelled", (1, 2))), abs=1e-15)
