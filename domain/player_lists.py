"""Players' lists as the pairing tools export them, read as they come.

A list is CSV (comma, semicolon or tab), UTF-8 with or without a byte order mark, whose header row names its
columns in the tool's own words, in any case and order:

- **the name**: ``name``, ``player``, ``player name``, ``full name`` or ``participant``; or a first and a last
  name (``first name``/``given name``/``forename`` and ``last name``/``surname``/``family name``), joined with a
  space — a Best Coast Pairings export (``First Name, Last Name, Email, Faction or Army, Team, Checked In``);
- **the faction**: ``faction`` or ``army``;
- **the club**: ``club`` or ``team`` (a team is read as the club);
- **check-in**, where given: ``checked in``, ``check in`` or ``checkin`` (yes/no, true/false, 1/0, x);
- every other column (an e-mail, a player number, a country, a payment) is ignored, and said to be.

Spaces, ``_`` and ``-`` in a header are one space (``First_Name`` is ``first name``). The list is read whole
in one pass (a megabyte of names in well under a second): a row that cannot be a player (no name, no faction,
a name listed twice, a control or text-direction character, a name too long, a check-in that is neither yes
nor no) is *refused* with its line, its column and why, and the others are read; a file that is not a list
(too large, not UTF-8, not CSV, no name column) is refused whole, saying what it needs."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from domain.errors import RollcallError, one_line
from domain.names import hidden_character, name_problem
from i18n import N_, _

MAX_BYTES = 1_000_000  # a player list: thousands of players in a megabyte
MAX_NAME = 120  # characters of a player's, faction's or club's name

# what a column holds -> the headers (normalised: header_key) that name it, the first found wins
HEADERS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "player name", "full name", "participant"),
    "first": ("first name", "firstname", "given name", "forename"),
    "last": ("last name", "lastname", "surname", "family name"),
    "faction": ("faction", "army"),
    "club": ("club", "team", "club name", "team name"),
    "checked_in": ("checked in", "check in", "checkin"),
}
YES = frozenset({"yes", "y", "true", "1", "x", "✓", "✔", "checked in", "present"})
NO = frozenset({"", "no", "n", "false", "0", "-"})
# what each column is, in words (said with _() in the preview and the command line)
WHAT = {"name": N_("name"), "faction": N_("faction"), "club": N_("club"), "checked_in": N_("check-in")}


class PlayerListError(RollcallError):
    """A file that cannot be read as a players' list at all (the message names the file, the line and why)."""


@dataclass(frozen=True)
class Registration:
    """A player to register: name, faction, club (or team), whether the list says they checked in, and the
    line of the list they come from (None: not from a list)."""

    player: str
    faction: str | None = None
    club: str | None = None
    checked_in: bool = False
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Refused:
    """A row of a list that cannot be a player: its line, why (naming the column as the header writes it) and the
    row as it reads (``row``: its cells, invisible characters written as escapes, at most 80 characters)."""

    source: str
    line: int
    why: str
    row: str = ""

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.why}"


@dataclass
class PlayerList:
    """A players' list as read: ``columns`` (what -> the header, or headers, read for it, as written),
    ``ignored`` (the headers of the columns not read), the players (``entries``) and the rows ``refused``."""

    source: str
    columns: dict[str, tuple[str, ...]]
    ignored: list[str]
    entries: list[Registration]
    refused: list[Refused]


def header_key(header: str) -> str:
    """A header as it is compared: lower case, spaces, ``_`` and ``-`` one space."""
    return " ".join(re.sub(r"[_\-.]+", " ", header.replace("\ufeff", "")).casefold().split())


def accepted_names() -> str:
    """The headers a list may name its players by, in words (what a list without one is told)."""
    return _("{names}; or {first} with {last}").format(
        names=", ".join(HEADERS["name"]), first=" / ".join(HEADERS["first"]), last=" / ".join(HEADERS["last"]))


def read_player_list(data: bytes, source: str) -> PlayerList:
    """The players of a pairing tool's export (module docstring): every row read or refused, in one pass."""
    if len(data) > MAX_BYTES:
        raise PlayerListError(_("{source}: a player list is at most {most} kB, not {size} kB").format(
            source=source, most=MAX_BYTES // 1000, size=len(data) // 1000))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise PlayerListError(_("{where}: not UTF-8 text (byte {byte}); save the list as UTF-8 CSV").format(
            where=f"{source}:{line}", byte=exc.start + 1)) from None
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=max(",;\t", key=first.count), strict=True)
    try:
        header = [h.strip() for h in next(reader, [])]
    except csv.Error as exc:
        raise PlayerListError(_("{where}: the header row is not CSV ({why})").format(where=f"{source}:1", why=exc)) \
            from None
    found = _columns(header)
    if "name" not in found and not ({"first", "last"} & set(found)):
        raise PlayerListError(_("{where}: the header row names no column of the players' names (a name column is "
                                "headed {accepted}; it has {has})").format(
            where=f"{source}:1", accepted=accepted_names(), has=", ".join(h for h in header if h) or _("nothing")))
    if "faction" not in found:
        raise PlayerListError(_("{where}: the header row names no `faction` column (headed {accepted}; it has "
                                "{has})").format(where=f"{source}:1", accepted=", ".join(HEADERS["faction"]),
                                                 has=", ".join(h for h in header if h) or _("nothing")))
    if "name" in found:
        found = {k: v for k, v in found.items() if k not in ("first", "last")}
    read_at = set(found.values())
    listed = PlayerList(source, _shown(header, found), [h for i, h in enumerate(header) if i not in read_at and h],
                        [], [])
    seen: dict[str, int] = {}
    entry_of = _reader(header, found)
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return listed
        except csv.Error as exc:
            raise PlayerListError(_("{where}: not CSV ({why})").format(where=f"{source}:{start}", why=exc)) from None
        if not any(cell.strip() for cell in row):
            continue
        entry = entry_of(row, start)
        if isinstance(entry, str):
            listed.refused.append(Refused(source, start, entry, _as_read(row)))
            continue
        twice = seen.setdefault(entry.player.casefold(), start)
        if twice != start:
            listed.refused.append(Refused(source, start, _("field `{field}`: {player} is listed on line {line} "
                                                           "already").format(
                field=" + ".join(listed.columns["name"]), player=entry.player, line=twice), _as_read(row)))
            continue
        listed.entries.append(entry)


