"""The exact odds oracle (tests/exact_odds.py) against brute force: every function is compared, exactly, with a count over
all ordered outcomes (itertools.product over the dice's faces, each physical face listed as often as
the die data says), for many small parameters (hypothesis) and a few hand-worked values."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds import (at_least_one_success, casting_pass_probability, d6_sum_counts, dispel_probability,
                                faces_probability, successes_exactly)
from domain.systems.dice import load_rule_data

D6 = range(1, 7)
ATTACK = {"crit": 1, "success": 3, "blank": 2}
AGILITY = {"crit": 1, "success": 2, "blank": 3}


# --- brute force ---------------------------------------------------------------------------------------

def brute_casting(dice: int, value: int, modifier: int, fails: tuple) -> Fraction:
    rolls = list(itertools.product(D6, repeat=dice))
    passed = sum(1 for r in rolls if sum(r) + modifier >= value and not (dice == 1 and r[0] in fails))
    return Fraction(passed, len(rolls))


def brute_dispel(dice: int, target: int, tie: str, fails: tuple) -> Fraction:
    rolls = list(itertools.product(D6, repeat=dice))
    beats = (lambda t: t >= target) if tie == "dispelled" else (lambda t: t > target)
    won = sum(1 for r in rolls if beats(sum(r)) and not (dice == 1 and r[0] in fails))
    return Fraction(won, len(rolls))


def physical_faces(die: dict[str, int]) -> list[str]:
    return [face for face, count in die.items() for _ in range(count)]


def brute_faces(die: dict[str, int], observed: list[str]) -> Fraction:
    rolls = list(itertools.product(physical_faces(die), repeat=len(observed)))
    want = Counter(observed)
    return Fraction(sum(1 for r in rolls if Counter(r) == want), len(rolls))


def brute_successes(die: dict[str, int], n: int, k: int | None, success=("crit", "success")) -> Fraction:
    rolls = list(itertools.product(physical_faces(die), repeat=n))
    hits = [sum(1 for f in r if f in success) for r in rolls]
    ok = sum(1 for h in hits if (h >= 1 if k is None else h == k))
    return Fraction(ok, len(rolls))


# --- strategies ----------------------------------------------------------------------------------------

dice_counts = st.integers(min_value=1, max_value=5)
fail_sets = st.sampled_from([(1, 2), (), (1,), (1, 2, 3)])
named_die = st.dictionaries(st.sampled_from(["crit", "success", "blank", "skull"]),
                            st.integers(min_value=0, max_value=3), min_size=1).filter(lambda d: sum(d.values()) > 0)


# --- sums of d6 -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dice", range(0, 6))
def test_sum_counts_are_the_number_of_ordered_outcomes_of_each_total(dice: int) -> None:
    counts = d6_sum_counts(dice)
    brute = Counter(sum(r) for r in itertools.product(D6, repeat=dice))
    assert {t: n for t, n in enumerate(counts) if n} == dict(brute)
    assert sum(counts) == 6 ** dice


@settings(max_examples=150, deadline=None)
@given(dice=dice_counts, value=st.integers(min_value=-2, max_value=33), modifier=st.integers(min_value=-3, max_value=3),
       fails=fail_sets)
def test_casting_pass_probability_equals_brute_force(dice: int, value: int, modifier: int, fails: tuple) -> None:
    got = casting_pass_probability(dice, value, modifier, single_die_fails=fails)
    assert isinstance(got, Fraction)
    assert got == brute_casting(dice, value, modifier, fails)


def test_casting_pass_probability_hand_values() -> None:
    assert casting_pass_probability(2, 7) == Fraction(21, 36)          # 7+ on 2d6
    assert casting_pass_probability(1, 3) == Fraction(4, 6)            # 3, 4, 5, 6
    assert casting_pass_probability(1, 1, modifier=5) == Fraction(4, 6)  # a natural 1 or 2 fails anyway (X01)
    assert casting_pass_probability(1, 1, modifier=5, single_die_fails=()) == 1
    assert casting_pass_probability(3, 19) == 0 and casting_pass_probability(3, 3) == 1
    # with the rule data's own single-die faces
    fails = tuple(load_rule_data("t9a")["casting"]["single_die_natural_fail"])
    assert casting_pass_probability(1, 2, single_die_fails=fails) == Fraction(4, 6)


@settings(max_examples=150, deadline=None)
@given(dice=dice_counts, target=st.integers(min_value=-1, max_value=32), tie=st.sampled_from(["dispelled", "caster"]),
       fails=fail_sets)
def test_dispel_probability_equals_brute_force(dice: int, target: int, tie: str, fails: tuple) -> None:
    got = dispel_probability(dice, target, tie=tie, single_die_fails=fails)
    assert isinstance(got, Fraction)
    assert got == brute_dispel(dice, target, tie, fails)


def test_dispel_probability_tie_rule_moves_exactly_the_ties() -> None:
    ties = Fraction(d6_sum_counts(2)[7], 36)  # 6/36 of 2d6 rolls total exactly 7
    assert dispel_probability(2, 7) - dispel_probability(2, 7, tie="caster") == ties == Fraction(1, 6)
    assert dispel_probability(1, 1) == Fraction(4, 6)  # a lone natural 1 or 2 never dispels


def test_invalid_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        casting_pass_probability(0, 5)
    with pytest.raises(ValueError):
        dispel_probability(2, 7, tie="nobody")
    with pytest.raises(ValueError):
        faces_probability(ATTACK, ["crit", "wild"])
    with pytest.raises(ValueError):
        successes_exactly({"blank": 0}, 1, 0)


# --- Tornscape dice ---------------------------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(die=named_die, data=st.data())
def test_faces_probability_equals_brute_force(die: dict[str, int], data: st.DataObject) -> None:
    observed = data.draw(st.lists(st.sampled_from(sorted(die)), min_size=0, max_size=4))
    got = faces_probability(die, observed)
    assert isinstance(got, Fraction)
    assert got == brute_faces(die, observed)


def test_faces_probability_of_the_vortex_pairs_of_the_default_attack_die() -> None:
    """RULES.md §9: CC 1/36, CS 6/36, SS 9/36, SB 12/36, BB 4/36, BC 4/36 — and they add up to 1."""
    pairs = {("crit", "crit"): Fraction(1, 36), ("crit", "success"): Fraction(6, 36),
             ("success", "success"): Fraction(9, 36), ("success", "blank"): Fraction(12, 36),
             ("blank", "blank"): Fraction(4, 36), ("blank", "crit"): Fraction(4, 36)}
    for pair, p in pairs.items():
        assert faces_probability(ATTACK, list(pair)) == p == faces_probability(ATTACK, list(reversed(pair)))
    assert sum(pairs.values()) == 1
    assert faces_probability(load_rule_data("tornscape")["dice"]["attack"], ["crit", "crit"]) == Fraction(1, 36)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(die=named_die, n=st.integers(min_value=0, max_value=5), k=st.integers(min_value=-1, max_value=6))
def test_successes_exactly_equals_brute_force(die: dict[str, int], n: int, k: int) -> None:
    got = successes_exactly(die, n, k)
    assert isinstance(got, Fraction)
    assert got == brute_successes(die, n, k)


@settings(max_examples=100, deadline=None)
@given(die=named_die, n=st.integers(min_value=0, max_value=5))
def test_at_least_one_success_equals_brute_force(die: dict[str, int], n: int) -> None:
    got = at_least_one_success(die, n)
    assert isinstance(got, Fraction)
    assert got == brute_successes(die, n, None)
    assert got == sum(successes_exactly(die, n, k) for k in range(1, n + 1))


def test_success_faces_can_be_chosen() -> None:
    # a crit that does not count as a success (tornscape `crit_counts_as_success: false`)
    assert successes_exactly(ATTACK, 2, 2, success_faces=("success",)) == brute_successes(ATTACK, 2, 2, ("success",))
    assert at_least_one_success(AGILITY, 1) == Fraction(1, 2)
    assert at_least_one_success(AGILITY, 2) == Fraction(3, 4)
    assert at_least_one_success(AGILITY, 1, success_faces=("crit",)) == Fraction(1, 6)
