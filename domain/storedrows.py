"""A whole record checked straight into the rows the event store keeps.

The ordinary path records each line with ``Game.record``: an event object per line, applied to
the aggregate, then transcoded by the store's mapper. Importing a whole file does the same checks
through the same code — ``Game.check_event`` (fields, seq, the rules' ``decide``, derived fields
compared) and the event class's ``apply`` — but chains, applies and encodes each line itself, and
writes the stored state from a per-event-type template of what the mapper writes around ``data``.
The rows are byte for byte those of the ordinary path except the timestamp, which here is one
per game (the time it was checked). Lines are read with ``json``; those without floats
(``domain.record.loads_plain``) are hashed and encoded with orjson, which then writes the same bytes;
any other line, or one orjson cannot write, with ``canonical`` and the store's own transcoder.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import repeat
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, JSONTranscoder, Mapper, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import get_topic

from domain.errors import GameAlreadyRecorded, MalformedRecord, RecordError, RollcallError
from domain.game import Game, event_class
from domain.record import (LocatedError, canonical_plain, compact_plain, event_hash, header_hash, loads_plain)

_sha256 = hashlib.sha256


@dataclass
class GameRows:
    """A checked game as the rows to store: its own (header first) and those of other aggregates
    (the secret dice seed Rollcall drew for it), each ``(originator_id hex, originator_version,
    topic, state)`` as eventsourcing's SQLite recorder inserts them."""

    game: str
    events: int
    violations: int
    header: dict
    first: list[tuple[str, int, str, bytes]]  # the game's creation
    oid: str  # the game's events, versions 2, 3, …: kept as columns (cheap to send between processes)
    topics: list[str]
    states: list[bytes]
    last: list[tuple[str, int, str, bytes]]  # other aggregates' rows
    needs_judge: str | None = None  # why storing it needs a judge's key (domain.rulings.needs_judge)

    @property
    def rows(self) -> list[tuple[str, int, str, bytes]]:
        return [*self.first, *zip(repeat(self.oid), range(2, len(self.states) + 2), self.topics, self.states),
                *self.last]

    def __len__(self) -> int:
        return len(self.first) + len(self.states) + len(self.last)

    def stored_events(self) -> list[StoredEvent]:
        ids: dict[str, UUID] = {}
        return [StoredEvent(ids.get(oid) or ids.setdefault(oid, UUID(oid)), version, topic, state)
                for oid, version, topic, state in self.rows]


# --- stored-state templates ----------------------------------------------------------------

_PROBE_TIME = datetime(2001, 2, 3, 4, 5, 6, 789012, tzinfo=timezone.utc)
_PROBE_DATA = {"rollcall-probe-7f3a": 0}
_PROBE_ID = UUID(int=0)


def _event_state(mapper: Mapper, cls: type, timestamp: datetime, data: dict, author: str | None,
                 version: int = 2) -> bytes:
    """The stored state of an event, through the store's own transcoder (before compression and cipher)."""
    event = cls(originator_id=_PROBE_ID, originator_version=version, timestamp=timestamp, data=data, author=author)
    state = dict(vars(event))
    state.pop("originator_id")
    state.pop("originator_version")
    class_version = getattr(cls, "class_version", 1)
    if class_version > 1:
        state["class_version"] = class_version
    return mapper.transcoder.encode(state)


_TEMPLATES: dict[tuple[int, type, str | None], tuple[bytes, bytes, bytes] | None] = {}


def _template(mapper: Mapper, cls: type, author: str | None) -> tuple[bytes, bytes, bytes] | None:
    """What the transcoder writes before the timestamp, between it and ``data``, and after ``data``;
    None when the stored state is not JSON with ``data`` written as by itself."""
    key = (id(mapper.transcoder), cls, author)
    if key not in _TEMPLATES:
        _TEMPLATES[key] = None
        if type(mapper.transcoder) is JSONTranscoder:
            raw = _event_state(mapper, cls, _PROBE_TIME, _PROBE_DATA, author)
            stamp, data = _PROBE_TIME.isoformat().encode(), mapper.transcoder.encode(_PROBE_DATA)
            if raw.count(stamp) == 1 and raw.count(data) == 1 and raw.index(stamp) < raw.index(data):
                before, rest = raw.split(stamp)
                middle, after = rest.split(data)
                _TEMPLATES[key] = (before, middle, after)
    return _TEMPLATES[key]


_PLAIN_APPLY = Game.Event.apply


class _Applied:
    """What an event class's ``apply`` reads of its event: the data and the author."""

    __slots__ = ("data", "author")


# --- checking a record -----------------------------------------------------------------------

