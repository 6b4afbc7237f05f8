"""A tournament's own record: its events as JSON lines, beside its games' records (docs/format.md, "Tournament
records"), so that a whole tournament can be written out and brought into another store.

Line 1 is the tournament as created (``{"rollcall": 1, "record": "tournament", "tournament": NAME, "system": …,
"rounds", "notes", "points", "format"}``); each following line is one of its events in order (``seq``, ``type``, and the
event's fields: a registration, a check-in, a drop, a bye, a pairing, a round's time started, a broadcast delay, a format changed, a bonus or penalty). Export writes ``hash`` on
every line, chained as a game record's are; a file with hashes must verify, a file edited by hand without them is
taken as it is. Bringing a record in replays each event through the command that made it, so every rule of a new
write holds (a name registered twice, a round paired out of turn, a bad name is refused naming the line and the
field), and what the command makes must be what the line says."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from domain.errors import MalformedRecord, RollcallError
from domain.formats import FormatError, parse as parse_format
from domain.player_lists import Registration
from domain.record import FORMAT_VERSION, event_hash, header_hash, show
from domain.tournaments import Tournament, TournamentError
from i18n import _

RECORD = "tournament"  # the header's `record`: what kind of record the file is
SUFFIX = ".tournament.jsonl"
HEADER_FIELDS = {"rollcall", "record", "tournament", "system", "rounds", "notes", "points", "format", "hash"}


class TournamentRecordError(RollcallError):
    """A tournament record that cannot be brought in: the message names the file, the line and why."""


def record_lines(created: dict, events: Iterable[tuple[str, dict]]) -> list[dict]:
    """The record of a tournament: its creation's data and its events (type, data) in order, as lines with their
    hashes."""
    header = {"rollcall": FORMAT_VERSION, "record": RECORD, "tournament": created["name"], "system": created["system"],
              **{k: created[k] for k in ("rounds", "notes", "points", "format") if k in created}}
    header["hash"] = header_hash(header)
    lines, previous = [header], header["hash"]
    for seq, (kind, data) in enumerate(events, start=1):
        line = {"seq": seq, "type": kind, **{k: v for k, v in data.items() if k != "tournament"}}
        line["hash"] = previous = event_hash(previous, line)
        lines.append(line)
    return lines


def _field(line: dict, name: str, kind: type | tuple, *, optional: bool = False):
    value = line.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise MalformedRecord(_("field `{field}` is missing or not of its type ({value})").format(
            field=name, value=show(value)), field=name)
    return value


def _players(line: dict) -> list[Registration]:
    entries = []
    for i, entry in enumerate(_field(line, "players", list)):
        if not isinstance(entry, dict) or not isinstance(entry.get("player"), str):
            raise MalformedRecord(_("field `players[{i}]` is not a player").format(i=i), field=f"players[{i}]")
        entries.append(Registration(entry["player"], _field(entry, "faction", str, optional=True),
                                    _field(entry, "club", str, optional=True), entry.get("checked_in") is True))
    return entries


def _tables(line: dict) -> list:
    tables = _field(line, "tables", list)
    for i, table in enumerate(tables):
        where = f"tables[{i}]"
        if not isinstance(table, dict) or not isinstance(table.get("table"), int) or \
                not isinstance(table.get("game"), str) or not isinstance(table.get("players"), list) or \
                len(table["players"]) != 2 or not all(isinstance(p, dict) and isinstance(p.get("name"), str)
                                                      for p in table["players"]):
            raise MalformedRecord(_("field `{field}` is not a table (table, game, two players)").format(field=where),
                                  field=where)
    return tables


def _paired(tournament: Tournament, line: dict) -> dict:
    round_no = _field(line, "round", int)
    data = {"round": round_no, "tables": _tables(line), "bye": _field(line, "bye", str, optional=True),
            "seed": _field(line, "seed", int), "scenario": _field(line, "scenario", str, optional=True)}
    matches = _field(line, "matches", list, optional=True)
    if matches is not None:  # a team round: its team matches and bye team
        for i, match in enumerate(matches):
            if not isinstance(match, dict) or not isinstance(match.get("match"), int) or \
                    not isinstance(match.get("teams"), list) or len(match["teams"]) != 2 or \
                    not all(isinstance(t, str) for t in match["teams"]):
                raise MalformedRecord(_("field `{field}` is not a team match (match, two teams)").format(
                    field=f"matches[{i}]"), field=f"matches[{i}]")
        data.update(matches=matches, bye_team=_field(line, "bye_team", str, optional=True))
        players = _field(line, "bye_players", list, optional=True)
        if players is not None:
            if not all(isinstance(p, str) for p in players):
                raise MalformedRecord(_("field `{field}` is not a list of names").format(field="bye_players"),
                                      field="bye_players")
            data["bye_players"] = players
    return tournament.pair(data, played=round_no - 1)


def _matchups(tournament: Tournament, line: dict) -> dict:
    round_no, match_no, tables = _field(line, "round", int), _field(line, "match", int), _tables(line)
    rules = tournament.format.teams
    if rules is None:
        raise TournamentError(_("{name} is no team tournament: its record cannot hold a team match's matchups").format(
            name=tournament.name))
    tournament.check_matchups(round_no, match_no, [tuple(p["name"] for p in t["players"]) for t in tables], rules.size)
    return tournament.enter_matchups(round_no, match_no, tables, _field(line, "scenario", str, optional=True))


# each event type -> the command that makes it again from its line (every event of the Tournament aggregate has
# one: tests/unit/test_tournament_record.py holds the two lists to each other)
RESTORE: dict[str, Callable[[Tournament, dict], dict]] = {
    "ByeAwarded": lambda t, line: t.award_bye(_field(line, "round", int), _field(line, "player", str),
                                              _field(line, "faction", str, optional=True)),
    "PlayerRegistered": lambda t, line: t.register(_field(line, "player", str), _field(line, "faction", str, optional=True),
                                                   _field(line, "club", str, optional=True)),
    "PlayerListRegistered": lambda t, line: _listed(t, line),
    "PlayerCheckedIn": lambda t, line: t.check_in(_field(line, "player", str)),
    "PlayerDropped": lambda t, line: t.drop(_field(line, "player", str), _field(line, "after_round", int)),
    "RoundPaired": _paired,
    "MatchupsEntered": _matchups,
    "BroadcastDelaySet": lambda t, line: t.set_broadcast_delay(_field(line, "seconds", int)),
    "RoundStarted": lambda t, line: t.start_round(_field(line, "round", int), _field(line, "seconds", int),
                                                  _field(line, "at", str)),
    "FormatChanged": lambda t, line: t.change_format(parse_format(_field(line, "format", dict), "format"), None),
    "BonusAwarded": lambda t, line: t.award_bonus(_field(line, "player", str), _field(line, "points", int),
                                                  _field(line, "reason", str), _field(line, "round", int)),
}


def _listed(tournament: Tournament, line: dict) -> dict:
    entries = _players(line)
    already = tournament.plan(entries).already
    if already:
        raise TournamentError(_("{player} is already registered in {tournament}").format(
            player=already[0], tournament=tournament.name))
    done = tournament.register_list(entries)
    checked = _field(line, "checked_in", list, optional=True) or []
    if done.checked_in != checked:
        raise MalformedRecord(_("field `checked_in`: the players checked in by the list are {players}").format(
            players=", ".join(done.checked_in) or "-"), field="checked_in")
    return {"players": [{k: v for k, v in e.items() if k != "tournament"} for e in done.registered],
            **({"checked_in": checked} if checked else {})}


def restore(lines: Iterable[dict], source: str) -> Tournament:
    """The tournament a record's lines (numbered objects: domain.record.read_lines) make, each event replayed by
    its command; a TournamentRecordError naming ``source``, the line and why."""
    lines = list(lines)
    if not lines:
        raise TournamentRecordError(_("{source}: the record is empty: line 1 must be the tournament").format(
            source=source))
    number, header = lines[0].number, lines[0].obj
    try:
        tournament = _created(header)
    except RollcallError as exc:
        raise TournamentRecordError(f"{source}:{number}: {exc}") from None
    chain = _chained("", header, header_hash(header), source, number)
    for line in lines[1:]:
        number, obj = line.number, line.obj
        try:
            kind = obj.get("type")
            if obj.get("seq") not in (None, tournament.version):
                raise MalformedRecord(_("field `seq` is {given}; this event is seq {seq}").format(
                    given=show(obj.get("seq")), seq=tournament.version), field="seq")
            command = RESTORE.get(kind) if isinstance(kind, str) else None
            if command is None:
                raise MalformedRecord(_("unknown tournament event type `{type}` (known: {known})").format(
                    type=kind if isinstance(kind, str) else show(kind), known=", ".join(RESTORE)), field="type")
            made = {k: v for k, v in command(tournament, obj).items() if k != "tournament"}
            given = {k: v for k, v in obj.items() if k not in ("seq", "type", "hash")}
            if given != {k: v for k, v in made.items() if v is not None or k in given}:
                differ = sorted(k for k in set(given) | set(made) if given.get(k) != made.get(k))
                raise MalformedRecord(_("field `{field}`: the line says {given}, the event it makes says {made}").format(
                    field=differ[0], given=_short(given.get(differ[0])), made=_short(made.get(differ[0]))),
                    field=differ[0])
        except (MalformedRecord, TournamentError, FormatError) as exc:
            raise TournamentRecordError(f"{source}:{number}: {exc}") from None
        chain = _chained(chain, obj, event_hash(chain, obj), source, number)
    return tournament


def _short(value) -> str:
    said = show(value)
    return said if len(said) <= 80 else said[:79] + "…"


def _created(header: dict) -> Tournament:
    if header.get("rollcall") != FORMAT_VERSION or header.get("record") != RECORD:
        raise MalformedRecord(_("line 1 must be a tournament: `rollcall` {version} and `record` \"{record}\"").format(
            version=FORMAT_VERSION, record=RECORD), field="record")
    unknown = sorted(set(header) - HEADER_FIELDS)
    if unknown:
        raise MalformedRecord(_("unknown field `{field}` of a tournament").format(field=unknown[0]), field=unknown[0])
    return Tournament.create(_field(header, "tournament", str), _field(header, "system", str),
                             rounds=_field(header, "rounds", int, optional=True),
                             notes=_field(header, "notes", str, optional=True),
                             points=_field(header, "points", dict, optional=True),
                             format=_format(header))


def _format(header: dict):
    given = _field(header, "format", dict, optional=True)
    return None if given is None else parse_format(given, "format")


def _chained(chain: str, given: dict, ours: str, source: str, number: int) -> str:
    """The chain after a line (``ours``: its hash after the line before): a line that states its ``hash`` must
    match it (an edited line does not), else the record was changed after it was written."""
    stated = given.get("hash")
    if stated is None:
        return ours
    if stated != ours:
        raise TournamentRecordError(_("{where}: `hash` does not match the line: the record was changed after it was "
                                      "written. A record edited by hand is taken without its hashes: remove the "
                                      "`hash` field of every line (`rollcall tournament import --edited` does)").format(
            where=f"{source}:{number}"))
    return stated


__all__ = ["RECORD", "RESTORE", "SUFFIX", "TournamentRecordError", "record_lines", "restore"]
