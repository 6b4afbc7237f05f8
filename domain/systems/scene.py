"""A whole game as one picture drawn once, and per seq the attribute changes that bring it to that seq.

A picture is made of elements with stable ids. What an element looks like at a moment is its *look*: a
map of attributes to values (``transform``, ``fill``, ``display``, ``class`` …; ``text`` is its text,
``html`` its inner HTML, built and escaped here). A :class:`Scene` is the picture drawn at the setup
(every element that exists at any seq is in it, hidden where absent) and ``frames``: for each seq, the
ops ``(element id, attribute, new value, old value)`` that step the picture from seq-1 to seq. A reader
steps forward by applying the new values and back by applying the old ones; it needs no rule and no
geometry. Python computes every value (a position becomes a transform, an allegiance a colour).

``to_json()`` is the compact form the dashboard sends to the browser: strings in one table, ops as
indexes into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html import escape
from typing import Any

from domain.systems.state import SCALAR

Look = dict[tuple[str, str], Any]  # (element id, attribute) -> value
Op = tuple[str, str, Any, Any]  # element id, attribute, new value, old value


@dataclass
class Scene:
    html: str
    css: str = ""
    frames: list[list[Op]] = field(default_factory=list)

    def to_json(self) -> dict:
        strings: dict[str, int] = {}

        def ref(value: Any) -> int:
            text = "\x00" if value is None else str(value)
            if text not in strings:
                strings[text] = len(strings)
            return strings[text]

        frames = [[ref(x) for op in ops for x in op] for ops in self.frames]
        table = [None if s == "\x00" else s for s in strings]
        return {"html": self.html, "css": self.css, "strings": table, "frames": frames}


class FrameLog:
    """The frames of a scene, built seq by seq: ``set`` records an op only where the value changes."""

    def __init__(self, initial: Look) -> None:
        self.current: Look = dict(initial)
        self.frames: list[list[Op]] = []

    def begin(self) -> None:
        self.frames.append([])

    def set(self, look: Look) -> None:
        ops = self.frames[-1]
        for where, value in look.items():
            old = self.current.get(where)
            if old != value:
                ops.append((where[0], where[1], value, old))
                self.current[where] = value


# --- stepping through a game's states ------------------------------------------------------------

@dataclass
class Moment:
    seq: int
    state: dict  # the replay state after seq (shared: read it, never keep it)
    changed: set  # the (part, key) changed at seq
    event: dict | None  # the stored line of seq (None at the setup)
    before: dict | None = None  # the objects changed at seq, as they were before it: (part, key) -> value


def moments(header: dict, changes: Iterable, lines: list[dict], object_parts: Iterable[str],
            last: int | None = None) -> Iterator[Moment]:
    """The replay state after each seq from 0 to ``last`` (default: the last line's), from a game's changes
    (domain.timeline.state_changes); seqs without changes (voided events, as ruled) still come."""
    by_seq: dict[int, list] = {}
    for change in changes:
        by_seq.setdefault(change[0], []).append(change)
    events = {int(line["seq"]): line for line in lines}
    if last is None:
        last = max(events, default=0)
    state: dict[str, Any] = {"game": header.get("game"), "system": header.get("system"), "last_seq": last,
                             **{part: {} for part in object_parts}}
    for seq in range(0, last + 1):
        changed: set = set()
        before: dict = {}
        for _, part, key, value in by_seq.get(seq, ()):
            changed.add((part, key))
            if key == SCALAR:
                before[(part, key)] = state.get(part)
                state[part] = value
            else:
                objects = state.setdefault(part, {})
                before[(part, key)] = objects.get(key)
                if value is None:
                    objects.pop(key, None)
                else:
                    objects[key] = value
        state["seq"] = seq
        yield Moment(seq, state, changed, events.get(seq), before)


def region_scene(header: dict, changes: Iterable, lines: list[dict], object_parts: Iterable[str],
                 looks: Callable[[Moment], Look], shell: Callable[[Look], str], css: str = "",
                 skip: set[int] | None = None) -> Scene:
    """A scene whose look is recomputed at every seq by ``looks`` (small pictures: cards, dice pools);
    ``shell(look)`` draws the picture with the setup's look. ``skip``: seqs whose event is left out (a
    voided event, as ruled): their look has no event."""
    log = FrameLog({})
    first: Look | None = None
    for moment in moments(header, changes, lines, object_parts):
        if skip and moment.seq in skip:
            moment.event = None
        look = looks(moment)
        if first is None:
            first = look
            log = FrameLog(look)
        log.begin()
        log.set(look)
    return Scene(shell(first or {}), css, log.frames)


def look_attrs(look: Look, element: str, *names: str) -> str:
    """The attributes ``names`` of ``element`` as they are in ``look`` (for drawing it), skipping unset ones."""
    return "".join(f' {n}="{escape(str(look[(element, n)]), quote=True)}"' for n in names
                   if look.get((element, n)) is not None)
