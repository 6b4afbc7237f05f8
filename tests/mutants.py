"""Mutants of real game records: the golden records of tests/games/ changed the ways a careless tool or a
hostile user changes a file (tests/integration/test_fuzz_records.py, bench/fuzz_records.py).

``mutant(record, kind, rng, number)`` returns the record's lines (bytes) with one change of ``kind``; the
game id is made unique first (and a tournament game is put in a tournament of its own), so that every
mutant is judged on its change, not refused as a game already recorded or a seat already taken.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

GAMES = Path(__file__).parent / "games"
RAW = "\u0001raw\u0001"  # a placeholder value replaced by raw text once the line is written as JSON

Lines = list[Any]  # the header and the events, as objects (a RAW text for raw JSON)


def golden(path: Path | str) -> list[dict]:
    """A golden record (a path, or its name in tests/games/): the objects of its lines, without their hashes
    (a mutant's would not match)."""
    path = Path(path) if Path(path).is_file() else GAMES / f"{path}.rollcall.jsonl"
    lines = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()
             if t.strip() and not t.lstrip().startswith("#")]
    return [{k: v for k, v in line.items() if k != "hash"} for line in lines]


def stepped_twice(record: Path, folder: Path) -> tuple[Path, int]:
    """``record`` written to ``folder`` with its first ModelMoved taking a second step onto the same hexon (R42),
    hashes left out: the file and the line number of the broken event."""
    objs = golden(record)
    moved = next(i for i, obj in enumerate(objs) if obj.get("type") == "ModelMoved")
    objs[moved]["path"] = objs[moved]["path"] + [objs[moved]["path"][-1]]
    bad = Path(folder) / "bad.rollcall.jsonl"
    bad.write_text("\n".join(json.dumps(obj) for obj in objs) + "\n")
    return bad, moved + 1


def golden_records() -> list[list[dict]]:
    return [golden(path) for path in sorted(GAMES.glob("*.rollcall.jsonl"))]


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into ``value`` (keys and indexes), its own first."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, prefix + (key,)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_paths(item, prefix + (i,)))
    return out


def _at(obj: Any, path: tuple) -> Any:
    for step in path:
        obj = obj[step]
    return obj


def _field_path(rng: random.Random, lines: Lines) -> tuple[dict | list, Any]:
    """A random place in a random line: (its container, its key or index)."""
    for _ in range(50):
        line = rng.choice(lines)
        paths = [p for p in _paths(line) if p]
        if paths:
            path = rng.choice(paths)
            return _at(line, path[:-1]), path[-1]
    return lines[0], "rollcall"


class Raw(str):
    """Text written into the line as it is (not as a JSON string)."""


def _set(rng: random.Random, lines: Lines, value: Any) -> None:
    container, key = _field_path(rng, lines)
    container[key] = value


