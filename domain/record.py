"""The game record format: lines, canonical JSON, the hash chain, field checks.

A record is JSON Lines: line 1 the header, then one event per line (docs/format.md).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import orjson

from domain import limits
from domain.errors import MalformedRecord
from i18n import N_, _

FORMAT_VERSION = 1
COMMON_OPTIONAL = ("seq", "at", "by", "note")
EXTENSION_PREFIX = "x_"


def canonical(obj: Any) -> str:
    """JSON with sorted keys, separators ``,`` and ``:``, no ASCII escaping."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def header_hash(header: dict) -> str:
    body = {k: v for k, v in header.items() if k != "hash"}
    return hashlib.sha256(canonical(body).encode()).hexdigest()


def event_hash(previous: str, event: dict, *, floatless: bool = False) -> str:
    """The chain hash of ``event`` after the line hashed ``previous``; ``floatless``: the event is known
    to hold no float, so orjson may write its canonical JSON (the same bytes, faster)."""
    body = {k: v for k, v in event.items() if k != "hash"}
    if floatless:
        try:
            return hashlib.sha256(previous.encode() + canonical_plain(body)).hexdigest()
        except TypeError:  # an integer beyond 64 bits: the ordinary way
            pass
    return hashlib.sha256((previous + canonical(body)).encode()).hexdigest()


def export_line(obj: dict) -> str:
    """One exported line: ``seq`` and ``type`` first, other fields sorted, ``hash`` last."""
    head = {k: obj[k] for k in ("rollcall", "seq", "type") if k in obj}
    rest = {k: obj[k] for k in sorted(obj) if k not in head and k != "hash"}
    if "hash" in obj:
        rest["hash"] = obj["hash"]
    return json.dumps({**head, **rest}, ensure_ascii=False)


# --- reading lines -------------------------------------------------------------------------
# A record's lines are read with Python's json, with what JSON does not allow refused: NaN and
# Infinity (json would accept them, and write them back as invalid JSON), numbers too large for a
# float, lone surrogates (text that cannot be written as UTF-8), nesting deeper than any record needs.
# ``plain`` says whether a line held no float: orjson then writes exactly the bytes of ``canonical``
# (sorted keys) and of the event store's JSON transcoder (keys in order), and is used for speed.

MAX_DEPTH = 32  # records nest a few levels (a huge model's path: event, path, position, coordinate)
_READING = threading.local()


class Line(NamedTuple):
    """A line of a record: its number in the file, its object, and whether it held no float."""

    number: int
    obj: dict
    plain: bool


class _NotANumber(ValueError):
    """A number JSON does not have: NaN, Infinity, or a literal too large for a float (1e999)."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _float(text: str) -> float:
    _READING.odd = True
    value = float(text)
    if not math.isfinite(value):
        raise _NotANumber(text)
    return value


def _constant(name: str) -> float:
    raise _NotANumber(name)


def _finite_only(decode):
    """``decode(text)``, a JSONDecodeError at the first NaN, Infinity or infinite number: Python's json
    reads them, the record format (JSON) has none."""
    def strict(text: str, *args):
        try:
            return decode(text, *args)
        except _NotANumber as exc:
            position = max(text.find(exc.token), 0)
            raise json.JSONDecodeError(_("{token} is not a finite JSON number").format(token=exc.token), text,
                                       position) from None
    return strict


_DECODER = json.JSONDecoder(parse_float=_float, parse_constant=_constant)
_SCAN = _finite_only(_DECODER.scan_once)
_DECODE = _finite_only(_DECODER.decode)


def loads(text: str) -> Any:
    """``json.loads(text)``, refusing NaN and Infinity (a JSONDecodeError)."""
    if text.startswith("\ufeff"):
        return json.loads(text)  # json.loads's own error for a byte-order mark
    return _DECODE(text)


def loads_plain(text: str) -> tuple[Any, bool]:
    """``json.loads(text)`` (the same value, or the same error), and whether it held no float; NaN,
    Infinity and numbers too large for a float are refused (a JSONDecodeError)."""
    if text.startswith("\ufeff"):
        return json.loads(text), False  # json.loads's own error for a byte-order mark
    _READING.odd = False
    try:  # the decoder's own scanner, without decode()'s whitespace checks (a stripped line has none)
        value, end = _SCAN(text, 0)
    except StopIteration:
        end = -1
    if end != len(text):
        _READING.odd = False
        value = _DECODE(text)  # the error json.loads gives (or the value, after whitespace)
    return value, not _READING.odd


def parse_line(number: int, text: str | bytes) -> Line | None:
    """One line of a record as a Line; None for a blank or comment line. A LocatedError names the line
    and what is wrong with it."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LocatedError(number, MalformedRecord(
                _("not UTF-8 text (byte {byte} of the line)").format(byte=exc.start + 1))) from None
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    try:
        obj, plain = read_json(stripped)
        if type(obj) is not dict:
            raise MalformedRecord(_("a line must be a JSON object"))
    except MalformedRecord as exc:
        raise LocatedError(number, exc) from None
    return Line(number, obj, plain)


