"""The state every system tracks, the rolls of a game, and the collector of rule violations."""

from __future__ import annotations

from dataclasses import dataclass

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


SCALAR = ""  # the key of a part of the state that is a single value (domain.timeline)


class GameState:
    """The state every system tracks: players, turn, phase, rolls, scores, the chain head."""

    OBJECT_PARTS: tuple[str, ...] = ("players",)  # parts of to_json() that map ids to objects (domain.timeline)

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
        self.sealed = False
        self.digital_rerolls: list[tuple[int, str, object]] = []  # (seq, die, face) of digital re-rolls
        self.digital_draws: list[tuple[int, str, tuple[str, ...]]] = []  # (seq, card, deck left) of digital draws
        self.lines: list[dict] = []  # every event applied, as recorded (the as-played game)
        self.disputes: list[dict] = []  # DisputeOpened lines
        self.rulings: list[dict] = []  # RulingMade lines
        self.voided: set[int] = set()  # seqs a `void` ruling removed from the as-ruled game
        # a fold that only reads (the as-played replay) keeps the events a ruling voided; a live game
        # turns into its as-ruled state at each `void` (domain.rulings.rebuild)
        self.as_played = False

    def opponent(self, player: str) -> str:
        return next(p for p in self.players if p != player)

    def to_json(self) -> dict:
        return {
            "game": self.game, "system": self.system, "seq": self.seq, "turn": self.turn,
            "phase": self.phase,
            "players": {pid: {"name": p.get("name"), "faction": p.get("faction"), "score": self.scores[pid]}
                        for pid, p in self.players.items()},
        }


class Checks:
    """Collects rule violations: raises at the first in strict mode, records them in lenient mode."""

    __slots__ = ("strict", "found")

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.found: list[RuleViolation] = []

    def fail(self, rule: str, message: str) -> None:
        violation = RuleViolation(rule, message)
        if self.strict:
            raise violation
        self.found.append(violation)

