"""What every game system shares: the rules pack registry, event specs, common events and state.

A system is a small subclass of :class:`GameSystem` found by its alias. For each event type it
has a spec (the fields a record line must carry), a ``decide_<Type>`` method that checks the
rules and returns the derived fields, and an ``apply_<Type>`` method that changes the state.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field as dc_field
from functools import cached_property
from importlib import resources
from typing import Any, ClassVar

from domain.errors import MalformedRecord, RuleViolation
from domain.record import COMMON_OPTIONAL, EXTENSION_PREFIX, choice, field, int_list, string_list

PURPOSES = ("dodge", "stabilisation", "explore", "vortex_move", "casting", "dispel", "miscast",
            "initiative", "attack", "other")
COMMON_TEXT = ("at", "by", "note")  # optional on every event, text unless the type's spec says otherwise
JUDGE_EVENTS = frozenset({"DisputeOpened", "RulingMade", "Noted"})

Parser = Callable[[dict, str], Any]


# --- field parsers used by event specs -----------------------------------------------------

def STR(obj: dict, name: str) -> str:
    return field(obj, name, str)


def INT(obj: dict, name: str) -> int:
    return field(obj, name, int)


def STRS(obj: dict, name: str) -> list[str]:
    return string_list(obj, name)


def INTS(obj: dict, name: str) -> list[int]:
    return int_list(obj, name)


def LIST(obj: dict, name: str) -> list:
    return field(obj, name, list)


def DICT(obj: dict, name: str) -> dict:
    return field(obj, name, dict)


def ANY(obj: dict, name: str) -> Any:
    if name not in obj:
        raise MalformedRecord(f"missing field `{name}`", field=name)
    return obj[name]


def ONE_OF(*allowed: str) -> Parser:
    parse = lambda obj, name: choice(obj, name, allowed)  # noqa: E731
    parse.one_of = frozenset(allowed)  # what EventSpec.check_fields accepts without calling it
    return parse


def STR_OR_NULL(obj: dict, name: str) -> str | None:
    if name not in obj:
        raise MalformedRecord(f"missing field `{name}`", field=name)
    return field(obj, name, str, optional=True)


@dataclass(frozen=True)
class EventSpec:
    """The fields of one event type: required, optional, and derived (with the rule deriving each)."""

    required: dict[str, Parser] = dc_field(default_factory=dict)
    optional: dict[str, Parser] = dc_field(default_factory=dict)
    derived: dict[str, str] = dc_field(default_factory=dict)

    @cached_property
    def allowed(self) -> frozenset[str]:
        """The fields a line of this type may have, besides extensions."""
        return frozenset({"type", "hash", "violations", *COMMON_OPTIONAL, *self.required, *self.optional,
                          *self.derived})

    @cached_property
    def common_text(self) -> tuple[str, ...]:
        """The fields every event may have, as text, that this type does not define otherwise."""
        return tuple(n for n in COMMON_TEXT if n not in self.required and n not in self.optional)

    @cached_property
    def not_given(self) -> tuple[str, ...]:
        """The fields of a line that are not part of the event as given: derived, the chain, violations."""
        return (*self.derived, "hash", "violations")

    @cached_property
    def parsers(self) -> tuple[tuple, tuple]:
        """(name, parser, the type a valid value has, the strings a valid value is one of) of the required
        and the optional fields: a value of that type (or one of those strings) is valid without the parser."""
        def fast(fields: dict) -> tuple:
            return tuple((name, parse, _PLAIN_TYPES.get(parse), getattr(parse, "one_of", None))
                         for name, parse in fields.items())
        return fast(self.required), fast(self.optional)

    def check_fields(self, event: dict) -> None:
        required, optional = self.parsers
        get = event.get
        for name, parse, kind, one_of in required:
            value = get(name)
            if type(value) is not kind and (one_of is None or type(value) is not str or value not in one_of):
                parse(event, name)
        for name, parse, kind, one_of in optional:
            value = get(name)
            if value is not None and type(value) is not kind and (
                    one_of is None or type(value) is not str or value not in one_of):
                parse(event, name)
        allowed = self.allowed
        if allowed.issuperset(event):
            return
        for name in event:
            if name not in allowed and not name.startswith(EXTENSION_PREFIX):
                raise MalformedRecord(f"unknown field `{name}` (extensions must start with `{EXTENSION_PREFIX}`)",
                                      field=name)


_PLAIN_TYPES: dict[Parser, type] = {STR: str, INT: int, LIST: list, DICT: dict}


# --- state shared by every system ----------------------------------------------------------

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


class GameState:
    """The state every system tracks: players, turn, phase, rolls, scores, the chain head."""

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


# --- rule data -----------------------------------------------------------------------------

def load_rule_data(name: str) -> dict:
    text = resources.files("domain.rules_data").joinpath(f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def merge(base: dict, override: dict) -> dict:
    """Deep merge of a record's ``rules`` over the defaults; lists and scalars replace."""
    out = _deep_copy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = _deep_copy(value)
    return out


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _deep_copy(value: Any) -> Any:
    """``copy.deepcopy`` of JSON data (dicts, lists and scalars), faster; anything else by deepcopy."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _deep_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _deep_copy(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


class Dice:
    """Dice as data: each die a mapping face -> count; ``d6`` is built in."""

    def __init__(self, data: dict, crit_counts_as_success: bool = True) -> None:
        self.data = {name: dict(faces) for name, faces in data.items() if not name.startswith("_")}
        self.data.setdefault("d6", {str(i): 1 for i in range(1, 7)})
        self.crit_counts = crit_counts_as_success

    def faces_of(self, die: str) -> list:
        faces = self.data[die]
        return [int(f) for f in faces] if die == "d6" else list(faces)

    def is_face(self, die: str, face: Any) -> bool:
        if die == "d6":
            return isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6
        return isinstance(face, str) and face in self.data[die]

    def successes(self, faces: list) -> int:
        return sum(1 for f in faces if f == "success" or (f == "crit" and self.crit_counts))


# --- the rules pack ------------------------------------------------------------------------

class GameSystem:
    """A rules pack. Subclasses add their events; the registry finds them by alias."""

    alias: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    rule_data: ClassVar[str] = ""
    registry: ClassVar[dict[str, type[GameSystem]]] = {}
    state_class: ClassVar[type[GameState]] = GameState

    specs: ClassVar[dict[str, EventSpec]] = {
        "TurnStarted": EventSpec({"turn": INT}),
        "PhaseStarted": EventSpec({"phase": STR}),
        "DiceRolled": EventSpec({"player": STR, "purpose": ONE_OF(*PURPOSES), "die": STR, "faces": LIST},
                                {"source": ONE_OF("physical", "digital")}),
        "DieRerolled": EventSpec({"roll": INT, "index": INT, "face": ANY, "player": STR}),
        "CardDrawn": EventSpec({"deck": STR, "card": STR, "player": STR}),
        "PointsScored": EventSpec({"player": STR, "points": INT, "reason": STR}),
        "GameEnded": EventSpec({"score": DICT, "winner": STR_OR_NULL, "reason": STR}, {"seed": STR}),
        "GameSealed": EventSpec({"confirmed_by": STRS}),
        "DisputeOpened": EventSpec({"by": STR, "about": INTS, "claim": STR}),
        "RulingMade": EventSpec({"judge": STR, "about": INTS, "decision": ONE_OF("stands", "void"), "text": STR}),
        "Noted": EventSpec({"text": STR}),
    }

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.alias:
            for name in (cls.alias, *cls.aliases):
                GameSystem.registry[name] = cls
        cls.specs = {**GameSystem.specs, **cls.__dict__.get("specs", {})}

    def __init__(self) -> None:
        self._decide = {t: getattr(self, f"decide_{t}", None) for t in self.specs}
        self._apply = {t: getattr(self, f"apply_{t}", None) for t in self.specs}
        self.defaults = load_rule_data(self.rule_data) if self.rule_data else {}

    # setup ---------------------------------------------------------------------------------
    def rules_in_force(self, header: dict) -> dict:
        overrides = header.get("rules") or {}
        rules = merge(self.defaults, overrides)
        for die, faces in (overrides.get("dice") or {}).items():  # a die is replaced whole: its face
            rules["dice"][die] = dict(faces)                      # order is the order digital rolls use
        return rules

    def new_state(self, header: dict) -> GameState:
        rules = self.rules_in_force(header)
        state = self.state_class(header, rules)
        state.dice = Dice(rules.get("dice", {}), rules.get("crit_counts_as_success", True))
        return state

    def check_setup(self, state: GameState, chk: Checks) -> None:
        """Validate the header's setup; systems override."""

    # events --------------------------------------------------------------------------------
    def spec(self, event_type: str, system: str) -> EventSpec:
        try:
            return self.specs[event_type]
        except KeyError:
            raise MalformedRecord(f"unknown event type `{event_type}` for system {system}", field="type") from None

    def decide(self, state: GameState, event: dict, chk: Checks) -> dict:
        event_type = event["type"]
        if state.sealed and event_type not in JUDGE_EVENTS:
            chk.fail("F04", f"the game is sealed; only judge events may follow, not {event_type}")
        handler = self._decide[event_type]
        return handler(state, event, chk) or {} if handler else {}

    def derived_rule(self, state: GameState, event: dict, name: str, given: Any, value: Any) -> str:
        """The rule broken when a record gives derived field ``name`` as ``given`` but the rules give
        ``value`` (called before the event is applied); systems refine the spec's default."""
        return self.specs[event["type"]].derived[name]

    def apply(self, state: GameState, event: dict) -> None:
        state.lines.append(event)
        handler = self._apply[event["type"]]
        if handler:
            handler(state, event)
        state.seq = event["seq"]
        state.head = event["hash"]

    # common events -------------------------------------------------------------------------
    def player(self, state: GameState, event: dict, name: str = "player") -> str:
        pid = event[name]
        if pid not in state.players:
            raise MalformedRecord(f"field `{name}`: unknown player '{pid}'", field=name)
        return pid

    def decide_TurnStarted(self, state: GameState, event: dict, chk: Checks) -> None:
        if event["turn"] != state.turn + 1:
            chk.fail("F02", f"turn {event['turn']} follows turn {state.turn}; turns count 1, 2, 3…")

    def apply_TurnStarted(self, state: GameState, event: dict) -> None:
        state.turn = event["turn"]
        state.phase = None

    def apply_PhaseStarted(self, state: GameState, event: dict) -> None:
        state.phase = event["phase"]

    def decide_DiceRolled(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event)
        die = event["die"]
        if die not in state.dice.data:
            raise MalformedRecord(f"field `die`: unknown die '{die}' (dice in force: {', '.join(state.dice.data)})",
                                  field="die")
        if not event["faces"]:
            raise MalformedRecord("field `faces` must list at least one face", field="faces")
        if event.get("source") == "digital" and state.header.get("dice_mode") != "digital":
            chk.fail("F07", "a digital roll needs a digital game (header `dice_mode: digital` with a commit)")
        for face in event["faces"]:
            if not state.dice.is_face(die, face):
                raise MalformedRecord(f"field `faces`: {json.dumps(face)} is not a face of the {die} die "
                                      f"({', '.join(map(str, state.dice.faces_of(die)))})", field="faces")

    def apply_DiceRolled(self, state: GameState, event: dict) -> None:
        state.rolls[event["seq"]] = Roll(event["seq"], event["player"], event["purpose"], event["die"],
                                         list(event["faces"]), event.get("source", "physical"),
                                         initial=tuple(event["faces"]))

    def roll(self, state: GameState, seq: int, name: str = "roll") -> Roll:
        roll = state.rolls.get(seq)
        if roll is None:
            raise MalformedRecord(f"field `{name}`: no DiceRolled at seq {seq}", field=name)
        return roll

    def use_roll(self, state: GameState, chk: Checks, seq: int, *, purpose: str, player: str, die: str,
                 count: int | None, what: str, name: str = "roll", count_rule: str = "F03",
                 player_rule: str = "F03") -> Roll:
        """Check that roll ``seq`` is unused, of this purpose, player, die and number of dice.

        A wrong number of dice breaks the rule that fixes it (``count_rule``, e.g. R61 for a dodge), and
        a roll by the wrong player the rule that names the roller (``player_rule``, e.g. R10: the
        opponent rolls the stabilisation)."""
        roll = self.roll(state, seq, name)
        if roll.used_by is not None:
            chk.fail("F03", f"roll {seq} was already used by the event at seq {roll.used_by}")
        if roll.purpose != purpose:
            chk.fail("F03", f"roll {seq} is a {roll.purpose} roll, not a {purpose} roll for {what}")
        if roll.player != player:
            chk.fail(player_rule, f"roll {seq} was rolled by {roll.player}; {what} is rolled by {player}")
        if roll.die != die:
            chk.fail("F03", f"roll {seq} used {roll.die} dice; {what} uses {die} dice")
        if count is not None and len(roll.faces) != count:
            chk.fail(count_rule, f"roll {seq} has {len(roll.faces)} dice; {what} rolls {count}")
        return roll

    def decide_DieRerolled(self, state: GameState, event: dict, chk: Checks) -> None:
        roll = self.roll(state, event["roll"])
        self.player(state, event)
        if not 0 <= event["index"] < len(roll.faces):
            raise MalformedRecord(f"field `index`: roll {roll.seq} has {len(roll.faces)} dice", field="index")
        if not state.dice.is_face(roll.die, event["face"]):
            raise MalformedRecord(f"field `face`: {json.dumps(event['face'])} is not a face of the {roll.die} die",
                                  field="face")
        if roll.used_by is not None:
            chk.fail("F03", f"roll {roll.seq} was already used at seq {roll.used_by}; re-rolls come before the use")
        if event["player"] != roll.player:
            chk.fail("R39", f"{event['player']} may re-roll only their own dice; roll {roll.seq} is {roll.player}'s")

    def apply_DieRerolled(self, state: GameState, event: dict) -> None:
        roll = state.rolls[event["roll"]]
        roll.faces[event["index"]] = event["face"]
        if event.get("source") == "digital":
            state.digital_rerolls.append((event["seq"], roll.die, event["face"]))

    def decide_CardDrawn(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event)

    def decide_PointsScored(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event)

    def apply_PointsScored(self, state: GameState, event: dict) -> None:
        state.scores[event["player"]] += event["points"]

    def decide_GameEnded(self, state: GameState, event: dict, chk: Checks) -> None:
        if state.ended:
            chk.fail("F04", "the game has already ended")
        if set(event["score"]) != set(state.players):
            raise MalformedRecord(f"field `score` must give a score for each of {', '.join(state.players)}",
                                  field="score")
        if event["winner"] is not None:
            self.player(state, event, "winner")
        if state.header.get("dice_mode") == "digital":
            seed = event.get("seed")
            if seed is None:
                chk.fail("F07", "a digital game's GameEnded reveals its seed (`seed`)")
            else:
                for problem in digital_mismatches(state, seed):
                    chk.fail("F07", problem)

    def apply_GameEnded(self, state: GameState, event: dict) -> None:
        state.ended = True

    def decide_GameSealed(self, state: GameState, event: dict, chk: Checks) -> None:
        for pid in event["confirmed_by"]:
            if pid not in state.players:
                raise MalformedRecord(f"field `confirmed_by`: unknown player '{pid}'", field="confirmed_by")
        if set(event["confirmed_by"]) != set(state.players):
            chk.fail("F04", "a game is sealed when both players confirm it")

    def apply_GameSealed(self, state: GameState, event: dict) -> None:
        state.sealed = True

    def decide_DisputeOpened(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event, "by")
        self._about(state, event)

    def apply_DisputeOpened(self, state: GameState, event: dict) -> None:
        state.disputes.append(event)

    def decide_RulingMade(self, state: GameState, event: dict, chk: Checks) -> None:
        from domain import rulings

        self._about(state, event)
        if event["decision"] != "void":
            return
        by_seq = {line["seq"]: line for line in state.lines}
        for seq in event["about"]:
            if by_seq[seq]["type"] in rulings.NOT_VOIDABLE:
                raise MalformedRecord(f"field `about`: seq {seq} is a {by_seq[seq]['type']}, which a ruling "
                                      "cannot void", field="about")
            if seq in state.voided:
                raise MalformedRecord(f"field `about`: seq {seq} is void already", field="about")
        remaining = [line for line in state.lines if line["seq"] not in state.voided | set(event["about"])]
        _, breaches = rulings.replay(self, state.header, remaining)
        voided = ", ".join(map(str, event["about"]))
        for b in breaches:
            chk.fail(b.rule, f"voiding seq {voided} would leave seq {b.seq} ({b.type}) breaking {b.rule}: {b.message}")

    def apply_RulingMade(self, state: GameState, event: dict) -> None:
        state.rulings.append(event)
        if event["decision"] == "void":
            state.voided.update(event["about"])
            if not state.as_played:
                from domain import rulings

                rulings.rebuild(self, state)

    def _about(self, state: GameState, event: dict) -> None:
        if not event["about"]:
            raise MalformedRecord("field `about` must list at least one seq", field="about")
        for seq in event["about"]:
            if not 1 <= seq <= state.seq:
                raise MalformedRecord(f"field `about`: seq {seq} is not an earlier event of this game", field="about")


