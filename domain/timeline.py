"""A game's timeline: the changes of its replay state, event by event, from the rules packs' own apply.

The replay state (docs/replay.md) is a set of *parts*: maps of objects keyed by id (``players``,
``models``, ``vortices``, ``warriors`` …: a pack's ``OBJECT_PARTS``) and single values (``turn``,
``phase``, ``magic`` …, under the key ``""``). A change ``(seq, part, key, value)`` says that from
event ``seq`` on, ``part[key]`` is ``value`` (``None``: the object is gone). The changes at seq 0 are
the setup; the state after event N is the setup with every change up to N applied in order.

Readers that step through a game (the projector's state rows, the replay in the browser) use these
changes; nothing here encodes a rule again: every state comes from ``GameSystem.apply``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from domain.rulings import as_ruled as ruled_lines
from domain.systems import system_for
from domain.systems.state import SCALAR, Checks, GameState

NOT_PARTS = frozenset({"game", "system", "seq"})  # the same at every seq, or the seq itself

Change = tuple[int, str, str, Any]


def parts(state: GameState) -> dict[tuple[str, str], Any]:
    """The state as (part, key) -> value."""
    out: dict[tuple[str, str], Any] = {}
    objects = state.OBJECT_PARTS
    for part, value in state.to_json().items():
        if part in NOT_PARTS:
            continue
        if part in objects:
            for key, item in value.items():
                out[(part, key)] = item
        else:
            out[(part, SCALAR)] = value
    return out


def start(header: dict) -> GameState:
    """The state of the setup, as every reader folds from (no rule is checked again: a stored game's
    setup was checked when it was recorded)."""
    system = system_for(header["system"])
    state = system.new_state(header)
    system.check_setup(state, Checks(strict=False))
    state.head = header["hash"]
    state.as_played = True  # a reader's fold: a `void` ruling does not turn the state as ruled (domain.game.fold)
    return state


def state_changes(header: dict, lines: Iterable[dict], *, as_ruled: bool = False) -> Iterator[Change]:
    """Every change of the game's state, seq 0 (the setup) first; ``as_ruled`` leaves out the events a
    ``void`` ruling removed anywhere in the game."""
    lines = list(lines)
    if as_ruled:
        lines = ruled_lines(lines)
    state = start(header)
    system = system_for(header["system"])
    before = parts(state)
    for (part, key), value in before.items():
        yield 0, part, key, value
    for line in lines:
        system.apply(state, line)
        after = parts(state)
        seq = line["seq"]
        for where, value in after.items():
            if before.get(where, _GONE) != value:
                yield seq, where[0], where[1], value
        for where in before.keys() - after.keys():
            yield seq, where[0], where[1], None
        before = after


def state_at(changes: Iterable[Change], seq: int, object_parts: Iterable[str] = ()) -> dict[str, Any]:
    """The replay state's parts after event ``seq``, from a game's changes in order (``object_parts``:
    the maps of objects the state always has, empty or not)."""
    state: dict[str, Any] = {part: {} for part in object_parts}
    for at, part, key, value in changes:
        if at > seq:
            break
        if key == SCALAR:
            state[part] = value
        elif value is None:
            state.get(part, {}).pop(key, None)
        else:
            state.setdefault(part, {})[key] = value
    return state


_GONE = object()
