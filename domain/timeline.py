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

from domain.integrity import Damage
from domain.rulings import as_ruled as ruled_lines
from domain.systems import system_for
from domain.systems.state import SCALAR, Checks, GameState
from i18n import _

NOT_PARTS = frozenset({"game", "system", "seq"})  # the same at every seq, or the seq itself

Change = tuple[int, str, str, Any]


def objects(state: GameState) -> dict[tuple[str, str], Any]:
    """Every object of the state's object parts as (part, key) -> value."""
    return {(part, key): item for part in state.OBJECT_PARTS for key, item in state.objects(part).items()}


def start(header: dict) -> GameState:
    """The state of the setup, as every reader folds from (no rule is checked again: a stored game's
    setup was checked when it was recorded)."""
    system = system_for(header["system"])
    state = system.new_state(header)
    system.check_setup(state, Checks(strict=False))
    state.head = header["hash"]
    state.as_played = True  # a reader's fold: a `void` ruling does not turn the state as ruled (domain.game.fold)
    return state


class Tracker:
    """One game followed event by event: its state, and after each event what it changed.

    Only what may have changed is looked at: the single values and the small object parts at every
    event, and of the parts the state tracks (``GameState.TRACKED_PARTS``) the objects it marked
    (``touch``), unless the whole state was rebuilt (a ruling's ``void``). ``rolls`` holds the seqs of
    the rolls the last event made, re-rolled or used."""

    def __init__(self, header: dict, lines: Iterable[dict] = ()) -> None:
        self.header = header
        self.system = system_for(header["system"])
        self.state = start(header)
        for line in lines:
            self.system.apply(self.state, line)
        self.names = self.state.SCALARS
        self.scalars = self.state.scalar_values()  # the single values last seen, in the order of names
        self.values = objects(self.state)  # the objects last seen
        self.state.touched.clear()
        self.state.rebuilt = False
        self.rolls: list[int] = []
        self.untracked = [p for p in self.state.OBJECT_PARTS if p not in self.state.TRACKED_PARTS]
        self.untracked_keys = self._untracked_keys()  # part -> the keys of its objects last seen

    def setup(self) -> list[tuple[str, str, Any]]:
        """The state as changes (what seq 0 sets)."""
        return [*((name, SCALAR, value) for name, value in zip(self.names, self.scalars)),
                *((part, key, value) for (part, key), value in self.values.items())]

    def apply(self, line: dict) -> list[tuple[str, str, Any]]:
        """Apply one stored line; the (part, key, value) it changed (value None: the object is gone)."""
        state = self.state
        self.system.apply(state, line)
        touched = state.touched
        # the single values (one comparison of the tuples tells that none changed: most events), then the objects
        # marked, then the untracked parts' objects: each compared with the value last seen as it is looked at
        # (one pass: this runs for every event a projector replays)
        out: list[tuple[str, str, Any]] = []
        scalars, last = state.scalar_values(), self.scalars
        if scalars != last:
            for name, value, before in zip(self.names, scalars, last):
                if value is not before and value != before:  # the same object (a number, a name) is not compared
                    out.append((name, SCALAR, value))
            self.scalars = scalars
        if state.rebuilt:
            self.rolls = [key for part, key in touched if part == "rolls"]
            state.rebuilt = False
            touched.clear()
            out += self._differences(objects(state))
            self.untracked_keys = self._untracked_keys()
            return out
        rolls = []
        for where in touched:
            part, key = where
            if part == "rolls":
                rolls.append(key)
            else:
                self._compare(out, where, state.object_json(part, key))
        touched.clear()
        self.rolls = rolls
        for part in self.untracked:
            found = state.objects(part)
            for key, item in found.items():
                self._compare(out, (part, key), item)
            keys = self.untracked_keys[part]
            if len(keys) != len(found) or not keys.issuperset(found):
                for key in keys - found.keys():
                    self._compare(out, (part, key), None)
                self.untracked_keys[part] = set(found)
        return out

    def _compare(self, out: list, where: tuple[str, str], value: Any) -> None:
        """Object ``where`` is now ``value`` (None: gone): a change in ``out`` if it differs from the last seen."""
        values = self.values
        if values.get(where, _GONE) != value:
            out.append((where[0], where[1], value))
            if value is None:
                values.pop(where, None)
            else:
                values[where] = value

    def _untracked_keys(self) -> dict[str, set]:
        return {part: set(self.state.object_keys(part)) for part in self.untracked}

    def _differences(self, now: dict[tuple[str, str], Any]) -> list[tuple[str, str, Any]]:
        """What differs in the objects ``now`` (the whole state's) from those last seen (what it lacks is gone)."""
        out: list[tuple[str, str, Any]] = []
        for where, value in now.items():
            self._compare(out, where, value)
        for where in self.values.keys() - now.keys():
            out.append((where[0], where[1], None))
            del self.values[where]
        return out


def unreplayable(lines: list[dict]):
    """Where a stored game (header first) cannot be replayed by its rules pack — a game whose lines were
    changed into something the rules never accepted — as integrity Damage; None when every line applies."""
    seq = 0
    try:
        tracker = Tracker(lines[0])
        for line in lines[1:]:
            seq = line.get("seq", seq)
            tracker.apply(line)
    except Exception as exc:  # noqa: BLE001  any failure of apply is the game's, reported, never raised
        return Damage(seq, "unreplayable", _("its rules pack cannot apply it ({error})").format(
            error=f"{type(exc).__name__}: {exc}"))
    return None


def state_changes(header: dict, lines: Iterable[dict], *, as_ruled: bool = False) -> Iterator[Change]:
    """Every change of the game's state, seq 0 (the setup) first; ``as_ruled`` leaves out the events a
    ``void`` ruling removed anywhere in the game."""
    lines = list(lines)
    if as_ruled:
        lines = ruled_lines(lines)
    tracker = Tracker(header)
    for part, key, value in tracker.setup():
        yield 0, part, key, value
    for line in lines:
        for part, key, value in tracker.apply(line):
            yield line["seq"], part, key, value


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
