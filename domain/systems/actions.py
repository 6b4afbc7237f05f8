"""Legal actions: what may be recorded next at a state, as each rules pack computes it.

The Record page offers exactly these (a button, a hex on the board, a face to tap); the simulators
play events among them; property tests hold the rules' checks and the offered actions to each other:
every completed action is accepted by the rules, and every event a simulator plays matches one.

An :class:`Action` is one event to record. Its ``event`` holds every field the state decides; its
``open`` fields are left to the table, each with the :class:`Choice` of values the rules allow (the
faces the dice showed, the card drawn, how many dice to convert). An action with no open field is
complete: one tap records it.

An open field named ``object.key`` is one entry of an object field (``score.p1``: player p1's score
in ``score``). Fields the rules tie to the open ones (the winner of a final score) are not asked for:
the action's ``derive`` computes them from the filled event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

from i18n import _


@dataclass(frozen=True)
class Choice:
    """The values an open field of an action may take.

    ``kind`` says how to ask for it:
    - ``one_of``: one of ``values`` (a card, a domain, a hex written [q, r], a warrior);
    - ``count``: an integer from ``low`` to ``high`` (dice to convert, dice to cast with);
    - ``faces``: a list of ``count`` faces, each one of ``values`` (the faces the dice showed).
    """

    kind: str
    values: tuple = ()
    low: int = 0
    high: int = 0
    count: int = 0

    def allows(self, value: Any) -> bool:
        if self.kind == "one_of":
            return value in self.values
        if self.kind == "count":
            return type(value) is int and self.low <= value <= self.high
        if self.kind == "faces":
            return (isinstance(value, list) and len(value) == self.count
                    and all(any(v == f and type(v) is type(f) for f in self.values) for v in value))
        return False


def one_of(values) -> Choice:
    return Choice("one_of", tuple(values))


def count(low: int, high: int) -> Choice:
    return Choice("count", low=low, high=high)


def faces(values, how_many: int) -> Choice:
    return Choice("faces", tuple(values), count=how_many)


@dataclass(frozen=True)
class Action:
    """One event that may be recorded next.

    ``event``: the event's fields the state fixes (``type`` always). ``open``: field -> Choice, filled at
    the table. ``label``: what a button says. ``group``: where the Record page shows it (e.g.
    ``turn``, ``activation``, ``move``, ``dice``, ``vortex``, ``magic``, ``initiative``, ``end``).
    ``actor``: the player whose action it is, if any. ``hexes``: for a move or an ejection, the
    positions it ends on (the board highlights them). ``derive``: the fields the rules tie to the open
    ones, computed from the filled event (the winner of a final score)."""

    event: dict
    label: str
    group: str = "play"
    open: dict[str, Choice] = field(default_factory=dict)
    actor: str | None = None
    hexes: tuple = ()
    derive: Callable[[dict], dict] | None = None

    @property
    def complete(self) -> bool:
        return not self.open

    def fill(self, **values: Any) -> dict:
        """The event with its open fields filled (a ValueError for a value the choice does not allow)."""
        for name, value in values.items():
            choice = self.open.get(name)
            if choice is None or not choice.allows(value):
                raise ValueError(_("{field}={value} is not a value this action allows").format(
                    field=name, value=repr(value)))
        missing = set(self.open) - set(values)
        if missing:
            raise ValueError(_("open fields left unfilled: {fields}").format(fields=", ".join(sorted(missing))))
        event = dict(self.event)
        for name, value in values.items():
            outer, _dot, key = name.partition(".")
            if key:
                event[outer] = {**event.get(outer, {}), key: value}
            else:
                event[name] = value
        return {**event, **self.derive(event)} if self.derive else event

    def matches(self, event: dict) -> bool:
        """Whether ``event`` (as given, before the rules derive anything) is this action completed: every
        fixed field equal, every open field a value its choice allows, every derived field as derived."""
        for name, value in self.event.items():
            if event.get(name) != value:
                return False
        entries: dict[str, set] = {}
        for name, choice in self.open.items():
            found, value = _lookup(event, name)
            if not found or not choice.allows(value):
                return False
            outer, _dot, key = name.partition(".")
            if key:
                entries.setdefault(outer, set()).add(key)
        if any(set(event[outer]) != keys for outer, keys in entries.items()):
            return False  # an object of entries holds those entries only
        return self.derive is None or all(event.get(k) == v for k, v in self.derive(event).items())


def _lookup(event: dict, name: str) -> tuple[bool, Any]:
    """(whether it is there, its value) of open field ``name`` of ``event``; ``object.key`` looks inside."""
    outer, _dot, key = name.partition(".")
    if not key:
        return name in event, event.get(name)
    inner = event.get(outer)
    return (True, inner[key]) if isinstance(inner, dict) and key in inner else (False, None)


def offered(actions: list[Action], event: dict) -> bool:
    """Whether ``event`` completes one of ``actions``."""
    return any(a.matches(event) for a in actions)
