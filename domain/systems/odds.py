"""Exact odds of a roll's outcomes, as a rules pack computes them.

A pack says what an outcome is with the same small rule functions that decide the event (a lone natural
1 or 2 failing, three dice of a value miscasting, ...); here each distinct multiset of faces of ``dice``
d6 is counted once with the number of ordered rolls that show it, and the rolls for which the outcome
holds are summed. Nothing here knows a rule: the pack passes the outcome as a function of the faces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from itertools import combinations_with_replacement
from math import comb, factorial, prod

D6 = (1, 2, 3, 4, 5, 6)


def multisets(dice: int, faces: tuple = D6) -> Iterator[tuple[tuple, int]]:
    """Each distinct multiset of ``dice`` faces (sorted) with the number of ordered rolls that show it."""
    whole = factorial(dice)
    for shown in combinations_with_replacement(faces, dice):
        yield shown, whole // prod(factorial(n) for n in Counter(shown).values())


def probability(dice: int, holds: Callable[[tuple], bool], faces: tuple = D6) -> float:
    """P(``holds(faces shown)``) for a roll of ``dice`` fair dice of ``faces``: exact, as a float."""
    if dice < 1:
        return 0.0
    ways = sum(n for shown, n in multisets(dice, faces) if holds(shown))
    return ways / len(faces) ** dice


def shown_chance(die: Mapping[str, int], shown: list) -> float:
    """P(``len(shown)`` dice of ``die`` (face -> its number of sides) show the multiset ``shown``, in any order)."""
    total = sum(die.values())
    counts = Counter(str(face) for face in shown)
    ways = factorial(len(shown)) // prod(factorial(n) for n in counts.values())
    return ways * prod((die.get(face, 0) / total) ** n for face, n in counts.items())


def exactly(n: int, k: int, p: float) -> float:
    """P(exactly ``k`` of ``n`` dice succeed), each with chance ``p``."""
    return comb(n, k) * p ** k * (1 - p) ** (n - k)


def chance(die: Mapping[str, int], counts: Callable[[str], bool]) -> float:
    """P(one die of ``die`` shows a face for which ``counts`` holds)."""
    return sum(n for face, n in die.items() if counts(face)) / sum(die.values())