def deep_nesting(rng, lines):
    depth = rng.choice((40, 1000, 5000))
    _set(rng, lines, Raw("[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth))


def long_integer(rng, lines):
    _set(rng, lines, Raw(("-" if rng.random() < 0.3 else "") + "9" * rng.choice((4301, 5000, 20000))))


def huge_number(rng, lines):
    _set(rng, lines, rng.choice((10**24, 2**63, 2**63 - 1, -(2**63) - 1, 2**64, 2**53 + 1, -(2**31), 2**31,
                                 1e300, -1e308, Raw("1e999"), Raw("-1e400"), 0.5, 1e-320, -0.0, 3.0)))


def nan_infinity(rng, lines):
    _set(rng, lines, Raw(rng.choice(("NaN", "Infinity", "-Infinity"))))


def lone_surrogate(rng, lines):
    text = rng.choice(('"\\ud800"', '"a\\udfffb"', '"\\udc00\\ud800"'))
    if rng.random() < 0.3:  # as a key
        line = rng.choice([x for x in lines if isinstance(x, dict)])
        line[Raw(text)] = 1
        return
    _set(rng, lines, Raw(text))


def replace_field(rng, lines):
    """A value replaced by another value of the same record (plausible, and wrong)."""
    donor = rng.choice(lines)
    _set(rng, lines, json.loads(json.dumps(_at(donor, rng.choice(_paths(donor))))))


def wrong_type(rng, lines):
    _set(rng, lines, rng.choice((None, True, False, 0, -1, 1, "", "x", "p1", [], {}, [1, 2], [[0, 0]], {"a": 1},
                                 "1", 1.5, "two\nlines", "\u0000")))


def remove_field(rng, lines):
    container, key = _field_path(rng, lines)
    if isinstance(container, dict):
        del container[key]
    else:
        container.pop(key)


def rename_field(rng, lines):
    """A key misspelt (a letter dropped, doubled or swapped), or another line's key."""
    line = rng.choice([x for x in lines if isinstance(x, dict) and x])
    paths = [p for p in _paths(line) if p and isinstance(p[-1], str)]
    path = rng.choice(paths)
    container, key = _at(line, path[:-1]), path[-1]
    i = rng.randrange(len(key)) if key else 0
    new = rng.choice((key[:i] + key[i + 1:], key[:i] + key[i:i + 1] * 2 + key[i + 1:],
                      key[:i] + key[i + 1:i + 2] + key[i:i + 1] + key[i + 2:], key.upper(), "x_" + key,
                      rng.choice(["type", "seq", "player", "model", "faces", "turn", "phase", "vortex", "hash"])))
    if new and new != key:
        value = container.pop(key)
        container[new] = value


def truncated_line(rng, lines):
    i = rng.randrange(len(lines))
    text = _text(lines[i])
    lines[i] = Raw(text[:rng.randrange(1, max(len(text), 2))])


def shuffled_lines(rng, lines):
    if len(lines) < 3:
        lines.reverse()
        return
    if rng.random() < 0.5:
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
    else:
        body = lines[1:]
        rng.shuffle(body)
        lines[1:] = body


def dropped_or_doubled_line(rng, lines):
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(i, json.loads(json.dumps(lines[i])))


def bad_rules(rng, lines):
    lines[0]["rules"] = rng.choice((
        {"dice": []}, {"dice": {"attack": []}}, {"dice": {"attack": {"faces": 5}}},
        {"dice": {"attack": ["crit"] * 300}},
        {"dice": {"d6": [1, 2, 3]}}, {"dice": {"": []}}, {"phenomena": 3}, {"phenomena": []}, {"deck": {}},
        {"flux": [[]]}, {"miscast": {"2": None}}, {"lines": "x"}, {"x_house": {"a": [1]}}, [], "dice", None,
        {"dice": {"attack": [None]}}, {"dice": {"attack": [[]]}}, {"table": {"bad": 1}}))


def unknown_vocabulary(rng, lines):
    """An unknown domain, kind, phase, purpose, die or faction somewhere a closed vocabulary is expected."""
    words = ("domain", "domains", "kind", "phase", "purpose", "die", "faction", "size", "effect", "decision",
             "dice_mode", "system", "relation", "trigger", "allegiance", "card", "line")
    places = [(c, k) for line in lines for p in _paths(line) if p and isinstance(p[-1], str) and p[-1] in words
              for c, k in [(_at(line, p[:-1]), p[-1])]]
    value = rng.choice(("nowhere", "Fire", "fire ", "", "ether", ["nowhere"], "activaton", "magic"))
    if places:
        container, key = rng.choice(places)
        container[key] = [value] if isinstance(container[key], list) and not isinstance(value, list) else value
    else:
        _set(rng, lines, value)


def unknown_event(rng, lines):
    events = [x for x in lines[1:] if isinstance(x, dict)]
    target = rng.choice(events) if events else lines[0]
    target["type"] = rng.choice(("DiceRoled", "dicerolled", "GameStarted", "", "x_Custom", "Dice Rolled",
                                 "Dice\nRolled", 7, None))


def extra_field(rng, lines):
    line = rng.choice([x for x in lines if isinstance(x, dict)])
    line[rng.choice(("agilty", "x_note", "playr", "seqq", "hash", "violations", "rollcall", "taken_back"))] = \
        rng.choice((1, "x", [], None, {"rule": "R1"}))


def bad_bytes(rng, lines):
    i = rng.randrange(len(lines))
    text = _text(lines[i]).encode()
    cut = rng.randrange(len(text) + 1)
    junk = rng.choice((b"\xff\xfe", b"\x00", b"\xc3", b"\xef\xbb\xbf", bytes(rng.randrange(256) for _ in range(8))))
    lines[i] = text[:cut] + junk + text[cut:]


def header_changes(rng, lines):
    header = lines[0]
    key = rng.choice(("rollcall", "system", "round", "table", "tournament", "started", "players", "dice_mode",
                      "commit", "game", "setup"))
    header[key] = rng.choice((None, 0, 2, "1", True, 2**63, 1e24, "", "2026-13-45", "yesterday",
                              "2026-06-01T10:00:00Z", [], {}, [{"id": "p1"}], [{"id": "p1"}, {"id": "p1"}],
                              "a" * 10_000, "t9a", "tornscape", "chess", "digital", "0" * 64))


def empty_record(rng, lines):
    choice = rng.randrange(4)
    if choice == 0:
        lines[:] = []
    elif choice == 1:
        lines[:] = lines[:1]
    elif choice == 2:
        lines[:] = lines[1:]
    else:
        lines[:] = [Raw(rng.choice(("[]", "null", "1", '"text"', "{", "}", "# only a comment", "")))]


def several(rng, lines):
    """Two to four changes of the kinds that keep every line an object."""
    for _ in range(rng.randint(2, 4)):
        if not lines or not any(isinstance(line, dict) and line for line in lines):
            return
        rng.choice((huge_number, replace_field, wrong_type, remove_field, rename_field, dropped_or_doubled_line,
                    unknown_vocabulary, extra_field, header_changes))(rng, lines)


KINDS: dict[str, Callable[[random.Random, Lines], None]] = {f.__name__: f for f in (
    deep_nesting, long_integer, huge_number, nan_infinity, lone_surrogate, replace_field, wrong_type, remove_field,
    rename_field, truncated_line, shuffled_lines, dropped_or_doubled_line, bad_rules, unknown_vocabulary,
    unknown_event, extra_field, bad_bytes, header_changes, empty_record, several)}


def _text(obj: Any) -> str:
    """A line as a record holds it: JSON with every Raw piece written as it is."""
    if isinstance(obj, Raw):
        return str(obj)
    if isinstance(obj, bytes):
        return obj.decode("utf-8", "replace")
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{_text(k) if isinstance(k, Raw) else json.dumps(k)}: {_text(v)}"
                               for k, v in obj.items()) + "}"
    if isinstance(obj, list):
        return "[" + ", ".join(_text(v) for v in obj) + "]"
    return json.dumps(obj)


def _line_bytes(obj: Any) -> bytes:
    return obj if isinstance(obj, bytes) else _text(obj).encode("utf-8", "surrogatepass")


def mutant(record: list[dict], kind: str, rng: random.Random, number: int) -> tuple[str, list[bytes]]:
    """(game id, the lines of a mutant of ``record``): one change of ``kind``, on a unique game id."""
    lines: Lines = json.loads(json.dumps(record))
    header = lines[0]
    game = f"{header.get('game', 'game')}-m{number}"
    header["game"] = game
    if "tournament" in header:
        header["tournament"] = f"Fuzz {number}"
    KINDS[kind](rng, lines)
    return game, [_line_bytes(line) + b"\n" for line in lines]


EVENT_KINDS = [k for k in KINDS if k not in ("truncated_line", "shuffled_lines", "dropped_or_doubled_line",
                                             "bad_rules", "bad_bytes", "header_changes", "empty_record")]


def event_mutants(count: int, seed: int):
    """``count`` (number, kind, game id, header, events before, the mutated event as JSON text): a golden game
    cut at a random event, that event changed by one of the kinds that change one line."""
    rng = random.Random(seed)
    records = golden_records()
    for number in range(count):
        record = json.loads(json.dumps(rng.choice(records)))
        header = record[0]
        header["game"] = game = f"{header.get('game', 'game')}-e{number}"
        header.pop("tournament", None)
        cut = rng.randrange(1, len(record))
        kind = EVENT_KINDS[number % len(EVENT_KINDS)]
        lines: Lines = [record[cut]]
        KINDS[kind](rng, lines)
        yield number, kind, game, header, record[1:cut], _text(lines[0]) if lines else "{}"


def mutants(count: int, seed: int, kinds: list[str] | None = None):
    """``count`` mutants: (number, kind, game id, lines), every kind in turn, of the golden records at random."""
    rng = random.Random(seed)
    records = golden_records()
    kinds = kinds or list(KINDS)
    for number in range(count):
        kind = kinds[number % len(kinds)]
        game, lines = mutant(rng.choice(records), kind, rng, number)
        yield number, kind, game, lines
