"""Disputes and rulings: the *as-ruled* game is the *as-played* game without the events a ruling voided.

Nothing is edited: a ``RulingMade`` with decision ``void`` is itself an event. From it on, the game is
checked against the as-ruled state — the setup and every event that was not voided, replayed through
the same rules — and a void is refused when an event it leaves behind would then break a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from domain.clock import CLOCK_EVENTS
from domain.errors import RollcallError
from domain.systems.fields import CORRECTIONS, JUDGE_EVENTS, EventSpec
from domain.systems.state import Checks, GameState
from i18n import _


class GameSystem(Protocol):
    """What these functions use of a rules pack (domain.systems.pack.GameSystem, which calls them)."""

    specs: dict[str, EventSpec]

    def new_state(self, header: dict) -> GameState: ...
    def check_setup(self, state: GameState, chk: Checks) -> None: ...
    def decide(self, state: GameState, event: dict, chk: Checks) -> dict: ...
    def apply(self, state: GameState, event: dict) -> None: ...
    def derived_rule(self, state: GameState, event: dict, name: str, given: Any, value: Any) -> str: ...

# Events a ruling cannot void: the judge's own, the corrections and the players' confirmation of the record.
# Nor the clock's: time spent stays spent (a judge adjusts a clock instead, domain.clock).
NOT_VOIDABLE = JUDGE_EVENTS | CORRECTIONS | CLOCK_EVENTS | {"GameSealed"}
NOT_RECHECKED = JUDGE_EVENTS | CORRECTIONS  # events a replay applies without deciding them again


@dataclass(frozen=True)
class Breach:
    """An event left by a void that would break a rule in the as-ruled game."""

    seq: int
    type: str
    rule: str
    message: str


def voided_seqs(lines: Iterable[dict]) -> set[int]:
    """The seqs every ``void`` ruling among ``lines`` removed from the as-ruled game."""
    return {seq for line in lines if line.get("type") == "RulingMade" and line.get("decision") == "void"
            for seq in line["about"]}


def taken_back_seqs(lines: Iterable[dict]) -> set[int]:
    """The seqs every take-back and rewind among ``lines`` took back (domain.corrections)."""
    return {seq for line in lines if line.get("type") in CORRECTIONS for seq in line.get("taken_back", ())}


def out_of_game(lines: list[dict]) -> set[int]:
    """The seqs the as-ruled game leaves out: voided by a ruling, or taken back."""
    return voided_seqs(lines) | taken_back_seqs(lines)


def as_ruled(lines: list[dict]) -> list[dict]:
    """The lines of the as-ruled game: every event but those a ``void`` ruling removed or a correction took
    back."""
    out = out_of_game(lines)
    return [line for line in lines if line.get("seq") not in out] if out else list(lines)


def replay(system: GameSystem, header: dict, lines: Iterable[dict]) -> tuple[GameState, list[Breach]]:
    """Replay ``lines`` (stored record lines, some seqs left out) from the setup, deciding every play
    event again against the state the remaining events build: the state and what now breaks a rule.

    A rule an event already broke when it was recorded (its ``violations``) is not a new breach."""
    state = system.new_state(header)
    system.check_setup(state, Checks(strict=False))
    state.head = header["hash"]
    state.as_played = True
    breaches: list[Breach] = []
    for line in lines:
        if line["type"] not in NOT_RECHECKED:
            found = _recheck(system, state, line)
            breaches.extend(found)
            if any(b.rule == "F08" for b in found):
                return state, breaches  # it cannot be applied: the replay stops there
        try:
            system.apply(state, line)
        except (KeyError, IndexError, ValueError, AttributeError) as exc:
            breaches.append(Breach(line["seq"], line["type"], "F08", _(
                "it cannot follow the events that remain ({error})").format(error=f"{type(exc).__name__}: {exc}")))
            return state, breaches
    return state, breaches


def _recheck(system: GameSystem, state: GameState, line: dict) -> list[Breach]:
    spec = system.specs[line["type"]]
    event = {k: v for k, v in line.items() if k not in spec.derived and k not in ("hash", "violations")}
    known = {v.get("rule") for v in line.get("violations", ())}
    chk = Checks(strict=False)
    try:
        derived = system.decide(state, event, chk)
    except RollcallError as exc:  # e.g. a roll it uses was voided
        return [Breach(line["seq"], line["type"], "F08", _("it refers to a voided event: {why}").format(why=exc))]
    for name, value in derived.items():
        if name in line and line[name] != value:
            chk.fail(system.derived_rule(state, event, name, line[name], value),
                     _("`{field}` is {given} but the as-ruled game gives {value}").format(
                         field=name, given=repr(line[name]), value=repr(value)))
    return [Breach(line["seq"], line["type"], v.rule, v.message) for v in chk.found if v.rule not in known]


def rebuild(system: GameSystem, state: GameState) -> None:
    """Build a game's state again from the events still in it, in place: a live game's after a ``void`` or a
    correction (the as-ruled state of its lines), an as-played fold's after a correction (every event but
    those taken back: an as-played replay keeps what a ruling voided). The seq and the chain head stay those
    of the last event."""
    lines = list(state.lines)
    as_played = state.as_played
    out = taken_back_seqs(lines) if as_played else out_of_game(lines)
    ruled, _breaches = replay(system, state.header, [line for line in lines if line["seq"] not in out])
    seq, head = state.seq, state.head
    state.__dict__.clear()
    state.__dict__.update(ruled.__dict__)
    state.lines = lines
    state.voided = voided_seqs(lines)
    state.taken_back = taken_back_seqs(lines)
    state.as_played = as_played
    state.seq, state.head = seq, head
    state.rebuilt = True  # readers that follow what each event changed look at the whole state again


def check_again(system: GameSystem, header: dict, lines: list[dict], seq: int) -> list[Breach]:
    """Decide event ``seq`` of ``lines`` again against the as-played state before it: what it breaks
    now (beyond the violations it was recorded with; a judge's view of a disputed event)."""
    state = system.new_state(header)
    system.check_setup(state, Checks(strict=False))
    state.head = header["hash"]
    state.as_played = True
    for line in lines:
        if line["seq"] == seq:
            return [] if line["type"] in NOT_RECHECKED else _recheck(system, state, line)
        system.apply(state, line)
    return []