class NotJSON(MalformedRecord):
    """A text that is not JSON, and the line of the text where it stops being JSON (1 for a record's line)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line

    def __reduce__(self):
        return (NotJSON, (self.message, self.line))


# what Python's json says of a text that is not JSON, said in the reader's language (others stay as json says them)
JSON_SAYS = (N_("Expecting value"), N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"),
             N_("Expecting property name enclosed in double quotes"), N_("Extra data"),
             N_("Unterminated string starting at"), N_("Invalid \\uXXXX escape"),
             N_("Unexpected UTF-8 BOM (decode using utf-8-sig)"))


def read_json(text: str) -> tuple[Any, bool]:
    """A JSON text read as a record's lines are (a line, an event given on the command line, a setup file):
    the value and whether it held no float. NaN, Infinity, numbers too large for a float, integers of
    thousands of digits, lone surrogates and nesting deeper than a record needs are refused (MalformedRecord)."""
    try:
        obj, plain = loads_plain(text)
    except json.JSONDecodeError as exc:
        raise NotJSON(_("not valid JSON: {why} at column {column}").format(why=_(exc.msg), column=exc.colno),
                      exc.lineno) from None
    except RecursionError:
        raise MalformedRecord(_("nested deeper than a record can be ({levels} levels)").format(levels=MAX_DEPTH)) \
            from None
    except ValueError:  # an integer of thousands of digits (Python's limit on converting them)
        raise MalformedRecord(_("not a record line: a number with thousands of digits")) from None
    if "\\ud" in text or "\\uD" in text:  # an escaped surrogate: paired, or text that cannot be stored
        _check_text(obj)
    if text.count("[") + text.count("{") > MAX_DEPTH:
        _check_depth(obj)
    return obj, plain


def check_object(obj: Any) -> Any:
    """``obj``, refused (a MalformedRecord) for what ``read_json`` refuses, in a value a program built rather
    than read (an event from a page, an aggregate's caller)."""
    _check_depth(obj)
    _check_text(obj)
    return obj


def _check_depth(obj: Any) -> None:
    if _depth(obj) > MAX_DEPTH:
        raise MalformedRecord(_("nested deeper than a record can be ({levels} levels)").format(levels=MAX_DEPTH))


def _check_text(obj: Any) -> None:
    try:
        canonical(obj).encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedRecord(_("holds a lone surrogate (\\ud800–\\udfff without its pair), which is not text")) \
            from None


def _depth(value: Any, level: int = 1) -> int:
    """How deeply ``value`` nests (a scalar 0, a flat object 1), counted only as far as MAX_DEPTH + 1."""
    if level > MAX_DEPTH:
        return level
    kind = type(value)
    if kind is dict:
        items = value.values()
    elif kind is list:
        items = value
    else:
        return level - 1
    deepest = level
    for item in items:
        if type(item) in (dict, list):
            deepest = max(deepest, _depth(item, level + 1))
    return deepest


def read_lines(lines: Iterable[str | bytes]) -> Iterator[Line]:
    """Every non-blank, non-comment line of a record, numbered from 1 (LocatedError for a bad line)."""
    for number, text in enumerate(lines, start=1):
        line = parse_line(number, text)
        if line is not None:
            yield line


def canonical_plain(obj: Any) -> bytes:
    """``canonical(obj).encode()`` for a value without floats (orjson.JSONEncodeError, a TypeError, for
    values it cannot encode, such as an integer beyond 64 bits or a key that is not a string)."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


class LocatedError(Exception):
    def __init__(self, line: int, error: Exception) -> None:
        super().__init__(str(error))
        self.line = line
        self.error = error


# Cyrillic letters as Latin (ICAO's transliteration, as Russian passports write names): a name in Cyrillic has a
# slug as a name in Latin letters has (every other text's slug is as it always was)
SLUG_LETTERS = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i", "й": "i",
    "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
    "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "ie", "ы": "y", "ь": "", "э": "e", "ю": "iu",
    "я": "ia", "і": "i", "ї": "i", "є": "ie", "ґ": "g", "ў": "u"}
SLUG_KEPT = "a-z0-9"  # the characters a slug keeps; every run of others is one hyphen
_CYRILLIC = str.maketrans(SLUG_LETTERS)


def slug(text: str) -> str:
    """The name's identity: lower case letters and digits joined by ``-`` (Cyrillic written in Latin letters)."""
    return re.sub(f"[^{SLUG_KEPT}]+", "-", text.lower().translate(_CYRILLIC)).strip("-")


def derive_game_id(header: dict) -> str:
    """The header's ``game``, or tournament-round-table as a slug."""
    if header.get("game") is not None:
        return field(header, "game", str)
    missing = [k for k in ("tournament", "round", "table") if header.get(k) is None]
    if missing:
        raise MalformedRecord(
            _("the header needs `game`, or `tournament`, `round` and `table` to derive it (missing: {fields})").format(
                fields=", ".join(missing)), field="game")
    return f"{slug(str(header['tournament']))}-r{header['round']}-t{header['table']}"


# --- field checks -------------------------------------------------------------------------

_TYPE_NAMES = {str: N_("a string"), int: N_("an integer"), list: N_("a list"), dict: N_("an object"),
               bool: N_("true or false")}  # said with _() in the refusal


def did_you_mean(value: Any, known: Iterable[str]) -> str:
    """`` (did you mean `x`?)`` when ``value`` is a near miss of one of ``known``, else ``""``."""
    if not isinstance(value, str):
        return ""
    known = [k for k in known if isinstance(k, str)]
    close = difflib.get_close_matches(value, known, n=1, cutoff=0.75) or [
        k for k in known if _folded(k) == _folded(value)][:1]
    return _(" (did you mean `{meant}`?)").format(meant=close[0]) if close else ""


def _folded(text: str) -> str:
    return text.lower().replace("-", "_").replace(" ", "_")


def near_miss(value: Any, known: Iterable[str]) -> str | None:
    """The one of ``known`` that ``value`` is a near miss of (a typo: ``vortex_movment``), if any."""
    if not isinstance(value, str):
        return None
    known = [k for k in known if isinstance(k, str)]
    if value in known:
        return None
    close = difflib.get_close_matches(value, known, n=1, cutoff=0.8)
    if close:
        return close[0]
    return next((k for k in known if _folded(k) == _folded(value)), None)


def check_keys(obj: dict, known: Iterable[str], where: str) -> None:
    """Refuse a key of ``obj`` that is a near miss of a known one (``agilty`` for ``agility``): a typo that
    would otherwise pass silently. Other keys are carried as they are."""
    known = tuple(known)
    for key in obj:
        if key not in known and not key.startswith(EXTENSION_PREFIX):
            meant = near_miss(key, known)
            if meant is not None:
                raise MalformedRecord(_("unknown field `{field}` (did you mean `{meant}`?)").format(
                    field=f"{where}.{key}", meant=meant), field=f"{where}.{key}")


def unknown_value(name: str, value: Any, allowed: Iterable[str]) -> MalformedRecord:
    """A MalformedRecord for a value of a closed vocabulary that is not in it: the list, and the near miss."""
    allowed = tuple(allowed)
    return MalformedRecord(_("field `{field}` must be one of {allowed}, not {value}").format(
        field=name, allowed=", ".join(allowed), value=json.dumps(value)) + did_you_mean(value, allowed), field=name)


def field(obj: dict, name: str, kind: type, *, optional: bool = False, default: Any = None) -> Any:
    """The value of ``name``, checked to be of ``kind`` (an integer: within ±2^53); a MalformedRecord naming
    it otherwise."""
    if name not in obj or obj[name] is None:
        if optional:
            return default
        raise missing(obj, name)
    value = obj[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise MalformedRecord(_("field `{field}` must be {kind}, not {value}").format(
            field=name, kind=_(_TYPE_NAMES[kind]), value=json.dumps(value)), field=name)
    if kind is int and not -limits.INTEGER <= value <= limits.INTEGER:
        raise out_of_bounds(name, value, -limits.INTEGER, limits.INTEGER)
    return value


def setup_items(setup: dict, name: str, known: Iterable[str], *, optional: bool = True) -> Iterator[tuple[str, dict]]:
    """Each object of the setup's list ``name`` with the place it stands (``setup.name[i]``): refused unless
    an object, and with a near miss of a ``known`` key (``check_keys``)."""
    for i, raw in enumerate(field(setup, name, list, optional=optional, default=[])):
        where = f"setup.{name}[{i}]"
        yield where, setup_object(raw, known, where)


def setup_object(raw: Any, known: Iterable[str], where: str) -> dict:
    """``raw``, refused unless an object, and with a near miss of a ``known`` key (``check_keys``)."""
    if not isinstance(raw, dict):
        raise MalformedRecord(_("{field} must be an object").format(field=where), field=where)
    check_keys(raw, known, where)
    return raw


def one_of_field(obj: dict, name: str, allowed: Iterable[str], where: str, default: str | None = None) -> str:
    """The value of ``name`` (text; ``default`` when missing, if given), one of ``allowed`` (``unknown_value``)."""
    value = field(obj, name, str, optional=default is not None, default=default)
    if value not in allowed:
        raise unknown_value(f"{where}.{name}", value, allowed)
    return value


def player_field(obj: dict, where: str, players: Iterable[str]) -> str:
    """The ``player`` of a setup object, one of the header's ``players``."""
    player = field(obj, "player", str)
    if player not in players:
        raise MalformedRecord(_("{field}: unknown player '{player}'").format(field=f"{where}.player", player=player)
                              + did_you_mean(player, players), field=f"{where}.player")
    return player


_SCALARS = (str, int, float, bool, type(None))


def same_shape(given: Any, value: Any) -> bool:
    """Whether ``given`` can stand where the rules derive ``value``: a scalar for a scalar (or for None), a
    list of what the rules' list holds (scalars, or lists of scalars such as positions), an object for an
    object. A record's other shapes (a list inside a list of names) are malformed, not a rule broken."""
    if value is None or isinstance(value, _SCALARS):
        return isinstance(given, _SCALARS)
    if isinstance(value, (list, tuple)):
        if not isinstance(given, list):
            return False
        kinds = {type(v) for v in value} or {str, int}
        if kinds <= set(_SCALARS):
            return all(isinstance(g, _SCALARS) for g in given)
        return all(isinstance(g, list) and all(isinstance(c, _SCALARS) for c in g) for g in given)
    return isinstance(given, dict)


def missing(obj: dict, name: str, label: str | None = None) -> MalformedRecord:
    """A MalformedRecord for the missing field ``name`` (``label`` in the message), naming the given field that
    is a near miss of it (``txt`` for ``text``), if any."""
    label = label or name
    given = next((k for k in obj if isinstance(k, str) and k != name and near_miss(k, [name]) == name), None)
    hint = _(" (`{given}` is given: did you mean `{field}`?)").format(given=given, field=name) \
        if given is not None else ""
    return MalformedRecord(_("missing field `{field}`").format(field=label) + hint, field=label)


def out_of_bounds(name: str, value: Any, low: int, high: int) -> MalformedRecord:
    def bound(n: int) -> str:
        return "2^53" if n == limits.INTEGER else "-2^53" if n == -limits.INTEGER else str(n)
    return MalformedRecord(_("field `{field}` must be an integer from {low} to {high}, not {value}").format(
        field=name, low=bound(low), high=bound(high), value=json.dumps(value)), field=name)


def bounded(obj: dict, name: str, low: int, high: int, *, optional: bool = False, default: Any = None,
            where: str = "") -> Any:
    """The integer ``name`` of ``obj``, checked to lie in [low, high] (docs/format.md, Numbers); the field is
    named ``where.name`` in a refusal when ``where`` is given."""
    label = f"{where}.{name}" if where else name
    value = obj.get(name)
    if value is None:
        if optional:
            return default
        raise missing(obj, name, label)
    if type(value) is not int:
        raise MalformedRecord(_("field `{field}` must be an integer, not {value}").format(
            field=label, value=json.dumps(value)), field=label)
    if not low <= value <= high:
        raise out_of_bounds(label, value, low, high)
    return value


def check_numbers(value: Any, name: str) -> None:
    """Every number inside ``value`` finite, every integer within ±2^53 (a MalformedRecord naming where)."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(item) not in _TEXTUAL:
                check_numbers(item, f"{name}.{key}" if name else key)
    elif kind is list:
        for i, item in enumerate(value):
            if type(item) not in _TEXTUAL:
                check_numbers(item, f"{name}[{i}]")
    elif kind is float:
        if not math.isfinite(value):
            raise MalformedRecord(_("field `{field}` must be a finite number, not {value}").format(
                field=name, value=value), field=name)
    elif kind is int and not -limits.INTEGER <= value <= limits.INTEGER:
        raise out_of_bounds(name, value, -limits.INTEGER, limits.INTEGER)


_TEXTUAL = frozenset({str, bool, type(None)})


def choice(obj: dict, name: str, allowed: Iterable[str], *, optional: bool = False) -> str | None:
    value = field(obj, name, str, optional=optional)
    allowed = tuple(allowed)
    if value is not None and value not in allowed:
        raise unknown_value(name, value, allowed)
    return value


def position(value: Any, name: str) -> tuple[int, int]:
    if type(value) is list and len(value) == 2:  # fast path: two plain ints
        q, r = value
        if type(q) is int and type(r) is int:
            return (q, r)
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(c, int) and not isinstance(c, bool) for c in value)):
        return (value[0], value[1])
    raise MalformedRecord(_("field `{field}` must be a position [q, r], not {value}").format(
        field=name, value=json.dumps(value)), field=name)


def string_list(obj: dict, name: str, *, optional: bool = False) -> list[str]:
    value = field(obj, name, list, optional=optional, default=[])
    if not all(isinstance(v, str) for v in value):
        raise MalformedRecord(_("field `{field}` must be a list of strings").format(field=name), field=name)
    return value


def int_list(obj: dict, name: str, *, optional: bool = False) -> list[int]:
    value = field(obj, name, list, optional=optional, default=[])
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise MalformedRecord(_("field `{field}` must be a list of integers").format(field=name), field=name)
    return value


def show(pos: Any) -> str:
    """A position or list of positions as written in records: [3,4]."""
    return json.dumps(pos, separators=(",", ":"))


# --- anchors: hashes kept outside the store ------------------------------------------------

_HASH = re.compile(r"[0-9a-f]{64}")


def read_anchors(lines: Iterable[str], source: str = "<anchors>") -> dict[str, dict[int, str]]:
    """The hashes an anchor file holds, per game and seq: an exported record (every line's hash) or
    heads (``{"game": …, "seq": …, "hash": …}`` per line, as ``rollcall heads`` writes them). A
    RecordError names the file and line of anything else."""
    from domain.errors import RecordError

    anchors: dict[str, dict[int, str]] = {}
    game: str | None = None
    number = 0
    try:
        for number, obj, _plain in read_lines(lines):
            if "rollcall" in obj:  # a record's header: the lines after it are its events
                game = derive_game_id(obj)
                seq = 0
            elif "type" in obj:
                if game is None:
                    raise MalformedRecord(_("an event line before any header"))
                seq = field(obj, "seq", int)
            else:  # a head: one game's last seq and hash
                game = None
                seq = field(obj, "seq", int)
            digest = field(obj, "hash", str)
            if not _HASH.fullmatch(digest):
                raise MalformedRecord(_("field `hash` must be 64 lowercase hex digits"), field="hash")
            anchors.setdefault(game or field(obj, "game", str), {})[seq] = digest
    except LocatedError as exc:
        raise RecordError(source, exc.line, None, exc.error) from None
    except MalformedRecord as exc:
        raise RecordError(source, number, None, exc) from None
    return anchors
