"""Events completing an offered action: the test oracle of the legal actions' property tests."""

from __future__ import annotations

import itertools
from typing import Any

from domain.systems.actions import Action, Choice


def completions(action: Action, limit: int = 6) -> list[dict]:
    """Up to ``limit`` distinct events completing ``action``: the open fields' examples spread over each
    one's range, every field's first example together, then each field's others in turn (a final score: a
    draw, then a win for each side)."""
    spread = {name: _spread(examples(choice), limit) for name, choice in action.open.items()}
    if any(not values for values in spread.values()):
        return []
    first = {name: values[0] for name, values in spread.items()}
    picks = [first] + [{**first, name: values[i]} for i in range(1, limit)
                       for name, values in spread.items() if i < len(values)]
    events: list[dict] = []
    for values in picks:
        event = action.fill(**values)
        if event not in events:
            events.append(event)
    return events[:limit]


def _spread(values: list, k: int) -> list:
    """``k`` of ``values`` evenly spread from the first to the last (all of them if there are no more)."""
    if len(values) <= k:
        return list(values)
    return [values[i * (len(values) - 1) // (k - 1)] for i in range(k)] if k > 1 else values[:1]


def examples(choice: Choice, limit: int = 50) -> list[Any]:
    """Up to ``limit`` values ``choice`` allows (every one when there are few)."""
    if choice.kind == "one_of":
        return list(choice.values[:limit])
    if choice.kind == "count":
        return list(range(choice.low, choice.high + 1))[:limit]
    return [list(c) for c in _spread_product(choice.values, choice.count, limit)]


def _spread_product(values: tuple, repeat: int, limit: int) -> list[tuple]:
    """Up to ``limit`` of the tuples of ``itertools.product(values, repeat=repeat)``, evenly spread over
    all of them when there are more (every face shows up, not only the first ones)."""
    total = len(values) ** repeat
    if total <= limit:
        return list(itertools.product(values, repeat=repeat))
    picked = []
    for n in range(limit):
        index, digits = n * total // limit, []
        for _ in range(repeat):
            index, digit = divmod(index, len(values))
            digits.append(values[digit])
        picked.append(tuple(reversed(digits)))
    return picked
