"""Event specs: the fields each event type carries, and the parsers that check them.

A spec names the required and optional fields of an event type with a parser each, and the fields
the rules derive with the rule deriving each. A parser takes the line and the field's name and
returns the value or raises MalformedRecord naming the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field as dc_field
from functools import cached_property
from typing import Any

from domain import limits
from domain.errors import MalformedRecord
from domain.record import (COMMON_OPTIONAL, EXTENSION_PREFIX, bounded, check_numbers, choice, did_you_mean, field,
                           int_list, string_list)
from i18n import _

PURPOSES = ("dodge", "stabilisation", "explore", "vortex_move", "casting", "dispel", "miscast",
            "initiative", "attack", "other")
COMMON_TEXT = ("at", "by", "note")  # optional on every event, text unless the type's spec says otherwise
AT_TIME = "time"  # the reason of a GameEnded that ends the game at time: in any phase, whatever is pending
JUDGE_EVENTS = frozenset({"DisputeOpened", "RulingMade", "GameRewound", "Noted"})
# the events that take back others (domain.corrections): a scorekeeper's take-back, a judge's rewind
CORRECTIONS = frozenset({"TakenBack", "GameRewound"})

Parser = Callable[[dict, str], Any]


# --- field parsers used by event specs -----------------------------------------------------

def text(obj: dict, name: str) -> str:
    value = field(obj, name, str)
    if len(value) > limits.TEXT:
        raise MalformedRecord(_("field `{field}` holds {length:,} characters; a text of an event holds at most "
                                "{most:,}").format(field=name, length=len(value), most=limits.TEXT), field=name)
    return value


def integer_in(low: int, high: int) -> Parser:
    """An integer from ``low`` to ``high`` (the bounds of domain.limits)."""
    parse = lambda obj, name: bounded(obj, name, low, high)  # noqa: E731
    parse.bounds = (low, high)  # what EventSpec.check_fields accepts without calling it
    return parse


integer = integer_in(-limits.INTEGER, limits.INTEGER)
dice_count = integer_in(0, limits.DICE)


def texts(obj: dict, name: str) -> list[str]:
    return string_list(obj, name)


def integers(obj: dict, name: str) -> list[int]:
    return int_list(obj, name)


def a_list(obj: dict, name: str) -> list:
    return field(obj, name, list)


def an_object(obj: dict, name: str) -> dict:
    return field(obj, name, dict)


def any_value(obj: dict, name: str) -> Any:
    if name not in obj:
        raise MalformedRecord(_("missing field `{field}`").format(field=name), field=name)
    return obj[name]


def one_of(*allowed: str) -> Parser:
    parse = lambda obj, name: choice(obj, name, allowed)  # noqa: E731
    parse.one_of = frozenset(allowed)  # what EventSpec.check_fields accepts without calling it
    return parse


def text_or_null(obj: dict, name: str) -> str | None:
    if name not in obj:
        raise MalformedRecord(_("missing field `{field}`").format(field=name), field=name)
    return field(obj, name, str, optional=True)


def flag(obj: dict, name: str) -> bool:
    return field(obj, name, bool)


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
        """(name, parser, the type a valid value has, the strings a valid value is one of, the bounds of a valid
        integer) of the required and the optional fields: a value of that type (or one of those strings, or an
        integer within those bounds) is valid without the parser."""
        def fast(fields: dict) -> tuple:
            return tuple((name, parse, _PLAIN_TYPES.get(parse), getattr(parse, "one_of", None),
                          getattr(parse, "bounds", None)) for name, parse in fields.items())
        return fast(self.required), fast(self.optional)

    def check_fields(self, event: dict) -> None:
        required, optional = self.parsers
        get = event.get
        for name, parse, kind, one_of, bounds in required:
            value = get(name)
            if bounds is not None:
                if type(value) is not int or not bounds[0] <= value <= bounds[1]:
                    parse(event, name)
            elif type(value) is not kind and (one_of is None or type(value) is not str or value not in one_of):
                parse(event, name)
            elif kind is str and len(value) > limits.TEXT:
                parse(event, name)
        for name, parse, kind, one_of, bounds in optional:
            value = get(name)
            if value is None:
                continue
            if bounds is not None:
                if type(value) is not int or not bounds[0] <= value <= bounds[1]:
                    parse(event, name)
            elif type(value) is not kind and (one_of is None or type(value) is not str or value not in one_of):
                parse(event, name)
            elif kind is str and len(value) > limits.TEXT:
                parse(event, name)
        allowed = self.allowed
        if allowed.issuperset(event):
            return
        for name in event:
            if name.startswith(EXTENSION_PREFIX):
                check_numbers(event[name], name)
            elif name not in allowed:
                raise MalformedRecord(_("unknown field `{field}`").format(field=name)
                                      + did_you_mean(name, sorted(self.allowed))
                                      + _(" (extensions must start with `{prefix}`)").format(prefix=EXTENSION_PREFIX),
                                      field=name)


_PLAIN_TYPES: dict[Parser, type] = {text: str, a_list: list, an_object: dict}

