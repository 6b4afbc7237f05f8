"""Errors that say why: every refusal names the rule, the field or the line."""

from __future__ import annotations

import re

from i18n import N_, _, english


class RollcallError(Exception):
    """Base of every error Rollcall reports to a user."""


EXCERPT = 80  # characters of what was given that a message quotes at most (a record's line may be megabytes)
LONGEST = 600  # characters of one message at most, whatever it quotes
_RUN = re.compile(r"\S{%d,}" % (EXCERPT + 1))


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """A short excerpt of ``value`` to quote in a message: on one line, at most ``limit`` characters (cut with
    "…")."""
    text = str(value)
    text = one_line(text[:limit * 4]) if len(text) > limit * 4 else one_line(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def bounded(message: str) -> str:
    """``message`` with every run of more than EXCERPT characters without a space cut to an excerpt, and at
    most LONGEST characters in all: whatever a message quotes of the input, it stays a line to read."""
    if len(message) > LONGEST * 4:
        message = message[:LONGEST * 4]
    message = _RUN.sub(lambda m: excerpt(m.group()), message)
    return message if len(message) <= LONGEST else message[:LONGEST - 1] + "…"


def one_line(text: str) -> str:
    """``text`` on one line: line breaks and other control characters a record may hold written as escapes."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


class RuleViolation(RollcallError):
    """An event breaks a checkable rule (ids of docs/rules.md: R01–R106, X01–X09, F01–)."""

    def __init__(self, rule: str, message: str, source: str | None = None) -> None:
        source = bounded(one_line(source or english(message)))  # the English, which a lenient record keeps
        message = bounded(one_line(message))  # it quotes the record, which may hold line breaks or megabytes
        super().__init__(f"{rule} {message}")
        self.rule = rule
        self.message = message
        self.source = source

    def as_dict(self) -> dict:
        """The violation as a record keeps it: in English, whatever language the person recording reads."""
        return {"rule": self.rule, "message": self.source}

    def __reduce__(self):
        return (RuleViolation, (self.rule, self.message, self.source))


class MalformedRecord(RollcallError):
    """A line that is not a well-formed header or event (bad JSON, unknown type, bad field)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        message = bounded(one_line(message))  # it quotes the record, which may hold line breaks or megabytes
        super().__init__(message)
        self.field = field
        self.message = message

    def __reduce__(self):
        return (MalformedRecord, (self.message, self.field))


class StoreUnavailable(RollcallError):
    """The event store cannot be read or written: a damaged file, a full disk, another program's database."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(_("the event store {where} {why}; nothing was stored").format(where=where, why=why))
        self.where = where
        self.why = why

    def __reduce__(self):
        return (StoreUnavailable, (self.where, self.why))


class StoreFault(StoreUnavailable):
    """A write the event store could not take: ``kind`` is ``busy`` (another writer held it past the lock
    timeout), ``full`` (no room on its disk) or ``read-only``; nothing was stored, and the next write may go
    through. Said without the store's path: a page at the venue says it too."""

    BUSY, FULL, READ_ONLY = "busy", "full", "read-only"
    WORDS = {BUSY: N_("is busy: another writer held it too long"), FULL: N_("is full: its disk has no room left"),
             READ_ONLY: N_("is read-only: it cannot be written here")}  # said with _() where the fault is made

    def __init__(self, kind: str) -> None:
        why = _(self.WORDS[kind])
        RollcallError.__init__(self, _("the event store {why}; nothing was stored").format(why=why))
        self.where, self.why, self.kind = "", why, kind

    def __reduce__(self):
        return (StoreFault, (self.kind,))


class GameError(RollcallError):
    """An error about one game, named by its id; it crosses worker processes whole (``__reduce__``)."""

    MESSAGE = N_("game '{game}'")  # a subclass's MESSAGE is marked N_() too: said with _() when raised

    def __init__(self, game: str) -> None:
        super().__init__(_(self.MESSAGE).format(game=excerpt(game)))
        self.game = game

    def __reduce__(self):
        return (type(self), (self.game,))


class GameNotFound(GameError):
    MESSAGE = N_("no game '{game}' is recorded")


class GameAlreadyRecorded(GameError):
    MESSAGE = N_("game '{game}' is already recorded; nothing was changed")


class GameMovedOn(RollcallError):
    """The game received events since the writer last saw it: nothing was stored; look again."""

    def __init__(self, game: str, now_at: int, expected: int) -> None:
        super().__init__(_("game '{game}' has moved on: it is at seq {now_at}, not {expected} as this writer saw "
                           "it; nothing was stored — look at the new state and try again").format(
                             game=game, now_at=now_at, expected=expected))
        self.game = game
        self.now_at = now_at
        self.expected = expected

    def __reduce__(self):
        return (GameMovedOn, (self.game, self.now_at, self.expected))


class RecordError(RollcallError):
    """A problem located in a record file: ``FILE:LINE (EventType): message``."""

    def __init__(self, path: str, line: int, event_type: str | None, cause: RollcallError) -> None:
        where = f"{path}:{line}" if line else path
        kind = f" ({excerpt(event_type)})" if event_type else ""
        super().__init__(one_line(f"{where}{kind}: {cause}"))
        self.path = path
        self.line = line
        self.event_type = event_type
        self.cause = cause

    def __reduce__(self):
        return (RecordError, (self.path, self.line, self.event_type, self.cause))
