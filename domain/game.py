"""The Game aggregate: one per game; its rules pack decides, its events only apply."""

from __future__ import annotations

import threading
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from domain.errors import MalformedRecord, RuleViolation
from domain.header import normalise_header
from domain.integrity import authorship
from domain.record import event_hash, header_hash, missing, same_shape, show
from domain import limits, topics
from domain.systems import PACKS, system_for
from domain.systems.fields import text
from domain.systems.pack import GameSystem
from domain.systems.state import Checks, GameState
from i18n import _



_STARTING = threading.local()  # Game.start hands its checked setup state to Game.__init__


class Game(Aggregate):
    """A recorded game. Every event's ``data`` is its record line as export writes it."""

    TOPIC = "rollcall:Game"

    class Created(Aggregate.Created):
        TOPIC = topics.GAME_CREATED
        data: dict
        author: str | None = None  # who wrote it: the name of the key presented (None in a store without keys)
        authored: str | None = None  # the authorship chain after it (domain.integrity.authorship)

        def apply(self, aggregate: Game) -> None:
            """``__init__`` builds the state from the header."""
            aggregate.authored = self.authored

    class Event(Aggregate.Event):
        data: dict
        author: str | None = None  # who wrote it: the name of the key presented (None in a store without keys)
        authored: str | None = None  # the authorship chain after it (domain.integrity.authorship)

        def apply(self, aggregate: Game) -> None:
            aggregate.system.apply(aggregate.state, self.data)
            aggregate.authored = self.authored

    def __init__(self, data: dict) -> None:
        self.header = data
        self.system: GameSystem = system_for(data["system"])
        checked = getattr(_STARTING, "checked", None)  # the state ``start`` built from this very header
        if checked is not None and checked[0] is data:
            self.state: GameState = checked[1]
        else:
            self.state = self.system.new_state(data)
            self.system.check_setup(self.state, Checks(strict=False))
        self.state.head = data["hash"]
        self.author: str | None = None  # the writer of the events recorded next (set by the application)

    # --- creating -------------------------------------------------------------------------
    @classmethod
    def start(cls, header: dict, id: UUID, *, strict: bool = True, author: str | None = None,
              violations: list[RuleViolation] = ()) -> Game:
        """Check a header and create the game; a setup rule broken in strict mode raises. ``violations``:
        what the application found wrong with the header beyond the setup (kept, in lenient mode)."""
        data = normalise_header(header)
        system = system_for(data["system"])
        if data.get("dice_mode") == "digital":  # export carries the dice in force, so anyone can recompute
            dice = {name: faces for name, faces in system.rules_in_force(data).get("dice", {}).items()
                    if not name.startswith("_")}
            data["rules"] = {**data.get("rules", {}), "dice": dice}
        probe = system.new_state(data)
        chk = Checks(strict)
        for violation in violations:
            chk.fail(violation.rule, violation.message, violation.source)
        system.check_setup(probe, chk)
        if chk.found:
            data["violations"] = [v.as_dict() for v in chk.found]
        data["hash"] = header_hash(data)
        _STARTING.checked = (data, probe)  # the setup is checked: __init__ takes this state
        try:
            game = cls._create(cls.Created, id=id, data=data, author=author,
                               authored=authorship("", data["hash"], author))
        finally:
            _STARTING.checked = None
        game.author = author
        return game

    # --- recording ------------------------------------------------------------------------
    def record(self, raw: dict, *, strict: bool = True, floatless: bool = False) -> dict:
        """Check one event against the rules, derive its consequences and append it (``floatless``: the
        caller knows the event holds no float, so its hash is computed the fast way)."""
        event = self.check_event(raw, strict=strict)
        event["hash"] = line_hash = event_hash(self.state.head, event, floatless=floatless)
        self.trigger_event(event_class(event["type"]), data=event, author=self.author,
                           authored=authorship(self.authored, line_hash, self.author))
        return event

    def check_event(self, raw: dict, *, strict: bool = True) -> dict:
        """The line ``raw`` checked against the rules as the next event: with its ``seq``, derived
        fields and (lenient) ``violations``, but no ``hash`` yet. Nothing changes (``record`` appends it)."""
        state = self.state
        event_type = raw.get("type")
        if not isinstance(event_type, str):
            raise missing(raw, "type")
        spec = self.system.specs.get(event_type) or self.system.spec(event_type, state.system)
        spec.check_fields(raw)
        seq = state.seq + 1
        given_seq = raw.get("seq")
        if given_seq is not None and given_seq != seq:
            raise MalformedRecord(_("field `seq` is {given} but this is event {seq} of the game (events count 1, 2, "
                                    "3… without gaps)").format(given=show(given_seq), seq=seq), field="seq")
        for name in spec.common_text:
            if name in raw and (type(raw[name]) is not str or len(raw[name]) > limits.TEXT):
                text(raw, name)
        event = raw.copy()  # without what the rules derive and the chain (the order of the rest kept)
        for name in spec.not_given:
            if name in event:
                del event[name]
        event["seq"] = seq
        chk = Checks(strict)
        derived = self.system.decide(state, event, chk)
        for name, value in derived.items():
            if name in raw and raw[name] != value and not (raw[name] is None and name in spec.optional):
                if not same_shape(raw[name], value):
                    raise MalformedRecord(_("field `{field}` cannot be {given}: the rules give {value}").format(
                        field=name, given=show(raw[name]), value=show(value)), field=name)
                if self.system.accepts_derived(state, event, name, raw[name], value):
                    derived[name] = raw[name]  # as good as the rules' own: the record keeps its own
                    continue
                chk.fail(self.system.derived_rule(state, event, name, raw[name], value),
                         _("`{field}` is {given} but the rules give {value}").format(
                             field=name, given=show(raw[name]), value=show(value)))
        event.update(derived)
        if chk.found:
            event["violations"] = [v.as_dict() for v in chk.found]
        return event


def fold(header: dict, events, *, as_ruled: bool = False) -> GameState:
    """The state after ``events`` (stored record lines, in order) of the game ``header`` — the same
    apply functions the aggregate uses, for readers that hold the lines but not the aggregate.

    The as-played game keeps every event; ``as_ruled`` leaves out those a ``void`` ruling removed
    (whichever of ``events`` holds the ruling)."""
    from domain.rulings import as_ruled as ruled_lines

    system = system_for(header["system"])
    state = system.new_state(header)
    system.check_setup(state, Checks(strict=False))
    state.head = header["hash"]
    state.as_played = True
    for event in ruled_lines(list(events)) if as_ruled else events:
        system.apply(state, event)
    return state


_EVENT_CLASSES: dict[str, type[Game.Event]] = {}


def event_class(event_type: str) -> type[Game.Event]:
    """The stored event class of a record event type; its topic is ``rollcall:<Type>``, stable across renames."""
    return _EVENT_CLASSES[event_type]


def _define_event_classes() -> None:
    names = sorted({t for cls in PACKS for t in cls.specs})
    for name in names:
        if name not in _EVENT_CLASSES:
            cls = type(name, (Game.Event,), {
                "TOPIC": f"rollcall:{name}", "__module__": __name__, "__qualname__": f"Game.{name}"})
            register_topic(cls.TOPIC, cls)
            _EVENT_CLASSES[name] = cls


_define_event_classes()

__all__ = ["Game", "RuleViolation", "event_class"]