def system_for(alias: str) -> GameSystem:
    """The rules pack registered under ``alias`` (one instance per alias)."""
    import domain.systems  # noqa: F401  registers the packs

    cls = GameSystem.registry.get(alias)
    if cls is None:
        known = ", ".join(sorted(GameSystem.registry))
        raise MalformedRecord(f"field `system`: unknown system '{alias}' (known: {known})", field="system")
    if alias not in _instances:
        _instances[alias] = cls()
    return _instances[alias]


_instances: dict[str, GameSystem] = {}


def digital_mismatches(state: GameState, seed_hex: str) -> list[str]:
    """Every digital roll, re-roll and card draw recomputed from the revealed seed; what differs."""
    from domain import randomness

    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return [f"the seed {seed_hex!r} is not hexadecimal"]
    if len(seed) != 32 or randomness.commit_of(seed) != state.header.get("commit"):
        return ["the revealed seed does not match the header's commit"]
    problems = []
    for roll in state.rolls.values():
        if roll.source == "digital":
            expected = randomness.roll(seed, state.game, roll.seq, state.dice.data[roll.die], len(roll.initial))
            if list(roll.initial) != expected:
                problems.append(f"digital roll {roll.seq} shows {list(roll.initial)}; the seed gives {expected}")
    for seq, die, face in state.digital_rerolls:
        expected = randomness.roll(seed, state.game, seq, state.dice.data[die], 1)[0]
        if face != expected:
            problems.append(f"digital re-roll {seq} shows {face!r}; the seed gives {expected!r}")
    for seq, card, deck_left in state.digital_draws:
        expected = randomness.draw(seed, state.game, seq, deck_left)
        if card != expected:
            problems.append(f"digital draw {seq} is {card}; the seed gives {expected}")
    return problems
