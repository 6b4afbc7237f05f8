"""The state every system tracks, the rolls of a game, and the collector of rule violations."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass

from domain import clock as game_clock
from domain.errors import RuleViolation


@dataclass(slots=True)
class Roll:
    seq: int
    player: str
    purpose: str
    die: str
    faces: list
    source: str = "physical"
    used_by: int | None = None
    initial: tuple = ()
    label: str | None = None  # a roll of purpose "other": what it was for ("shooting: to hit")
    needs: int | None = None  # … and the face a die must reach to count as a success


SCALAR = ""  # the key of a part of the state that is a single value (domain.timeline)


class GameState:
    """The state every system tracks: players, turn, phase, rolls, scores, the chain head.

    Its replay JSON (``to_json``, docs/replay.md) is made of *parts*: single values (``SCALARS``) and maps of
    objects by id (``OBJECT_PARTS``: ``objects(part)``, one by one ``object_json(part, key)``). A part in
    ``TRACKED_PARTS`` is one whose every change ``apply`` marks with ``touch(part, key)``, so a reader that
    follows a game event by event (domain.timeline) looks at those objects alone; the other parts are small
    and looked at whole. ``touch("rolls", seq)`` marks a roll made, re-rolled or used."""

    OBJECT_PARTS: tuple[str, ...] = ("players",)
    TRACKED_PARTS: frozenset[str] = frozenset()
    SCALARS: tuple[str, ...] = ("turn", "phase", "clock")  # the single values' names, in the order scalar_values gives them

    def __init__(self, header: dict, rules: dict) -> None:
        self.header = header
        self.game: str = header["game"]
        self.system: str = header["system"]
        self.rules = rules
        self.players: dict[str, dict] = {p["id"]: p for p in header["players"]}
        self.seq = 0
        self.head = ""
        self.turn = 0
        self.phase: str | None = None
        self.scores = {pid: 0 for pid in self.players}
        self.rolls: dict[int, Roll] = {}
        self.ended = False
        self.ended_at_time = False  # ended by a GameEnded at time (in any phase: time was called)
        self.sealed = False
        self.clock = game_clock.initial(header)  # the game clock (domain.clock), None for a game without one
        self.digital_rerolls: list[tuple[int, str, object]] = []  # (seq, die, face) of digital re-rolls
        self.digital_draws: list[tuple[int, str, tuple[str, ...]]] = []  # (seq, card, deck left) of digital draws
        self.lines: list[dict] = []  # every event applied, as recorded (the as-played game)
        self.disputes: list[dict] = []  # DisputeOpened lines
        self.result: dict | None = None  # the GameEnded's score and winner, once it has ended
        self.confirmed: dict[str, int] = {}  # seat -> the seq of its ResultConfirmed
        self.rulings: list[dict] = []  # RulingMade lines
        self.voided: set[int] = set()  # seqs a `void` ruling removed from the as-ruled game
        self.taken_back: set[int] = set()  # seqs a take-back or a rewind took back (domain.corrections)
        # a fold that only reads (the as-played replay) keeps the events a ruling voided; a live game
        # turns into its as-ruled state at each `void` (domain.rulings.rebuild)
        self.as_played = False
        self.touched: set[tuple[str, object]] = set()  # (part, key) changed since a reader last looked
        self.rebuilt = False  # the whole state was rebuilt (domain.rulings.rebuild): nothing is marked

    #: what a fork shares with its state: set up once and never changed by ``apply`` (the lines: a list copied)
    SHARED: tuple[str, ...] = ("header", "rules", "lines", "touched", "disputes", "rulings")

    def forks(self) -> Callable[[], GameState]:
        """A maker of copies of this state that ``apply`` may change without changing this one (what an
        action would do, tried before it is recorded): the state is pickled once, each copy unpickled. A copy
        shares the header and the rules, and starts with a copy of the lists of lines, disputes and rulings and
        nothing touched."""
        blob = pickle.dumps({k: v for k, v in vars(self).items() if k not in self.SHARED}, protocol=pickle.HIGHEST_PROTOCOL)
        kind = type(self)

        def fork() -> GameState:
            copy = kind.__new__(kind)
            copy.__dict__.update(pickle.loads(blob), header=self.header, rules=self.rules, lines=list(self.lines),
                                 disputes=list(self.disputes), rulings=list(self.rulings), touched=set())
            return copy
        return fork

    def touch(self, part: str, key: object) -> None:
        self.touched.add((part, key))

    def mark_used(self, roll: int, by: int) -> None:
        """Roll ``roll`` is used by the event at seq ``by``."""
        self.rolls[roll].used_by = by
        self.touched.add(("rolls", roll))

    def opponent(self, player: str) -> str:
        return next(p for p in self.players if p != player)

    def to_json(self) -> dict:
        return {"game": self.game, "system": self.system, "seq": self.seq, **self.scalars(),
                **{part: self.objects(part) for part in self.OBJECT_PARTS}}

    def scalars(self) -> dict:
        """The parts that are single values, by name."""
        return dict(zip(self.SCALARS, self.scalar_values()))

    def scalar_values(self) -> tuple:
        """The single values in the order of ``SCALARS`` (a reader compares them at every event: a tuple is the
        cheapest to make and to compare whole)."""
        clock = self.clock
        return self.turn, self.phase, None if clock is None else clock.to_json()

    def objects(self, part: str) -> dict:
        """Every object of an object part, by id."""
        return {key: self.object_json(part, key) for key in self.object_keys(part)}

    def object_keys(self, part: str):
        if part == "players":
            return self.players
        raise KeyError(part)

    def object_json(self, part: str, key: str):
        """One object of an object part as the replay JSON shows it; None if there is none."""
        if part == "players":
            return self.player_json(key) if key in self.players else None
        raise KeyError(part)

    def player_json(self, pid: str) -> dict:
        player = self.players[pid]
        return {"name": player.get("name"), "faction": player.get("faction"), "score": self.scores[pid]}


class Checks:
    """Collects rule violations: raises at the first in strict mode, records them in lenient mode."""

    __slots__ = ("strict", "found")

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.found: list[RuleViolation] = []

    def fail(self, rule: str, message: str, source: str | None = None) -> None:
        violation = RuleViolation(rule, message, source)
        if self.strict:
            raise violation
        self.found.append(violation)