def _as_read(row: list[str]) -> str:
    """A refused row as a person may read it: its cells, invisible characters as escapes, at most 80 characters."""
    said = one_line(", ".join(cell.strip() for cell in row))
    return said if len(said) <= 80 else said[:79] + "…"


def _columns(header: list[str]) -> dict[str, int]:
    """What -> the index of the first column that holds it."""
    keys = [header_key(h) for h in header]
    found = {}
    for what, names in HEADERS.items():
        at = next((keys.index(n) for n in names if n in keys), None)
        if at is not None:
            found[what] = at
    return found


def _shown(header: list[str], found: dict[str, int]) -> dict[str, tuple[str, ...]]:
    """What -> the header (or headers: first and last name) it is read from, as the file writes them."""
    names = ("name",) if "name" in found else tuple(k for k in ("first", "last") if k in found)
    return {"name": tuple(header[found[k]] for k in names),
            **{k: (header[i],) for k, i in found.items() if k not in ("name", "first", "last")}}


def _reader(header: list[str], found: dict[str, int]):
    """A function from a row to its player, or to why the row cannot be one (the columns looked up once)."""
    columns = [(what, header[found[what]], found[what]) for what in ("faction", "club") if what in found]
    if "name" in found:
        columns.insert(0, ("name", header[found["name"]], found["name"]))
        first = last = None
    else:
        first, last = found.get("first"), found.get("last")
    named = " + ".join(_shown(header, found)["name"])
    checked_at = found.get("checked_in")
    width = max(found.values()) + 1

    def entry(row: list[str], line: int) -> Registration | str:
        if len(row) < width:
            row = row + [""] * (width - len(row))
        values = {what: row[i].strip() for what, _column, i in columns}
        if first is not None or last is not None:
            values["name"] = " ".join(c for c in (row[first].strip() if first is not None else "",
                                                  row[last].strip() if last is not None else "") if c)
        if not values["name"]:
            return _("field `{field}` is empty").format(field=named)
        if not values["faction"]:
            return _("field `{field}` is empty").format(field=header[found["faction"]])
        if hidden_character("".join(values.values())) or max(map(len, values.values())) > MAX_NAME:
            for what, value in values.items():
                column = named if what == "name" else header[found[what]]
                problem = name_problem(value, column)
                if problem:
                    return problem
                if len(value) > MAX_NAME:
                    return _("field `{field}`: longer than {most} characters").format(field=column, most=MAX_NAME)
        checked = row[checked_at].strip().casefold() if checked_at is not None else ""
        if checked not in YES and checked not in NO:
            return _("field `{field}`: {value} is neither yes nor no").format(
                field=header[checked_at], value=repr(row[checked_at].strip()[:40]))
        return Registration(values["name"], values["faction"], values.get("club") or None, checked in YES, line)

    return entry


def quoted(names: list[str], most: int = 10) -> str:
    """Names one after another, each in double quotes as JSON writes it, so that a name holding a comma reads as
    one ("Lind, Anna", "Boris Brandt"), the first ``most`` of them and how many more."""
    import json

    said = ", ".join(json.dumps(n, ensure_ascii=False) for n in names[:most])
    return said + (_(" and {n} more").format(n=len(names) - most) if len(names) > most else "")


def columns_said(listed: PlayerList) -> str:
    """How a list was read, in words: which header each column came from, and the columns ignored."""
    read = "; ".join(_("{what} from {header}").format(what=_(WHAT[what]), header=" + ".join(quoted([h]) for h in headers))
                     for what, headers in listed.columns.items())
    ignored = _("columns ignored: {headers}").format(headers=quoted(listed.ignored, most=20)) if listed.ignored \
        else _("no column ignored")
    return _("{source}: {read}; {ignored}").format(source=listed.source, read=read, ignored=ignored)


__all__ = ["MAX_BYTES", "MAX_NAME", "PlayerList", "PlayerListError", "Refused", "Registration", "accepted_names",
           "columns_said", "header_key", "quoted", "read_player_list"]
