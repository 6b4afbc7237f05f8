"""Exact probabilities of the games' rolls, as fractions (pure stdlib).

Every function works on counts: the distribution of a sum of d6 is built by convolving the counts
of one die ``k`` times (never by listing the 6**k outcomes), and the named-face dice of Tornscape by
the multinomial / binomial formulas over the faces' counts in the die data (e.g. the default attack
die ``{"crit": 1, "success": 3, "blank": 2}``: a crit comes up 1 time in 6).

* :func:`casting_pass_probability` — The 9th Age: P(sum of ``dice`` d6 + ``modifier`` >= ``value``),
  a single die showing a natural 1 or 2 always failing (X01, R96).
* :func:`dispel_probability` — P(dispel total >= the casting total ``target``), or > with
  ``tie="caster"`` (X07), with the same single-die rule.
* :func:`faces_probability` — the probability of the observed multiset of faces of ``len(observed)``
  dice of one kind.
* :func:`at_least_one_success`, :func:`successes_exactly` — Tornscape rolls (R17, R61: a roll
  succeeds on one success or crit).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import comb, factorial

D6 = (1, 2, 3, 4, 5, 6)
SUCCESS_FACES = ("crit", "success")


def d6_sum_counts(dice: int) -> list[int]:
    """``counts[s]`` = the number of the 6**dice ordered outcomes whose faces add up to ``s``."""
    if dice < 0:
        raise ValueError(f"a number of dice cannot be negative ({dice})")
    counts = [1]  # zero dice: the empty sum 0, one way
    for _ in range(dice):
        nxt = [0] * (len(counts) + 6)
        for total, ways in enumerate(counts):
            if ways:
                for face in D6:
                    nxt[total + face] += ways
        counts = nxt
    return counts


def _at_least(dice: int, threshold: int, single_die_fails: Iterable[int]) -> Fraction:
    """P(sum of ``dice`` d6 >= ``threshold``), a single die showing a face of ``single_die_fails`` failing."""
    if dice < 1:
        raise ValueError(f"a casting or dispel roll uses at least one die, not {dice}")
    counts = d6_sum_counts(dice)
    fails = set(single_die_fails) if dice == 1 else set()  # X01: only a lone die fails on its face
    ways = sum(n for total, n in enumerate(counts) if total >= threshold and total not in fails)
    return Fraction(ways, 6 ** dice)


def casting_pass_probability(dice: int, value: int, modifier: int = 0,
                             single_die_fails: Iterable[int] = (1, 2)) -> Fraction:
    """P(a casting attempt with ``dice`` magic dice passes): sum + ``modifier`` >= ``value`` (R96);
    with one die, a natural face in ``single_die_fails`` fails whatever the modifier (X01)."""
    return _at_least(dice, value - modifier, single_die_fails)


def dispel_probability(dice: int, target: int, tie: str = "dispelled",
                       single_die_fails: Iterable[int] = (1, 2)) -> Fraction:
    """P(a dispel with ``dice`` dice beats the casting total ``target``): total >= target when a tie
    dispels (the default), total > target with ``tie="caster"`` (X07); one die showing a natural
    face in ``single_die_fails`` fails."""
    if tie not in ("dispelled", "caster"):
        raise ValueError(f"tie must be 'dispelled' or 'caster', not {tie!r}")
    return _at_least(dice, target if tie == "dispelled" else target + 1, single_die_fails)


# --- dice with named faces ---------------------------------------------------------------------------

def _faces(faces_in_force: Mapping[str, int]) -> tuple[dict[str, int], int]:
    faces = {str(f): int(n) for f, n in faces_in_force.items() if not str(f).startswith("_")}
    if any(n < 0 for n in faces.values()):
        raise ValueError("a face cannot be on a die a negative number of times")
    sides = sum(faces.values())
    if sides < 1:
        raise ValueError("a die needs at least one face")
    return faces, sides


def faces_probability(faces_in_force: Mapping[str, int], observed: list[str]) -> Fraction:
    """The probability that ``len(observed)`` dice of this kind show exactly the multiset ``observed``
    (in any order): n! / prod(c_f!) * prod(p_f ** c_f)."""
    faces, sides = _faces(faces_in_force)
    seen = Counter(observed)
    unknown = [f for f in seen if f not in faces]
    if unknown:
        raise ValueError(f"not a face of this die: {', '.join(map(repr, unknown))}")
    arrangements = factorial(len(observed))
    for count in seen.values():
        arrangements //= factorial(count)
    ways = arrangements
    for face, count in seen.items():
        ways *= faces[face] ** count
    return Fraction(ways, sides ** len(observed))


def _success_chance(faces_in_force: Mapping[str, int], success_faces: Iterable[str]) -> tuple[int, int]:
    faces, sides = _faces(faces_in_force)
    wanted = set(success_faces)
    return sum(n for f, n in faces.items() if f in wanted), sides


def successes_exactly(faces_in_force: Mapping[str, int], n: int, k: int,
                      success_faces: Iterable[str] = SUCCESS_FACES) -> Fraction:
    """P(exactly ``k`` of ``n`` dice show a success face): C(n, k) s^k (S - s)^(n - k) / S^n, where
    the die has S faces of which s are successes."""
    if n < 0:
        raise ValueError(f"a number of dice cannot be negative ({n})")
    good, sides = _success_chance(faces_in_force, success_faces)
    if not 0 <= k <= n:
        return Fraction(0)
    return Fraction(comb(n, k) * good ** k * (sides - good) ** (n - k), sides ** n)


def at_least_one_success(faces_in_force: Mapping[str, int], n: int,
                         success_faces: Iterable[str] = SUCCESS_FACES) -> Fraction:
    """P(at least one of ``n`` dice shows a success face) = 1 - P(none)."""
    return 1 - successes_exactly(faces_in_force, n, 0, success_faces)