def check_lines(app, lines: Iterable[str], source: str = "<record>", *, lenient: bool = False) -> GameRows:
    """Check a whole record as ``Rollcall.read_record`` does (the same errors, with file and line)
    and return its stored rows; nothing is stored. The events are written by the game's author
    (``app.writer()``, as ``create_game`` sets it)."""
    strict = not lenient
    game: Game | None = None
    chain = ""
    violations = 0
    number, event_type = 0, None
    topics: list[str] = []  # of the events, versions 2, 3, … (check_event counts seq without gaps)
    states: list[bytes] = []
    lines_stored: list[dict] = []
    try:
        for number, text in enumerate(lines, start=1):
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if game is None:
                event_type = None
                obj, header_plain = _parse(number, stripped, loads_plain)
                given = obj.get("hash")
                game = app.create_game(obj, strict=strict)
                header = game.header
                violations += len(header.get("violations", ()))
                ours = header["hash"]
                if given is not None and given != ours and given != header_hash(obj):
                    raise MalformedRecord("`hash` does not match the line (the record was changed after "
                                          "export)", field="hash")
                chain = given if given is not None else ours
                # state of the loop: the game's own objects, looked up once
                mapper = app.mapper
                author = game.author
                state, system = game.state, game.system
                stamp = Game.Event.create_timestamp()
                stamp_bytes = stamp.isoformat().encode()
                prefixes: dict[str, tuple[str, type, bytes, bytes, bool]] = {}
                compress = mapper.compressor.compress if mapper.compressor else None
                encrypt = mapper.cipher.encrypt if mapper.cipher else None
                encode = mapper.transcoder.encode
                applied = _Applied()
                applied.author = author
                check_event, store_line = game.check_event, lines_stored.append
                add_topic, add_state = topics.append, states.append
                continue
            try:
                obj, plain = loads_plain(stripped)
            except json.JSONDecodeError:
                obj, plain = _parse(number, stripped, loads_plain)  # raises, with the line
            if type(obj) is not dict:
                obj, plain = _parse(number, stripped, loads_plain)
            given = obj.get("hash")
            event_type = obj.get("type")
            if type(event_type) is not str:
                event_type = None
            event = check_event(obj, strict=strict)
            kind = event["type"]
            found = prefixes.get(kind)
            if found is None:
                cls = event_class(kind)
                template = _template(mapper, cls, author)
                direct = cls.apply is _PLAIN_APPLY  # Game.Event.apply: the system applies the data
                found = prefixes[kind] = (get_topic(cls), cls, template[0] + stamp_bytes + template[1],
                                          template[2], direct) if template else (get_topic(cls), cls, b"", b"", direct)
            topic, cls, prefix, suffix, direct = found
            head = state.head
            data = None
            if plain and header_plain:
                try:
                    ours = event["hash"] = _sha256(head.encode() + canonical_plain(event)).hexdigest()
                    data = compact_plain(event)
                except TypeError:  # not plain after all (a value orjson cannot write as json does)
                    event.pop("hash", None)
            if data is None:
                ours = event["hash"] = event_hash(head, event)
                data = encode(event)
            if prefix:
                state_bytes = prefix + data + suffix
            else:  # a transcoder that is not plain JSON: the event object, through the mapper
                state_bytes = _event_state(mapper, cls, stamp, event, author, event["seq"] + 1)
            if compress is not None:
                state_bytes = compress(state_bytes)
            if encrypt is not None:
                state_bytes = encrypt(state_bytes)
            if direct:
                system.apply(state, event)
            else:
                applied.data = event
                cls.apply(applied, game)
            store_line(event)
            add_topic(topic)
            add_state(state_bytes)
            if "violations" in event:
                violations += len(event["violations"])
            if given is not None and given != ours and given != event_hash(chain, obj):
                # The file's own chain may still hold (e.g. it leaves out derived fields).
                raise MalformedRecord("`hash` does not match the line (the record was changed after "
                                      "export)", field="hash")
            chain = given if given is not None else ours
    except LocatedError as exc:
        raise RecordError(source, exc.line, None, exc.error) from None
    except RollcallError as exc:
        raise RecordError(source, number, event_type, exc) from None
    if game is None:
        raise RecordError(source, 0, None, MalformedRecord("the record is empty: line 1 must be the header"))
    return _rows(app, game, topics, states, lines_stored, violations)


def _parse(number: int, text: str, loads) -> tuple[dict, bool]:
    try:
        obj, plain = loads(text)
    except json.JSONDecodeError as exc:
        raise LocatedError(number, MalformedRecord(f"not valid JSON: {exc.msg} at column {exc.colno}")) from None
    if not isinstance(obj, dict):
        raise LocatedError(number, MalformedRecord("a line must be a JSON object"))
    return obj, plain


class _Pending:
    __slots__ = ("data",)

    def __init__(self, data: dict) -> None:
        self.data = data


class _Unsaved:
    """What ``domain.rulings.needs_judge`` reads of a game: its state and its unsaved events."""

    def __init__(self, game: Game, created: list, events: list[dict]) -> None:
        self.state = game.state
        self.pending_events = created + [_Pending(e) for e in events]


def _rows(app, game: Game, topics: list[str], states: list[bytes], events: list[dict], violations: int) -> GameRows:
    from domain.application import DiceSeed
    from domain.rulings import needs_judge

    created = list(game.collect_events())
    judged = needs_judge(_Unsaved(game, created, events))
    if getattr(game, "seed", None):
        created.extend(DiceSeed.draw(game.header["game"], game.seed).collect_events())
    stored = [app.mapper.to_stored_event(e) for e in created]
    own = [(s.originator_id.hex, s.originator_version, s.topic, s.state) for s in stored]
    return GameRows(game.header["game"], game.state.seq, violations, game.header, own[:1], game.id.hex, topics, states,
                    own[1:], judged)


# --- storing ---------------------------------------------------------------------------------

def insert_rows(app, games: list[GameRows]) -> None:
    """Store the rows of ``games`` in one transaction (eventsourcing's IntegrityError if any is
    stored already: then none is)."""
    recorder = app.recorder
    if isinstance(recorder, SQLiteAggregateRecorder):  # its own statement, without a lastrowid per row
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.executemany(recorder.insert_events_statement, [row for g in games for row in g.rows])
    else:
        recorder.insert_events([s for g in games for s in g.stored_events()])


def store_rows(app, game: GameRows) -> None:
    """Store one checked game as ``save_new`` would: refused without a key that may write it
    (AccessDenied), or as GameAlreadyRecorded if it is stored already."""
    from domain.access import require

    holder = app.holder()
    if game.needs_judge:
        require(holder, "judge", game.needs_judge)
    else:
        require(holder, "record", "recording game events")
    try:
        insert_rows(app, [game])
    except IntegrityError:
        raise GameAlreadyRecorded(game.game) from None


__all__ = ["GameRows", "check_lines", "insert_rows", "store_rows"]
